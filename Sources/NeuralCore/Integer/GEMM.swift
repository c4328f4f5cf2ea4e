/// Packed int16×int8→int32 GEMM: the core of CONV_2D (1×1 directly, K×K through im2col) and of
/// the transpose convolution.
///
/// `C[r][n] = Σ_k A[r][k] · W[n][k]` where
/// - `A` is int16, rows of `depthStride` values, holding activations with the input zero point
///   already subtracted (−255...255 from int8 activations, −32768...32767 from the symmetric int16
///   ones; padding taps are 0), the last column zero when the depth is odd;
/// - `W` is the per-channel int8 filter (−127...127) packed once at load into blocks of 16 output
///   channels: `[block][k/2][16 channels][2]` int16, so one k-pair of one block is two 16-lane
///   int16 vectors, and one `(k, k+1)` pair of `A` is one broadcast int32. Each step is then a
///   widening multiply and a pairwise add (x86: `vpmaddwd`, or `vpdpwssd` with VNNI;
///   aarch64: `smull`/`smlal`), accumulating in int32.

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
    }

    deinit { data.deallocate() }

    @inline(__always)
    static func index(channel c: Int, depth d: Int, depthStride: Int) -> Int {
        (c >> 4) * (depthStride * 16) + (d >> 1) * 32 + (c & 15) * 2 + (d & 1)
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

@inline(always)
func pairProducts(_ w: SIMD16<Int16>, _ pair: Int32) -> I32x8 {
    let av = unsafeBitCast(I32x8(repeating: pair), to: SIMD16<Int16>.self)
    let p = widen16to32(w) &* widen16to32(av)
    return p.evenHalf &+ p.oddHalf
}

@_transparent
func storeTile(
    _ acc0: I32x8, _ acc1: I32x8, row r: Int, block b: Int, weights: PackedGEMMWeights,
    output: GEMMOutput
) {
    let n0 = b * 16
    let valid = min(16, weights.outputChannels - n0)
    switch output {
    case .int8(let out, let stride, let stage):
        let lo: SIMD8<Int8> = applyStage(stage, acc0, channel: n0)
        let hi: SIMD8<Int8> = applyStage(stage, acc1, channel: n0 + 8)
        let dst = out + r * stride + n0
        if valid == 16 {
            UnsafeMutableRawPointer(dst).storeBytes(of: SIMD16<Int8>(lowHalf: lo, highHalf: hi),
                                                    as: SIMD16<Int8>.self)
        } else {
            for i in 0..<valid { dst[i] = i < 8 ? lo[i] : hi[i - 8] }
        }
    case .int16(let out, let stride, let stage):
        let lo: SIMD8<Int16> = applyStage(stage, acc0, channel: n0)
        let hi: SIMD8<Int16> = applyStage(stage, acc1, channel: n0 + 8)
        let dst = out + r * stride + n0
        if valid == 16 {
            UnsafeMutableRawPointer(dst).storeBytes(of: SIMD16<Int16>(lowHalf: lo, highHalf: hi),
                                                    as: SIMD16<Int16>.self)
        } else {
            for i in 0..<valid { dst[i] = i < 8 ? lo[i] : hi[i - 8] }
        }
    case .int32(let out, let stride):
        let dst = out + r * stride + n0
        if valid == 16 {
            UnsafeMutableRawPointer(dst).storeBytes(of: acc0, as: I32x8.self)
            UnsafeMutableRawPointer(dst + 8).storeBytes(of: acc1, as: I32x8.self)
        } else {
            for i in 0..<valid { dst[i] = i < 8 ? acc0[i] : acc1[i - 8] }
        }
    }
}

/// `(pair.lo, pair.hi)` broadcast to 16 int32 lanes `lo, hi, lo, hi, …`.
@inline(always)
func widenPair(_ pair: Int32) -> SIMD16<Int32> {
    widen16to32(unsafeBitCast(I32x8(repeating: pair), to: SIMD16<Int16>.self))
}

/// Sums the two products of each channel: lanes `2c` and `2c + 1`.
@inline(always)
func reducePairs(_ p: SIMD16<Int32>) -> I32x8 {
    p.evenHalf &+ p.oddHalf
}

/// 4 rows × 8 channels per pass (twice per block of 16), then 1 × 16 for the remaining rows.
/// The inner loop keeps each channel's two products of a k-pair in separate lanes and adds them
/// once after the loop (`reducePairs`), so it is widening multiplies and adds only, no shuffles.
/// Integer addition wraps and is associative, so the order changes nothing.
public func gemmSIMD(
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
            let a0 = aRaw + r * rowBytes
            var c = (I32x8(), I32x8(), I32x8(), I32x8(), I32x8(), I32x8(), I32x8(), I32x8())
            for half in 0..<2 {
                var d0 = SIMD16<Int32>(), d1 = SIMD16<Int32>(), d2 = SIMD16<Int32>(), d3 = SIMD16<Int32>()
                for p in 0..<pairs {
                    let wv = widen16to32(w.loadUnaligned(fromByteOffset: p * 64 + half * 32, as: SIMD16<Int16>.self))
                    d0 &+= wv &* widenPair(a0.loadUnaligned(fromByteOffset: p * 4, as: Int32.self))
                    d1 &+= wv &* widenPair(a0.loadUnaligned(fromByteOffset: rowBytes + p * 4, as: Int32.self))
                    d2 &+= wv &* widenPair(a0.loadUnaligned(fromByteOffset: 2 * rowBytes + p * 4, as: Int32.self))
                    d3 &+= wv &* widenPair(a0.loadUnaligned(fromByteOffset: 3 * rowBytes + p * 4, as: Int32.self))
                }
                if half == 0 {
                    c.0 = reducePairs(d0); c.2 = reducePairs(d1); c.4 = reducePairs(d2); c.6 = reducePairs(d3)
                } else {
                    c.1 = reducePairs(d0); c.3 = reducePairs(d1); c.5 = reducePairs(d2); c.7 = reducePairs(d3)
                }
            }
            storeTile(c.0, c.1, row: r, block: b, weights: weights, output: output)
            storeTile(c.2, c.3, row: r + 1, block: b, weights: weights, output: output)
            storeTile(c.4, c.5, row: r + 2, block: b, weights: weights, output: output)
            storeTile(c.6, c.7, row: r + 3, block: b, weights: weights, output: output)
            r += 4
        }
        while r < rows {
            var d0 = SIMD16<Int32>(), d1 = SIMD16<Int32>()
            let a0 = aRaw + r * rowBytes
            for p in 0..<pairs {
                let x = widenPair(a0.loadUnaligned(fromByteOffset: p * 4, as: Int32.self))
                d0 &+= widen16to32(w.loadUnaligned(fromByteOffset: p * 64, as: SIMD16<Int16>.self)) &* x
                d1 &+= widen16to32(w.loadUnaligned(fromByteOffset: p * 64 + 32, as: SIMD16<Int16>.self)) &* x
            }
            storeTile(reducePairs(d0), reducePairs(d1), row: r, block: b, weights: weights, output: output)
            r += 1
        }
    }
}
