/// x86-64 with AVX2: the whole layer through `booth_x86_depthwise_layer_s8`/`_s16`
/// (CNeuralKernels' neural_kernels_x86.c: sixteen channels per step, each group's filters and
/// output-stage constants set up once per layer, taps in pairs with the activations interleaved
/// and `vpmaddwd` with the interleaved int16 filters, where `depthwiseSIMD` sign-extends to int32
/// and multiplies with `vpmulld`, one tap at a time; the bias and zero point folded into the
/// accumulators' start; `StageRegisters`' output stage). Border pixels take the same path with
/// the zero point read for each tap outside the input, which adds (zp − zp)·w = 0 (they ran
/// the Swift `depthwiseBorderSpan` before, 4 % of iris's run). Every product is exact and every
/// sum wraps, so the bits are the reference's. Fewer than sixteen channels, more than 26 taps, an
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
    var geometry = booth_x86_dw_geometry(
        in_h: g.inputHeight, in_w: g.inputWidth, channels: c, k_h: g.kernelHeight, k_w: g.kernelWidth,
        stride_y: g.strideY, stride_x: g.strideX, pad_top: g.padTop, pad_left: g.padLeft,
        out_h: g.outputHeight, out_w: g.outputWidth)
    var cStage = stage.neonStage
    let done: Int32
    if E.bitWidth == 8 {
        done = booth_x86_depthwise_layer_s8(UnsafeRawPointer(input).assumingMemoryBound(to: Int8.self), &geometry,
                                            weights.narrow, weights.paddedChannels, weights.sums, inputZeroPoint, &cStage,
                                            UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int8.self))
    } else {
        done = booth_x86_depthwise_layer_s16(UnsafeRawPointer(input).assumingMemoryBound(to: Int16.self), &geometry,
                                             weights.narrow, weights.paddedChannels, weights.sums, inputZeroPoint, &cStage,
                                             UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int16.self))
    }
    if done == 0 { depthwiseSIMD(input, g, inputZeroPoint, weights, stage, output) }
#else
    // The aarch64 CMake build links neural_kernels.c alone; the avx2 sets are never chosen there.
    depthwiseSIMD(input, g, inputZeroPoint, weights, stage, output)
#endif
}
