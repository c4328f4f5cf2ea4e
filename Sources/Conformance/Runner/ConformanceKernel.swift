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
/// kernel's `shapes` gives). Outputs are fully allocated; the variant allocates nothing.
public struct ConformanceVariant: Sendable {
    public var name: String
    public var run: @Sendable (_ inputs: [Plane], _ outputs: [Plane]) -> Void

    public init(name: String, run: @escaping @Sendable (_ inputs: [Plane], _ outputs: [Plane]) -> Void) {
        self.name = name
        self.run = run
    }
}

/// A kernel as the conformance runner sees it: how its planes are shaped for a case's size,
/// its scalar reference, and the variants that must equal the reference bit for bit.
public struct ConformanceKernel: Sendable {
    public var name: String
    public var shapes: @Sendable (_ width: Int, _ height: Int) -> (inputs: [PlaneShape], outputs: [PlaneShape])
    public var reference: ConformanceVariant
    public var variants: [ConformanceVariant]

    public init(
        name: String,
        shapes: @escaping @Sendable (_ width: Int, _ height: Int) -> (inputs: [PlaneShape], outputs: [PlaneShape]),
        reference: ConformanceVariant,
        variants: [ConformanceVariant]
    ) {
        self.name = name
        self.shapes = shapes
        self.reference = reference
        self.variants = variants
    }
}
