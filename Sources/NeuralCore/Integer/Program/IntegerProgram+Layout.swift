extension IntegerProgram.Lowering {
    /// PAD with constants along H, W and C (the pad value is the zero point).
    mutating func lowerPad(_ op: Operation, before: [Int], after: [Int]) throws(ModelError) {
        let x = op.inputs[0], out = op.output
        guard before.count == 4 && after.count == 4 else { throw .malformed(label + " pads other than 4 dimensions") }
        guard before[0] == 0 && after[0] == 0 else { throw .unsupported(label + " pads the batch") }
        let xs = try shape(x), os = try shape(out)
        let spec = PadSpec(height: xs[1], width: xs[2], channels: xs[3], top: before[1], left: before[2],
                           front: before[3], outputHeight: os[1], outputWidth: os[2], outputChannels: os[3],
                           zeroPoint: try parameters(x).zeroPoint)
        append(.pad(UnsafePointer(try quantized(x)), spec, try quantized(out)))
    }

    /// RESHAPE: a copy (requantised when the plan gives the output other parameters), or into a
    /// float tensor from a float or a quantised input.
    mutating func lowerReshape(_ op: Operation) throws(ModelError) {
        let x = op.inputs[0], out = op.output
        let count = graph.tensors[x].elementCount
        if quantization.isFloat[out] {
            if quantization.isFloat[x] {
                append(.partFloat(UnsafePointer(try float(x)), outer: 1, inner: count, stride: count, try float(out)))
            } else {
                append(.partDequantize(UnsafePointer(try quantized(x)), outer: 1, inner: count, stride: count,
                                       try parameters(x), try float(out)))
            }
        } else {
            append(.part(UnsafePointer(try quantized(x)), outer: 1, inner: count, stride: count,
                         RequantizeParams(input: try parameters(x), output: try parameters(out)), try quantized(out)))
        }
    }

    /// CONCATENATION: each input copied into its columns of the output (requantised, or into a
    /// float output); a fused activation becomes a clamping lookup over the output.
    mutating func lowerConcatenation(_ op: Operation, axis: Int, activation act: Activation) throws(ModelError) {
        let out = op.output
        let os = try shape(out)
        guard axis >= 0 && axis < 4 else { throw .malformed(label + " joins along axis " + String(axis)) }
        var outer = 1
        for d in 0..<axis { outer *= os[d] }
        let total = graph.tensors[out].elementCount / outer
        var offset = 0
        let isFloat = quantization.isFloat[out]
        if act != .none && isFloat { throw .unsupported(label + " float output with an activation") }
        for t in op.inputs {
            guard t >= 0 else { throw .malformed(label + " has an omitted input") }
            let inner = graph.tensors[t].elementCount / outer
            if isFloat {
                if quantization.isFloat[t] {
                    append(.partFloat(UnsafePointer(try float(t)), outer: outer, inner: inner, stride: total,
                                      try float(out) + offset))
                } else {
                    append(.partDequantize(UnsafePointer(try quantized(t)), outer: outer, inner: inner, stride: total,
                                           try parameters(t), try float(out) + offset))
                }
            } else {
                append(.part(UnsafePointer(try quantized(t)), outer: outer, inner: inner, stride: total,
                             RequantizeParams(input: try parameters(t), output: try parameters(out)),
                             try quantized(out) + offset))
            }
            offset += inner
        }
        if act != .none, let qo = quantization.parameters[out] {
            let bounds = act.bounds
            let table = LookupTable(input: qo, output: qo, as: E.self) { min(max($0, bounds.lower), bounds.upper) }
            append(.lookup(UnsafePointer(try quantized(out)), graph.tensors[out].elementCount, table, try quantized(out)))
        }
    }

    /// RESIZE_BILINEAR: the output shares the input's parameters (pass 3).
    mutating func lowerResize(_ op: Operation, alignCorners: Bool, halfPixelCenters: Bool) throws(ModelError) {
        let x = op.inputs[0], out = op.output
        _ = try parameters(x)
        let xs = try shape(x), os = try shape(out)
        let p = ResizeParams(inputHeight: xs[1], inputWidth: xs[2], channels: xs[3], outputHeight: os[1],
                             outputWidth: os[2], alignCorners: alignCorners, halfPixelCenters: halfPixelCenters)
        append(.resize(UnsafePointer(try quantized(x)), p, try quantized(out)))
    }
}
