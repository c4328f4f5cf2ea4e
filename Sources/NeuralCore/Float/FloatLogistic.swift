/// LOGISTIC on float32 values, the step an integer program runs where a model's LOGISTIC has a
/// float output (the segmentation masks): `out[i] = FloatMath.logistic(in[i])`.

import CNeuralKernels

/// Signature shared by the float LOGISTIC variants (`IntegerKernelSetOf.logistic`).
public typealias FloatLogisticKernel = @Sendable (
    _ input: UnsafePointer<Float>, _ count: Int, _ output: UnsafeMutablePointer<Float>
) -> Void

/// The reference: `FloatMath.logistic` one value at a time (out of line: inlined into a large
/// switch, its loop's register allocation moved with unrelated changes).
@inline(never)
public func logisticScalar(_ input: UnsafePointer<Float>, _ count: Int, _ output: UnsafeMutablePointer<Float>) {
    for i in 0..<count { output[i] = FloatMath.logistic(input[i]) }
}

/// aarch64: `booth_logistic_f32` (CNeuralKernels), `FloatMath.exp`'s float operations in the same
/// order on four lanes (`frintn`, `fcvtzs`, the exponent bits by `shl`, `fdiv`), so the same bits
/// as `logisticScalar`; elsewhere `logisticScalar`.
public func logisticNEON(_ input: UnsafePointer<Float>, _ count: Int, _ output: UnsafeMutablePointer<Float>) {
    guard booth_neon_available() != 0 else {
        logisticScalar(input, count, output)
        return
    }
    booth_logistic_f32(input, count, output)
}
