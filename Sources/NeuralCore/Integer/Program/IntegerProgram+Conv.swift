extension IntegerProgram.Lowering {
    /// CONV_2D: filters quantised per output channel and packed for the GEMM; the output either
    /// requantised (`OutputStage`) or, for a float tensor, computed in float from the int32
    /// accumulators (`FloatOutputStage`).
    mutating func lowerConv2D(_ op: Operation, _ g: ConvGeometry) throws(ModelError) {
        let x = op.inputs[0], out = op.output
        let (qx, ws, wf, bias) = try convolutionOperands(op, g)
        let xs = try shape(x), os = try shape(out)
        let oc = ws[0]
        let geo = WindowGeometry(inputHeight: xs[1], inputWidth: xs[2], channels: xs[3],
                                 kernelHeight: ws[1], kernelWidth: ws[2], strideY: g.strideH,
                                 strideX: g.strideW, padTop: g.padTop, padLeft: g.padLeft,
                                 outputHeight: os[1], outputWidth: os[2])
        let cw = ChannelWeights(quantizing: wf, channels: oc, axis: .outermost)
        try checkAccumulator(cw, bias: cw.quantizedBias(bias, inputScale: qx.scale))
        let packed = PackedGEMMWeights(weights: cw.values, outputChannels: oc, depth: ws[1] * ws[2] * ws[3])
        let input = UnsafePointer(try quantized(x))
        if quantization.isFloat[out] {
            let stage = FloatOutputStage(weights: cw, inputScale: qx.scale, bias: bias, activation: g.activation)
            append(.convFloat(input, geo, qx.zeroPoint, packed, stage, try float(out)))
        } else {
            let stage = try outputStage(cw, bias: bias, input: qx, output: out, activation: g.activation)
            append(.conv(input, geo, qx.zeroPoint, packed, stage, try quantized(out)))
        }
    }

    /// MediaPipe's Convolution2DTransposeBias (equal strides), through `TransposeConvPlan`.
    mutating func lowerTransposeConv(_ op: Operation, _ g: ConvGeometry) throws(ModelError) {
        let x = op.inputs[0], out = op.output
        let (qx, ws, wf, bias) = try convolutionOperands(op, g)
        guard g.strideH == g.strideW else { throw .unsupported(label + " with unequal strides") }
        let xs = try shape(x), os = try shape(out)
        let oc = ws[0]
        let cw = ChannelWeights(quantizing: wf, channels: oc, axis: .outermost)
        try checkAccumulator(cw, bias: cw.quantizedBias(bias, inputScale: qx.scale))
        let plan = TransposeConvPlan(filter: cw.values, outputChannels: oc, kernelHeight: ws[1],
                                     kernelWidth: ws[2], inputHeight: xs[1], inputWidth: xs[2],
                                     inputChannels: xs[3], outputHeight: os[1], outputWidth: os[2],
                                     stride: g.strideH, padTop: g.padTop, padLeft: g.padLeft)
        guard plan.scratchCount <= memory.scratch16Count else { throw .unsupported(label + " needs more scratch") }
        let input = UnsafePointer(try quantized(x))
        if quantization.isFloat[out] {
            let stage = FloatOutputStage(weights: cw, inputScale: qx.scale, bias: bias, activation: g.activation)
            append(.transposeFloat(plan, input, qx.zeroPoint, stage, try float(out)))
        } else {
            let stage = try outputStage(cw, bias: bias, input: qx, output: out, activation: g.activation)
            append(.transpose(plan, input, qx.zeroPoint, stage, try quantized(out)))
        }
    }

    /// What every convolution reads: the input's parameters, the filter's shape and values, the
    /// float bias (nil when omitted).
    func convolutionOperands(_ op: Operation, _ g: ConvGeometry)
        throws(ModelError) -> (QuantParams, [Int], [Float], [Float]?) {
        guard let qx = quantization.parameters[op.inputs[0]] else { throw .unsupported(label + " reads a float tensor") }
        guard g.dilationH == 1 && g.dilationW == 1 else { throw .unsupported(label + " with dilation") }
        guard op.inputs.count > 1 else { throw .malformed(label + " has no filter") }
        let ws = graph.tensors[op.inputs[1]].shape
        guard ws.count == 4 && ws.allSatisfy({ $0 > 0 }) else { throw .malformed(label + ": the filter is not 4-D") }
        let wf = try constant(op.inputs[1])
        guard wf.count == ws[0] * ws[1] * ws[2] * ws[3] else { throw .malformed(label + ": the filter's size") }
        var bias: [Float]? = nil
        if op.inputs.count > 2 && op.inputs[2] >= 0 { bias = try constant(op.inputs[2]) }
        return (qx, ws, wf, bias)
    }

    /// The requantising output stage of a convolution with weights `cw` writing tensor `out`:
    /// int32 bias at `inputScale · weightScale[c]`, per-channel multipliers, the fused
    /// activation's bounds.
    func outputStage(_ cw: ChannelWeights, bias: [Float]?, input qx: QuantParams, output out: Int,
                     activation: Activation) throws(ModelError) -> OutputStage {
        let qo = try parameters(out)
        let (lo, hi) = bounds(activation, qo)
        return OutputStage(bias: cw.quantizedBias(bias, inputScale: qx.scale),
                           multipliers: cw.multipliers(inputScale: qx.scale, output: qo),
                           outputZeroPoint: qo.zeroPoint, minimum: lo, maximum: hi)
    }

    /// With int16 activations (|x| ≤ 32768) an int32 accumulator holds any input when, for every
    /// output channel, `32768 · Σ|w| + |bias| < 2^31`; checked at load, so that the kernels can keep
    /// int32 accumulators (the largest `Σ|w|` of the segmentation models is far inside this bound:
    /// their deepest reduction is 128 channels, 127 · 128 · 32768 ≈ 2^29).
    func checkAccumulator(_ cw: ChannelWeights, bias: [Int32]) throws(ModelError) {
        guard E.bitWidth == 16 else { return }
        let c = cw.channels, inner = cw.values.count / c
        var sums = [Int64](repeating: 0, count: c)
        for i in 0..<cw.values.count {
            let ch = cw.channelAxis == .outermost ? i / inner : i % c
            sums[ch] += Int64(cw.values[i] < 0 ? -Int32(cw.values[i]) : Int32(cw.values[i]))
        }
        for ch in 0..<c where sums[ch] * 32768 + (bias[ch] < 0 ? -Int64(bias[ch]) : Int64(bias[ch])) >= Int64(Int32.max) {
            throw .unsupported(label + ": int16 activations could overflow its int32 accumulator")
        }
    }
}
