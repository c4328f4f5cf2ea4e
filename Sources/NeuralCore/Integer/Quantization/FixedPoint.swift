// Scalar fixed point: the reference, written as gemmlowp/TFLite define it.

/// gemmlowp `SaturatingRoundingDoublingHighMul`.
@inline(__always)
public func saturatingRoundingDoublingHighMul(_ a: Int32, _ b: Int32) -> Int32 {
    if a == b && a == Int32.min { return Int32.max }
    let ab = Int64(a) * Int64(b)
    let nudge: Int64 = ab >= 0 ? (1 << 30) : (1 - (1 << 30))
    return Int32(truncatingIfNeeded: (ab + nudge) / (1 << 31))
}

/// gemmlowp `RoundingDivideByPOT`: divide by 2^exponent, rounding half away from zero.
@inline(__always)
public func roundingDivideByPOT(_ x: Int32, _ exponent: Int32) -> Int32 {
    let mask: Int32 = (1 &<< exponent) &- 1
    let remainder = x & mask
    let threshold = (mask >> 1) + (x < 0 ? 1 : 0)
    return (x >> exponent) + (remainder > threshold ? 1 : 0)
}

/// TFLite `MultiplyByQuantizedMultiplier`.
@inline(__always)
public func multiplyByQuantizedMultiplier(_ x: Int32, _ m: Int32, _ left: Int32, _ right: Int32) -> Int32 {
    roundingDivideByPOT(saturatingRoundingDoublingHighMul(x &<< left, m), right)
}

@inline(__always)
public func multiplyByQuantizedMultiplier(_ x: Int32, _ m: FixedMultiplier) -> Int32 {
    multiplyByQuantizedMultiplier(x, m.multiplier, m.leftShift, m.rightShift)
}

/// Clamp an int32 into `[lo, hi]`.
@inline(__always)
func clamp32(_ x: Int32, _ lo: Int32, _ hi: Int32) -> Int32 {
    x < lo ? lo : (x > hi ? hi : x)
}
