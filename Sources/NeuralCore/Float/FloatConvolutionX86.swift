/// x86-64 with AVX2 + FMA: the float convolutions in C (CNeuralKernels' `booth_x86_conv_f32`,
/// `booth_x86_depthwise_f32`, `booth_x86_transpose_f32`, neural_kernels_x86.c), fused arithmetic only (the float engine's),
/// on `packConvWeights`' packing. Each output gets the same fused multiply-adds in the same order
/// as `FloatConvolution`'s scalar references (6-pixel × 16-channel tiles: twelve ymm accumulators
/// where the Swift SIMD8 kernels keep four; 4 × 16 for the depthwise one), so the same bits; the
/// conformance kernels `nn.fconv`, `nn.fdepthwise` and `nn.ftranspose` hold them to it (variant
/// "avx2"; CONV_2D's zmm kernel, chosen at run time on AVX-512 CPUs: variant "avx512"). Each returns false where the C kernel
/// does not run (not built for an AVX2 + FMA CPU, more than 64 transposed taps): the caller then
/// runs `FloatConvolution`'s SIMD kernel. x86-64 only (the aarch64 CMake build links
/// neural_kernels.c alone).

import CNeuralKernels

#if arch(x86_64)
extension FloatConvolution {
    /// CONV_2D (pointwise included): with `avx512` the zmm kernel (`booth_x86_conv_f32_avx512`,
    /// 12 pixels × 32 channels, the same bits) where the CPU has AVX-512, else the AVX2 one.
    static func convX86(_ d: Dims, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                        output: UnsafeMutablePointer<Float>, avx512: Bool = true) -> Bool {
        var c = cDims(d)
        if avx512 && booth_x86_conv_f32_avx512(&c, input, weights, bias, output) != 0 { return true }
        return booth_x86_conv_f32(&c, input, weights, bias, output) != 0
    }

    /// DEPTHWISE_CONV_2D with depth multiplier 1.
    static func depthwiseX86(_ d: Dims, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                             output: UnsafeMutablePointer<Float>) -> Bool {
        guard d.g.depthMultiplier == 1 else { return false }
        var c = cDims(d)
        return booth_x86_depthwise_f32(&c, input, weights, bias, output) != 0
    }

    /// The transposed convolution (Convolution2DTransposeBias), weights packed as for CONV_2D.
    static func transposeX86(_ d: Dims, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                             output: UnsafeMutablePointer<Float>) -> Bool {
        var c = cDims(d)
        return booth_x86_transpose_f32(&c, input, weights, bias, output) != 0
    }
}
#endif
