/// DEPTHWISE_CONV_2D (depth multiplier 1), any K×K (the models use 3×3 and 5×5), any stride,
/// SAME/VALID padding through `WindowGeometry`. Taps outside the image contribute nothing
/// (they are the zero point in TFLite's semantics).

/// Depthwise filters (`[KH][KW][C]`, −127...127) widened once at load to int32 rows padded to a
/// multiple of 8 channels.
public final class PackedDepthwiseWeights {
    public let kernelHeight: Int, kernelWidth: Int, channels: Int
    public let paddedChannels: Int
    let data: UnsafeMutablePointer<Int32>
    /// The same filters as int16 pairs of vertically adjacent taps for the `vpmaddwd` / `smlal`
    /// interior path: `[ky/2][kx][16-channel block][32]`, where the first 16 values are
    /// `(w[ky][kx][c], w[ky+1][kx][c])` for channels 0–3 and 8–11 of the block, the last 16 for
    /// channels 4–7 and 12–15 (the order a 128-bit-lane interleave of two input vectors gives).
    /// A missing row `ky+1 == kernelHeight` has weight 0; channels are padded to 16 with 0.
    let pairs: UnsafeMutablePointer<Int16>
    let pairBlocks: Int

    public init(weights: [Int8], kernelHeight: Int, kernelWidth: Int, channels: Int) {
        precondition(weights.count == kernelHeight * kernelWidth * channels)
        self.kernelHeight = kernelHeight
        self.kernelWidth = kernelWidth
        self.channels = channels
        paddedChannels = (channels + 7) / 8 * 8
        let taps = kernelHeight * kernelWidth
        data = .allocate(capacity: taps * paddedChannels)
        data.initialize(repeating: 0, count: taps * paddedChannels)
        for t in 0..<taps {
            for c in 0..<channels { data[t * paddedChannels + c] = Int32(weights[t * channels + c]) }
        }
        pairBlocks = (channels + 15) / 16
        let rowPairs = (kernelHeight + 1) / 2
        let pairCount = rowPairs * kernelWidth * pairBlocks * 32
        pairs = .allocate(capacity: pairCount)
        pairs.initialize(repeating: 0, count: pairCount)
        for ky in 0..<kernelHeight {
            for kx in 0..<kernelWidth {
                for c in 0..<channels {
                    let b = c >> 4, j = c & 15
                    // lane of channel j within the block's 16 (lo: 0-3, 8-11; hi: 4-7, 12-15)
                    let lane = (j & 4) != 0 ? 16 + ((j & 3) | ((j & 8) >> 1)) * 2 : ((j & 3) | ((j & 8) >> 1)) * 2
                    let base = (((ky >> 1) * kernelWidth + kx) * pairBlocks + b) * 32
                    pairs[base + lane + (ky & 1)] = Int16(weights[(ky * kernelWidth + kx) * channels + c])
                }
            }
        }
    }

    deinit { data.deallocate(); pairs.deallocate() }

    @inline(__always)
    public func weight(tap t: Int, channel c: Int) -> Int32 { data[t * paddedChannels + c] }
}

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

/// Sixteen, then eight channels per step (`vpmovsxbd` + `vpmulld`; `sxtl` + `mla` on NEON); the
/// channel tail below 8 runs the scalar arithmetic.
public func depthwiseSIMD<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ inputZeroPoint: Int32,
    _ weights: PackedDepthwiseWeights, _ stage: OutputStage, _ output: UnsafeMutablePointer<E>
) {
    let c = g.channels
    precondition(weights.channels == c)
    let full = c / 8 * 8
    let zp = I32x8(repeating: inputZeroPoint)
    let wRaw = UnsafeRawPointer(weights.data)
    let wRow = weights.paddedChannels * 4
    // x − zero point fits int16 for int8 activations, and for int16 ones when the zero point is 0
    // (symmetric int16): then whole windows run as int16 pair products.
    let pairPath = E.bitWidth == 8 || inputZeroPoint == 0
    let zp16 = Int16(truncatingIfNeeded: inputZeroPoint)
    for oy in 0..<g.outputHeight {
        let (ky0, ky1) = tapRange(oy, stride: g.strideY, pad: g.padTop, kernel: g.kernelHeight,
                                  size: g.inputHeight)
        let iy0 = oy * g.strideY - g.padTop
        for ox in 0..<g.outputWidth {
            let (kx0, kx1) = tapRange(ox, stride: g.strideX, pad: g.padLeft,
                                      kernel: g.kernelWidth, size: g.inputWidth)
            let ix0 = ox * g.strideX - g.padLeft
            let dst = output + (oy * g.outputWidth + ox) * c
            var ch = 0
            if pairPath && ky0 == 0 && ky1 == g.kernelHeight && kx0 == 0 && kx1 == g.kernelWidth {
                depthwisePairs16(input + (iy0 * g.inputWidth + ix0) * c, g, zp16, weights, stage, dst)
                ch = c / 16 * 16
            }
            while ch + 16 <= full {
                var acc0 = I32x8(), acc1 = I32x8()
                for ky in ky0..<max(ky0, ky1) {
                    let rowBase = ((iy0 + ky) * g.inputWidth + ix0) * c + ch
                    let wBase = ky * g.kernelWidth * wRow + ch * 4
                    for kx in kx0..<max(kx0, kx1) {
                        let x = UnsafeRawPointer(input + rowBase + kx * c).loadUnaligned(as: SIMD16<E>.self)
                        let w0 = wRaw.loadUnaligned(fromByteOffset: wBase + kx * wRow, as: I32x8.self)
                        let w1 = wRaw.loadUnaligned(fromByteOffset: wBase + kx * wRow + 32, as: I32x8.self)
                        acc0 &+= (widen32(x.lowHalf) &- zp) &* w0
                        acc1 &+= (widen32(x.highHalf) &- zp) &* w1
                    }
                }
                let lo: SIMD8<E> = applyStage(stage, acc0, channel: ch)
                let hi: SIMD8<E> = applyStage(stage, acc1, channel: ch + 8)
                UnsafeMutableRawPointer(dst + ch).storeBytes(of: SIMD16<E>(lowHalf: lo, highHalf: hi),
                                                             as: SIMD16<E>.self)
                ch += 16
            }
            while ch < full {
                var acc = I32x8()
                for ky in ky0..<max(ky0, ky1) {
                    let rowBase = ((iy0 + ky) * g.inputWidth + ix0) * c + ch
                    for kx in kx0..<max(kx0, kx1) {
                        let x = UnsafeRawPointer(input + rowBase + kx * c)
                            .loadUnaligned(as: SIMD8<E>.self)
                        let w = wRaw.loadUnaligned(
                            fromByteOffset: (ky * g.kernelWidth + kx) * wRow + ch * 4,
                            as: I32x8.self)
                        acc &+= (widen32(x) &- zp) &* w
                    }
                }
                UnsafeMutableRawPointer(dst + ch).storeBytes(of: applyStage(stage, acc, channel: ch) as SIMD8<E>,
                                                             as: SIMD8<E>.self)
                ch += 8
            }
            while ch < c {
                var acc: Int32 = 0
                for ky in ky0..<max(ky0, ky1) {
                    for kx in kx0..<max(kx0, kx1) {
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

/// Pairwise products `a[2i]·b[2i] + a[2i+1]·b[2i+1]` in int32 (`vpmaddwd`, `smull`+`addp`).
@inline(always)
func pairMultiplyAdd(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> I32x8 {
    let p = widen16to32(a) &* widen16to32(b)
    return p.evenHalf &+ p.oddHalf
}

/// All full 16-channel blocks of one output pixel whose window lies inside the image: two
/// vertically adjacent taps per step, interleaved per 128-bit half (`vpunpck[lh]wd` / `zip`) and
/// multiplied pairwise against `PackedDepthwiseWeights.pairs`. A missing last row reuses row
/// `ky` as its input with weight 0. Same int32 sums as the per-tap loop.
@inline(__always)
func depthwisePairs16<E: QuantizedActivation>(
    _ origin: UnsafePointer<E>, _ g: WindowGeometry, _ zp: Int16,
    _ weights: PackedDepthwiseWeights, _ stage: OutputStage, _ dst: UnsafeMutablePointer<E>
) {
    let c = g.channels
    let rowStride = g.inputWidth * c
    let blocks = c / 16
    let w = UnsafeRawPointer(weights.pairs)
    let z = SIMD16<Int16>(repeating: zp)
    for b in 0..<blocks {
        var accLo = I32x8(), accHi = I32x8()
        var ky = 0
        while ky < g.kernelHeight {
            let row0 = origin + ky * rowStride + b * 16
            let row1 = ky + 1 < g.kernelHeight ? row0 + rowStride : row0
            for kx in 0..<g.kernelWidth {
                let a = widen16(UnsafeRawPointer(row0 + kx * c).loadUnaligned(as: SIMD16<E>.self)) &- z
                let d = widen16(UnsafeRawPointer(row1 + kx * c).loadUnaligned(as: SIMD16<E>.self)) &- z
                let lo = SIMD16<Int16>(a[0], d[0], a[1], d[1], a[2], d[2], a[3], d[3],
                                       a[8], d[8], a[9], d[9], a[10], d[10], a[11], d[11])
                let hi = SIMD16<Int16>(a[4], d[4], a[5], d[5], a[6], d[6], a[7], d[7],
                                       a[12], d[12], a[13], d[13], a[14], d[14], a[15], d[15])
                let off = (((ky >> 1) * g.kernelWidth + kx) * weights.pairBlocks + b) * 64
                accLo &+= pairMultiplyAdd(lo, w.loadUnaligned(fromByteOffset: off, as: SIMD16<Int16>.self))
                accHi &+= pairMultiplyAdd(hi, w.loadUnaligned(fromByteOffset: off + 32, as: SIMD16<Int16>.self))
            }
            ky += 2
        }
        // accLo holds channels 0-3, 8-11; accHi 4-7, 12-15.
        let acc0 = I32x8(lowHalf: accLo.lowHalf, highHalf: accHi.lowHalf)
        let acc1 = I32x8(lowHalf: accLo.highHalf, highHalf: accHi.highHalf)
        let lo: SIMD8<E> = applyStage(stage, acc0, channel: b * 16)
        let hi: SIMD8<E> = applyStage(stage, acc1, channel: b * 16 + 8)
        UnsafeMutableRawPointer(dst + b * 16).storeBytes(of: SIMD16<E>(lowHalf: lo, highHalf: hi),
                                                         as: SIMD16<E>.self)
    }
}
