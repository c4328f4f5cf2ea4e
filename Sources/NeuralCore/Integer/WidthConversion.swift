import CNeuralKernels

/// Width conversion between an int8 and an int16 activation tensor, for a mixed-precision program
/// (`ProgramStep.widen` / `.narrow`): each value requantised from the input's parameters to the
/// output's, `clamp(zpOut + M·(x − zpIn))` with `M` the input/output scale ratio as a TFLite fixed
/// multiplier (`RequantizeParams`), saturated to the output type.
///
/// Scalar reference, a SIMD variant (8 lanes of int32) and on aarch64 a C NEON variant
/// (`booth_convert_s8_s16` / `_s16_s8`: sixteen values per step), bit-exact with each other
/// (`MixedPrecisionTests` on the host; conformance kernel `nn.convert` on aarch64).
public enum WidthConversion {
    /// Which loop a program's conversions run (`IntegerKernelSetOf.widthConversion`).
    public enum Variant: Sendable, Equatable {
        case scalar, simd, neon
    }

    /// `count` int8 values widened to int16 by `variant`.
    @inline(__always)
    public static func widen(_ variant: Variant, _ input: UnsafePointer<Int8>, _ count: Int, _ p: RequantizeParams,
                             _ output: UnsafeMutablePointer<Int16>) {
        switch variant {
        case .scalar: scalar(input, count, p, output)
        case .simd: simd(input, count, p, output)
        case .neon: neon(input, count, p, output)
        }
    }

    /// `count` int16 values narrowed to int8 by `variant`.
    @inline(__always)
    public static func narrow(_ variant: Variant, _ input: UnsafePointer<Int16>, _ count: Int, _ p: RequantizeParams,
                              _ output: UnsafeMutablePointer<Int8>) {
        switch variant {
        case .scalar: scalar(input, count, p, output)
        case .simd: simd(input, count, p, output)
        case .neon: neon(input, count, p, output)
        }
    }

    /// The C kernel applies where the build has it (aarch64) and the parameters are in its range:
    /// shifts the NEON shifts take and an input zero point that fits int16 (`ssubl`).
    static func neonApplies(_ p: RequantizeParams) -> Bool {
        booth_neon_available() != 0 && p.multiplier.leftShift <= 31 && p.multiplier.rightShift <= 31
            && p.inputZeroPoint >= -32768 && p.inputZeroPoint <= 32767
    }

    /// int8 → int16 in C NEON (aarch64; elsewhere, or outside the kernel's range, `simd`).
    @inline(never)
    public static func neon(_ input: UnsafePointer<Int8>, _ count: Int, _ p: RequantizeParams,
                            _ output: UnsafeMutablePointer<Int16>) {
        guard neonApplies(p) else { return simd(input, count, p, output) }
        booth_convert_s8_s16(input, count, p.inputZeroPoint, p.multiplier.multiplier, p.multiplier.leftShift,
                             p.multiplier.rightShift, p.outputZeroPoint, output)
    }

    /// int16 → int8 in C NEON (aarch64; elsewhere, or outside the kernel's range, `simd`).
    @inline(never)
    public static func neon(_ input: UnsafePointer<Int16>, _ count: Int, _ p: RequantizeParams,
                            _ output: UnsafeMutablePointer<Int8>) {
        guard neonApplies(p) else { return simd(input, count, p, output) }
        booth_convert_s16_s8(input, count, p.inputZeroPoint, p.multiplier.multiplier, p.multiplier.leftShift,
                             p.multiplier.rightShift, p.outputZeroPoint, output)
    }

    /// int8 → int8 (a requantisation) in C NEON (aarch64; elsewhere, or outside the kernel's
    /// range, `simd`).
    @inline(never)
    public static func neon(_ input: UnsafePointer<Int8>, _ count: Int, _ p: RequantizeParams,
                            _ output: UnsafeMutablePointer<Int8>) {
        guard neonApplies(p) else { return simd(input, count, p, output) }
        booth_convert_s8_s8(input, count, p.inputZeroPoint, p.multiplier.multiplier, p.multiplier.leftShift,
                            p.multiplier.rightShift, p.outputZeroPoint, output)
    }

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
