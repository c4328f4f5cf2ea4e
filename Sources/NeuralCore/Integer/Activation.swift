/// Unary activations (RELU, RELU6, HARD_SWISH, LOGISTIC, and any other pointwise function) as
/// tables built at load: `table[q − min] = quantize_out(f(dequantize_in(q)))` over every input
/// value — 256 int8 entries, or 65,536 int16 entries (128 KiB) on the int16-activation path.
/// A table lookup is a gather, which neither SSE/AVX2 nor generic `SIMD` express for 256
/// entries (NEON's `tbl` covers 64), so the "SIMD" variant is the same lookup unrolled by 8.
///
/// PRELU with a per-channel slope is requantisation with two multipliers, `s_in/s_out` for
/// x ≥ zp and `s_in·α[c]/s_out` below (α may be negative): `preluScalar` computes exactly that;
/// the vector variant computes the same bits in int32 lanes with the multipliers split in two
/// halves (no 64-bit products), 16 values per step; a per-channel 256-entry table built from the
/// reference at load covers the multipliers the split form cannot take.

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

    /// Set on HARD_SWISH tables (`hardSwish(input:output:as:)`): `lookupUnrolled` then computes
    /// the entries with float vectors — the operations of the table's construction in the same
    /// order, so the same values — instead of gathering them (16 values per step against one
    /// load per value from a 128 KiB table on the int16 path).
    public private(set) var hardSwishParameters: (input: QuantParams, output: QuantParams)?

    /// The HARD_SWISH table from `input` to `output` quantisation.
    public static func hardSwish<E: QuantizedActivation>(input: QuantParams, output: QuantParams,
                                                         as e: E.Type) -> LookupTable {
        let table = LookupTable(input: input, output: output, as: e, hardSwish)
        table.hardSwishParameters = (input, output)
        return table
    }

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
    if let (qin, qout) = table.hardSwishParameters {
        let done = hardSwishVector(input, count, qin, qout, output)
        let t = table.center(E.self)
        for i in done..<count { output[i] = t[Int(input[i])] }
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
        // The split form of `preluSIMD` needs |x·2^left| < 2^14 for |x| ≤ 255: left ≤ 6.
        let (nm, nl, nr) = (negMultiplier, negLeft, negRight)
        var splittable = alpha.count > 0 && positive.leftShift <= 6
        for c in 0..<alpha.count where nl[c] > 6 { splittable = false }
        let wrapped = alpha.count + 16
        let split: UnsafeMutablePointer<Int32>? = splittable ? .allocate(capacity: 4 * wrapped) : nil
        if let split {
            // Row k of each array holds channel k mod C, so 16 lanes read from any channel wrap.
            for k in 0..<wrapped {
                let c = k % alpha.count
                split[k] = nm[c] >> 15
                split[wrapped + k] = nm[c] & 0x7FFF
                split[2 * wrapped + k] = nl[c]
                split[3 * wrapped + k] = nr[c]
            }
        }
        self.split = split
        table = .allocate(capacity: max(1, alpha.count) * 256)
        for c in 0..<alpha.count {
            for q in -128...127 { table[c * 256 + q + 128] = scalar(Int8(q), channel: c) }
        }
    }

    /// The negative-side multipliers split as `m = high·2^15 + low` (`low` in 0..<2^15), left and
    /// right shifts: four arrays of `channels + 16` rows (see `init`), or nil when some left shift
    /// exceeds 6 and `preluSIMD` uses the table.
    let split: UnsafeMutablePointer<Int32>?

    /// True when `preluSIMD` computes (the split int32 form), false when it looks up the table.
    public var usesSplitMultipliers: Bool { split != nil }

    /// `table[c * 256 + q + 128]`: the scalar result for every channel and input, built once
    /// (`preluLookup`, the fallback of `preluSIMD`).
    let table: UnsafeMutablePointer<Int8>

    deinit {
        split?.deallocate()
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

/// Sixteen values per step in int32 lanes, bit-identical to `preluScalar` without 64-bit
/// products: with `x = q − zp` (|x| ≤ 255), `y = x·2^left` (|y| < 2^14) and the multiplier split
/// as `m = h·2^15 + l`, gemmlowp's `(y·m + 2^30) >> 31` equals
/// `(y·h + 2^15 + ((y·l) >> 15)) >> 16` (floor division nests), and every term fits int32. Each
/// lane takes the positive or its channel's negative multiplier by the sign of `x`; then the
/// rounding divide by 2^right, the zero point, the clamp. Falls back to the per-channel table
/// (`preluLookup`) when a left shift exceeds 6.
public func preluSIMD(
    _ input: UnsafePointer<Int8>, _ pixels: Int, _ params: PReLUParams,
    _ output: UnsafeMutablePointer<Int8>
) {
    if let split = params.split {
        preluSplit(input, pixels, params, split, output)
    } else {
        preluLookup(input, pixels, params, output)
    }
}

/// The split form's arithmetic on 16 lanes (see `preluSIMD`): constants in registers, the
/// per-channel ones read from the wrapped arrays at the first lane's channel.
struct PReLULanes {
    typealias V = SIMD16<Int32>
    let split: UnsafeRawPointer
    let rows: Int
    let zpIn: V, zpOut: V, posHigh: V, posLow: V, posLeft: V, posRight: V
    let lo = V(repeating: -128), hi = V(repeating: 127), one = V(repeating: 1), zero = V()

    @inline(always)
    init(_ params: PReLUParams, _ split: UnsafeMutablePointer<Int32>) {
        self.split = UnsafeRawPointer(split)
        rows = params.channels + 16
        zpIn = V(repeating: params.inputZeroPoint)
        zpOut = V(repeating: params.outputZeroPoint)
        posHigh = V(repeating: params.positive.multiplier >> 15)
        posLow = V(repeating: params.positive.multiplier & 0x7FFF)
        posLeft = V(repeating: params.positive.leftShift)
        posRight = V(repeating: params.positive.rightShift)
    }

    /// PReLU of 16 int8 values held in int32 lanes, the first of channel `ch`; clamped, not
    /// narrowed.
    @inline(always)
    func apply(_ q: V, channel ch: Int) -> V {
        let x = q &- zpIn
        let negative = x .< zero
        let off = ch * 4
        let h = posHigh.replacing(with: split.loadUnaligned(fromByteOffset: off, as: V.self), where: negative)
        let l = posLow.replacing(with: split.loadUnaligned(fromByteOffset: rows * 4 + off, as: V.self),
                                 where: negative)
        let left = posLeft.replacing(with: split.loadUnaligned(fromByteOffset: rows * 8 + off, as: V.self),
                                     where: negative)
        let right = posRight.replacing(with: split.loadUnaligned(fromByteOffset: rows * 12 + off, as: V.self),
                                       where: negative)
        let y = x &<< left
        let s = (y &* h &+ 32768 &+ ((y &* l) &>> 15)) &>> 16
        let mask = (one &<< right) &- one
        let threshold = (mask &>> 1) &- (s &>> 31)
        var v = (s &>> right) &+ zero.replacing(with: one, where: (s & mask) .> threshold) &+ zpOut
        v = v.replacing(with: lo, where: v .< lo)
        v = v.replacing(with: hi, where: v .> hi)
        return v
    }
}

/// The loop of `preluSIMD`'s split form (a function of its own so that the NEON check sees it
/// alone).
@inline(never)
func preluSplit(
    _ input: UnsafePointer<Int8>, _ pixels: Int, _ params: PReLUParams, _ split: UnsafeMutablePointer<Int32>,
    _ output: UnsafeMutablePointer<Int8>
) {
    let c = params.channels, n = pixels * c
    let lanes = PReLULanes(params, split)
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
    // The tail (fewer than 16 values) from the table.
    while i < n { output[i] = params.table[(i % c) * 256 + Int(input[i]) + 128]; i += 1 }
}

/// The per-channel table: `table[c][q]` holds `preluScalar`'s result for every input.
public func preluLookup(
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
