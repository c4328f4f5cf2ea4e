// SIMD fixed point, bit-identical to the scalar functions of `FixedPoint.swift`.

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
