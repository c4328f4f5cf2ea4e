/// The integer kernels, one entry per variant, in one table that the interpreter, the tests and
/// the benchmarks all iterate. Variants share a signature and must produce identical bytes.
public struct IntegerKernelSet: Sendable {
    public let name: StaticString
    public let gemm: GEMMKernel
    public let depthwise: DepthwiseKernel
    public let elementwise: ElementwiseKernel
    public let requantize: RequantizeKernel
    public let pool: PoolKernel
    public let mean: MeanKernel
    public let lookup: LookupKernel
    public let prelu: PReLUKernel
    public let resize: ResizeKernel
}

public enum IntegerKernels {
    /// Plain scalar loops: the reference.
    public static let scalar = IntegerKernelSet(
        name: "scalar", gemm: gemmScalar, depthwise: depthwiseScalar,
        elementwise: elementwiseScalar, requantize: requantizeScalar, pool: poolScalar,
        mean: meanScalar, lookup: lookupScalar, prelu: preluScalar, resize: resizeBilinearScalar)

    /// Swift `SIMD` vectors (SSE/AVX2/AVX-512 on x86, NEON on aarch64).
    public static let simd = IntegerKernelSet(
        name: "simd", gemm: gemmSIMD, depthwise: depthwiseSIMD, elementwise: elementwiseSIMD,
        requantize: requantizeSIMD, pool: poolSIMD, mean: meanSIMD, lookup: lookupUnrolled,
        prelu: preluSIMD, resize: resizeBilinearSIMD)

    /// Every variant; the first is the reference.
    public static let all: [IntegerKernelSet] = [scalar, simd]

    /// Set before building an interpreter to force the scalar path (debugging, bisecting).
    nonisolated(unsafe) public static var forceScalar = false

    /// The set an interpreter uses.
    public static var active: IntegerKernelSet { forceScalar ? scalar : simd }
}
