/// Unary activations (RELU, RELU6, HARD_SWISH, LOGISTIC, and any other pointwise function) as
/// tables built at load: `table[q − min] = quantize_out(f(dequantize_in(q)))` over every input
/// value — 256 int8 entries, or 65,536 int16 entries (128 KiB) on the int16-activation path.
/// A table lookup is a gather, which neither SSE/AVX2 nor generic `SIMD` express for 256
/// entries (NEON's `tbl` covers 64), so the "SIMD" variant is the same lookup unrolled by 8.
///
/// PRELU with a per-channel slope is requantisation with two multipliers, `s_in/s_out` for
/// x ≥ zp and `s_in·α[c]/s_out` below (α may be negative): `preluScalar` computes exactly that;
/// the fast variant looks the same results up in a per-channel 256-entry table built from it at load
/// (two 64-bit requantisations per value cost more than the whole convolution before them).

public final class LookupTable {
    /// `entries` values of the element type the table was built for.
    let storage: UnsafeMutableRawPointer
    let entries: Int
    /// The int8 table (valid when built for `Int8`).
    var table: UnsafeMutablePointer<Int8> { storage.assumingMemoryBound(to: Int8.self) }

    /// `f` maps real input to real output (int8 activations).
    public convenience init(input: QuantParams, output: QuantParams, _ f: (Float) -> Float) {
        self.init(input: input, output: output, as: Int8.self, f)
    }

    init(storage: UnsafeMutableRawPointer, entries: Int) {
        self.storage = storage
        self.entries = entries
    }

    /// A table over every value of `E` (a convenience initialiser: Embedded Swift allows no
    /// generic designated initialiser on a class).
    public convenience init<E: QuantizedActivation>(input: QuantParams, output: QuantParams, as _: E.Type,
                                                    _ f: (Float) -> Float) {
        let entries = 1 << E.bitWidth
        let storage = UnsafeMutableRawPointer.allocate(byteCount: entries * MemoryLayout<E>.stride, alignment: 16)
        let t = storage.bindMemory(to: E.self, capacity: entries)
        var q = Int32(E.min)
        for i in 0..<entries {
            t[i] = output.quantize(f(input.dequantize(E(truncatingIfNeeded: q))), as: E.self)
            q += 1
        }
        self.init(storage: storage, entries: entries)
    }

    deinit { storage.deallocate() }

    public subscript(_ q: Int8) -> Int8 { table[Int(q) + 128] }

    /// The table's entry for input 0 (entries run from `E.min`).
    @inline(__always)
    func center<E: QuantizedActivation>(_: E.Type) -> UnsafePointer<E> {
        precondition(entries == 1 << E.bitWidth)
        return UnsafePointer(storage.assumingMemoryBound(to: E.self)) + (entries >> 1)
    }

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

public typealias LookupKernel<E: QuantizedActivation> = @Sendable (
    _ input: UnsafePointer<E>, _ count: Int, _ table: LookupTable,
    _ output: UnsafeMutablePointer<E>
) -> Void

public func lookupScalar<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ count: Int, _ table: LookupTable,
    _ output: UnsafeMutablePointer<E>
) {
    let t = table.center(E.self)
    for i in 0..<count { output[i] = t[Int(input[i])] }
}

public func lookupUnrolled<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ count: Int, _ table: LookupTable,
    _ output: UnsafeMutablePointer<E>
) {
    let t = table.center(E.self)
    var i = 0
    while i + 8 <= count {
        let x = UnsafeRawPointer(input + i).loadUnaligned(as: SIMD8<E>.self)
        var y = SIMD8<E>()
        for j in 0..<8 { y[j] = t[Int(x[j])] }
        UnsafeMutableRawPointer(output + i).storeBytes(of: y, as: SIMD8<E>.self)
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
        table = .allocate(capacity: max(1, alpha.count) * 256)
        for c in 0..<alpha.count {
            for q in -128...127 { table[c * 256 + q + 128] = scalar(Int8(q), channel: c) }
        }
    }

    /// `table[c * 256 + q + 128]`: the scalar result for every channel and input, built once
    /// (a 256-entry lookup per channel is cheaper than two 64-bit requantisations per value).
    let table: UnsafeMutablePointer<Int8>

    deinit {
        table.deallocate()
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
    let t = params.table + 128
    for p in 0..<pixels {
        let src = input + p * c, dst = output + p * c
        var row = t
        for ch in 0..<c {
            dst[ch] = row[Int(src[ch])]
            row += 256
        }
    }
}
