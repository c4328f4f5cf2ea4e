/// Per-tensor quantisation of an activation tensor: asymmetric int8, or symmetric int16.
///
/// Conventions (the TFLite int8 scheme):
/// - activations: int8, asymmetric, per tensor: `real = scale * (q - zeroPoint)`;
/// - weights: int8, symmetric (zero point 0, values in -127...127), one scale per output channel;
/// - accumulators: int32; bias: int32 at scale `inputScale * weightScale[oc]`;
/// - requantisation: `real multiplier = multiplier * 2^(shift - 31)` with `multiplier` in
///   [2^30, 2^31), applied as TFLite's `MultiplyByQuantizedMultiplier`: a left shift,
///   a saturating rounding doubling high multiply, then a rounding (half away from zero)
///   right shift by a power of two (`FixedMultiplier`, `FixedPoint.swift`, `FixedPointSIMD.swift`).
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
