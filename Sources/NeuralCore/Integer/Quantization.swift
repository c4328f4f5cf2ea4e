import CNeuralKernels

/// Quantisation parameters and fixed-point arithmetic of the integer path.
///
/// Conventions (the TFLite int8 scheme):
/// - activations: int8, asymmetric, per tensor: `real = scale * (q - zeroPoint)`;
/// - weights: int8, symmetric (zero point 0, values in -127...127), one scale per output channel;
/// - accumulators: int32; bias: int32 at scale `inputScale * weightScale[oc]`;
/// - requantisation: `real multiplier = multiplier * 2^(shift - 31)` with `multiplier` in
///   [2^30, 2^31), applied as TFLite's `MultiplyByQuantizedMultiplier`: a left shift,
///   a saturating rounding doubling high multiply, then a rounding (half away from zero)
///   right shift by a power of two.

/// The storage of quantised activations: `Int8` (asymmetric, the TFLite int8 scheme) or `Int16`
/// (symmetric, zero point 0: TFLite's "16x8" scheme). Every integer kernel is generic over it and
/// specialised for both; the accumulators stay int32 (see `IntegerProgram` for why that is safe).
public protocol QuantizedActivation: FixedWidthInteger, SignedInteger, SIMDScalar, Sendable {}
extension Int8: QuantizedActivation {}
extension Int16: QuantizedActivation {}

/// Per-tensor quantisation of an activation tensor: asymmetric int8, or symmetric int16.
public struct QuantParams: Sendable, Equatable {
    public var scale: Float
    public var zeroPoint: Int32

    public init(scale: Float, zeroPoint: Int32) {
        precondition(scale > 0 && zeroPoint >= -32768 && zeroPoint <= 32767)
        self.scale = scale
        self.zeroPoint = zeroPoint
    }

    /// Parameters covering `[min, max]` (widened to include 0 so that 0 is exact),
    /// with TFLite's zero-point nudging.
    public init(min lo: Float, max hi: Float) {
        var lo = lo < 0 ? lo : 0
        var hi = hi > 0 ? hi : 0
        if !(hi - lo > 1e-6) { lo = -1e-3; hi = 1e-3 }
        let scale = (hi - lo) / 255
        let zp = (-128 - lo / scale).rounded()
        self.scale = scale
        self.zeroPoint = Int32(zp < -128 ? -128 : (zp > 127 ? 127 : zp))
    }

    /// Symmetric int16 parameters covering `[min, max]`: zero point 0, `scale = max|x| / 32767`.
    public init(symmetric16 lo: Float, max hi: Float) {
        var m = -lo > hi ? -lo : hi
        if !(m > 1e-6) { m = 1e-3 }
        self.scale = m / 32767
        self.zeroPoint = 0
    }

    /// Parameters for `E` covering `[min, max]`: asymmetric for int8, symmetric for int16.
    public static func covering<E: QuantizedActivation>(min lo: Float, max hi: Float, as _: E.Type) -> QuantParams {
        E.bitWidth == 8 ? QuantParams(min: lo, max: hi) : QuantParams(symmetric16: lo, max: hi)
    }

    /// Real value → `E` (round half away from zero, saturating).
    @inline(__always)
    public func quantize<E: QuantizedActivation>(_ x: Float, as _: E.Type) -> E {
        let q = (x / scale).rounded() + Float(zeroPoint)
        let lo = Float(E.min), hi = Float(E.max)
        // Through Int32: the generic Float → E conversion is a slow library call.
        return E(truncatingIfNeeded: Int32(q < lo ? lo : (q > hi ? hi : q)))
    }

    @inline(__always)
    public func dequantize<E: QuantizedActivation>(_ q: E) -> Float {
        scale * Float(Int32(truncatingIfNeeded: q) - zeroPoint)
    }

    /// Real value → int8 (round half away from zero, saturating).
    @inline(__always)
    public func quantize(_ x: Float) -> Int8 {
        let q = (x / scale).rounded() + Float(zeroPoint)
        return Int8(q < -128 ? -128 : (q > 127 ? 127 : q))
    }

    @inline(__always)
    public func dequantize(_ q: Int8) -> Float {
        scale * Float(Int32(q) - zeroPoint)
    }

    /// The quantised value of a real number clamped to int8, as Int32 (for activation bounds).
    @inline(__always)
    public func quantizedBound(_ x: Float) -> Int32 {
        Int32(quantize(x))
    }
}

/// A real multiplier in fixed point: `real ≈ multiplier * 2^(shift - 31)`.
public struct FixedMultiplier: Sendable, Equatable {
    public var multiplier: Int32
    public var shift: Int32

    public init(multiplier: Int32, shift: Int32) {
        precondition(multiplier != Int32.min)
        self.multiplier = multiplier
        self.shift = shift
    }

    /// TFLite's `QuantizeMultiplier`: `real = m * 2^e`, `m` in [0.5, 1) as a Q31 value.
    /// Negative reals give a negative multiplier (never `Int32.min`). Zero gives 0.
    public init(_ real: Double) {
        if real == 0 || !real.isFinite {
            self.multiplier = 0
            self.shift = 0
            return
        }
        var m = real < 0 ? -real : real
        var e: Int32 = 0
        while m >= 1 { m *= 0.5; e += 1 }
        while m < 0.5 { m *= 2; e -= 1 }
        var q = (m * 2147483648.0).rounded()
        if q >= 2147483648.0 { q *= 0.5; e += 1 }
        if e < -31 { e = 0; q = 0 }
        if e > 30 { e = 30; q = 2147483647 }
        let qi = Int32(q)
        self.multiplier = real < 0 ? -qi : qi
        self.shift = e
    }

    /// The real value this multiplier represents.
    public var real: Double {
        Double(multiplier) * pow2(Int(shift) - 31)
    }

    public var leftShift: Int32 { shift > 0 ? shift : 0 }
    public var rightShift: Int32 { shift > 0 ? 0 : -shift }
}

@inline(__always)
func pow2(_ e: Int) -> Double {
    var r = 1.0
    if e >= 0 { for _ in 0..<e { r *= 2 } } else { for _ in 0..<(-e) { r *= 0.5 } }
    return r
}

// MARK: - Scalar fixed point (the reference, written as gemmlowp/TFLite define it)

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

// MARK: - SIMD fixed point (bit-identical to the scalar functions above)

/// Eight int32 lanes: the vector width all integer SIMD kernels are written in.
public typealias I32x8 = SIMD8<Int32>

/// Sign-extends lane by lane. Written as a loop on purpose: the generic
/// `SIMD(truncatingIfNeeded:)` initialisers are not always inlined, the loop is, and LLVM turns it
/// into one `vpmovsx*` / `sxtl`.
@inline(always)
func widen64(_ v: SIMD8<Int32>) -> SIMD8<Int64> {
    var r = SIMD8<Int64>()
    for i in 0..<8 { r[i] = Int64(v[i]) }
    return r
}

@inline(always)
func narrow32(_ v: SIMD8<Int64>) -> SIMD8<Int32> {
    var r = SIMD8<Int32>()
    for i in 0..<8 { r[i] = Int32(truncatingIfNeeded: v[i]) }
    return r
}

@inline(always)
func widen16to32(_ v: SIMD8<Int16>) -> SIMD8<Int32> {
    var r = SIMD8<Int32>()
    for i in 0..<8 { r[i] = Int32(v[i]) }
    return r
}

@inline(always)
func widen16to32(_ v: SIMD16<Int16>) -> SIMD16<Int32> {
    var r = SIMD16<Int32>()
    for i in 0..<16 { r[i] = Int32(v[i]) }
    return r
}

@inline(always)
func widen8to16(_ v: SIMD16<Int8>) -> SIMD16<Int16> {
    var r = SIMD16<Int16>()
    for i in 0..<16 { r[i] = Int16(v[i]) }
    return r
}

@inline(always)
func widen8to32(_ v: SIMD8<Int8>) -> SIMD8<Int32> {
    var r = SIMD8<Int32>()
    for i in 0..<8 { r[i] = Int32(v[i]) }
    return r
}

/// Saturate int32 lanes to int8 (inputs are already clamped to the activation range, so this
/// is a plain truncation in practice).
@inline(always)
func narrow8(_ v: SIMD8<Int32>) -> SIMD8<Int8> {
    var r = SIMD8<Int8>()
    for i in 0..<8 { r[i] = Int8(truncatingIfNeeded: v[i]) }
    return r
}

/// Sign-extends eight activations of either width (a loop, for the reason given at `widen64`).
@inline(always)
func widen32<E: QuantizedActivation>(_ v: SIMD8<E>) -> I32x8 {
    var r = I32x8()
    for i in 0..<8 { r[i] = Int32(truncatingIfNeeded: v[i]) }
    return r
}

/// Truncates int32 lanes to `E` (callers have clamped them to `E`'s range).
@inline(always)
func narrow<E: QuantizedActivation>(_ v: I32x8) -> SIMD8<E> {
    var r = SIMD8<E>()
    for i in 0..<8 { r[i] = E(truncatingIfNeeded: v[i]) }
    return r
}

/// Eight activations at `p`, sign-extended.
@inline(always)
func load8<E: QuantizedActivation>(_ p: UnsafePointer<E>) -> I32x8 {
    widen32(UnsafeRawPointer(p).loadUnaligned(as: SIMD8<E>.self))
}

/// Stores eight clamped int32 lanes as `E` at `p`.
@inline(always)
func store8<E: QuantizedActivation>(_ v: I32x8, _ p: UnsafeMutablePointer<E>) {
    UnsafeMutableRawPointer(p).storeBytes(of: narrow(v) as SIMD8<E>, as: SIMD8<E>.self)
}

/// Sixteen activations (or int16 filter taps) at `p`, sign-extended. Element reads, not
/// `loadUnaligned(as: SIMD16<E>.self)`, which Swift 6.3 leaves out of line in large kernel bodies;
/// LLVM joins them into one `vpmovsx*` (or `ld1` + `sxtl`).
@inline(always)
func load16<E: QuantizedActivation>(_ p: UnsafePointer<E>) -> SIMD16<Int32> {
    var r = SIMD16<Int32>()
    for i in 0..<16 { r[i] = Int32(truncatingIfNeeded: p[i]) }
    return r
}

/// Sixteen int32 values at `p` (element reads, for the reason given at `load16`).
@inline(always)
func load16(_ p: UnsafePointer<Int32>) -> SIMD16<Int32> {
    var r = SIMD16<Int32>()
    for i in 0..<16 { r[i] = p[i] }
    return r
}

/// Stores sixteen lanes, already clamped to `E`'s range, as `E` (one narrowing store).
@inline(always)
func store16<E: QuantizedActivation>(_ v: SIMD16<Int32>, _ p: UnsafeMutablePointer<E>) {
    for i in 0..<16 { p[i] = E(truncatingIfNeeded: v[i]) }
}

@inline(always)
func vmin(_ a: I32x8, _ b: I32x8) -> I32x8 { a.replacing(with: b, where: b .< a) }
@inline(always)
func vmax(_ a: I32x8, _ b: I32x8) -> I32x8 { a.replacing(with: b, where: b .> a) }

/// SaturatingRoundingDoublingHighMul for multipliers `b != Int32.min` (always true for a
/// `FixedMultiplier`): then `(a*b + 2^30) >> 31` equals gemmlowp's nudged truncating division
/// (for negative products, truncation toward zero of `ab + 1 - 2^30` is the floor of
/// `ab + 2^30`), and no saturation case exists.
@inline(always)
func srdhm(_ a: I32x8, _ b: I32x8) -> I32x8 {
#if arch(x86_64)
    // Even and odd lanes as the sign-extended halves of 64-bit lanes: two `vpmuldq` with no
    // widening shuffles. Even products land in the low dwords after `>> 31`, odd ones in the
    // high dwords after `<< 1`; a `vpblendd` joins them. Same bits as the widening form below.
    let a64 = unsafeBitCast(a, to: SIMD4<Int64>.self), b64 = unsafeBitCast(b, to: SIMD4<Int64>.self)
    let pe = ((a64 &<< 32) &>> 32) &* ((b64 &<< 32) &>> 32) &+ Int64(1 << 30)
    let po = (a64 &>> 32) &* (b64 &>> 32) &+ Int64(1 << 30)
    let re = unsafeBitCast(unsafeBitCast(pe, to: SIMD4<UInt64>.self) &>> 31, to: SIMD4<Int64>.self)
    let ro = po &<< 1
    let low = SIMD4<Int64>(repeating: 0xFFFF_FFFF)
    return unsafeBitCast((re & low) | (ro & ~low), to: I32x8.self)
#else
    let p = widen64(a) &* widen64(b) &+ Int64(1 << 30)
    return narrow32(p &>> 31)
#endif
}

@inline(always)
func roundingDivideByPOT(_ x: I32x8, _ exponent: I32x8) -> I32x8 {
    let mask = (I32x8(repeating: 1) &<< exponent) &- 1
    let remainder = x & mask
    let threshold = (mask &>> 1) &- (x &>> 31)
    let up = I32x8(repeating: 0).replacing(with: 1, where: remainder .> threshold)
    return (x &>> exponent) &+ up
}

/// Vector `MultiplyByQuantizedMultiplier` with per-lane multipliers and shifts.
@inline(always)
func multiplyByQuantizedMultiplier(_ x: I32x8, _ m: I32x8, _ left: I32x8, _ right: I32x8) -> I32x8 {
    roundingDivideByPOT(srdhm(x &<< left, m), right)
}

/// Output stage of a convolution-like op, per output channel `c`:
/// `clamp(MBQM(acc + bias[c], m[c]) + zeroPoint, minimum, maximum)`.
/// Storage is allocated once at load, padded with neutral entries to a multiple of 16 channels so
/// SIMD loads never run past the end.
public final class OutputStage {
    public let channels: Int
    public let paddedChannels: Int
    let bias: UnsafeMutablePointer<Int32>
    let multiplier: UnsafeMutablePointer<Int32>
    let leftShift: UnsafeMutablePointer<Int32>
    let rightShift: UnsafeMutablePointer<Int32>
    /// The same per 8 channels as vectors: bias, multiplier, left shift, right shift.
    let vectors: UnsafeMutablePointer<I32x8>
    public let outputZeroPoint: Int32
    /// Quantised activation bounds (fused RELU/RELU6 or the full int8 range).
    public let minimum: Int32
    public let maximum: Int32
    /// Per 16 channels, the constants of the fused 16-lane stage (`StageRegisters`).
    let groups: UnsafeMutablePointer<OutputStageGroup>
    /// Some channel has a left shift (otherwise `StageRegisters` skips the shift).
    let hasLeftShift: Bool
    /// The output zero point is folded into `OutputStageGroup.round` (otherwise added after).
    let zeroPointFolded: Bool
    /// Every channel's shifts are in `0...31`, the range the fused stage is exact for (always
    /// true for a `FixedMultiplier(real)`); otherwise the GEMM uses the 8-lane `applyStage`.
    let fusedExact: Bool

    public init(bias: [Int32], multipliers: [FixedMultiplier], outputZeroPoint: Int32,
                minimum: Int32 = -128, maximum: Int32 = 127) {
        precondition(bias.count == multipliers.count && minimum <= maximum)
        channels = bias.count
        paddedChannels = (bias.count + 15) / 16 * 16
        self.bias = .allocate(capacity: paddedChannels)
        multiplier = .allocate(capacity: paddedChannels)
        leftShift = .allocate(capacity: paddedChannels)
        rightShift = .allocate(capacity: paddedChannels)
        for c in 0..<paddedChannels {
            let real = c < channels
            self.bias[c] = real ? bias[c] : 0
            multiplier[c] = real ? multipliers[c].multiplier : 0
            leftShift[c] = real ? multipliers[c].leftShift : 0
            rightShift[c] = real ? multipliers[c].rightShift : 0
        }
        self.outputZeroPoint = outputZeroPoint
        self.minimum = minimum
        self.maximum = maximum
        vectors = .allocate(capacity: paddedChannels / 2)
        for g in 0..<(paddedChannels / 8) {
            var b = I32x8(), m = I32x8(), l = I32x8(), r = I32x8()
            for i in 0..<8 {
                b[i] = self.bias[g * 8 + i]; m[i] = multiplier[g * 8 + i]
                l[i] = leftShift[g * 8 + i]; r[i] = rightShift[g * 8 + i]
            }
            (vectors + g * 4).initialize(to: b)
            (vectors + g * 4 + 1).initialize(to: m)
            (vectors + g * 4 + 2).initialize(to: l)
            (vectors + g * 4 + 3).initialize(to: r)
        }
        var anyLeft = false, exact = true, fold = true
        for c in 0..<paddedChannels {
            let l = leftShift[c], e = rightShift[c]
            if l != 0 { anyLeft = true }
            if l < 0 || l > 31 || e < 0 || e > 31 { exact = false; continue }
            // |y| ≤ 2^62 − 2^31 (a 32×32-bit product); `y + round` must not overflow, so the
            // rounding constant with the zero point folded in must stay within 2^62 − 2^32
            // (without it, 2^30 + 2^61 always does).
            let round = pow2(30) + (e >= 1 ? pow2(30 + Int(e)) : 0)
                + Double(outputZeroPoint.magnitude) * pow2(31 + Int(e))
            if !(round <= pow2(62) - pow2(32)) { fold = false }
        }
        hasLeftShift = anyLeft
        fusedExact = exact
        zeroPointFolded = fold
        groups = .allocate(capacity: paddedChannels / 16)
        for g in 0..<(paddedChannels / 16) {
            var grp = OutputStageGroup()
            for i in 0..<16 {
                let c = g * 16 + i
                grp.bias[i] = self.bias[c]
                grp.left[i] = leftShift[c] & 31
                grp.multiplier[i] = multiplier[c]
                let e = Int64(rightShift[c] & 31)
                var round: Int64 = 1 << 30
                if e >= 1 { round += 1 << (30 + e) }
                if fold { round += Int64(outputZeroPoint) << (31 + e) }
                let lane = i / 2
                if i & 1 == 0 {
                    grp.roundEven[lane] = round
                    grp.negativeEven[lane] = e >= 1 ? 1 << 31 : 0
                    grp.shiftEven[lane] = 31 + e
                } else {
                    grp.roundOdd[lane] = round
                    grp.negativeOdd[lane] = e >= 1 ? 1 << 31 : 0
                    grp.shiftOdd[lane] = 31 + e
                }
            }
            (groups + g).initialize(to: grp)
        }
    }

    deinit {
        groups.deallocate()
        vectors.deallocate()
        bias.deallocate()
        multiplier.deallocate()
        leftShift.deallocate()
        rightShift.deallocate()
    }

    /// The stage as CNeuralKernels' `booth_output_stage` (pointers into this object: valid while
    /// it lives).
    var neonStage: booth_output_stage {
        booth_output_stage(bias: UnsafePointer(bias), multiplier: UnsafePointer(multiplier),
                           left_shift: UnsafePointer(leftShift), right_shift: UnsafePointer(rightShift),
                           zero_point: outputZeroPoint, minimum: minimum, maximum: maximum)
    }

    /// Scalar output stage for channel `c` (`minimum...maximum` lie in `E`'s range).
    @inline(__always)
    func apply<E: QuantizedActivation>(_ acc: Int32, channel c: Int) -> E {
        let v = multiplyByQuantizedMultiplier(acc &+ bias[c], multiplier[c], leftShift[c], rightShift[c])
        return E(truncatingIfNeeded: clamp32(v &+ outputZeroPoint, minimum, maximum))
    }

}

/// SIMD output stage for channels `c ..< c+8` of `stage` (c + 8 <= paddedChannels). A free
/// transparent function so that it is always inlined into the kernels' loops.
@_transparent
func applyStage<E: QuantizedActivation>(_ stage: OutputStage, _ acc: I32x8, channel c: Int) -> SIMD8<E> {
    let v8 = stage.vectors + (c >> 3) * 4
    var v = multiplyByQuantizedMultiplier(acc &+ v8[0], v8[1], v8[2], v8[3]) &+ stage.outputZeroPoint
    v = vmax(v, I32x8(repeating: stage.minimum))
    v = vmin(v, I32x8(repeating: stage.maximum))
    return narrow(v)
}


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

/// The output stage of 16 channels with every constant in registers: `OutputStageGroup` and the
/// stage's scalars, loaded once per block of a GEMM so that the per-row work is vector
/// arithmetic only. `apply` expects accumulators that already hold the bias.
///
/// Equal to `OutputStage.apply` lane by lane: with `y = (acc << left) · m` (64-bit, |y| < 2^62)
/// the reference computes `s = ⌊(y + 2^30) / 2^31⌋` (gemmlowp's doubling high multiply for
/// `m ≠ Int32.min`), then `⌊(s + 2^(e−1) − [s < 0]) / 2^e⌋` for `e ≥ 1` (rounding half away from
/// zero) and `s` for `e = 0`. Nested floors of integer quotients merge:
/// `⌊(⌊z / 2^31⌋ + c) / 2^e⌋ = ⌊(z + c·2^31) / 2^(31+e)⌋`, so the result is
/// `(y + 2^30 + 2^(30+e) − [s < 0]·2^31) >> (31+e)` — one rounding constant and one 64-bit
/// arithmetic shift. `[s < 0]` may be replaced by `[y < 0]`: they differ only for
/// `y ∈ [−2^30, 0)`, where `s = 0` and both forms give 0 (`e ≥ 1`). Adding `zp·2^(31+e)` adds the
/// zero point exactly (wrapping to int32 afterwards as the reference's `&+` does).
/// Requires `stage.fusedExact`.
struct StageRegisters {
    let group: OutputStageGroup
    let leftShift: Bool
    let zeroPoint: I32x16
    let minimum: I32x16
    let maximum: I32x16

    @inline(always)
    init(_ stage: OutputStage, group g: Int) {
        group = stage.groups[g]
        leftShift = stage.hasLeftShift
        zeroPoint = I32x16(repeating: stage.zeroPointFolded ? 0 : stage.outputZeroPoint)
        minimum = I32x16(repeating: stage.minimum)
        maximum = I32x16(repeating: stage.maximum)
    }

    /// Requantised lanes, clamped (not narrowed).
    @inline(always)
    func apply(_ acc: I32x16) -> I32x16 {
        var v = requantize(acc)
        // Only the stdlib's concrete (builtin) 16-lane operations: `replacing(with:where:)`,
        // `&` and `|` are generic lane loops that LLVM vectorised only partly for 16 lanes
        // (per-lane selects and stores). `v + (v − bound)·m` with `m` the comparison's −1/0
        // lanes is `bound` where `m` is set; LLVM folds it into `vpmaxsd`/`vpminsd`.
        v = v &+ (v &- minimum) &* (v .< minimum)._storage
        v = v &+ (v &- maximum) &* (v .> maximum)._storage
        return v
    }

    /// Requantised lanes, before the clamp.
    @inline(always)
    func requantize(_ acc: I32x16) -> I32x16 {
        var x = acc
        if leftShift { x = x &<< group.left }
        let x64 = unsafeBitCast(x, to: SIMD8<Int64>.self)
        let m64 = unsafeBitCast(group.multiplier, to: SIMD8<Int64>.self)
        // Even lanes: the sign-extended low halves (`vpmuldq`); odd lanes: the high halves.
        let ye = ((x64 &<< 32) &>> 32) &* ((m64 &<< 32) &>> 32)
        let yo = (x64 &>> 32) &* (m64 &>> 32)
        var te = ye &+ group.roundEven
        var to = yo &+ group.roundOdd
        // Arithmetic, not `replacing(with:where: y .< 0)`: comparisons with a scalar become lane
        // loops through memory.
        te &-= group.negativeEven & (ye &>> 63)
        to &-= group.negativeOdd & (yo &>> 63)
        te = te &>> group.shiftEven
        to = to &>> group.shiftOdd
        let low = SIMD8<Int64>(repeating: 0xFFFF_FFFF)
        return unsafeBitCast((te & low) | (to &<< 32), to: I32x16.self) &+ zeroPoint
    }
}

/// Fused activation of a TFLite op, mapped into the quantised output domain.
public enum FusedActivation: Sendable, Equatable {
    case none, relu, relu6, reluN1To1

    /// `(min, max)` in quantised int8 output units.
    public func bounds(_ q: QuantParams) -> (Int32, Int32) {
        bounds(q, as: Int8.self)
    }

    /// `(min, max)` in quantised output units of `E`.
    public func bounds<E: QuantizedActivation>(_ q: QuantParams, as e: E.Type) -> (Int32, Int32) {
        let lo = Int32(E.min), hi = Int32(E.max)
        func bound(_ x: Float) -> Int32 { Int32(q.quantize(x, as: e)) }
        switch self {
        case .none: return (lo, hi)
        case .relu: return (max(lo, q.zeroPoint), hi)
        case .relu6: return (max(lo, q.zeroPoint), bound(6))
        case .reluN1To1: return (bound(-1), bound(1))
        }
    }
}

// MARK: - Boundary conversions (float32 model inputs and outputs)

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
