extension IntegerProgram.Lowering {
    /// DEPTHWISE_CONV_2D (depth multiplier 1): filters quantised per channel (channel innermost)
    /// and packed for the depthwise kernels, the output requantised.
    mutating func lowerDepthwise(_ op: Operation, _ g: ConvGeometry) throws(ModelError) {
        let x = op.inputs[0], out = op.output
        let (qx, ws, wf, bias) = try convolutionOperands(op, g)
        guard g.depthMultiplier == 1 else { throw .unsupported(label + " with a depth multiplier") }
        let xs = try shape(x), os = try shape(out)
        let c = ws[3]
        let geo = WindowGeometry(inputHeight: xs[1], inputWidth: xs[2], channels: c,
                                 kernelHeight: ws[1], kernelWidth: ws[2], strideY: g.strideH,
                                 strideX: g.strideW, padTop: g.padTop, padLeft: g.padLeft,
                                 outputHeight: os[1], outputWidth: os[2])
        let cw = ChannelWeights(quantizing: wf, channels: c, axis: .innermost)
        try checkAccumulator(cw, bias: cw.quantizedBias(bias, inputScale: qx.scale))
        let packed = PackedDepthwiseWeights(weights: cw.values, kernelHeight: ws[1], kernelWidth: ws[2], channels: c)
        let stage = try outputStage(cw, bias: bias, input: qx, output: out, activation: g.activation)
        append(.depthwise(UnsafePointer(try quantized(x)), geo, qx.zeroPoint, packed, stage, try quantized(out)))
    }
}
