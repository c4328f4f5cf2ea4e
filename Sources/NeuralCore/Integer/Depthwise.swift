import CNeuralKernels

/// DEPTHWISE_CONV_2D (depth multiplier 1), any K×K (the models use 3×3 and 5×5), any stride,
/// SAME/VALID padding through `WindowGeometry`. Taps outside the image contribute nothing
/// (they are the zero point in TFLite's semantics).

/// Depthwise filters (`[KH][KW][C]`, −127...127) packed once at load: int32 rows padded to a
/// multiple of 16 channels (the scalar reference, the border pixels, and the interior pixels on
/// x86), the same as int16 rows (the interior pixels elsewhere: a widening multiply-add,
/// `smlal` on NEON), and each channel's sum of filter taps (the input zero point folded into
/// the interior pixels' accumulator start).
public final class PackedDepthwiseWeights {
    public let kernelHeight: Int, kernelWidth: Int, channels: Int
    public let paddedChannels: Int
    let data: UnsafeMutablePointer<Int32>
    let narrow: UnsafeMutablePointer<Int16>
    /// `Σ_taps w[t][c]` per channel, padded like a row.
    let sums: UnsafeMutablePointer<Int32>
    /// No filter is −128 (the quantiser's −127...127 holds), so two int8 products sum within
    /// int16: the aarch64 int8 interior may run `booth_depthwise_s8_pairs`.
    let int8Pairs: Bool

    public init(weights: [Int8], kernelHeight: Int, kernelWidth: Int, channels: Int) {
        precondition(weights.count == kernelHeight * kernelWidth * channels)
        self.kernelHeight = kernelHeight
        self.kernelWidth = kernelWidth
        self.channels = channels
        paddedChannels = (channels + 15) / 16 * 16
        let taps = kernelHeight * kernelWidth
        data = .allocate(capacity: taps * paddedChannels)
        data.initialize(repeating: 0, count: taps * paddedChannels)
        narrow = .allocate(capacity: taps * paddedChannels)
        narrow.initialize(repeating: 0, count: taps * paddedChannels)
        sums = .allocate(capacity: paddedChannels)
        sums.initialize(repeating: 0, count: paddedChannels)
        int8Pairs = !weights.contains(Int8.min)
        for t in 0..<taps {
            for c in 0..<channels {
                let w = weights[t * channels + c]
                data[t * paddedChannels + c] = Int32(w)
                narrow[t * paddedChannels + c] = Int16(w)
                sums[c] &+= Int32(w)
            }
        }
    }

#if arch(x86_64)
    /// The interior pixels' filters: int32 (a memory operand of `vpmulld`).
    @inline(always) var interiorTaps: UnsafeMutablePointer<Int32> { data }
#else
    /// The interior pixels' filters: int16 (`smlal` with the activations widened to int16).
    @inline(always) var interiorTaps: UnsafeMutablePointer<Int16> { narrow }
#endif

    deinit {
        data.deallocate()
        narrow.deallocate()
        sums.deallocate()
    }

    @inline(__always)
    public func weight(tap t: Int, channel c: Int) -> Int32 { data[t * paddedChannels + c] }
}

#if arch(x86_64)
typealias DepthwiseTap = Int32
#else
typealias DepthwiseTap = Int16
#endif

public typealias DepthwiseKernel<E: QuantizedActivation> = @Sendable (
    _ input: UnsafePointer<E>, _ geometry: WindowGeometry, _ inputZeroPoint: Int32,
    _ weights: PackedDepthwiseWeights, _ stage: OutputStage, _ output: UnsafeMutablePointer<E>
) -> Void

@inline(__always)
func tapRange(_ o: Int, stride: Int, pad: Int, kernel: Int, size: Int) -> (Int, Int) {
    let origin = o * stride - pad
    return (max(0, -origin), min(kernel, size - origin))
}

public func depthwiseScalar<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ inputZeroPoint: Int32,
    _ weights: PackedDepthwiseWeights, _ stage: OutputStage, _ output: UnsafeMutablePointer<E>
) {
    let c = g.channels
    precondition(weights.channels == c)
    for oy in 0..<g.outputHeight {
        let (ky0, ky1) = tapRange(oy, stride: g.strideY, pad: g.padTop, kernel: g.kernelHeight,
                                  size: g.inputHeight)
        for ox in 0..<g.outputWidth {
            let (kx0, kx1) = tapRange(ox, stride: g.strideX, pad: g.padLeft,
                                      kernel: g.kernelWidth, size: g.inputWidth)
            let dst = output + (oy * g.outputWidth + ox) * c
            for ch in 0..<c {
                var acc: Int32 = 0
                for ky in ky0..<max(ky0, ky1) {
                    let iy = oy * g.strideY - g.padTop + ky
                    for kx in kx0..<max(kx0, kx1) {
                        let ix = ox * g.strideX - g.padLeft + kx
                        let x = Int32(truncatingIfNeeded: input[(iy * g.inputWidth + ix) * c + ch]) &- inputZeroPoint
                        acc &+= x &* weights.weight(tap: ky * g.kernelWidth + kx, channel: ch)
                    }
                }
                dst[ch] = stage.apply(acc, channel: ch)
            }
        }
    }
}

// MARK: - SIMD

// Loads and stores are the lane loops `load16` / `store16` (LLVM makes them one `vpmovsx*` /
// `vpmov*` or `ld1` + `sxtl`): in a body this large the SIL inliner leaves `loadUnaligned`,
// `storeBytes` and `min`/`max` out of line, these loops it does not.

@inline(always)
func depthwiseMin(_ a: Int, _ b: Int) -> Int { a < b ? a : b }

@inline(always)
func depthwiseMax(_ a: Int, _ b: Int) -> Int { a > b ? a : b }

/// `tapRange` with the comparisons written out (see above).
@inline(always)
func depthwiseTaps(_ o: Int, stride: Int, pad: Int, kernel: Int, size: Int) -> (Int, Int) {
    let origin = o * stride - pad
    return (depthwiseMax(0, -origin), depthwiseMin(kernel, size - origin))
}

/// Outputs `lo..<hi` along one axis whose every tap lies inside the input (empty when none do).
@inline(__always)
func interiorRange(outputs: Int, stride: Int, pad: Int, kernel: Int, size: Int) -> (Int, Int) {
    let lo = depthwiseMin(outputs, (pad + stride - 1) / stride)
    let last = size - kernel + pad  // origin + kernel <= size  <=>  o * stride <= last
    let hi = last < 0 ? 0 : depthwiseMin(outputs, last / stride + 1)
    return (lo, depthwiseMax(lo, hi))
}

/// `srdhm` on sixteen lanes (the same arithmetic, hence the same bits).
@inline(always)
func depthwiseSRDHM(_ a: SIMD16<Int32>, _ b: SIMD16<Int32>) -> SIMD16<Int32> {
#if arch(x86_64)
    let a64 = unsafeBitCast(a, to: SIMD8<Int64>.self), b64 = unsafeBitCast(b, to: SIMD8<Int64>.self)
    let pe = ((a64 &<< 32) &>> 32) &* ((b64 &<< 32) &>> 32) &+ Int64(1 << 30)
    let po = (a64 &>> 32) &* (b64 &>> 32) &+ Int64(1 << 30)
    let re = unsafeBitCast(unsafeBitCast(pe, to: SIMD8<UInt64>.self) &>> 31, to: SIMD8<Int64>.self)
    let ro = po &<< 1
    let low = SIMD8<Int64>(repeating: 0xFFFF_FFFF)
    return unsafeBitCast((re & low) | (ro & ~low), to: SIMD16<Int32>.self)
#else
    return SIMD16<Int32>(lowHalf: srdhm(a.lowHalf, b.lowHalf), highHalf: srdhm(a.highHalf, b.highHalf))
#endif
}

/// `OutputStage` on channels `c ..< c+16` (any `c` with `c + 16 <= stage.paddedChannels`),
/// the arithmetic of `applyStage` on sixteen lanes, for an accumulator that already holds the
/// bias (the kernels start their accumulators at it: wrapping int32 addition is associative).
@inline(always)
func depthwiseStage(_ s: OutputStage, biased acc: SIMD16<Int32>, channel c: Int) -> SIMD16<Int32> {
    let x = acc &<< load16(s.leftShift + c)
    let p = depthwiseSRDHM(x, load16(s.multiplier + c))
    let exponent = load16(s.rightShift + c)
    let mask = (SIMD16<Int32>(repeating: 1) &<< exponent) &- 1
    let threshold = (mask &>> 1) &- (p &>> 31)
    let up = SIMD16<Int32>(repeating: 0).replacing(with: 1, where: (p & mask) .> threshold)
    var v = ((p &>> exponent) &+ up) &+ s.outputZeroPoint
    let lo = s.minimum, hi = s.maximum
    for i in 0..<16 {  // `vpmaxsd` / `vpminsd`, `smax` / `smin`
        v[i] = v[i] < lo ? lo : v[i]
        v[i] = v[i] > hi ? hi : v[i]
    }
    return v
}

/// Sixteen channels of one output pixel whose taps all lie inside the input: `acc` starts at
/// `bias − zp·Σw` (so `Σ x·w` from there equals the reference's `bias + Σ (x − zp)·w` in
/// wrapping int32), `interiorTaps` filters times the widened activations. `k` is a constant at
/// the call sites.
@inline(always)
func depthwiseInterior<E: QuantizedActivation>(
    _ p: UnsafePointer<E>, rowStride: Int, columnStride: Int, k: Int,
    _ w: UnsafePointer<DepthwiseTap>, tapStride: Int, _ start: SIMD16<Int32>
) -> SIMD16<Int32> {
    var acc = start
    for ky in 0..<k {
        for kx in 0..<k {
            let x = load16(p + ky * rowStride + kx * columnStride)
            let wv = load16(w + (ky * k + kx) * tapStride)
            acc &+= x &* wv
        }
    }
    return acc
}

/// Two horizontally adjacent interior pixels (`s` input columns apart) at once: the `k + s`
/// columns they read are loaded once, and each filter tap once for both. `k`, `s` are constants
/// at the call sites.
@inline(always)
func depthwiseInteriorPair<E: QuantizedActivation>(
    _ p: UnsafePointer<E>, rowStride: Int, columnStride: Int, k: Int, s: Int,
    _ w: UnsafePointer<DepthwiseTap>, tapStride: Int, _ start: SIMD16<Int32>
) -> (SIMD16<Int32>, SIMD16<Int32>) {
    var a = start, b = start
    for ky in 0..<k {
        for kx in 0..<(k + s) {
            let x = load16(p + ky * rowStride + kx * columnStride)
            if kx < k { a &+= x &* load16(w + (ky * k + kx) * tapStride) }
            if kx >= s { b &+= x &* load16(w + (ky * k + kx - s) * tapStride) }
        }
    }
    return (a, b)
}

/// Output pixels `ox0..<ox1` of row `oy`, all interior, sixteen channels at a time (the last
/// group of a channel count that is not a multiple of 16 overlaps the one before it), two
/// pixels per step. `k` and `s` (the horizontal stride) are constants at the call sites.
@inline(always)
func depthwiseInteriorSpan<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ zp: Int32, _ weights: PackedDepthwiseWeights,
    _ stage: OutputStage, _ output: UnsafeMutablePointer<E>, oy: Int, ox0: Int, ox1: Int, k: Int, s: Int
) {
    let c = g.channels
    let rowStride = g.inputWidth * c, step = s * c
    let origin = input + ((oy * g.strideY - g.padTop) * g.inputWidth + ox0 * s - g.padLeft) * c
    let dst0 = output + (oy * g.outputWidth + ox0) * c
    let pairs = (ox1 - ox0) / 2
    var ch = 0
    while ch < c {
        let cc = depthwiseMin(ch, c - 16)
        let start = load16(stage.bias + cc) &- SIMD16<Int32>(repeating: zp) &* load16(weights.sums + cc)
        let w = UnsafePointer(weights.interiorTaps + cc)
        var p = origin + cc
        var dst = dst0 + cc
        for _ in 0..<pairs {
            let (a, b) = depthwiseInteriorPair(p, rowStride: rowStride, columnStride: c, k: k, s: s, w,
                                               tapStride: weights.paddedChannels, start)
            store16(depthwiseStage(stage, biased: a, channel: cc), dst)
            store16(depthwiseStage(stage, biased: b, channel: cc), dst + c)
            p += 2 * step
            dst += 2 * c
        }
        if pairs * 2 < ox1 - ox0 {
            let acc = depthwiseInterior(p, rowStride: rowStride, columnStride: c, k: k, w,
                                        tapStride: weights.paddedChannels, start)
            store16(depthwiseStage(stage, biased: acc, channel: cc), dst)
        }
        ch += 16
    }
}

/// Output pixels `ox0..<ox1` of row `oy` with taps clipped by the border: the reference's
/// per-tap `(x − zp)·w` over the taps inside, sixteen channels at a time.
@inline(always)
func depthwiseBorderSpan<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ zp: Int32, _ weights: PackedDepthwiseWeights,
    _ stage: OutputStage, _ output: UnsafeMutablePointer<E>, oy: Int, ox0: Int, ox1: Int
) {
    let c = g.channels
    let zpv = SIMD16<Int32>(repeating: zp)
    let (ky0, ky1) = depthwiseTaps(oy, stride: g.strideY, pad: g.padTop, kernel: g.kernelHeight, size: g.inputHeight)
    let iy0 = oy * g.strideY - g.padTop
    for ox in ox0..<ox1 {
        let (kx0, kx1) = depthwiseTaps(ox, stride: g.strideX, pad: g.padLeft, kernel: g.kernelWidth, size: g.inputWidth)
        let ix0 = ox * g.strideX - g.padLeft
        let dst = output + (oy * g.outputWidth + ox) * c
        var ch = 0
        while ch < c {
            let cc = depthwiseMin(ch, c - 16)
            var acc = load16(stage.bias + cc)
            for ky in ky0..<depthwiseMax(ky0, ky1) {
                let row = input + ((iy0 + ky) * g.inputWidth + ix0) * c + cc
                let wRow = weights.data + ky * g.kernelWidth * weights.paddedChannels + cc
                for kx in kx0..<depthwiseMax(kx0, kx1) {
                    acc &+= (load16(row + kx * c) &- zpv) &* load16(wRow + kx * weights.paddedChannels)
                }
            }
            store16(depthwiseStage(stage, biased: acc, channel: cc), dst + cc)
            ch += 16
        }
    }
}

/// One output row: border pixels, then the interior ones (3×3 and 5×5, horizontal stride 1 or
/// 2, with constant trip counts; other shapes run the border form throughout), then border
/// pixels again.
@inline(always)
func depthwiseRow<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ zp: Int32, _ weights: PackedDepthwiseWeights,
    _ stage: OutputStage, _ output: UnsafeMutablePointer<E>, oy: Int, interiorRow: Bool, oxLo: Int, oxHi: Int
) {
    let k = g.kernelWidth, s = g.strideX
    guard interiorRow && oxLo < oxHi && g.kernelHeight == k && (k == 3 || k == 5) && (s == 1 || s == 2) else {
        depthwiseBorderSpan(input, g, zp, weights, stage, output, oy: oy, ox0: 0, ox1: g.outputWidth)
        return
    }
    depthwiseBorderSpan(input, g, zp, weights, stage, output, oy: oy, ox0: 0, ox1: oxLo)
    switch (k, s) {
    case (3, 1): depthwiseInteriorSpan(input, g, zp, weights, stage, output, oy: oy, ox0: oxLo, ox1: oxHi, k: 3, s: 1)
    case (3, _): depthwiseInteriorSpan(input, g, zp, weights, stage, output, oy: oy, ox0: oxLo, ox1: oxHi, k: 3, s: 2)
    case (_, 1): depthwiseInteriorSpan(input, g, zp, weights, stage, output, oy: oy, ox0: oxLo, ox1: oxHi, k: 5, s: 1)
    default: depthwiseInteriorSpan(input, g, zp, weights, stage, output, oy: oy, ox0: oxLo, ox1: oxHi, k: 5, s: 2)
    }
    depthwiseBorderSpan(input, g, zp, weights, stage, output, oy: oy, ox0: oxHi, ox1: g.outputWidth)
}

/// Sixteen channels per step in int32 lanes (one zmm with AVX-512, four q registers on NEON).
/// Interior pixels (every tap inside the input) run unrolled 3×3 / 5×5 bodies, two output
/// pixels per step, with the bias and the zero point folded into the accumulator's start
/// (`vpmovsxbd` + `vpmulld` with int32 filters from memory; `sxtl` + `smlal` with int16 filters
/// on NEON); border pixels run the reference's per-tap form. Every product is exact and every
/// sum wraps in int32 like the reference's, so the result is the same bit for bit in any order.
/// A channel count that is not a multiple of 16 ends with a group overlapping the previous one;
/// below 16 channels, eight at a time and a scalar tail.
@inline(never)
public func depthwiseSIMD<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ inputZeroPoint: Int32,
    _ weights: PackedDepthwiseWeights, _ stage: OutputStage, _ output: UnsafeMutablePointer<E>
) {
    let c = g.channels
    precondition(weights.channels == c)
    if c >= 16 {
        let (oyLo, oyHi) = interiorRange(outputs: g.outputHeight, stride: g.strideY, pad: g.padTop,
                                         kernel: g.kernelHeight, size: g.inputHeight)
        let (oxLo, oxHi) = interiorRange(outputs: g.outputWidth, stride: g.strideX, pad: g.padLeft,
                                         kernel: g.kernelWidth, size: g.inputWidth)
        for oy in 0..<g.outputHeight {
            depthwiseRow(input, g, inputZeroPoint, weights, stage, output, oy: oy,
                         interiorRow: oy >= oyLo && oy < oyHi, oxLo: oxLo, oxHi: oxHi)
        }
        return
    }
    depthwiseNarrow(input, g, inputZeroPoint, weights, stage, output)
}

/// Fewer than sixteen channels: eight per step, then the scalar arithmetic. Out of line (called
/// once per op), which keeps `depthwiseSIMD` small enough for the inliner to finish its work.
@inline(never)
func depthwiseNarrow<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ inputZeroPoint: Int32,
    _ weights: PackedDepthwiseWeights, _ stage: OutputStage, _ output: UnsafeMutablePointer<E>
) {
    let c = g.channels
    let full = c / 8 * 8
    let zp = I32x8(repeating: inputZeroPoint)
    for oy in 0..<g.outputHeight {
        let (ky0, ky1) = depthwiseTaps(oy, stride: g.strideY, pad: g.padTop, kernel: g.kernelHeight,
                                       size: g.inputHeight)
        let iy0 = oy * g.strideY - g.padTop
        for ox in 0..<g.outputWidth {
            let (kx0, kx1) = depthwiseTaps(ox, stride: g.strideX, pad: g.padLeft,
                                           kernel: g.kernelWidth, size: g.inputWidth)
            let ix0 = ox * g.strideX - g.padLeft
            let dst = output + (oy * g.outputWidth + ox) * c
            var ch = 0
            while ch < full {
                var acc = I32x8()
                for ky in ky0..<depthwiseMax(ky0, ky1) {
                    let row = input + ((iy0 + ky) * g.inputWidth + ix0) * c + ch
                    let wRow = weights.data + ky * g.kernelWidth * weights.paddedChannels + ch
                    for kx in kx0..<depthwiseMax(kx0, kx1) {
                        var x = I32x8(), w = I32x8()
                        for i in 0..<8 {
                            x[i] = Int32(truncatingIfNeeded: row[kx * c + i])
                            w[i] = wRow[kx * weights.paddedChannels + i]
                        }
                        acc &+= (x &- zp) &* w
                    }
                }
                let v: SIMD8<E> = applyStage(stage, acc, channel: ch)
                for i in 0..<8 { dst[ch + i] = v[i] }
                ch += 8
            }
            while ch < c {
                var acc: Int32 = 0
                for ky in ky0..<depthwiseMax(ky0, ky1) {
                    for kx in kx0..<depthwiseMax(kx0, kx1) {
                        let x = Int32(truncatingIfNeeded: input[((iy0 + ky) * g.inputWidth + ix0 + kx) * c + ch])
                        acc &+= (x &- inputZeroPoint)
                            &* weights.weight(tap: ky * g.kernelWidth + kx, channel: ch)
                    }
                }
                dst[ch] = stage.apply(acc, channel: ch)
                ch += 1
            }
        }
    }
}

// MARK: - NEON (aarch64, C intrinsics)

/// aarch64: the interior pixels of each row through `booth_depthwise_s8`/`_s16`
/// (`booth_depthwise_s8_pairs` for int8 filters without −128: 3×3 taps in pairs of int8
/// products) (Sources/C/CNeuralKernels: sixteen channels per step, `smlal`/`smlal2` of the int16 filters
/// with the sign-extended activations, the bias and zero point folded into the accumulator's
/// start, the output stage with `sqrdmulh`/`srshl` as in `gemmNEON`), border pixels through
/// `booth_depthwise_border_*` (`depthwiseBorderNEON`); fewer than sixteen channels as `depthwiseSIMD`. Square filters of any size, any stride; an output stage
/// outside `StageRegisters`' exact range runs `depthwiseSIMD`. int16 layers with input zero point
/// 0 that `booth_depthwise_layer_s16` takes (3×3 or 5×5 at stride 1 or 2, at least four output columns)
/// run whole through
/// `booth_depthwise_layer_s16`: eight channels and four pixels at a time, each window row's
/// filters and input pixels loaded once for the four, border pixels as interior ones reading zeros.
/// int8 3×3 layers at stride 1 or 2 with pair-safe filters (no −128), at least four output
/// columns, run whole through `booth_depthwise_layer_s8_pairs` (the same blocks, the nine filters
/// in registers, taps in pairs as `booth_depthwise_s8_pairs`; a tap outside reads the input zero
/// point, which adds nothing to the bias − zp·Σw start).
public func depthwiseNEON<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ inputZeroPoint: Int32,
    _ weights: PackedDepthwiseWeights, _ stage: OutputStage, _ output: UnsafeMutablePointer<E>
) {
    let c = g.channels
    precondition(weights.channels == c)
    guard c >= 16 && stage.fusedExact && g.kernelHeight == g.kernelWidth else {
        depthwiseSIMD(input, g, inputZeroPoint, weights, stage, output)
        return
    }
    let (oyLo, oyHi) = interiorRange(outputs: g.outputHeight, stride: g.strideY, pad: g.padTop,
                                     kernel: g.kernelHeight, size: g.inputHeight)
    let (oxLo, oxHi) = interiorRange(outputs: g.outputWidth, stride: g.strideX, pad: g.padLeft,
                                     kernel: g.kernelWidth, size: g.inputWidth)
    var neonStage = stage.neonStage
    // int16 with zero point 0 (the int16 tables are symmetric): the whole layer, borders
    // included, in one call when the C kernel takes its shape (it returns 0 otherwise).
    if E.bitWidth == 16 && inputZeroPoint == 0 && g.strideX == g.strideY {
        let src = UnsafeRawPointer(input).assumingMemoryBound(to: Int16.self)
        let dst = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int16.self)
        if booth_depthwise_layer_s16(src, g.inputHeight, g.inputWidth, c, Int32(g.kernelWidth), g.strideX, g.padTop,
                                     g.padLeft, g.outputHeight, g.outputWidth, weights.narrow, weights.paddedChannels,
                                     &neonStage, dst) != 0 {
            return
        }
    }
    // int8 3×3 with pair-safe filters: the whole layer, borders included, in one call when the
    // C kernel takes its shape (it returns 0 otherwise).
    if E.bitWidth == 8 && weights.int8Pairs && g.strideX == g.strideY {
        let src = UnsafeRawPointer(input).assumingMemoryBound(to: Int8.self)
        let dst = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int8.self)
        if booth_depthwise_layer_s8_pairs(src, g.inputHeight, g.inputWidth, c, Int32(g.kernelWidth), g.strideX,
                                          g.padTop, g.padLeft, g.outputHeight, g.outputWidth, weights.narrow,
                                          weights.paddedChannels, weights.sums, inputZeroPoint, &neonStage, dst) != 0 {
            return
        }
    }
    for oy in 0..<g.outputHeight {
        guard oy >= oyLo && oy < oyHi && oxLo < oxHi else {
            depthwiseBorderNEON(input, g, inputZeroPoint, weights, &neonStage, output, oy: oy, ox0: 0, ox1: g.outputWidth)
            continue
        }
        depthwiseBorderNEON(input, g, inputZeroPoint, weights, &neonStage, output, oy: oy, ox0: 0, ox1: oxLo)
        let origin = (oy * g.strideY - g.padTop) * g.inputWidth + oxLo * g.strideX - g.padLeft
        let first = (oy * g.outputWidth + oxLo) * c
        let rowStride = g.inputWidth * c, step = g.strideX * c
        if E.bitWidth == 8 {
            let src = UnsafeRawPointer(input).assumingMemoryBound(to: Int8.self)
            let dst = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int8.self)
            if weights.int8Pairs {
                booth_depthwise_s8_pairs(src + origin * c, rowStride, step, oxHi - oxLo, c, Int32(g.kernelWidth),
                                         weights.narrow, weights.paddedChannels, weights.sums, inputZeroPoint,
                                         &neonStage, dst + first)
            } else {
                booth_depthwise_s8(src + origin * c, rowStride, step, oxHi - oxLo, c, Int32(g.kernelWidth),
                                   weights.narrow, weights.paddedChannels, weights.sums, inputZeroPoint, &neonStage,
                                   dst + first)
            }
        } else {
            let src = UnsafeRawPointer(input).assumingMemoryBound(to: Int16.self)
            let dst = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int16.self)
            booth_depthwise_s16(src + origin * c, rowStride, step, oxHi - oxLo, c, Int32(g.kernelWidth),
                                weights.narrow, weights.paddedChannels, weights.sums, inputZeroPoint, &neonStage,
                                dst + first)
        }
        depthwiseBorderNEON(input, g, inputZeroPoint, weights, &neonStage, output, oy: oy, ox0: oxHi, ox1: g.outputWidth)
    }
}

/// `depthwiseNEON` on a CPU with the dot-product extension (`IntegerKernels.neonDot`): the int8 3×3
/// layers that `booth_depthwise_layer_s8_pairs` takes (stride 1 or 2, pair-safe filters, at least
/// sixteen channels and four output columns) run whole through `booth_depthwise_layer_s8_dot`
/// (`sdot`: one int32 lane per channel summing four taps of a window column, two output rows at a
/// time at stride 1; the same values); every other layer as `depthwiseNEON`.
public func depthwiseNEONDot<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ inputZeroPoint: Int32,
    _ weights: PackedDepthwiseWeights, _ stage: OutputStage, _ output: UnsafeMutablePointer<E>
) {
    let c = g.channels
    precondition(weights.channels == c)
    if E.bitWidth == 8 && c >= 16 && stage.fusedExact && g.kernelHeight == g.kernelWidth && weights.int8Pairs
        && g.strideX == g.strideY {
        var neonStage = stage.neonStage
        let src = UnsafeRawPointer(input).assumingMemoryBound(to: Int8.self)
        let dst = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int8.self)
        if booth_depthwise_layer_s8_dot(src, g.inputHeight, g.inputWidth, c, Int32(g.kernelWidth), g.strideX,
                                        g.padTop, g.padLeft, g.outputHeight, g.outputWidth, weights.narrow,
                                        weights.paddedChannels, weights.sums, inputZeroPoint, &neonStage, dst) != 0 {
            return
        }
    }
    depthwiseNEON(input, g, inputZeroPoint, weights, stage, output)
}

/// Border pixels `ox0..<ox1` of output row `oy` through `booth_depthwise_border_s8`/`_s16` (the
/// taps clipped to the input per pixel, `smlal` of x·w and `smlsl` of zp·w: `depthwiseBorderSpan`'s
/// arithmetic, bit for bit). `depthwiseNEON`'s conditions hold (≥ 16 channels, square filter).
@inline(__always)
func depthwiseBorderNEON<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ zp: Int32, _ weights: PackedDepthwiseWeights,
    _ stage: UnsafePointer<booth_output_stage>, _ output: UnsafeMutablePointer<E>, oy: Int, ox0: Int, ox1: Int
) {
    guard ox0 < ox1 else { return }
    let (ky0, ky1) = depthwiseTaps(oy, stride: g.strideY, pad: g.padTop, kernel: g.kernelHeight, size: g.inputHeight)
    let iy0 = oy * g.strideY - g.padTop
    let row = oy * g.outputWidth * g.channels
    if E.bitWidth == 8 {
        let src = UnsafeRawPointer(input).assumingMemoryBound(to: Int8.self)
        let dst = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int8.self)
        booth_depthwise_border_s8(src, g.inputWidth, g.channels, g.kernelWidth, g.strideX, g.padLeft, iy0, ky0,
                                  depthwiseMax(ky0, ky1), ox0, ox1, weights.narrow, weights.paddedChannels, zp, stage,
                                  dst + row)
    } else {
        let src = UnsafeRawPointer(input).assumingMemoryBound(to: Int16.self)
        let dst = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int16.self)
        booth_depthwise_border_s16(src, g.inputWidth, g.channels, g.kernelWidth, g.strideX, g.padLeft, iy0, ky0,
                                   depthwiseMax(ky0, ky1), ox0, ox1, weights.narrow, weights.paddedChannels, zp, stage,
                                   dst + row)
    }
}
