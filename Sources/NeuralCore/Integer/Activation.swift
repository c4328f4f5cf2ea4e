/// Unary activations (RELU, RELU6, HARD_SWISH, LOGISTIC, and any other pointwise function) as
/// 256-entry int8 tables built at load: `table[q + 128] = quantize_out(f(dequantize_in(q)))`.
/// A table lookup is a gather, which neither SSE/AVX2 nor generic `SIMD` express for 256
/// entries (NEON's `tbl` covers 64), so the "SIMD" variant is the same lookup unrolled by 8.
///
/// PRELU with a per-channel slope is not a table: it is requantisation with two multipliers,
/// `s_in/s_out` for x ≥ zp and `s_in·α[c]/s_out` below (α may be negative).

public final class LookupTable {
    let table: UnsafeMutablePointer<Int8>

    /// `f` maps real input to real output.
    public init(input: QuantParams, output: QuantParams, _ f: (Float) -> Float) {
        table = .allocate(capacity: 256)
        for q in -128...127 {
            table[q + 128] = output.quantize(f(input.dequantize(Int8(q))))
        }
    }

    deinit { table.deallocate() }

    public subscript(_ q: Int8) -> Int8 { table[Int(q) + 128] }

    public static func relu(_ x: Float) -> Float { x > 0 ? x : 0 }
    public static func relu6(_ x: Float) -> Float { x < 0 ? 0 : (x > 6 ? 6 : x) }
    public static func hardSwish(_ x: Float) -> Float {
        let r = x + 3
        return x * (r < 0 ? 0 : (r > 6 ? 6 : r)) / 6
    }
    public static func logistic(_ x: Float) -> Float {
        // exp without Foundation: e^x = 2^(x·log2 e), split into integer and fraction parts.
        1 / (1 + exponential(-x))
    }
}

/// `e^x` in Float for table construction (not hot): range reduction by powers of two and a
/// degree-7 Taylor polynomial on |r| ≤ ln2/2 (relative error below 1e-7).
public func exponential(_ x: Float) -> Float {
    if x > 88 { return .infinity }
    if x < -104 { return 0 }
    let ln2: Double = 0.6931471805599453
    let k = (Double(x) / ln2).rounded()
    let r = Double(x) - k * ln2
    var p = 1.0, term = 1.0
    for i in 1...9 { term *= r / Double(i); p += term }
    return Float(p * pow2(Int(k)))
}

public typealias LookupKernel = @Sendable (
    _ input: UnsafePointer<Int8>, _ count: Int, _ table: LookupTable,
    _ output: UnsafeMutablePointer<Int8>
) -> Void

public func lookupScalar(
    _ input: UnsafePointer<Int8>, _ count: Int, _ table: LookupTable,
    _ output: UnsafeMutablePointer<Int8>
) {
    for i in 0..<count { output[i] = table.table[Int(input[i]) + 128] }
}

public func lookupUnrolled(
    _ input: UnsafePointer<Int8>, _ count: Int, _ table: LookupTable,
    _ output: UnsafeMutablePointer<Int8>
) {
    let t = table.table + 128
    var i = 0
    while i + 8 <= count {
        let x = UnsafeRawPointer(input + i).loadUnaligned(as: SIMD8<Int8>.self)
        var y = SIMD8<Int8>()
        for j in 0..<8 { y[j] = t[Int(x[j])] }
        UnsafeMutableRawPointer(output + i).storeBytes(of: y, as: SIMD8<Int8>.self)
        i += 8
    }
    while i < count { output[i] = t[Int(input[i])]; i += 1 }
}

// MARK: - PRELU

public final class PReLUParams {
    public let channels: Int
    public let inputZeroPoint: Int32, outputZeroPoint: Int32
    public let positive: FixedMultiplier
    let negMultiplier: UnsafeMutablePointer<Int32>
    let negLeft: UnsafeMutablePointer<Int32>
    let negRight: UnsafeMutablePointer<Int32>

    /// `alpha`: one real slope per channel.
    public init(input: QuantParams, output: QuantParams, alpha: [Float]) {
        channels = alpha.count
        inputZeroPoint = input.zeroPoint
        outputZeroPoint = output.zeroPoint
        positive = FixedMultiplier(Double(input.scale) / Double(output.scale))
        let padded = (alpha.count + 7) / 8 * 8
        negMultiplier = .allocate(capacity: padded)
        negLeft = .allocate(capacity: padded)
        negRight = .allocate(capacity: padded)
        for c in 0..<padded {
            let m = c < alpha.count
                ? FixedMultiplier(Double(input.scale) * Double(alpha[c]) / Double(output.scale))
                : FixedMultiplier(multiplier: 0, shift: 0)
            negMultiplier[c] = m.multiplier
            negLeft[c] = m.leftShift
            negRight[c] = m.rightShift
        }
    }

    deinit {
        negMultiplier.deallocate()
        negLeft.deallocate()
        negRight.deallocate()
    }

    @inline(__always)
    func scalar(_ q: Int8, channel c: Int) -> Int8 {
        let x = Int32(q) &- inputZeroPoint
        let v = x >= 0
            ? multiplyByQuantizedMultiplier(x, positive)
            : multiplyByQuantizedMultiplier(x, negMultiplier[c], negLeft[c], negRight[c])
        return Int8(truncatingIfNeeded: clamp32(v &+ outputZeroPoint, -128, 127))
    }
}

public typealias PReLUKernel = @Sendable (
    _ input: UnsafePointer<Int8>, _ pixels: Int, _ params: PReLUParams,
    _ output: UnsafeMutablePointer<Int8>
) -> Void

public func preluScalar(
    _ input: UnsafePointer<Int8>, _ pixels: Int, _ params: PReLUParams,
    _ output: UnsafeMutablePointer<Int8>
) {
    let c = params.channels
    for p in 0..<pixels {
        for ch in 0..<c { output[p * c + ch] = params.scalar(input[p * c + ch], channel: ch) }
    }
}

public func preluSIMD(
    _ input: UnsafePointer<Int8>, _ pixels: Int, _ params: PReLUParams,
    _ output: UnsafeMutablePointer<Int8>
) {
    let c = params.channels
    let full = c / 8 * 8
    let zp = I32x8(repeating: params.inputZeroPoint)
    let zpOut = I32x8(repeating: params.outputZeroPoint)
    let pm = I32x8(repeating: params.positive.multiplier)
    let pl = I32x8(repeating: params.positive.leftShift)
    let pr = I32x8(repeating: params.positive.rightShift)
    let lo = I32x8(repeating: -128), hi = I32x8(repeating: 127)
    for p in 0..<pixels {
        let src = input + p * c, dst = output + p * c
        var ch = 0
        while ch < full {
            let x = widen8to32(UnsafeRawPointer(src + ch).loadUnaligned(as: SIMD8<Int8>.self)) &- zp
            let nm = UnsafeRawPointer(params.negMultiplier + ch).loadUnaligned(as: I32x8.self)
            let nl = UnsafeRawPointer(params.negLeft + ch).loadUnaligned(as: I32x8.self)
            let nr = UnsafeRawPointer(params.negRight + ch).loadUnaligned(as: I32x8.self)
            let pos = multiplyByQuantizedMultiplier(x, pm, pl, pr)
            let neg = multiplyByQuantizedMultiplier(x, nm, nl, nr)
            let v = pos.replacing(with: neg, where: x .< 0) &+ zpOut
            UnsafeMutableRawPointer(dst + ch).storeBytes(of: narrow8(vmin(vmax(v, lo), hi)),
                                                         as: SIMD8<Int8>.self)
            ch += 8
        }
        while ch < c { dst[ch] = params.scalar(src[ch], channel: ch); ch += 1 }
    }
}
