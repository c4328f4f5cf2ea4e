/// The kernels an `Interpreter` runs, chosen once and handed to it at construction, the way
/// XNNPACK's `configs/` pick microkernels from the hardware flags at initialisation: the integer
/// path's int8 and int16 tables and the float path's convolution loops. Nothing global decides it
/// later, so interpreters with different choices (a test's scalar reference beside the SIMD set)
/// can run side by side.
public struct InterpreterKernels: Sendable {
    public var name: StaticString
    /// The kernels of the int8-activation path.
    public var int8: IntegerKernelSetOf<Int8>
    /// The kernels of the int16-activation path (the same variant family as `int8`).
    public var int16: IntegerKernelSetOf<Int16>
    /// The float path's convolutions use their SIMD loops (false: the scalar reference loops).
    public var floatSIMD: Bool
    /// The integer program runs an int8 ADD and the PRELU that is its only reader as one step
    /// (`IntegerStep.addPReLU`); false: the two steps (the same bytes; for tests and counts).
    public var fusesAddPReLU = true

    public init(name: StaticString, int8: IntegerKernelSetOf<Int8>, int16: IntegerKernelSetOf<Int16>,
                floatSIMD: Bool) {
        self.name = name
        self.int8 = int8
        self.int16 = int16
        self.floatSIMD = floatSIMD
    }

    /// Plain scalar loops on both paths: the reference (debugging, bisecting, conformance).
    public static let scalar = InterpreterKernels(name: "scalar", int8: IntegerKernels.scalar,
                                                  int16: IntegerKernels.scalar16, floatSIMD: false)

    /// Every variant `features` can run, the reference first and the fastest last (one per int8
    /// set of `IntegerKernels.sets(for:)`, each with the int16 set of its family).
    public static func all(for features: CPUFeatures) -> [InterpreterKernels] {
        var sets = [scalar, InterpreterKernels(name: "simd", int8: IntegerKernels.simd, int16: IntegerKernels.simd16,
                                               floatSIMD: true)]
#if arch(x86_64)
        if features.avx2 {
            sets.append(InterpreterKernels(name: "avx2", int8: IntegerKernels.avx2, int16: IntegerKernels.avx2_16,
                                           floatSIMD: true))
            if features.avx512vnni {
                sets.append(InterpreterKernels(name: "avx512", int8: IntegerKernels.avx512, int16: IntegerKernels.avx512_16,
                                               floatSIMD: true))
            }
        }
#endif
        if features.neon {
            sets.append(InterpreterKernels(name: "neon", int8: IntegerKernels.neon, int16: IntegerKernels.neon16,
                                           floatSIMD: true))
            if features.dotProduct {
                sets.append(InterpreterKernels(name: "neon-dot", int8: IntegerKernels.neonDot,
                                               int16: IntegerKernels.neonDot16, floatSIMD: true))
            }
        }
        return sets
    }

    /// The fastest kernels for `features`.
    public static func best(for features: CPUFeatures) -> InterpreterKernels {
        all(for: features)[all(for: features).count - 1]
    }

    /// The fastest kernels this CPU runs (`CPUFeatures.current`, read once from `AT_HWCAP`): what an
    /// interpreter uses unless told otherwise.
    public static let native = best(for: .current)
}
