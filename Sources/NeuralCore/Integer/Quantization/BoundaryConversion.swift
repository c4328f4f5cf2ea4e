import CNeuralKernels

// Boundary conversions: float32 model inputs to quantised activations and back.

public typealias QuantizeKernel<E: QuantizedActivation> = @Sendable (
    _ input: UnsafePointer<Float>, _ count: Int, _ params: QuantParams, _ output: UnsafeMutablePointer<E>
) -> Void

public typealias DequantizeKernel<E: QuantizedActivation> = @Sendable (
    _ input: UnsafePointer<E>, _ count: Int, _ params: QuantParams, _ output: UnsafeMutablePointer<Float>
) -> Void

/// `clamp(round(x / scale) + zp)` as `E`, rounding half away from zero: the reference.
public func quantizeScalar<E: QuantizedActivation>(
    _ src: UnsafePointer<Float>, _ count: Int, _ p: QuantParams, _ dst: UnsafeMutablePointer<E>
) {
    let inv = 1 / p.scale, zp = Float(p.zeroPoint)
    let lo = Float(E.min), hi = Float(E.max)
    for i in 0..<count {
        let v = (src[i] * inv).rounded() + zp
        dst[i] = E(truncatingIfNeeded: Int32(v < lo ? lo : (v > hi ? hi : v)))
    }
}

/// `scale · (q − zp)`: the reference.
public func dequantizeScalar<E: QuantizedActivation>(
    _ src: UnsafePointer<E>, _ count: Int, _ p: QuantParams, _ dst: UnsafeMutablePointer<Float>
) {
    for i in 0..<count { dst[i] = p.scale * Float(Int32(truncatingIfNeeded: src[i]) - p.zeroPoint) }
}

/// aarch64: `quantizeScalar`'s float operations in the same order on four lanes (`frinta`,
/// `fcvtzs`), eight values per step (CNeuralKernels).
public func quantizeNEON<E: QuantizedActivation>(
    _ src: UnsafePointer<Float>, _ count: Int, _ p: QuantParams, _ dst: UnsafeMutablePointer<E>
) {
    let raw = UnsafeMutableRawPointer(dst)
    if E.bitWidth == 8 {
        booth_quantize_s8(src, count, 1 / p.scale, Float(p.zeroPoint), raw.assumingMemoryBound(to: Int8.self))
    } else {
        booth_quantize_s16(src, count, 1 / p.scale, Float(p.zeroPoint), raw.assumingMemoryBound(to: Int16.self))
    }
}

/// aarch64: `dequantizeScalar` eight values per step (CNeuralKernels).
public func dequantizeNEON<E: QuantizedActivation>(
    _ src: UnsafePointer<E>, _ count: Int, _ p: QuantParams, _ dst: UnsafeMutablePointer<Float>
) {
    let raw = UnsafeRawPointer(src)
    if E.bitWidth == 8 {
        booth_dequantize_s8(raw.assumingMemoryBound(to: Int8.self), count, p.scale, p.zeroPoint, dst)
    } else {
        booth_dequantize_s16(raw.assumingMemoryBound(to: Int16.self), count, p.scale, p.zeroPoint, dst)
    }
}
