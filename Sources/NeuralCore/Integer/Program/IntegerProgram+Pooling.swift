extension IntegerProgram.Lowering {
    /// MAX_POOL_2D and AVERAGE_POOL_2D: the output shares the input's parameters (pass 3), so the
    /// kernels only clamp to the fused activation.
    mutating func lowerPool(_ op: Operation, _ kind: PoolParams.Kind, _ g: PoolGeometry) throws(ModelError) {
        let x = op.inputs[0], out = op.output
        let xs = try shape(x), os = try shape(out)
        let qo = try parameters(out)
        let geo = WindowGeometry(inputHeight: xs[1], inputWidth: xs[2], channels: xs[3],
                                 kernelHeight: g.filterH, kernelWidth: g.filterW, strideY: g.strideH,
                                 strideX: g.strideW, padTop: g.padTop, padLeft: g.padLeft,
                                 outputHeight: os[1], outputWidth: os[2])
        let (lo, hi) = bounds(g.activation, qo)
        append(.pool(UnsafePointer(try quantized(x)), geo, PoolParams(kind, minimum: lo, maximum: hi), try quantized(out)))
    }

    /// MEAN over height and width (global average pooling), requantised.
    mutating func lowerMean(_ op: Operation, reduced: [Bool]) throws(ModelError) {
        guard reduced == [false, true, true, false] else { throw .unsupported(label + " reduces other axes than H and W") }
        let x = op.inputs[0], out = op.output
        let xs = try shape(x)
        let p = MeanParams(input: try parameters(x), output: try parameters(out), pixels: xs[1] * xs[2])
        append(.mean(UnsafePointer(try quantized(x)), xs[1] * xs[2], xs[3], p, try quantized(out)))
    }
}
