/// Float model-input values rounded to an integer model's input slot, as NeuralCore's quantise
/// kernels round them (`quantizeScalar`: `v = (x · (1 / scale)).rounded() + zeroPoint`, rounding
/// half away from zero, clamped to the slot type's range, converted), so a sampler that writes
/// the quantised slot directly gives the bits of its float output followed by the model's
/// quantise pass. VisionKernels does not depend on NeuralCore: the slot's scale and zero point
/// come from the caller (`Interpreter.quantizedInput`).
///
/// `quantize8` is the same arithmetic in lanes, without library calls (no vector rounding
/// instruction on x86-64): |y| is clamped to 65536 (beyond it every value saturates either way,
/// since |zeroPoint| ≤ 32768), `(a + 2²³) − 2²³` rounds it to the nearest integer exactly, one
/// subtraction where that rounded up gives ⌊a⌋, and one addition where `a − ⌊a⌋ ≥ ½` rounds half
/// away from zero; the sign goes back, the zero point is added and the clamp applied in float
/// (all exact on integers), and the integer comes out of the mantissa of `v + 1.5·2²³`. Every
/// step is exact, so the lanes equal the scalar reference on every finite input.
struct QuantizeLanes {
    let inverse: Float
    let zeroPoint: Float
    let min: Float, max: Float

    init(scale: Float, zeroPoint: Int32, min: Float, max: Float) {
        precondition(scale > 0, "quantised input: the scale must be positive")
        inverse = 1 / scale
        self.zeroPoint = Float(zeroPoint)
        self.min = min
        self.max = max
    }

    /// The reference: `quantizeScalar`'s expression, as an Int32.
    @inline(__always)
    func quantize(_ x: Float) -> Int32 {
        let v = (x * inverse).rounded() + zeroPoint
        return Int32(v < min ? min : (v > max ? max : v))
    }

    @inline(__always)
    func quantize8(_ x: SIMD8<Float>) -> SIMD8<Int32> {
        let y = x * inverse
        let bits = unsafeBitCast(y, to: SIMD8<UInt32>.self)
        let sign = bits & 0x8000_0000
        var a = unsafeBitCast(bits & 0x7FFF_FFFF, to: SIMD8<Float>.self)
        a = a.replacing(with: 65536, where: a .> 65536)
        var t = (a + 8_388_608) - 8_388_608
        t = t.replacing(with: t - 1, where: t .> a)
        t = t.replacing(with: t + 1, where: a - t .>= 0.5)
        let r = unsafeBitCast(unsafeBitCast(t, to: SIMD8<UInt32>.self) | sign, to: SIMD8<Float>.self)
        var v = r + zeroPoint
        v = v.replacing(with: min, where: v .< min)
        v = v.replacing(with: max, where: v .> max)
        return unsafeBitCast(v + 12_582_912, to: SIMD8<Int32>.self) &- 0x4B40_0000
    }
}
