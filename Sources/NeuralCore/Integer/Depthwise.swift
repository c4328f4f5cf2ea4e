/// DEPTHWISE_CONV_2D (depth multiplier 1), any K×K (the models use 3×3 and 5×5), any stride,
/// SAME/VALID padding through `WindowGeometry`. Taps outside the image contribute nothing
/// (they are the zero point in TFLite's semantics).

/// Depthwise filters (`[KH][KW][C]`, −127...127) widened once at load to int32 rows padded to a
/// multiple of 8 channels.
public final class PackedDepthwiseWeights {
    public let kernelHeight: Int, kernelWidth: Int, channels: Int
    public let paddedChannels: Int
    let data: UnsafeMutablePointer<Int32>

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
    }

    deinit { data.deallocate() }

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
