import CNeuralKernels

/// Unary activations (RELU, RELU6, HARD_SWISH, LOGISTIC, and any other pointwise function) as
/// tables built at load: `table[q − min] = quantize_out(f(dequantize_in(q)))` over every input
/// value — 256 int8 entries, or 65,536 int16 entries (128 KiB) on the int16-activation path.
/// A table lookup is a gather, which neither SSE/AVX2 nor generic `SIMD` express for 256
/// entries (NEON's `tbl` covers 64), so the "SIMD" variant is the same lookup unrolled by 8.
///
/// A HARD_SWISH or LOGISTIC table may be left unstored (`hardSwish(input:output:as:stored:)`,
/// `logistic(input:output:as:stored:)`): every kernel then computes its entries with the table
/// construction's own operations (the same values); for HARD_SWISH the SIMD variant's float lanes
/// already did so for all but the last `count mod 16` values. Integer programs leave their int16
/// HARD_SWISH tables unstored except on aarch64, where the NEON kernel's lookup is cheaper than
/// the float lanes, and their int16 LOGISTIC tables over small tensors (squeeze-and-excitation
/// gates of a few hundred values) everywhere: the live landscape segmenter's 11 + 11 tables of
/// 128 KiB were 2.75 MiB of its resident memory.
///
/// PRELU with a per-channel slope is requantisation with two multipliers, `s_in/s_out` for
/// x ≥ zp and `s_in·α[c]/s_out` below (α may be negative), each one fixed-point int32 product and
/// one rounding shift (`PReLUParams`), 16 values per step in the vector variant.

public final class LookupTable {
    /// `entries` values of the element type the table was built for; nil for a table that is
    /// computed, not stored (`computed`).
    let storage: UnsafeMutableRawPointer?
    let entries: Int
    /// The int8 table (valid when built for `Int8` and stored).
    var table: UnsafeMutablePointer<Int8> { storage!.assumingMemoryBound(to: Int8.self) }
    /// Whether the entries are stored (false: a table the kernels compute, `computed`).
    public var isStored: Bool { storage != nil }
    /// The functions an unstored table can compute.
    public enum Function: Sendable { case hardSwish, logistic }
    /// The function and quantisations the table was built from, kept once: set on every
    /// HARD_SWISH table (`hardSwishParameters`) and on unstored LOGISTIC tables (`computed`).
    private var formula: (function: Function, input: QuantParams, output: QuantParams)?
    /// An unstored table's function and quantisations (nil for a stored table).
    public var computed: (function: Function, input: QuantParams, output: QuantParams)? { isStored ? nil : formula }

    /// `f` maps real input to real output (int8 activations).
    public convenience init(input: QuantParams, output: QuantParams, _ f: (Float) -> Float) {
        self.init(input: input, output: output, as: Int8.self, f)
    }

    init(storage: UnsafeMutableRawPointer?, entries: Int) {
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

    deinit { storage?.deallocate() }

    /// Set on HARD_SWISH tables (`hardSwish(input:output:as:)`): `lookupUnrolled` then computes
    /// the entries with float vectors — the operations of the table's construction in the same
    /// order, so the same values — instead of gathering them (16 values per step against one
    /// load per value from a 128 KiB table on the int16 path).
    public var hardSwishParameters: (input: QuantParams, output: QuantParams)? {
        guard let formula, formula.function == .hardSwish else { return nil }
        return (formula.input, formula.output)
    }

    /// The HARD_SWISH table from `input` to `output` quantisation; `stored` false: its entries
    /// are not stored but computed by every kernel (`entry`, the same values).
    public static func hardSwish<E: QuantizedActivation>(input: QuantParams, output: QuantParams,
                                                         as e: E.Type, stored: Bool = true) -> LookupTable {
        let table = stored ? LookupTable(input: input, output: output, as: e, hardSwish)
                           : unstored(.hardSwish, input: input, output: output, as: e)
        table.formula = (.hardSwish, input, output)
        return table
    }

    /// The LOGISTIC table from `input` to `output` quantisation; `stored` false: its entries are
    /// not stored but computed by every kernel, one value at a time (for small tensors).
    public static func logistic<E: QuantizedActivation>(input: QuantParams, output: QuantParams,
                                                        as e: E.Type, stored: Bool = true) -> LookupTable {
        stored ? LookupTable(input: input, output: output, as: e, logistic) : unstored(.logistic, input: input, output: output, as: e)
    }

    private static func unstored<E: QuantizedActivation>(_ f: Function, input: QuantParams, output: QuantParams,
                                                         as _: E.Type) -> LookupTable {
        let table = LookupTable(storage: nil, entries: 1 << E.bitWidth)
        table.formula = (f, input, output)
        return table
    }

    /// An unstored table's entry for `q`, computed as the table's construction computes it.
    @inline(__always)
    func entry<E: QuantizedActivation>(_ q: E, _ f: Function, _ input: QuantParams, _ output: QuantParams) -> E {
        let x = input.dequantize(q)
        switch f {
        case .hardSwish: return output.quantize(Self.hardSwish(x), as: E.self)
        case .logistic: return output.quantize(Self.logistic(x), as: E.self)
        }
    }

    public subscript(_ q: Int8) -> Int8 { table[Int(q) + 128] }

    /// The table's entry for input 0 (entries run from `E.min`).
    @inline(__always)
    func center<E: QuantizedActivation>(_: E.Type) -> UnsafePointer<E> {
        precondition(entries == 1 << E.bitWidth)
        guard let storage else { preconditionFailure("an unstored table has no entries to read") }
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
    if let (f, qin, qout) = table.computed {
        for i in 0..<count { output[i] = table.entry(input[i], f, qin, qout) }
        return
    }
    let t = table.center(E.self)
    for i in 0..<count { output[i] = t[Int(input[i])] }
}

public func lookupUnrolled<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ count: Int, _ table: LookupTable,
    _ output: UnsafeMutablePointer<E>
) {
    if let (qin, qout) = table.hardSwishParameters {
        let done = hardSwishVector(input, count, qin, qout, output)
        if table.isStored {
            let t = table.center(E.self)
            for i in done..<count { output[i] = t[Int(input[i])] }
        } else {
            for i in done..<count { output[i] = table.entry(input[i], .hardSwish, qin, qout) }
        }
        return
    }
    if let (f, qin, qout) = table.computed {
        for i in 0..<count { output[i] = table.entry(input[i], f, qin, qout) }
        return
    }
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

/// aarch64: every table (HARD_SWISH included) by lookup, in C: int8 with `tbl`/`tbx` over the
/// 256-entry table in sixteen q registers (sixteen values in ten instructions), int16 one load
/// per value (about three instructions a value against twice that for `hardSwishVector`'s float
/// lanes with two divisions).
public func lookupNEON<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ count: Int, _ table: LookupTable,
    _ output: UnsafeMutablePointer<E>
) {
    guard table.isStored else { return lookupUnrolled(input, count, table, output) }
    let first = UnsafeRawPointer(table.center(E.self) + Int(E.min))
    let src = UnsafeRawPointer(input), dst = UnsafeMutableRawPointer(output)
    if E.bitWidth == 8 {
        booth_lookup_s8(src.assumingMemoryBound(to: Int8.self), count, first.assumingMemoryBound(to: Int8.self),
                        dst.assumingMemoryBound(to: Int8.self))
    } else {
        booth_lookup_s16(src.assumingMemoryBound(to: Int16.self), count, first.assumingMemoryBound(to: Int16.self),
                         dst.assumingMemoryBound(to: Int16.self))
    }
}

/// HARD_SWISH on the first `count / 16 · 16` values, 16 per step; returns how many it did.
/// Each lane repeats the table construction's Float operations in order — dequantise
/// `scale·(q − zp)`, `x·clamp(x + 3, 0, 6) / 6`, divide by the output scale, round half away from
/// zero, add the zero point, clamp — so every result equals the table's entry (IEEE operations
/// give the same bits in a vector lane as in a scalar; the rounding is done exactly by
/// truncation and the fraction's comparison with ±0.5).
@inline(never)
func hardSwishVector<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ count: Int, _ qin: QuantParams, _ qout: QuantParams,
    _ output: UnsafeMutablePointer<E>
) -> Int {
    typealias F = SIMD16<Float>
    typealias I = SIMD16<Int32>
    let inScale = F(repeating: qin.scale), outScale = F(repeating: qout.scale)
    let zpIn = I(repeating: qin.zeroPoint), zpOut = I(repeating: qout.zeroPoint)
    let zero = F(), three = F(repeating: 3), six = F(repeating: 6), half = F(repeating: 0.5)
    // Beyond ±40000 every result clamps; the bound keeps the float → int32 conversion in range.
    let far = F(repeating: 40000)
    let lo = I(repeating: Int32(E.min)), hi = I(repeating: Int32(E.max)), one = I(repeating: 1), none = I()
    var i = 0
    while i + 16 <= count {
        var q = I()
        for k in 0..<16 { q[k] = Int32(truncatingIfNeeded: input[i + k]) }
        q &-= zpIn
        var qf = F()
        for k in 0..<16 { qf[k] = Float(q[k]) }
        let x = inScale * qf
        var r = x + three
        r = r.replacing(with: zero, where: r .< zero)
        r = r.replacing(with: six, where: r .> six)
        var v = x * r / six / outScale
        v = v.replacing(with: far, where: v .> far)
        v = v.replacing(with: -far, where: v .< -far)
        var t = I()
        for k in 0..<16 { t[k] = Int32(v[k]) }
        var tf = F()
        for k in 0..<16 { tf[k] = Float(t[k]) }
        let fraction = v - tf
        t = t &+ none.replacing(with: one, where: fraction .>= half)
            &- none.replacing(with: one, where: fraction .<= -half) &+ zpOut
        t = t.replacing(with: lo, where: t .< lo)
        t = t.replacing(with: hi, where: t .> hi)
        for k in 0..<16 { output[i + k] = E(truncatingIfNeeded: t[k]) }
        i += 16
    }
    return i
}

// MARK: - PRELU

/// PRELU with a per-channel slope: `out = zp_out + (x·m + 2^(k−1)) >> k` with `x = q − zp_in`
/// (|x| ≤ 255) and `m` the real multiplier `s_in/s_out` (x ≥ 0) or `s_in·α[c]/s_out` (x < 0) as a
/// fixed-point number with `k` fraction bits, `|m| < 2^23`, so that `x·m` and the rounding fit
/// int32. One shift `k` for every channel and both sides (the largest that keeps every `|m|` below
/// 2^23: 22 fraction bits for multipliers near 1, far finer than an output step), one multiply,
/// one rounding (half up), the zero point and the clamp — in a vector lane, nine operations.
public final class PReLUParams {
    public let channels: Int
    public let inputZeroPoint: Int32, outputZeroPoint: Int32
    /// `k`: the fraction bits of every multiplier.
    public let shift: Int32
    /// `m` for x ≥ 0.
    public let positive: Int32
    /// `m` for x < 0 by channel, in `channels + 16` rows: row `r` holds channel `r mod channels`,
    /// so 16 lanes read from any channel wrap around.
    let negative: UnsafeMutablePointer<Int32>

    /// `alpha`: one real slope per channel.
    public init(input: QuantParams, output: QuantParams, alpha: [Float]) {
        precondition(!alpha.isEmpty)
        channels = alpha.count
        inputZeroPoint = input.zeroPoint
        outputZeroPoint = output.zeroPoint
        let base = Double(input.scale) / Double(output.scale)
        var largest = base
        for a in alpha { largest = max(largest, (base * Double(a)).magnitude) }
        var k: Int32 = 30
        while k > 0 && (largest * pow2(Int(k))).rounded() >= 8_388_608 { k -= 1 }
        shift = k
        func fixed(_ real: Double) -> Int32 {
            Int32(max(-8_388_607, min(8_388_607, (real * pow2(Int(k))).rounded())))
        }
        positive = fixed(base)
        negative = .allocate(capacity: alpha.count + 16)
        for r in 0..<(alpha.count + 16) { negative[r] = fixed(base * Double(alpha[r % alpha.count])) }
    }

    deinit { negative.deallocate() }

    @inline(__always)
    func scalar(_ q: Int8, channel c: Int) -> Int8 {
        let x = Int32(q) &- inputZeroPoint
        let m = x >= 0 ? positive : negative[c]
        let round: Int32 = shift > 0 ? 1 &<< (shift &- 1) : 0
        let v = (x &* m &+ round) &>> shift
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

/// `PReLUParams.scalar` on 16 lanes: constants in registers, the negative-side multipliers read
/// from the wrapped rows at the first lane's channel.
struct PReLULanes {
    typealias V = SIMD16<Int32>
    let negative: UnsafePointer<Int32>
    let zpIn: V, zpOut: V, positive: V, round: V
    let shift: Int32
    let lo = V(repeating: -128), hi = V(repeating: 127), zero = V()

    @inline(always)
    init(_ params: PReLUParams) {
        negative = UnsafePointer(params.negative)
        zpIn = V(repeating: params.inputZeroPoint)
        zpOut = V(repeating: params.outputZeroPoint)
        positive = V(repeating: params.positive)
        round = V(repeating: params.shift > 0 ? 1 &<< (params.shift &- 1) : 0)
        shift = params.shift
    }

    /// PReLU of 16 int8 values held in int32 lanes, the first of channel `ch`; clamped, not
    /// narrowed.
    @inline(always)
    func apply(_ q: V, channel ch: Int) -> V {
        let x = q &- zpIn
        var n = V()
        for j in 0..<16 { n[j] = negative[ch + j] }
        let m = positive.replacing(with: n, where: x .< zero)
        var v = ((x &* m &+ round) &>> V(repeating: shift)) &+ zpOut
        v = v.replacing(with: lo, where: v .< lo)
        v = v.replacing(with: hi, where: v .> hi)
        return v
    }
}

/// aarch64: `preluScalar`'s arithmetic sixteen values per step in C (`booth_prelu_s8`).
public func preluNEON(
    _ input: UnsafePointer<Int8>, _ pixels: Int, _ params: PReLUParams,
    _ output: UnsafeMutablePointer<Int8>
) {
    booth_prelu_s8(input, pixels, params.channels, params.inputZeroPoint, params.outputZeroPoint, params.positive,
                   params.negative, params.shift, output)
}

/// Sixteen values per step (`PReLULanes`), bit-identical to `preluScalar`; the last values
/// (fewer than 16) one by one.
@inline(never)
public func preluSIMD(
    _ input: UnsafePointer<Int8>, _ pixels: Int, _ params: PReLUParams,
    _ output: UnsafeMutablePointer<Int8>
) {
    let c = params.channels, n = pixels * c
    let lanes = PReLULanes(params)
    var i = 0, ch = 0
    while i + 16 <= n {
        var q = SIMD16<Int32>()
        for j in 0..<16 { q[j] = Int32(input[i + j]) }
        let v = lanes.apply(q, channel: ch)
        let dst = output + i
        for j in 0..<16 { dst[j] = Int8(truncatingIfNeeded: v[j]) }
        i += 16
        ch += 16
        if ch >= c { ch -= c; if ch >= c { ch %= c } }  // one subtraction when c ≥ 16
    }
    while i < n {
        let x = Int32(input[i]) &- params.inputZeroPoint
        let m = x >= 0 ? params.positive : params.negative[i % c]
        let v = (x &* m &+ (params.shift > 0 ? 1 &<< (params.shift &- 1) : 0)) &>> params.shift
        output[i] = Int8(truncatingIfNeeded: clamp32(v &+ params.outputZeroPoint, -128, 127))
        i += 1
    }
}
