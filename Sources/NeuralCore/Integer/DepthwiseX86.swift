/// x86-64 with AVX2: the interior pixels of each row through `booth_x86_depthwise_s8`/`_s16`
/// (CNeuralKernels' neural_kernels_x86.c: sixteen channels per step, taps in pairs with the
/// activations interleaved and `vpmaddwd` with the interleaved int16 filters, where
/// `depthwiseSIMD` sign-extends to int32 and multiplies with `vpmulld`, one tap at a time; the
/// bias and zero point folded into the accumulators' start; `StageRegisters`' output stage),
/// border pixels through `depthwiseBorderSpan` (Swift). Every product is exact and every sum
/// wraps, so the bits are the reference's. Fewer than sixteen channels, more than 26 taps, an
/// output stage outside `StageRegisters`' exact range, or a build without AVX2: `depthwiseSIMD`.

import CNeuralKernels

public func depthwiseX86<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ inputZeroPoint: Int32,
    _ weights: PackedDepthwiseWeights, _ stage: OutputStage, _ output: UnsafeMutablePointer<E>
) {
#if arch(x86_64)
    let c = g.channels
    precondition(weights.channels == c)
    guard c >= 16 && stage.fusedExact && g.kernelHeight * g.kernelWidth <= 26 && booth_x86_available() != 0 else {
        depthwiseSIMD(input, g, inputZeroPoint, weights, stage, output)
        return
    }
    let (oyLo, oyHi) = interiorRange(outputs: g.outputHeight, stride: g.strideY, pad: g.padTop,
                                     kernel: g.kernelHeight, size: g.inputHeight)
    let (oxLo, oxHi) = interiorRange(outputs: g.outputWidth, stride: g.strideX, pad: g.padLeft,
                                     kernel: g.kernelWidth, size: g.inputWidth)
    var cStage = stage.neonStage
    for oy in 0..<g.outputHeight {
        guard oy >= oyLo && oy < oyHi && oxLo < oxHi else {
            depthwiseBorderSpan(input, g, inputZeroPoint, weights, stage, output, oy: oy, ox0: 0, ox1: g.outputWidth)
            continue
        }
        depthwiseBorderSpan(input, g, inputZeroPoint, weights, stage, output, oy: oy, ox0: 0, ox1: oxLo)
        let origin = (oy * g.strideY - g.padTop) * g.inputWidth + oxLo * g.strideX - g.padLeft
        let first = (oy * g.outputWidth + oxLo) * c
        let rowStride = g.inputWidth * c, step = g.strideX * c
        if E.bitWidth == 8 {
            let src = UnsafeRawPointer(input).assumingMemoryBound(to: Int8.self)
            let dst = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int8.self)
            _ = booth_x86_depthwise_s8(src + origin * c, rowStride, step, oxHi - oxLo, c, g.kernelHeight, g.kernelWidth,
                                       weights.narrow, weights.paddedChannels, weights.sums, inputZeroPoint, &cStage,
                                       dst + first)
        } else {
            let src = UnsafeRawPointer(input).assumingMemoryBound(to: Int16.self)
            let dst = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int16.self)
            _ = booth_x86_depthwise_s16(src + origin * c, rowStride, step, oxHi - oxLo, c, g.kernelHeight, g.kernelWidth,
                                        weights.narrow, weights.paddedChannels, weights.sums, inputZeroPoint, &cStage,
                                        dst + first)
        }
        depthwiseBorderSpan(input, g, inputZeroPoint, weights, stage, output, oy: oy, ox0: oxHi, ox1: g.outputWidth)
    }
#else
    // The aarch64 CMake build links neural_kernels.c alone; the avx2 sets are never chosen there.
    depthwiseSIMD(input, g, inputZeroPoint, weights, stage, output)
#endif
}
