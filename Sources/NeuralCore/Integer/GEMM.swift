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

/// 4 rows × 16 channels micro-kernel, then 1 × 16 for the remaining rows.
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
