/// aarch64: the float convolutions in C NEON (CNeuralKernels' `booth_conv_f32`,
/// `booth_depthwise_f32`, `booth_transpose_f32`), fused arithmetic only (the float engine's).
/// They compute every output with the same fused multiply-adds in the same order as
/// `FloatConvolution`'s scalar references (tiles of 8 pixels × 8 channels with `fmla` by lane,
/// the transposed convolution as a product per input pixel and a scatter), so the same bits;
/// the conformance kernels `nn.fconv`, `nn.fdepthwise` and `nn.ftranspose` hold them to it.
/// Each returns false where the C kernel does not take the shape (off aarch64, more than 64
/// taps, a depth multiplier other than 1): the caller then runs `FloatConvolution`'s SIMD kernel.
/// The transposed convolution reads its weights regrouped once at packing (`transposePack`),
/// with its scratch at the end of that block, so a call allocates nothing.

import CNeuralKernels

extension FloatConvolution {
    static func cDims(_ d: Dims) -> booth_fconv {
        let (lo, hi) = d.g.activation.bounds
        return booth_fconv(batch: d.batch, in_h: d.inH, in_w: d.inW, in_c: d.inC, out_h: d.outH, out_w: d.outW, out_c: d.outC,
                           k_h: d.kH, k_w: d.kW, stride_h: d.g.strideH, stride_w: d.g.strideW, dilation_h: d.g.dilationH,
                           dilation_w: d.g.dilationW, pad_top: d.g.padTop, pad_left: d.g.padLeft, lo: lo, hi: hi)
    }

    /// CONV_2D (pointwise included).
    static func convNEON(_ d: Dims, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                         output: UnsafeMutablePointer<Float>) -> Bool {
        var c = cDims(d)
        return booth_conv_f32(&c, input, weights, bias, output) != 0
    }

    /// DEPTHWISE_CONV_2D with depth multiplier 1.
    static func depthwiseNEON(_ d: Dims, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                              output: UnsafeMutablePointer<Float>) -> Bool {
        guard d.g.depthMultiplier == 1 else { return false }
        var c = cDims(d)
        return booth_depthwise_f32(&c, input, weights, bias, output) != 0
    }

    /// The transposed convolution (Convolution2DTransposeBias), from `packed`: `transposePackedCount`
    /// floats filled by `transposePack` (the kernel writes the block's scratch tail).
    static func transposeNEON(_ d: Dims, input: UnsafePointer<Float>, packed: UnsafeMutablePointer<Float>, bias: UnsafePointer<Float>,
                              output: UnsafeMutablePointer<Float>) -> Bool {
        var c = cDims(d)
        return booth_transpose_f32(&c, input, packed, bias, output) != 0
    }

    /// Floats of the C transposed convolution's packed block (regrouped weights, then scratch).
    static func transposePackedCount(inC: Int, outC: Int, kH: Int, kW: Int) -> Int {
        booth_transpose_f32_packed_count(inC, outC, kH, kW)
    }

    /// Regroups weights packed by `packConvWeights` into the C transposed convolution's block.
    static func transposePack(inC: Int, outC: Int, kH: Int, kW: Int, weights: UnsafePointer<Float>,
                              into packed: UnsafeMutablePointer<Float>) {
        booth_transpose_f32_pack(inC, outC, kH, kW, weights, packed)
    }
}

/// The float convolutions' variants for the conformance suite (`nn.fconv`, `nn.fdepthwise`,
/// `nn.ftranspose`): the scalar reference, the Swift SIMD kernel and, on aarch64, the C NEON
/// kernel, all with fused arithmetic (the float engine's), on weights packed as `FloatProgram`
/// packs them.
public enum FloatConvolutionVariants {
    public enum Kind: Sendable { case conv, depthwise, transpose }

    /// Variant names, the reference first.
    public static var names: [String] {
        booth_neon_available() != 0 ? ["scalar", "simd", "neon"] : ["scalar", "simd"]
    }

    /// Variant names of `kind`, the reference first: `names`, or on x86-64 built for AVX2 + FMA
    /// scalar, simd and the C kernels ("avx2").
    public static func names(_ kind: Kind) -> [String] {
#if arch(x86_64)
        if booth_x86_available() != 0 {
            // CONV_2D has a zmm kernel too, where the CPU has AVX-512 (probed at run time).
            return kind == .conv && booth_x86_has_avx512vnni() != 0 ? ["scalar", "simd", "avx2", "avx512"] : ["scalar", "simd", "avx2"]
        }
#endif
        return names
    }

    /// One convolution's shape and packed constants.
    public struct Setup {
        let kind: Kind
        let dims: FloatConvolution.Dims
        let weights: [Float]
        let bias: [Float]

        /// `weights`: OHWI (conv, transposed: [outC][kH][kW][inC]) or [1][kH][kW][outC]
        /// (depthwise, multiplier 1: inC = outC); `bias`: outC values.
        public init(_ kind: Kind, inH: Int, inW: Int, inC: Int, outH: Int, outW: Int, outC: Int, kH: Int, kW: Int,
                    strideH: Int, strideW: Int, dilationH: Int, dilationW: Int, padTop: Int, padLeft: Int,
                    activation: Activation, weights: [Float], bias: [Float]) {
            let geometry = ConvGeometry(strideH: strideH, strideW: strideW, dilationH: dilationH, dilationW: dilationW,
                                        padTop: padTop, padLeft: padLeft, activation: activation, depthMultiplier: 1)
            self.kind = kind
            dims = FloatConvolution.Dims(batch: 1, inH: inH, inW: inW, inC: inC, outH: outH, outW: outW, outC: outC,
                                         kH: kH, kW: kW, g: geometry)
            let ocp = (outC + 7) & ~7
            var w = [Float](), b = [Float]()
            if kind == .depthwise {
                w = [Float](repeating: 0, count: kH * kW * ocp)
                b = [Float](repeating: 0, count: ocp)
                w.withUnsafeMutableBufferPointer { wp in
                    b.withUnsafeMutableBufferPointer { bp in
                        FloatConvolution.packDepthwiseWeights(weights, bias: bias, taps: kH * kW, outC: outC,
                                                              weightsAt: wp.baseAddress!, biasAt: bp.baseAddress!)
                    }
                }
            } else {
                FloatConvolution.packConvWeights(ohwi: weights[...], bias: bias[...], outC: outC, kH: kH, kW: kW, inC: inC,
                                                 into: &w, bias: &b)
            }
            self.weights = w
            self.bias = b
        }

        /// Runs variant `index` of `names` from `input` (inH·inW·inC values) into `output`
        /// (outH·outW·outC values).
        public func run(variant index: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
            let m = FloatArithmetic.Fused.self
            let d = dims
            weights.withUnsafeBufferPointer { wb in
                bias.withUnsafeBufferPointer { bb in
                    let w = wb.baseAddress!, b = bb.baseAddress!
                    switch (kind, index) {
                    case (.conv, 0): FloatConvolution.convScalar(m, d, input: input, weights: w, bias: b, output: output)
                    case (.conv, 1): FloatConvolution.conv(m, d, input: input, weights: w, bias: b, output: output)
#if arch(x86_64)
                    case (.conv, _):
                        if !FloatConvolution.convX86(d, input: input, weights: w, bias: b, output: output, avx512: index == 3) {
                            FloatConvolution.conv(m, d, input: input, weights: w, bias: b, output: output)
                        }
                    case (.depthwise, 2):
                        if !FloatConvolution.depthwiseX86(d, input: input, weights: w, bias: b, output: output) {
                            FloatConvolution.depthwise(m, d, input: input, weights: w, bias: b, output: output)
                        }
                    case (.transpose, 2):
                        if !FloatConvolution.transposeX86(d, input: input, weights: w, bias: b, output: output) {
                            FloatConvolution.transpose(m, d, input: input, weights: w, bias: b, output: output)
                        }
#else
                    case (.conv, _):
                        if !FloatConvolution.convNEON(d, input: input, weights: w, bias: b, output: output) {
                            FloatConvolution.conv(m, d, input: input, weights: w, bias: b, output: output)
                        }
#endif
                    case (.depthwise, 0): FloatConvolution.depthwiseScalar(m, d, input: input, weights: w, bias: b, output: output)
                    case (.depthwise, 1): FloatConvolution.depthwise(m, d, input: input, weights: w, bias: b, output: output)
                    case (.depthwise, _):
                        if !FloatConvolution.depthwiseNEON(d, input: input, weights: w, bias: b, output: output) {
                            FloatConvolution.depthwise(m, d, input: input, weights: w, bias: b, output: output)
                        }
                    case (.transpose, 0): FloatConvolution.transposeScalar(m, d, input: input, weights: w, bias: b, output: output)
                    case (.transpose, 1): FloatConvolution.transpose(m, d, input: input, weights: w, bias: b, output: output)
                    case (.transpose, _):
                        // Test-only: the packed block is made per call here (FloatProgram packs once).
                        let n = FloatConvolution.transposePackedCount(inC: d.inC, outC: d.outC, kH: d.kH, kW: d.kW)
                        let packed = UnsafeMutablePointer<Float>.allocate(capacity: n)
                        defer { packed.deallocate() }
                        FloatConvolution.transposePack(inC: d.inC, outC: d.outC, kH: d.kH, kW: d.kW, weights: w, into: packed)
                        if !FloatConvolution.transposeNEON(d, input: input, packed: packed, bias: b, output: output) {
                            FloatConvolution.transpose(m, d, input: input, weights: w, bias: b, output: output)
                        }
                    }
                }
            }
        }
    }
}

/// The float path's elementwise ADD / MUL / PRELU with broadcasting for the conformance suite
/// (`nn.fbinary`): FloatKernels.binary's Swift rows (the reference) and, on aarch64, its
/// `booth_binary_f32_rows` calls.
public enum FloatBinaryVariants {
    /// Variant names, the reference first.
    public static var names: [String] {
#if arch(x86_64)
        return booth_x86_available() != 0 ? ["swift", "avx2"] : ["swift"]
#else
        return booth_neon_available() != 0 ? ["swift", "neon"] : ["swift"]
#endif
    }

    /// out (shape `so`) = a (shape `sa`) ⊕ b (shape `sb`), NumPy broadcasting over 4-D shapes;
    /// `op` 0 ADD, 1 MUL, 2 PRELU (b the slopes).
    public static func run(variant index: Int, op: Int, activation: Activation, a: UnsafePointer<Float>, shape sa: [Int],
                           b: UnsafePointer<Float>, shape sb: [Int], out so: [Int], output: UnsafeMutablePointer<Float>) {
        let kind: FloatKernels.Binary = op == 0 ? .add : op == 1 ? .mul : .prelu
        FloatKernels.binary(kind, sa, sb, out: so, activation: activation, a: a, b: b, output: output, neon: index == 1)
    }
}
