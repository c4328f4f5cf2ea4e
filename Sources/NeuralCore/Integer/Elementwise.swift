import CNeuralKernels

/// ADD and MUL of two int8 (or int16) tensors with requantisation of both inputs:
/// - ADD: `((x1 − zp1)·A + (x2 − zp2)·B + 2^(S−1)) >> S`, plus the output zero point, with
///   `A = round(s1/s_out · 2^S)`, `B = round(s2/s_out · 2^S)` and S chosen so that both are at
///   most 2^21 for int8 (22 significant bits: well under an output step) or 2^14 for int16
///   (|x·A| ≤ 2^29 either way, so the sum fits int32) — two multiplies and a shift per element
///   instead of TFLite's three 64-bit requantisations (`multiplier1`, `multiplier2`,
///   `outputMultiplier`, kept for reference). The int16 form's 15-bit multipliers cost up to 3
///   output steps of int16 (2^-14 of the range; the segmentation masks do not move);
/// - MUL: `(x1 − zp1)(x2 − zp2)` scaled by `s1·s2 / s_out`.
/// The second operand may be broadcast: `period` is its element count, which must divide the
/// first's (`count` for same shapes, the channel count for a `[1,1,1,C]` vector, 1 for a scalar).

public struct ElementwiseParams: Sendable, Equatable {
    public enum Operation: Sendable, Equatable { case add, mul }
    public var operation: Operation
    public var zeroPoint1: Int32, zeroPoint2: Int32, outputZeroPoint: Int32
    public var multiplier1: FixedMultiplier
    public var multiplier2: FixedMultiplier
    public var outputMultiplier: FixedMultiplier
    public var minimum: Int32, maximum: Int32
    /// ADD's left shift of the inputs (int8: 20).
    public var leftShift: Int32
    /// int16 ADD: `(x1·scale1 + x2·scale2 + 2^(scaleShift−1)) >> scaleShift`.
    public var scaledAdd: Bool
    public var scale1: Int32, scale2: Int32, scaleShift: Int32

    /// ADD's left shift for int8 activations.
    public static let addLeftShift: Int32 = 20

    public init(_ operation: Operation, _ in1: QuantParams, _ in2: QuantParams,
                output: QuantParams, activation: FusedActivation = .none) {
        self.init(operation, in1, in2, output: output, activation: activation, as: Int8.self)
    }

    public init<E: QuantizedActivation>(_ operation: Operation, _ in1: QuantParams, _ in2: QuantParams,
                                        output: QuantParams, activation: FusedActivation = .none, as e: E.Type) {
        self.operation = operation
        zeroPoint1 = in1.zeroPoint
        zeroPoint2 = in2.zeroPoint
        outputZeroPoint = output.zeroPoint
        (minimum, maximum) = activation.bounds(output, as: e)
        leftShift = E.bitWidth == 8 ? Self.addLeftShift : 15
        scaledAdd = operation == .add
        scale1 = 0; scale2 = 0; scaleShift = 0
        if scaledAdd {
            // |x − zp| ≤ 255 (int8) or 32768 (int16): multipliers up to 2^21 or 2^14 keep each
            // product within 2^29 and the sum within int32.
            let limit: Double = E.bitWidth == 8 ? 2_097_152 : 16384
            let r1 = Double(in1.scale) / Double(output.scale), r2 = Double(in2.scale) / Double(output.scale)
            let largest = max(r1, r2)
            var shift: Int32 = 30
            while shift > 0 && largest * pow2(Int(shift)) > limit { shift -= 1 }
            scaleShift = shift
            scale1 = Int32(min(limit, (r1 * pow2(Int(shift))).rounded()))
            scale2 = Int32(min(limit, (r2 * pow2(Int(shift))).rounded()))
        }
        switch operation {
        case .add:
            let twiceMax = 2 * Double(max(in1.scale, in2.scale))
            multiplier1 = FixedMultiplier(Double(in1.scale) / twiceMax)
            multiplier2 = FixedMultiplier(Double(in2.scale) / twiceMax)
            outputMultiplier = FixedMultiplier(
                twiceMax / (Double(1 << leftShift) * Double(output.scale)))
        case .mul:
            multiplier1 = FixedMultiplier(multiplier: 0, shift: 0)
            multiplier2 = FixedMultiplier(multiplier: 0, shift: 0)
            outputMultiplier = FixedMultiplier(
                Double(in1.scale) * Double(in2.scale) / Double(output.scale))
        }
    }

    @inline(__always)
    func scalar<E: QuantizedActivation>(_ a: E, _ b: E) -> E {
        let x1 = Int32(truncatingIfNeeded: a) &- zeroPoint1, x2 = Int32(truncatingIfNeeded: b) &- zeroPoint2
        let raw: Int32
        switch operation {
        case .add where scaledAdd:
            let round: Int32 = scaleShift > 0 ? 1 &<< (scaleShift &- 1) : 0
            raw = (x1 &* scale1 &+ x2 &* scale2 &+ round) &>> scaleShift
        case .add:
            let s1 = multiplyByQuantizedMultiplier(x1 &<< leftShift, multiplier1)
            let s2 = multiplyByQuantizedMultiplier(x2 &<< leftShift, multiplier2)
            raw = multiplyByQuantizedMultiplier(s1 &+ s2, outputMultiplier)
        case .mul:
            raw = multiplyByQuantizedMultiplier(x1 &* x2, outputMultiplier)
        }
        return E(truncatingIfNeeded: clamp32(raw &+ outputZeroPoint, minimum, maximum))
    }
}

public typealias ElementwiseKernel<E: QuantizedActivation> = @Sendable (
    _ a: UnsafePointer<E>, _ b: UnsafePointer<E>, _ count: Int, _ period: Int,
    _ params: ElementwiseParams, _ output: UnsafeMutablePointer<E>
) -> Void

public func elementwiseScalar<E: QuantizedActivation>(
    _ a: UnsafePointer<E>, _ b: UnsafePointer<E>, _ count: Int, _ period: Int,
    _ params: ElementwiseParams, _ output: UnsafeMutablePointer<E>
) {
    precondition(period > 0 && count % period == 0)
    for i in 0..<count { output[i] = params.scalar(a[i], b[i % period]) }
}

/// The arithmetic of one elementwise operation on sixteen int32 lanes that already hold
/// `x − zp`; the loop around it (`elementwiseLanes`) is specialised per operation, so no branch
/// on the operation runs per element.
protocol ElementwiseLanes {
    func apply(_ x1: SIMD16<Int32>, _ x2: SIMD16<Int32>) -> SIMD16<Int32>
}

/// ADD: `(x1·A + x2·B + 2^(S−1)) >> S`.
struct ScaledAddLanes: ElementwiseLanes {
    let a1: SIMD16<Int32>, a2: SIMD16<Int32>, round: SIMD16<Int32>, shift: SIMD16<Int32>

    init(_ p: ElementwiseParams) {
        a1 = SIMD16(repeating: p.scale1); a2 = SIMD16(repeating: p.scale2)
        round = SIMD16(repeating: p.scaleShift > 0 ? 1 &<< (p.scaleShift &- 1) : 0)
        shift = SIMD16(repeating: p.scaleShift)
    }

    @inline(always)
    func apply(_ x1: SIMD16<Int32>, _ x2: SIMD16<Int32>) -> SIMD16<Int32> {
        (x1 &* a1 &+ x2 &* a2 &+ round) &>> shift
    }
}

/// MUL: `MultiplyByQuantizedMultiplier(x1·x2, output multiplier)`, as two 8-lane halves.
struct MulLanes: ElementwiseLanes {
    let m: I32x8, left: I32x8, right: I32x8

    init(_ p: ElementwiseParams) {
        m = I32x8(repeating: p.outputMultiplier.multiplier)
        left = I32x8(repeating: p.outputMultiplier.leftShift)
        right = I32x8(repeating: p.outputMultiplier.rightShift)
    }

    @inline(always)
    func apply(_ x1: SIMD16<Int32>, _ x2: SIMD16<Int32>) -> SIMD16<Int32> {
        // Halves and joins as lane loops: `lowHalf`/`highHalf` may be left out of line.
        let p = x1 &* x2
        var lo = I32x8(), hi = I32x8()
        for i in 0..<8 { lo[i] = p[i]; hi[i] = p[i + 8] }
        lo = multiplyByQuantizedMultiplier(lo, m, left, right)
        hi = multiplyByQuantizedMultiplier(hi, m, left, right)
        var r = SIMD16<Int32>()
        for i in 0..<8 { r[i] = lo[i]; r[i + 8] = hi[i] }
        return r
    }
}

@inline(always)
func elementwiseLanes<E: QuantizedActivation, L: ElementwiseLanes>(
    _ a: UnsafePointer<E>, _ b: UnsafePointer<E>, _ count: Int, _ period: Int,
    _ params: ElementwiseParams, _ output: UnsafeMutablePointer<E>, _ lanes: L
) {
    typealias V = SIMD16<Int32>
    let zp1 = V(repeating: params.zeroPoint1), zp2 = V(repeating: params.zeroPoint2)
    let zpOut = V(repeating: params.outputZeroPoint)
    let lo = V(repeating: params.minimum), hi = V(repeating: params.maximum)
    if period == 1 || period == count {
        // One operand broadcast, or both of the same shape: one flat loop.
        let splat = V(repeating: Int32(truncatingIfNeeded: b[0])) &- zp2
        var i = 0
        while i + 16 <= count {
            let x2 = period == 1 ? splat : load16(b + i) &- zp2
            var v = lanes.apply(load16(a + i) &- zp1, x2) &+ zpOut
            v = v.replacing(with: lo, where: v .< lo)
            v = v.replacing(with: hi, where: v .> hi)
            store16(v, output + i)
            i += 16
        }
        while i < count { output[i] = params.scalar(a[i], b[period == 1 ? 0 : i]); i += 1 }
        return
    }
    // A period that is not a multiple of 16 (e.g. 24 channels) ends with its last 16 elements
    // again, recomputed to the same values, when the output aliases neither input.
    let raw = UnsafeRawPointer(output)
    let overlap = period >= 16 && raw != UnsafeRawPointer(a) && raw != UnsafeRawPointer(b)
    var base = 0
    while base < count {
        var i = 0
        while i < period {
            if i + 16 > period {
                if !overlap { break }
                i = period - 16
            }
            var v = lanes.apply(load16(a + base + i) &- zp1, load16(b + i) &- zp2) &+ zpOut
            v = v.replacing(with: lo, where: v .< lo)
            v = v.replacing(with: hi, where: v .> hi)
            store16(v, output + base + i)
            i += 16
        }
        while i < period { output[base + i] = params.scalar(a[base + i], b[i]); i += 1 }
        base += period
    }
}

/// Sixteen elements per step, one loop per operation (`ScaledAddLanes`, `MulLanes`). TFLite's
/// three-multiplier ADD (`scaledAdd == false`, kept for reference) runs the scalar loop.
@inline(never)
public func elementwiseSIMD<E: QuantizedActivation>(
    _ a: UnsafePointer<E>, _ b: UnsafePointer<E>, _ count: Int, _ period: Int,
    _ params: ElementwiseParams, _ output: UnsafeMutablePointer<E>
) {
    precondition(period > 0 && count % period == 0)
    switch params.operation {
    case .add where params.scaledAdd:
        elementwiseLanes(a, b, count, period, params, output, ScaledAddLanes(params))
    case .add:
        elementwiseScalar(a, b, count, period, params, output)
    case .mul:
        elementwiseLanes(a, b, count, period, params, output, MulLanes(params))
    }
}

/// aarch64: ADD (the `scaledAdd` form) and MUL in C (`booth_elementwise_s8`/`_s16`: sixteen
/// elements per step in int32 lanes; ADD with both zero points folded into its rounding constant,
/// MUL with `sqrdmulh`/`srshl`), every period. TFLite's three-multiplier ADD runs the scalar loop.
public func elementwiseNEON<E: QuantizedActivation>(
    _ a: UnsafePointer<E>, _ b: UnsafePointer<E>, _ count: Int, _ period: Int,
    _ params: ElementwiseParams, _ output: UnsafeMutablePointer<E>
) {
    precondition(period > 0 && count % period == 0)
    let m = params.outputMultiplier
    guard params.operation == .mul || params.scaledAdd, m.leftShift <= 31, m.rightShift <= 31 else {
        elementwiseScalar(a, b, count, period, params, output)
        return
    }
    var p = params.kernelParams
    let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b), ro = UnsafeMutableRawPointer(output)
    if E.bitWidth == 8 {
        booth_elementwise_s8(ra.assumingMemoryBound(to: Int8.self), rb.assumingMemoryBound(to: Int8.self), count, period,
                             &p, ro.assumingMemoryBound(to: Int8.self))
    } else {
        booth_elementwise_s16(ra.assumingMemoryBound(to: Int16.self), rb.assumingMemoryBound(to: Int16.self), count,
                              period, &p, ro.assumingMemoryBound(to: Int16.self))
    }
}

// MARK: - Requantise (concatenation inputs, identity ops with differing parameters)

public struct RequantizeParams: Sendable, Equatable {
    public var inputZeroPoint: Int32, outputZeroPoint: Int32
    public var multiplier: FixedMultiplier
    /// True when input and output parameters are equal: a plain copy.
    public var isIdentity: Bool

    public init(input: QuantParams, output: QuantParams) {
        inputZeroPoint = input.zeroPoint
        outputZeroPoint = output.zeroPoint
        multiplier = FixedMultiplier(Double(input.scale) / Double(output.scale))
        isIdentity = input == output
    }

    @inline(__always)
    func scalar<E: QuantizedActivation>(_ x: E) -> E {
        let v = multiplyByQuantizedMultiplier(Int32(truncatingIfNeeded: x) &- inputZeroPoint, multiplier)
        return E(truncatingIfNeeded: clamp32(v &+ outputZeroPoint, Int32(E.min), Int32(E.max)))
    }
}

public typealias RequantizeKernel<E: QuantizedActivation> = @Sendable (
    _ input: UnsafePointer<E>, _ count: Int, _ params: RequantizeParams,
    _ output: UnsafeMutablePointer<E>
) -> Void

public func requantizeScalar<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ count: Int, _ params: RequantizeParams,
    _ output: UnsafeMutablePointer<E>
) {
    if params.isIdentity { output.update(from: input, count: count); return }
    for i in 0..<count { output[i] = params.scalar(input[i]) }
}

public func requantizeSIMD<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ count: Int, _ params: RequantizeParams,
    _ output: UnsafeMutablePointer<E>
) {
    if params.isIdentity { output.update(from: input, count: count); return }
    // The same arithmetic as a width conversion, with one type on both sides (inlined here).
    WidthConversion.simd(input, count, params, output)
}

/// aarch64: int8 requantisation in C (`booth_convert_s8_s8` through `WidthConversion.neon`:
/// sixteen values per step); int16 by `requantizeSIMD`.
public func requantizeNEON<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ count: Int, _ params: RequantizeParams,
    _ output: UnsafeMutablePointer<E>
) {
    guard E.bitWidth == 8, !params.isIdentity else { return requantizeSIMD(input, count, params, output) }
    WidthConversion.neon(UnsafeRawPointer(input).assumingMemoryBound(to: Int8.self), count, params,
                         UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int8.self))
}

/// CONCATENATION: `inputs[j]` holds `outer × inner[j]` values; the output `outer × Σ inner`.
/// Each input is requantised into the output's parameters (a copy when they match).
public func concatenate<E: QuantizedActivation>(
    _ inputs: UnsafeBufferPointer<UnsafePointer<E>>, inner: UnsafeBufferPointer<Int>,
    params: UnsafeBufferPointer<RequantizeParams>, outer: Int,
    output: UnsafeMutablePointer<E>, kernel: RequantizeKernel<E>
) {
    var total = 0
    for j in 0..<inner.count { total += inner[j] }
    for o in 0..<outer {
        var offset = o * total
        for j in 0..<inputs.count {
            kernel(inputs[j] + o * inner[j], inner[j], params[j], output + offset)
            offset += inner[j]
        }
    }
}
