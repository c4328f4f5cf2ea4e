extension IntegerProgram {
    /// Whether int16 HARD_SWISH tables are stored (128 KiB each). Only on aarch64, where the NEON
    /// kernel looks every value up (about three instructions a value, against twice that for the
    /// float lanes); elsewhere the kernels compute the entries (`hardSwishVector`), as the SIMD
    /// variant did for all but a tail anyway (the live landscape segmenter's 11 tables: 1.4 MiB).
    static var storesWideHardSwish: Bool {
        #if arch(arm64)
        return true
        #else
        return false
        #endif
    }

    /// int16 LOGISTIC tables over at most this many values are computed per value, not stored:
    /// the landscape segmenter's 11 squeeze-and-excitation gates (a few hundred values a frame
    /// between them, against a 65,536-entry table built at load for each).
    static var computedLogisticLimit: Int { 4096 }
}

extension IntegerProgram.Lowering {
    /// RELU, HARD_SWISH and LOGISTIC on quantised tensors: one lookup table over every input value
    /// of `E` (256 or 65,536 entries).
    mutating func lowerLookup(_ op: Operation) throws(ModelError) {
        let x = op.inputs[0], out = op.output
        let qin = try parameters(x), qo = try parameters(out)
        let table: LookupTable
        switch op.kind {
        case .relu: table = LookupTable(input: qin, output: qo, as: E.self, LookupTable.relu)
        case .hardSwish: table = LookupTable.hardSwish(input: qin, output: qo, as: E.self,
                                                       stored: E.bitWidth == 8 || IntegerProgram.storesWideHardSwish)
        case .logistic:
            table = LookupTable.logistic(input: qin, output: qo, as: E.self,
                                         stored: E.bitWidth == 8 || graph.tensors[x].elementCount > IntegerProgram.computedLogisticLimit)
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
