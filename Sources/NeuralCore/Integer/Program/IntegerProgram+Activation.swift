extension IntegerProgram.Lowering {
    /// RELU, HARD_SWISH and LOGISTIC on quantised tensors: one lookup table over every input value
    /// of `E` (256 or 65,536 entries).
    mutating func lowerLookup(_ op: Operation) throws(ModelError) {
        let x = op.inputs[0], out = op.output
        let qin = try parameters(x), qo = try parameters(out)
        let table: LookupTable
        switch op.kind {
        case .relu: table = LookupTable(input: qin, output: qo, as: E.self, LookupTable.relu)
        case .hardSwish: table = LookupTable.hardSwish(input: qin, output: qo, as: E.self)
        case .logistic: table = LookupTable(input: qin, output: qo, as: E.self, LookupTable.logistic)
        default: throw .unsupported(label + " has no lookup table")
        }
        append(.lookup(UnsafePointer(try quantized(x)), graph.tensors[x].elementCount, table, try quantized(out)))
    }

    /// LOGISTIC into a float tensor (a model output): computed in float, from the float input or
    /// from the dequantised one.
    mutating func lowerFloatLogistic(_ op: Operation) throws(ModelError) {
        let x = op.inputs[0], out = op.output
        let count = graph.tensors[x].elementCount
        if quantization.isFloat[x] {
            append(.logisticFloat(UnsafePointer(try float(x)), count, try float(out)))
        } else {
            append(.partDequantize(UnsafePointer(try quantized(x)), outer: 1, inner: count, stride: count,
                                   try parameters(x), try float(out)))
            append(.logisticFloat(UnsafePointer(try float(out)), count, try float(out)))
        }
    }
}
