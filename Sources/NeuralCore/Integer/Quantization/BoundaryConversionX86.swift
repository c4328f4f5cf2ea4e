/// x86-64 with AVX2: the boundary conversions in C (`booth_x86_quantize_s8`/`_s16`,
/// `booth_x86_dequantize_s8`/`_s16`, CNeuralKernels' neural_kernels_x86.c), sixteen (eight) values
/// per step with `quantizeScalar`'s / `dequantizeScalar`'s float operations in the same order:
/// the product by 1/scale, rounding half away from zero (truncation, then ±1 where the exact
/// remainder is at least a half), the zero point, the clamp, a truncating conversion. The same
/// bytes (`BoundaryConversionTests`). In the integer programs these convert at every float
/// island's edges (the detector's and iris's float runs), where the scalar loops took 7–12 % of
/// the run. Without AVX2 in the build: the scalar references.

import CNeuralKernels

public func quantizeX86<E: QuantizedActivation>(
    _ src: UnsafePointer<Float>, _ count: Int, _ p: QuantParams, _ dst: UnsafeMutablePointer<E>
) {
#if arch(x86_64)
    let raw = UnsafeMutableRawPointer(dst)
    let done = E.bitWidth == 8
        ? booth_x86_quantize_s8(src, count, 1 / p.scale, Float(p.zeroPoint), raw.assumingMemoryBound(to: Int8.self))
        : booth_x86_quantize_s16(src, count, 1 / p.scale, Float(p.zeroPoint), raw.assumingMemoryBound(to: Int16.self))
    if done == 0 { quantizeScalar(src, count, p, dst) }
#else
    quantizeScalar(src, count, p, dst)
#endif
}

public func dequantizeX86<E: QuantizedActivation>(
    _ src: UnsafePointer<E>, _ count: Int, _ p: QuantParams, _ dst: UnsafeMutablePointer<Float>
) {
#if arch(x86_64)
    let raw = UnsafeRawPointer(src)
    let done = E.bitWidth == 8
        ? booth_x86_dequantize_s8(raw.assumingMemoryBound(to: Int8.self), count, p.scale, p.zeroPoint, dst)
        : booth_x86_dequantize_s16(raw.assumingMemoryBound(to: Int16.self), count, p.scale, p.zeroPoint, dst)
    if done == 0 { dequantizeScalar(src, count, p, dst) }
#else
    dequantizeScalar(src, count, p, dst)
#endif
}
