extension IntegerProgram.Lowering {
    /// ADD and MUL of two quantised tensors: equal sizes, or `b` broadcast as one value or one
    /// value per channel.
    mutating func lowerElementwise(_ op: Operation, _ operation: ElementwiseParams.Operation,
                                   _ activation: Activation) throws(ModelError) {
        guard op.inputs.count == 2 && op.inputs[1] >= 0 else { throw .malformed(label + " needs two inputs") }
        let out = op.output
        let os = try shape(out)
        var a = op.inputs[0], b = op.inputs[1]
        let count = graph.tensors[out].elementCount
        if graph.tensors[a].elementCount != count { swap(&a, &b) }
        let bc = graph.tensors[b].elementCount
        guard graph.tensors[a].elementCount == count,
              bc == count || bc == 1 || (bc == os[3] && graph.tensors[b].shape4.count == 4 && graph.tensors[b].shape4[3] == os[3])
        else { throw .unsupported(label + " broadcasts in a way the integer path does not implement") }
        let qa = try parameters(a), qb = try parameters(b)
        let qo = try parameters(out)
        var p = ElementwiseParams(operation, qa, qb, output: qo, as: E.self)
        (p.minimum, p.maximum) = bounds(activation, qo)
        if E.bitWidth == 16 && operation == .mul && p.outputMultiplier.leftShift > 0 {
            // (x1·x2) reaches 2^30 with int16 operands: no room for a left shift.
            throw .unsupported(label + ": an int16 MUL needs a multiplier below one")
        }
        append(.elementwise(UnsafePointer(try quantized(a)), UnsafePointer(try quantized(b)), count, bc, p,
                            try quantized(out)))
    }

    /// PRELU with a constant alpha per channel (int8 activations only).
    mutating func lowerPReLU(_ op: Operation) throws(ModelError) {
        let x = op.inputs[0], out = op.output
        guard let qx = quantization.parameters[x] else { throw .unsupported(label + " reads a float tensor") }
        guard E.bitWidth == 8 else { throw .unsupported(label + ": PRELU has no int16-activation kernel") }
        guard op.inputs.count == 2 && op.inputs[1] >= 0 else { throw .malformed(label + " has no alpha") }
        let alphaTensor = op.inputs[1]
        guard graph.tensors[alphaTensor].constantOffset != nil else { throw .unsupported(label + " needs a constant alpha") }
        let alpha = try constant(alphaTensor)
        let xs = try shape(x)
        let c = xs[3]
        var perChannel = alpha
        if alpha.count != c {
            // A full-size alpha that repeats per pixel is per-channel too.
            guard alpha.count == graph.tensors[x].elementCount else { throw .unsupported(label + " alpha is not per channel") }
            perChannel = Array(alpha[0..<c])
            for i in 0..<alpha.count where alpha[i] != perChannel[i % c] {
                throw .unsupported(label + " alpha varies across pixels")
            }
        }
        let p = PReLUParams(input: qx, output: try parameters(out), alpha: perChannel)
        append(.prelu(UnsafePointer(UnsafeMutableRawPointer(try quantized(x)).assumingMemoryBound(to: Int8.self)),
                      xs[1] * xs[2], p, UnsafeMutableRawPointer(try quantized(out)).assumingMemoryBound(to: Int8.self)))
    }
}
