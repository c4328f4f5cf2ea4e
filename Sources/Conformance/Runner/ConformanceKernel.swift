import ImageCore

/// The size of one plane a kernel reads or writes in a case.
public struct PlaneShape: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var bytesPerPixel: Int

    public init(width: Int, height: Int, bytesPerPixel: Int) {
        self.width = width
        self.height = height
        self.bytesPerPixel = bytesPerPixel
    }
}

/// One implementation of a kernel: reads `inputs`, writes `outputs` (planes in the order the
/// kernel's instance gives). Outputs are fully allocated; the variant allocates nothing.
/// `@unchecked Sendable`: the closure captures a case's parameters (packed weights, tables:
/// classes the cores do not mark Sendable); the runner builds and calls it on one thread.
public struct ConformanceVariant: @unchecked Sendable {
    public var name: String
    public var run: (_ inputs: [Plane], _ outputs: [Plane]) -> Void

    public init(name: String, run: @escaping (_ inputs: [Plane], _ outputs: [Plane]) -> Void) {
        self.name = name
        self.run = run
    }
}

/// A kernel configured for one case: its seeded inputs, the shapes of its outputs, its scalar
/// reference and the variants that must equal the reference bit for bit. Parameters (weights,
/// quantisation, geometry) live in the variants' closures.
public struct ConformanceInstance {
    public var inputs: [TestPlane]
    public var outputs: [PlaneShape]
    /// Extra bytes per output row (odd values give odd strides).
    public var outputSlack: Int
    public var reference: ConformanceVariant
    public var variants: [ConformanceVariant]

    public init(inputs: [TestPlane], outputs: [PlaneShape], outputSlack: Int = 0,
                reference: ConformanceVariant, variants: [ConformanceVariant]) {
        self.inputs = inputs
        self.outputs = outputs
        self.outputSlack = outputSlack
        self.reference = reference
        self.variants = variants
    }
}

/// A kernel as the conformance runner sees it: its cases, and how to build an instance of it for
/// one case from a seeded generator (the same on every architecture).
public struct ConformanceKernel: Sendable {
    public var name: String
    public var cases: [ConformanceCase]
    /// The case `scripts/arm/icount` measures.
    public var benchCase: ConformanceCase
    /// Names of the variants (reference first), for listings.
    public var variantNames: [String]
    public var instantiate: @Sendable (_ c: ConformanceCase, _ random: inout ConformanceRandom) -> ConformanceInstance

    public init(name: String, cases: [ConformanceCase], benchCase: ConformanceCase, variantNames: [String],
                instantiate: @escaping @Sendable (_ c: ConformanceCase, _ random: inout ConformanceRandom) -> ConformanceInstance) {
        self.name = name
        self.cases = cases
        self.benchCase = benchCase
        self.variantNames = variantNames
        self.instantiate = instantiate
    }

    /// An image kernel: planes shaped from the case's width and height, every byte seeded, the
    /// case's slack on every input and output row.
    public init(
        name: String,
        shapes: @escaping @Sendable (_ width: Int, _ height: Int) -> (inputs: [PlaneShape], outputs: [PlaneShape]),
        reference: ConformanceVariant,
        variants: [ConformanceVariant],
        cases: [ConformanceCase] = ConformanceCase.standard,
        benchCase: ConformanceCase = ConformanceCase(width: 320, height: 240, slack: 0)
    ) {
        self.init(name: name, cases: cases, benchCase: benchCase,
                  variantNames: [reference.name] + variants.map { $0.name }) { c, random in
            let s = shapes(c.width, c.height)
            let inputs = s.inputs.map { p in
                TestPlane(width: p.width, height: p.height, bytesPerPixel: p.bytesPerPixel, slack: c.slack, random: &random)
            }
            return ConformanceInstance(inputs: inputs, outputs: s.outputs, outputSlack: c.slack,
                                       reference: reference, variants: variants)
        }
    }
}
