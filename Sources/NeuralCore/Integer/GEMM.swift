/// Packed int16×int8→int32 GEMM: the core of CONV_2D (1×1 directly, K×K through im2col) and of
/// the transpose convolution.
///
/// `C[r][n] = Σ_k A[r][k] · W[n][k]` where
/// - `A` is int16, rows of `depthStride` values, holding activations with the input zero point
///   already subtracted (−255...255 from int8 activations, −32768...32767 from the symmetric int16
///   ones; padding taps are 0), the last column zero when the depth is odd;
/// - `W` is the per-channel int8 filter (−127...127) packed once at load into blocks of 16 output
///   channels: `[block][k/2][16 channels][2]` int16, so one k-pair of one block is one
///   `SIMD32<Int16>`, and one `(k, k+1)` pair of `A` is one broadcast int32. Each step is then a
///   widening multiply and a pairwise add into 16 int32 lanes (AVX-512 VNNI: one zmm `vpdpwssd`
///   with the pair as an embedded broadcast; aarch64: `smull`/`smlal` on four registers).
///
/// `gemmSIMD` (x86-64 timings on this Zen 5 host, 64-row tiles): 8-row register tiles, the
/// accumulators starting at the bias, and the output stage 16 lanes at a time with its
/// per-channel constants in registers (`StageRegisters`: one 64-bit rounding constant and one
/// arithmetic shift replace the doubling high multiply's and the rounding divide's two roundings,
/// with the zero point folded in), bit-exact with `gemmScalar`. About 2.2× the previous 8-lane
/// kernel from K = 16 (where the output stage dominates) to K = 128.

import CNeuralKernels

/// Filters packed for the GEMM micro-kernel (allocated once at load).
public final class PackedGEMMWeights {
    /// N: output channels.
    public let outputChannels: Int
    /// K: products per output.
    public let depth: Int
    /// K rounded up to even: the row length of `A`.
    public let depthStride: Int
    /// N rounded up to 16.
    public let paddedChannels: Int
    /// Σ_k W[n][k], for callers that keep the zero point in `A` instead.
    public let rowSums: [Int32]
    let data: UnsafeMutablePointer<Int16>
    let count: Int
    /// aarch64: the same filters for the NEON kernel (`booth_gemm_s16`), `[block][k][16 channels]`
    /// int16, so one k of one block is two q registers multiplied by one activation lane.
    let neon: UnsafeMutablePointer<Int16>?
    /// K rounded up to 16: the row length the int8 kernels read.
    public let depth16: Int
    /// aarch64: the filters as int8 for `booth_gemm_s8_mlal`, `[block of 16][k/4][4 groups][2 pairs]
    /// [4 channels][2]` (K rounded up to 4), and for `booth_gemm_s8_dot`, `[block of 16][k/4][16][4]`
    /// (K rounded up to 16), zero past K, and `rowSums` padded to `paddedChannels`.
    let mlal8: UnsafeMutablePointer<Int8>?
    let dot8: UnsafeMutablePointer<Int8>?
    let paddedRowSums: UnsafeMutablePointer<Int32>?

    /// `weights` row-major `[N][K]` (TFLite CONV_2D `[OC][KH][KW][IC]` flattened).
    public init(weights: [Int8], outputChannels n: Int, depth k: Int) {
        precondition(n > 0 && k > 0 && weights.count == n * k)
        outputChannels = n
        depth = k
        depthStride = (k + 1) / 2 * 2
        paddedChannels = (n + 15) / 16 * 16
        count = paddedChannels * depthStride
        data = .allocate(capacity: count)
        data.initialize(repeating: 0, count: count)
        var sums = [Int32](repeating: 0, count: n)
        for c in 0..<n {
            for d in 0..<k {
                let w = weights[c * k + d]
                data[Self.index(channel: c, depth: d, depthStride: depthStride)] = Int16(w)
                sums[c] += Int32(w)
            }
        }
        rowSums = sums
#if arch(arm64)
        let neonCount = paddedChannels * k
        let neon = UnsafeMutablePointer<Int16>.allocate(capacity: neonCount)
        neon.initialize(repeating: 0, count: neonCount)
        for c in 0..<n {
            for d in 0..<k { neon[(c >> 4) * (k * 16) + d * 16 + (c & 15)] = Int16(weights[c * k + d]) }
        }
        self.neon = neon
        let k16 = (k + 15) / 16 * 16
        let k4 = (k + 3) / 4 * 4
        let count8 = paddedChannels * k16
        let mlal8 = UnsafeMutablePointer<Int8>.allocate(capacity: count8)
        mlal8.initialize(repeating: 0, count: count8)
        let dot8 = UnsafeMutablePointer<Int8>.allocate(capacity: count8)
        dot8.initialize(repeating: 0, count: count8)
        for c in 0..<n {
            for d in 0..<k {
                let w = weights[c * k + d]
                mlal8[(c >> 4) * (16 * k4) + (d >> 2) * 64 + ((c & 15) >> 2) * 16 + ((d >> 1) & 1) * 8 + (c & 3) * 2 + (d & 1)] = w
                dot8[Self.dotIndex(channel: c, depth: d, depth16: k16)] = w
            }
        }
        let padded = UnsafeMutablePointer<Int32>.allocate(capacity: paddedChannels)
        padded.initialize(repeating: 0, count: paddedChannels)
        for c in 0..<n { padded[c] = sums[c] }
        depth16 = k16
        self.mlal8 = mlal8
        self.dot8 = dot8
        paddedRowSums = padded
#else
        neon = nil
        depth16 = (k + 15) / 16 * 16
        mlal8 = nil
        dot8 = nil
        paddedRowSums = nil
#endif
    }

    deinit {
        data.deallocate()
        neon?.deallocate()
        mlal8?.deallocate()
        dot8?.deallocate()
        paddedRowSums?.deallocate()
    }

    @inline(__always)
    static func index(channel c: Int, depth d: Int, depthStride: Int) -> Int {
        (c >> 4) * (depthStride * 16) + (d >> 1) * 32 + (c & 15) * 2 + (d & 1)
    }

    /// Where W[n][k] lies in the `dot8` packing (`booth_gemm_s8_dot`, `booth_gemm_s16_dot`):
    /// `[block of 16][k / 4][16 channels][4]`, `depth16` int8 per channel.
    @inline(__always)
    public static func dotIndex(channel c: Int, depth d: Int, depth16: Int) -> Int {
        (c >> 4) * (16 * depth16) + (d >> 2) * 64 + (c & 15) * 4 + (d & 3)
    }

    /// W[n][k] read back from the packed layout.
    @inline(__always)
    public func weight(channel c: Int, depth d: Int) -> Int16 {
        data[Self.index(channel: c, depth: d, depthStride: depthStride)]
    }
}

/// Where a GEMM writes its result.
public enum GEMMOutput {
    /// Requantised int8, `rowStride` elements between rows (channels contiguous).
    case int8(UnsafeMutablePointer<Int8>, rowStride: Int, stage: OutputStage)
    /// Requantised int16 (the int16-activation path), laid out as `int8`.
    case int16(UnsafeMutablePointer<Int16>, rowStride: Int, stage: OutputStage)
    /// Raw int32 accumulators (transpose convolution scatters these).
    case int32(UnsafeMutablePointer<Int32>, rowStride: Int)

    /// `.int8` or `.int16`, whichever `E` is.
    @inline(__always)
    static func quantized<E: QuantizedActivation>(_ p: UnsafeMutablePointer<E>, rowStride: Int,
                                                  stage: OutputStage) -> GEMMOutput {
        let raw = UnsafeMutableRawPointer(p)
        return E.bitWidth == 8
            ? .int8(raw.assumingMemoryBound(to: Int8.self), rowStride: rowStride, stage: stage)
            : .int16(raw.assumingMemoryBound(to: Int16.self), rowStride: rowStride, stage: stage)
    }
}

/// Signature shared by the GEMM variants: `rows` rows of `A` (row length
/// `weights.depthStride`), all output channels.
public typealias GEMMKernel = @Sendable (
    _ a: UnsafePointer<Int16>, _ rows: Int, _ weights: PackedGEMMWeights, _ output: GEMMOutput
) -> Void

// MARK: - Scalar reference

/// Plain triple loop over the packed weights: the reference every other variant must equal.
public func gemmScalar(
    _ a: UnsafePointer<Int16>, _ rows: Int, _ weights: PackedGEMMWeights, _ output: GEMMOutput
) {
    let k2 = weights.depthStride
    for r in 0..<rows {
        let row = a + r * k2
        for n in 0..<weights.outputChannels {
            var acc: Int32 = 0
            for d in 0..<weights.depth {
                acc &+= Int32(row[d]) &* Int32(weights.weight(channel: n, depth: d))
            }
            switch output {
            case .int8(let out, let stride, let stage):
                out[r * stride + n] = stage.apply(acc, channel: n)
            case .int16(let out, let stride, let stage):
                out[r * stride + n] = stage.apply(acc, channel: n)
            case .int32(let out, let stride):
                out[r * stride + n] = acc
            }
        }
    }
}

// MARK: - SIMD

@inline(__always)
func pairProducts(_ w: SIMD16<Int16>, _ pair: Int32) -> I32x8 {
    let av = unsafeBitCast(I32x8(repeating: pair), to: SIMD16<Int16>.self)
    let p = widen16to32(w) &* widen16to32(av)
    return p.evenHalf &+ p.oddHalf
}

/// Unaligned vector stores written lane by lane: `UnsafeMutableRawPointer.storeBytes(of:as:)` is
/// left out of line in `gemmSIMD` (a call, a `vzeroupper` and accumulator spills per tile row);
/// the lane loop becomes one `vmovdqu` / `str q`.
@inline(__always)
func storeLanes(_ v: SIMD16<Int8>, _ p: UnsafeMutablePointer<Int8>) {
    for i in 0..<16 { p[i] = v[i] }
}

@inline(__always)
func storeLanes(_ v: SIMD16<Int16>, _ p: UnsafeMutablePointer<Int16>) {
    for i in 0..<16 { p[i] = v[i] }
}

@inline(__always)
func storeLanes(_ v: I32x8, _ p: UnsafeMutablePointer<Int32>) {
    for i in 0..<8 { p[i] = v[i] }
}

@_transparent
func storeTile(
    _ acc0: I32x8, _ acc1: I32x8, row r: Int, block b: Int, weights: PackedGEMMWeights,
    output: GEMMOutput
) {
    let n0 = b * 16
    let left = weights.outputChannels - n0
    let valid = left < 16 ? left : 16
    switch output {
    case .int8(let out, let stride, let stage):
        let lo: SIMD8<Int8> = applyStage(stage, acc0, channel: n0)
        let hi: SIMD8<Int8> = applyStage(stage, acc1, channel: n0 + 8)
        let dst = out + r * stride + n0
        if valid == 16 {
            storeLanes(SIMD16<Int8>(lowHalf: lo, highHalf: hi), dst)
        } else {
            for i in 0..<valid { dst[i] = i < 8 ? lo[i] : hi[i - 8] }
        }
    case .int16(let out, let stride, let stage):
        let lo: SIMD8<Int16> = applyStage(stage, acc0, channel: n0)
        let hi: SIMD8<Int16> = applyStage(stage, acc1, channel: n0 + 8)
        let dst = out + r * stride + n0
        if valid == 16 {
            storeLanes(SIMD16<Int16>(lowHalf: lo, highHalf: hi), dst)
        } else {
            for i in 0..<valid { dst[i] = i < 8 ? lo[i] : hi[i - 8] }
        }
    case .int32(let out, let stride):
        let dst = out + r * stride + n0
        if valid == 16 {
            storeLanes(acc0, dst)
            storeLanes(acc1, dst + 8)
        } else {
            for i in 0..<valid { dst[i] = i < 8 ? acc0[i] : acc1[i - 8] }
        }
    }
}

/// 16 channels of one k-pair as one 16-lane step: a `SIMD32<Int16>` weight vector (channel-major
/// pairs) times a broadcast activation pair, summed by pairs. Written with the widening split in
/// 16-lane halves, LLVM forms one 512-bit `vpdpwssd` with an embedded `{1to16}` broadcast of the
/// pair (AVX512-VNNI); a 32-lane widening loop is not vectorised, and two 8-lane `pairProducts`
/// joined become `vpmulld` + shuffles. aarch64: `smull`/`smlal` on four registers.
@inline(always)
func pairProducts16(_ w: SIMD32<Int16>, _ pair: Int32) -> I32x16 {
    let av = unsafeBitCast(I32x16(repeating: pair), to: SIMD32<Int16>.self)
    let p = widen16to32(w) &* widen16to32(av)
    return p.evenHalf &+ p.oddHalf
}

@inline(always)
func widen16to32(_ v: SIMD32<Int16>) -> SIMD32<Int32> {
    // Tuple casts instead of the generic `lowHalf`/`highHalf`/`init(lowHalf:highHalf:)`: using
    // those here changed the SIL inliner's decisions elsewhere in the module (depthwiseSIMD
    // then called `SIMD16<Int8>.lowHalf` out of line).
    let (l, h) = unsafeBitCast(v, to: (SIMD16<Int16>, SIMD16<Int16>).self)
    return unsafeBitCast((widen16to32(l), widen16to32(h)), to: SIMD32<Int32>.self)
}

@inline(always)
func storeLanes(_ v: I32x16, _ p: UnsafeMutablePointer<Int32>) {
    for i in 0..<16 { p[i] = v[i] }
}

@inline(always)
func narrowLanes<E: QuantizedActivation>(_ v: I32x16) -> SIMD16<E> {
    // Two 8-lane loops: LLVM vectorised one 16-lane loop only partly (per-lane extracts).
    let (lo, hi) = unsafeBitCast(v, to: (I32x8, I32x8).self)
    return unsafeBitCast((narrow(lo) as SIMD8<E>, narrow(hi) as SIMD8<E>), to: SIMD16<E>.self)
}

/// Output channels of block `b` that exist (16, or fewer in the last block).
@_transparent
func validChannels(_ weights: PackedGEMMWeights, block b: Int) -> Int {
    let left = weights.outputChannels - b * 16
    return left < 16 ? left : 16
}

/// Where the micro-kernel puts a finished row of 16 accumulators of one block.
protocol GEMMTileSink {
    /// The accumulators' starting value.
    var start: I32x16 { get }
    func store(_ acc: I32x16, row: Int)
}

/// Requantised `E` output of block `b`: accumulators start at the bias (wrapping int32 addition is
/// associative, so the bits are the reference's) and the stage constants stay in registers.
/// `Full`: all 16 channels exist (one vector store per row); otherwise `valid` lanes are stored
/// one by one. Separate types: with the tail loop in the same function as the vector store, LLVM
/// merged them into per-lane extracts and stores.
struct QuantizedTileSink<E: QuantizedActivation, Full: TileWidth>: GEMMTileSink {
    let stage: StageRegisters
    let out: UnsafeMutablePointer<E>
    let stride: Int
    let valid: Int

    @inline(always)
    init(_ stage: OutputStage, _ out: UnsafeMutablePointer<E>, stride: Int, block b: Int, valid: Int) {
        self.stage = StageRegisters(stage, group: b)
        self.out = out + b * 16
        self.stride = stride
        self.valid = valid
    }

    var start: I32x16 {
        @inline(always) get { stage.group.bias }
    }

    @inline(always)
    func store(_ acc: I32x16, row r: Int) {
        let v: SIMD16<E> = narrowLanes(stage.apply(acc))
        let dst = out + r &* stride
        if Full.full {
            UnsafeMutableRawPointer(dst).storeBytesLaneByLane(v)
        } else {
            // Partial blocks (24, 72, 88… channels leave 8): the first 8 lanes as one store.
            var i = 0
            if valid >= 8 {
                for j in 0..<8 { dst[j] = v[j] }
                i = 8
            }
            while i < valid { dst[i] = v[i]; i += 1 }
        }
    }
}

/// Whether a sink's blocks are full (16 channels): a type parameter, so each variant is its own
/// specialisation.
protocol TileWidth { static var full: Bool { get } }
enum FullTile: TileWidth { static var full: Bool { @inline(always) get { true } } }
enum PartialTile: TileWidth { static var full: Bool { @inline(always) get { false } } }

extension UnsafeMutableRawPointer {
    /// Sixteen `E` lanes stored lane by lane (one vector store; see `storeLanes`).
    @inline(always)
    func storeBytesLaneByLane<E: QuantizedActivation>(_ v: SIMD16<E>) {
        if E.bitWidth == 8 {
            storeLanes(unsafeBitCast(v, to: SIMD16<Int8>.self), assumingMemoryBound(to: Int8.self))
        } else {
            storeLanes(unsafeBitCast(v, to: SIMD16<Int16>.self), assumingMemoryBound(to: Int16.self))
        }
    }
}

/// Raw int32 accumulators of block `b`.
struct RawTileSink: GEMMTileSink {
    let out: UnsafeMutablePointer<Int32>
    let stride: Int
    let valid: Int

    var start: I32x16 {
        @inline(always) get { I32x16() }
    }

    @inline(always)
    func store(_ acc: I32x16, row r: Int) {
        let dst = out + r &* stride
        if valid == 16 { storeLanes(acc, dst) } else { for i in 0..<valid { dst[i] = acc[i] } }
    }
}

/// All rows of one 16-channel block `w`: register tiles of 8 rows on x86-64 (8 zmm accumulators
/// with AVX-512; 16 ymm with AVX2), 4 elsewhere (16 of aarch64's 32 q registers), then 4 and 1
/// for the remaining rows.
@inline(always)
func gemmBlock<S: GEMMTileSink>(_ aRaw: UnsafeRawPointer, rows: Int, rowBytes: Int, pairs: Int,
                                _ w: UnsafeRawPointer, _ sink: S) {
    let start = sink.start
    var r = 0
#if arch(x86_64) && BOOTH_AVX512
    // 8-row tiles need AVX-512's 32 vector registers (eight zmm accumulators); with AVX2's 16
    // they spill (1.3× slower on the models), so Package.swift defines BOOTH_AVX512 only for
    // AVX-512 targets.
    while r + 8 <= rows {
        var c0 = start, c1 = start, c2 = start, c3 = start
        var c4 = start, c5 = start, c6 = start, c7 = start
        let a0 = aRaw + r * rowBytes
        let a4 = a0 + 4 * rowBytes
        for p in 0..<pairs {
            let wv = w.loadUnaligned(fromByteOffset: p &* 64, as: SIMD32<Int16>.self)
            c0 &+= pairProducts16(wv, a0.loadUnaligned(fromByteOffset: p &* 4, as: Int32.self))
            c1 &+= pairProducts16(wv, a0.loadUnaligned(fromByteOffset: rowBytes &+ p &* 4, as: Int32.self))
            c2 &+= pairProducts16(wv, a0.loadUnaligned(fromByteOffset: 2 &* rowBytes &+ p &* 4, as: Int32.self))
            c3 &+= pairProducts16(wv, a0.loadUnaligned(fromByteOffset: 3 &* rowBytes &+ p &* 4, as: Int32.self))
            c4 &+= pairProducts16(wv, a4.loadUnaligned(fromByteOffset: p &* 4, as: Int32.self))
            c5 &+= pairProducts16(wv, a4.loadUnaligned(fromByteOffset: rowBytes &+ p &* 4, as: Int32.self))
            c6 &+= pairProducts16(wv, a4.loadUnaligned(fromByteOffset: 2 &* rowBytes &+ p &* 4, as: Int32.self))
            c7 &+= pairProducts16(wv, a4.loadUnaligned(fromByteOffset: 3 &* rowBytes &+ p &* 4, as: Int32.self))
        }
        sink.store(c0, row: r); sink.store(c1, row: r + 1)
        sink.store(c2, row: r + 2); sink.store(c3, row: r + 3)
        sink.store(c4, row: r + 4); sink.store(c5, row: r + 5)
        sink.store(c6, row: r + 6); sink.store(c7, row: r + 7)
        r += 8
    }
#endif
    while r + 4 <= rows {
        var c0 = start, c1 = start, c2 = start, c3 = start
        let a0 = aRaw + r * rowBytes
        for p in 0..<pairs {
            let wv = w.loadUnaligned(fromByteOffset: p &* 64, as: SIMD32<Int16>.self)
            c0 &+= pairProducts16(wv, a0.loadUnaligned(fromByteOffset: p &* 4, as: Int32.self))
            c1 &+= pairProducts16(wv, a0.loadUnaligned(fromByteOffset: rowBytes &+ p &* 4, as: Int32.self))
            c2 &+= pairProducts16(wv, a0.loadUnaligned(fromByteOffset: 2 &* rowBytes &+ p &* 4, as: Int32.self))
            c3 &+= pairProducts16(wv, a0.loadUnaligned(fromByteOffset: 3 &* rowBytes &+ p &* 4, as: Int32.self))
        }
        sink.store(c0, row: r); sink.store(c1, row: r + 1)
        sink.store(c2, row: r + 2); sink.store(c3, row: r + 3)
        r += 4
    }
    while r < rows {
        // Two accumulators over alternate k-pairs: a single row (the fully connected layers)
        // would otherwise wait on one `vpdpwssd` chain.
        var c0 = start, c1 = I32x16()
        let a0 = aRaw + r * rowBytes
        var p = 0
        while p + 2 <= pairs {
            c0 &+= pairProducts16(w.loadUnaligned(fromByteOffset: p &* 64, as: SIMD32<Int16>.self),
                                  a0.loadUnaligned(fromByteOffset: p &* 4, as: Int32.self))
            c1 &+= pairProducts16(w.loadUnaligned(fromByteOffset: p &* 64 &+ 64, as: SIMD32<Int16>.self),
                                  a0.loadUnaligned(fromByteOffset: p &* 4 &+ 4, as: Int32.self))
            p += 2
        }
        if p < pairs {
            c0 &+= pairProducts16(w.loadUnaligned(fromByteOffset: p &* 64, as: SIMD32<Int16>.self),
                                  a0.loadUnaligned(fromByteOffset: p &* 4, as: Int32.self))
        }
        sink.store(c0 &+ c1, row: r)
        r += 1
    }
}

/// Blocks of 16 output channels, each through `gemmBlock` with the output's sink. The output
/// stage runs 16 lanes at a time (`StageRegisters`).
public func gemmSIMD(
    _ a: UnsafePointer<Int16>, _ rows: Int, _ weights: PackedGEMMWeights, _ output: GEMMOutput
) {
    switch output {
    case .int8(_, _, let stage), .int16(_, _, let stage):
        if !stage.fusedExact { gemmSIMD8(a, rows, weights, output); return }
    case .int32: break
    }
    let k2 = weights.depthStride
    let pairs = k2 / 2
    let blocks = weights.paddedChannels / 16
    let aRaw = UnsafeRawPointer(a)
    let rowBytes = k2 * 2
    for b in 0..<blocks {
        let w = UnsafeRawPointer(weights.data + b * k2 * 16)
        let valid = validChannels(weights, block: b)
        switch output {
        case .int8(let out, let stride, let stage):
            if valid == 16 {
                gemmBlock(aRaw, rows: rows, rowBytes: rowBytes, pairs: pairs, w,
                          QuantizedTileSink<Int8, FullTile>(stage, out, stride: stride, block: b, valid: 16))
            } else {
                gemmBlock(aRaw, rows: rows, rowBytes: rowBytes, pairs: pairs, w,
                          QuantizedTileSink<Int8, PartialTile>(stage, out, stride: stride, block: b, valid: valid))
            }
        case .int16(let out, let stride, let stage):
            if valid == 16 {
                gemmBlock(aRaw, rows: rows, rowBytes: rowBytes, pairs: pairs, w,
                          QuantizedTileSink<Int16, FullTile>(stage, out, stride: stride, block: b, valid: 16))
            } else {
                gemmBlock(aRaw, rows: rows, rowBytes: rowBytes, pairs: pairs, w,
                          QuantizedTileSink<Int16, PartialTile>(stage, out, stride: stride, block: b, valid: valid))
            }
        case .int32(let out, let stride):
            gemmBlock(aRaw, rows: rows, rowBytes: rowBytes, pairs: pairs, w,
                      RawTileSink(out: out + b * 16, stride: stride, valid: valid))
        }
    }
}

/// The previous 8-lane kernel, kept for output stages outside `StageRegisters`' exact range
/// (shifts outside `0...31`, which `FixedMultiplier(real)` never produces): 4 rows × 16
/// channels, then 1 × 16 for the remaining rows. Inlined into `gemmSIMD`: a kernel's loops may
/// not call anything (scripts/arm/neon-check), and the compiler places this call in the blocks'
/// loop.
@inline(always)
func gemmSIMD8(
    _ a: UnsafePointer<Int16>, _ rows: Int, _ weights: PackedGEMMWeights, _ output: GEMMOutput
) {
    let k2 = weights.depthStride
    let pairs = k2 / 2
    let blocks = weights.paddedChannels / 16
    let aRaw = UnsafeRawPointer(a)
    let rowBytes = k2 * 2
    for b in 0..<blocks {
        let w = UnsafeRawPointer(weights.data + b * k2 * 16)
        var r = 0
        while r + 4 <= rows {
            var c00 = I32x8(), c01 = I32x8(), c10 = I32x8(), c11 = I32x8()
            var c20 = I32x8(), c21 = I32x8(), c30 = I32x8(), c31 = I32x8()
            let a0 = aRaw + r * rowBytes
            for p in 0..<pairs {
                let w0 = w.loadUnaligned(fromByteOffset: p * 64, as: SIMD16<Int16>.self)
                let w1 = w.loadUnaligned(fromByteOffset: p * 64 + 32, as: SIMD16<Int16>.self)
                let x0 = a0.loadUnaligned(fromByteOffset: p * 4, as: Int32.self)
                let x1 = a0.loadUnaligned(fromByteOffset: rowBytes + p * 4, as: Int32.self)
                let x2 = a0.loadUnaligned(fromByteOffset: 2 * rowBytes + p * 4, as: Int32.self)
                let x3 = a0.loadUnaligned(fromByteOffset: 3 * rowBytes + p * 4, as: Int32.self)
                c00 &+= pairProducts(w0, x0); c01 &+= pairProducts(w1, x0)
                c10 &+= pairProducts(w0, x1); c11 &+= pairProducts(w1, x1)
                c20 &+= pairProducts(w0, x2); c21 &+= pairProducts(w1, x2)
                c30 &+= pairProducts(w0, x3); c31 &+= pairProducts(w1, x3)
            }
            storeTile(c00, c01, row: r, block: b, weights: weights, output: output)
            storeTile(c10, c11, row: r + 1, block: b, weights: weights, output: output)
            storeTile(c20, c21, row: r + 2, block: b, weights: weights, output: output)
            storeTile(c30, c31, row: r + 3, block: b, weights: weights, output: output)
            r += 4
        }
        while r < rows {
            var c0 = I32x8(), c1 = I32x8()
            let a0 = aRaw + r * rowBytes
            for p in 0..<pairs {
                let w0 = w.loadUnaligned(fromByteOffset: p * 64, as: SIMD16<Int16>.self)
                let w1 = w.loadUnaligned(fromByteOffset: p * 64 + 32, as: SIMD16<Int16>.self)
                let x0 = a0.loadUnaligned(fromByteOffset: p * 4, as: Int32.self)
                c0 &+= pairProducts(w0, x0); c1 &+= pairProducts(w1, x0)
            }
            storeTile(c0, c1, row: r, block: b, weights: weights, output: output)
            r += 1
        }
    }
}

// MARK: - NEON (aarch64, C intrinsics)

/// The aarch64 GEMM: `booth_gemm_s16` (Sources/C/CNeuralKernels), 4-row × 16-channel register
/// tiles of `smlal`/`smlal2` by activation lane over the `neon` packing (16 accumulators, 8
/// filter registers, 4 activation registers of NEON's 32), and the output stage in registers
/// with `sqrdmulh` and a fixed-up `srshl` (TFLite's arithmetic bit for bit). Elsewhere, or for
/// an output stage outside `StageRegisters`' exact range, `gemmSIMD`.
public func gemmNEON(
    _ a: UnsafePointer<Int16>, _ rows: Int, _ weights: PackedGEMMWeights, _ output: GEMMOutput
) {
    guard let w = weights.neon else { gemmSIMD(a, rows, weights, output); return }
    switch output {
    case .int8(_, _, let stage), .int16(_, _, let stage):
        guard stage.fusedExact else { gemmSIMD(a, rows, weights, output); return }
    case .int32: break
    }
    withNEONOutput(output) { stage, out, stride, kind in
        booth_gemm_s16(a, rows, weights.depthStride, weights.depth, w, weights.outputChannels, stage, out, stride, kind)
    }
}

/// ARMv8.2 dot product (Cortex-A76): the int16 GEMM as `booth_gemm_s16_dot` (neural_dot.c). Each
/// int16 activation is split into a signed high byte and a low byte − 128 (x = 256·h + l + 128),
/// each summed against the int8 filters with `sdot` (the `dot8` packing, shared with the int8
/// path's `gemm8Dot`, so no int16 copy is added), the low sums starting at bias + 128·Σw:
/// the same int32 in wrapping arithmetic, so bit for bit `gemmNEON` and `gemmScalar`, with about
/// half the multiply instructions (16 products per `sdot`, two per product, against four per
/// `smlal`). Only in the kernel sets of a CPU with `asimddp`; depths above 4096 (the C kernel's
/// stack panel), output stages outside `StageRegisters`' exact range and builds without the
/// packing (off aarch64) take `gemmNEON`.
public func gemmNEONDot(
    _ a: UnsafePointer<Int16>, _ rows: Int, _ weights: PackedGEMMWeights, _ output: GEMMOutput
) {
    guard let w = weights.dot8, let sums = weights.paddedRowSums else { gemmNEON(a, rows, weights, output); return }
    guard dotExact(output) else { gemmNEON(a, rows, weights, output); return }
    var done: Int32 = 0
    withNEONOutput(output) { stage, out, stride, kind in
        done = booth_gemm_s16_dot(a, rows, weights.depthStride, weights.depth, w, weights.outputChannels, sums, stage,
                                  out, stride, kind)
    }
    if done == 0 { gemmNEON(a, rows, weights, output) }
}

/// Whether `booth_gemm_s16_dot` gives `output` exactly: raw int32, or a requantising stage
/// within `StageRegisters`' exact range (`fusedExact`).
private func dotExact(_ output: GEMMOutput) -> Bool {
    switch output {
    case .int8(_, _, let stage), .int16(_, _, let stage): return stage.fusedExact
    case .int32: return true
    }
}

/// `booth_gemm_s16_dot` on a `dot8` packing of `weights` made for this call, where the C function
/// can run: everywhere but aarch64 without `asimddp` (there it would trap; false). Off aarch64 it
/// is the portable C version of the same arithmetic, so tests hold the split (high byte, low
/// byte − 128, the 128·Σw start, wrapping int32) to `gemmScalar` on every CPU. False also when the
/// kernel refuses the depth (above 4096) or the stage is outside its exact range.
public func gemmNEONDotRepacked(
    _ a: UnsafePointer<Int16>, _ rows: Int, _ weights: PackedGEMMWeights, _ output: GEMMOutput
) -> Bool {
#if arch(arm64)
    guard CPUFeatures.current.dotProduct else { return false }
#endif
    guard dotExact(output) else { return false }
    let n = weights.outputChannels, k = weights.depth, k16 = weights.depth16
    var packed = [Int8](repeating: 0, count: weights.paddedChannels * k16)
    var sums = [Int32](repeating: 0, count: weights.paddedChannels)
    for c in 0..<n {
        for d in 0..<k {
            let w = weights.weight(channel: c, depth: d)
            packed[PackedGEMMWeights.dotIndex(channel: c, depth: d, depth16: k16)] = Int8(w)
            sums[c] &+= Int32(w)
        }
    }
    var done: Int32 = 0
    packed.withUnsafeBufferPointer { w in
        sums.withUnsafeBufferPointer { s in
            withNEONOutput(output) { stage, out, stride, kind in
                done = booth_gemm_s16_dot(a, rows, weights.depthStride, k, w.baseAddress, n, s.baseAddress, stage, out,
                                          stride, kind)
            }
        }
    }
    return done != 0
}

/// `BOOTH_OUT_*` of CNeuralKernels.h.
enum NEONOutputKind {
    static let int8: Int32 = 0
    static let int16: Int32 = 1
    static let int32: Int32 = 2
}

/// A GEMM over int8 activations taken as they are (no zero-point subtraction): rows of `a`
/// `rowStride` bytes apart, each readable to `weights.depth16` (values past `weights.depth` meet
/// zero filters), `zeroPoint` the activations' (folded into the accumulators' start as
/// `−zeroPoint · Σw`). The same results as `GEMMKernel` on `A − zeroPoint`, bit for bit.
public typealias GEMM8Kernel = @Sendable (
    _ a: UnsafePointer<Int8>, _ rows: Int, _ rowStride: Int, _ zeroPoint: Int32, _ weights: PackedGEMMWeights,
    _ output: GEMMOutput
) -> Void

/// Whether the int8 GEMMs can take this call: their packings exist (aarch64) and the output
/// stage is in `StageRegisters`' exact range. Callers check before choosing them.
@inline(__always)
public func gemm8Applies(_ weights: PackedGEMMWeights, _ output: GEMMOutput) -> Bool {
    switch output {
    case .int8(_, _, let stage), .int16(_, _, let stage): return stage.fusedExact && weights.mlal8 != nil
    case .int32: return weights.mlal8 != nil
    }
}

/// CNeuralKernels' view of a GEMM output: the stage (nil for raw int32), the base, the row
/// stride and the `BOOTH_OUT_*` kind, lent to `body` for the duration of the call.
@inline(__always)
func withNEONOutput(
    _ output: GEMMOutput,
    _ body: (UnsafePointer<booth_output_stage>?, UnsafeMutableRawPointer, Int, Int32) -> Void
) {
    switch output {
    case .int8(let out, let stride, let stage):
        withUnsafePointer(to: stage.neonStage) { body($0, out, stride, NEONOutputKind.int8) }
    case .int16(let out, let stride, let stage):
        withUnsafePointer(to: stage.neonStage) { body($0, out, stride, NEONOutputKind.int16) }
    case .int32(let out, let stride):
        body(nil, out, stride, NEONOutputKind.int32)
    }
}

/// ARMv8.0 (Cortex-A72): `booth_gemm_s8_mlal`, 4 rows × 16 channels, each activation pair
/// broadcast over four int16 lanes, two int8 products per int16 lane (`smull` + `smlal2`) and
/// `sadalp` into one int32 lane per channel: 16 products in three instructions, no reduction.
public func gemm8MLAL(_ a: UnsafePointer<Int8>, _ rows: Int, _ rowStride: Int, _ zeroPoint: Int32,
                      _ weights: PackedGEMMWeights, _ output: GEMMOutput) {
    gemm8C(a, rows, rowStride, zeroPoint, weights, output, packing: weights.mlal8, booth_gemm_s8_mlal)
}

/// ARMv8.2 dot product (Cortex-A76): `booth_gemm_s8_dot`, 4 rows × 16 channels of `sdot` by
/// element: 16 products per instruction. Only in the kernel set of a CPU with `asimddp`.
public func gemm8Dot(_ a: UnsafePointer<Int8>, _ rows: Int, _ rowStride: Int, _ zeroPoint: Int32,
                     _ weights: PackedGEMMWeights, _ output: GEMMOutput) {
    gemm8C(a, rows, rowStride, zeroPoint, weights, output, packing: weights.dot8, booth_gemm_s8_dot)
}

/// The C signature shared by `booth_gemm_s8_mlal` and `booth_gemm_s8_dot` (CNeuralKernels.h).
typealias CGEMM8 = @convention(c) (
    UnsafePointer<Int8>?, Int, Int, Int, UnsafePointer<Int8>?, Int, UnsafePointer<Int32>?, Int32,
    UnsafePointer<booth_output_stage>?, UnsafeMutableRawPointer?, Int, Int32
) -> Void

/// One of the C int8 GEMMs on its own packing of `weights` (nil off aarch64, where the kernel
/// sets have no `gemm8`).
@inline(__always)
func gemm8C(_ a: UnsafePointer<Int8>, _ rows: Int, _ rowStride: Int, _ zeroPoint: Int32, _ weights: PackedGEMMWeights,
            _ output: GEMMOutput, packing: UnsafeMutablePointer<Int8>?, _ kernel: CGEMM8) {
    precondition(gemm8Applies(weights, output), "gemm8: check gemm8Applies first")
    guard let w = packing, let sums = weights.paddedRowSums else { return }
    withNEONOutput(output) { stage, out, stride, kind in
        kernel(a, rows, rowStride, weights.depth, w, weights.outputChannels, sums, zeroPoint, stage, out, stride, kind)
    }
}
