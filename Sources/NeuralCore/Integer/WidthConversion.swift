/// Width conversion between an int8 and an int16 activation tensor, for a mixed-precision program
/// (`ProgramStep.widen` / `.narrow`): each value requantised from the input's parameters to the
/// output's, `clamp(zpOut + M·(x − zpIn))` with `M` the input/output scale ratio as a TFLite fixed
/// multiplier (`RequantizeParams`), saturated to the output type.
///
/// Scalar reference and a SIMD variant (8 lanes of int32), bit-exact with each other
/// (`WidthConversionTests`).
public enum WidthConversion {
    /// One value, the reference.
    @inline(__always)
    static func convert<In: QuantizedActivation, Out: QuantizedActivation>(_ x: In, _ p: RequantizeParams) -> Out {
        let v = multiplyByQuantizedMultiplier(Int32(truncatingIfNeeded: x) &- p.inputZeroPoint, p.multiplier)
        return Out(truncatingIfNeeded: clamp32(v &+ p.outputZeroPoint, Int32(Out.min), Int32(Out.max)))
    }

    /// `count` values of `input` into `output`, one at a time.
    public static func scalar<In: QuantizedActivation, Out: QuantizedActivation>(
        _ input: UnsafePointer<In>, _ count: Int, _ p: RequantizeParams, _ output: UnsafeMutablePointer<Out>
    ) {
        for i in 0..<count { output[i] = convert(input[i], p) }
    }

    /// `count` values of `input` into `output`, eight at a time, the tail by the reference.
    /// Always inlined: `requantizeSIMD` is this loop with one type, and the NEON check reads the
    /// loop in its caller.
    @inline(__always)
    public static func simd<In: QuantizedActivation, Out: QuantizedActivation>(
        _ input: UnsafePointer<In>, _ count: Int, _ p: RequantizeParams, _ output: UnsafeMutablePointer<Out>
    ) {
        let zpIn = I32x8(repeating: p.inputZeroPoint)
        let zpOut = I32x8(repeating: p.outputZeroPoint)
        let m = I32x8(repeating: p.multiplier.multiplier)
        let l = I32x8(repeating: p.multiplier.leftShift)
        let r = I32x8(repeating: p.multiplier.rightShift)
        let lo = I32x8(repeating: Int32(Out.min)), hi = I32x8(repeating: Int32(Out.max))
        var i = 0
        while i + 8 <= count {
            let v = multiplyByQuantizedMultiplier(load8(input + i) &- zpIn, m, l, r) &+ zpOut
            store8(vmin(vmax(v, lo), hi), output + i)
            i += 8
        }
        while i < count { output[i] = convert(input[i], p); i += 1 }
    }
}
