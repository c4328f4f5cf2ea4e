/// Sixteen int32 lanes: one AVX-512 register, four NEON ones.
public typealias I32x16 = SIMD16<Int32>

/// The constants of `StageRegisters` for 16 channels. 64-bit fields are split by lane parity:
/// `…Even` holds channels 0, 2, …, 14 and `…Odd` channels 1, 3, …, 15 (the even and odd int32
/// lanes of a 16-channel vector seen as 8 int64 lanes). The 32-bit fields are in channel order.
struct OutputStageGroup {
    var bias = I32x16()
    var left = I32x16()
    var multiplier = I32x16()
    /// `2^30 + (e ≥ 1 ? 2^(30+e) : 0) + zeroPoint · 2^(31+e)` (the zero point when folded).
    var roundEven = SIMD8<Int64>(), roundOdd = SIMD8<Int64>()
    /// `e ≥ 1 ? 2^31 : 0`: subtracted from negative products.
    var negativeEven = SIMD8<Int64>(), negativeOdd = SIMD8<Int64>()
    /// `31 + e`.
    var shiftEven = SIMD8<Int64>(), shiftOdd = SIMD8<Int64>()
}
