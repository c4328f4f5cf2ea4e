/// Per-tensor error of the integer path against the float path, for tuning and tests. Research
/// tooling, not product API: `package`, seen by the CLI's `booth model calibrate` and the tests of
/// this package only.
package struct IntegerTensorReport: Sendable {
    package var tensor: Int
    package var name: String
    package var operation: String
    /// Largest |integer − float| over the tensor, and the root mean square.
    package var maxError: Float
    package var rmsError: Float
    /// The float tensor's range on this input, and the int8 scale.
    package var lower: Float, upper: Float
    package var scale: Float
}

extension Interpreter {
    /// Runs both paths on `input` and reports, for every int8 tensor of the integer program, how
    /// far its dequantised values are from the float path's. Empty on the float path.
    package func integerDiagnostics(input: [Float]) -> [IntegerTensorReport] {
        switch engine {
        case .float: return []
        case .integer(let program): return diagnostics(program, input: input)
        }
    }

    func diagnostics(_ program: IntegerProgram, input: [Float]) -> [IntegerTensorReport] {
        guard input.count == graph.tensors[graph.inputs[0]].elementCount,
              let retained = try? RetainedFloatRun(graph: graph) else { return [] }
        defer { retained.deallocate() }
        let plan = retained.plan, floats = retained.arena, reference = retained.program
        let inputTensor = graph.inputs[0]
        guard let inputOffset = plan.offsets[inputTensor] else { return [] }
        let inputFloats = (floats + inputOffset).assumingMemoryBound(to: Float.self)
        for i in 0..<input.count { inputFloats[i] = input[i] }
        reference.run()
        _ = withInput(0) { $0.update(fromContentsOf: input) }
        var reports: [IntegerTensorReport] = []
        let steps = program.steps
        for (i, step) in steps.enumerated() {
            program.run(step)
            let t = program.stepTensors[i]
            // Width-conversion copies (tensors past the model's) have no float counterpart.
            guard t >= 0, t < graph.tensors.count, i + 1 == steps.count || program.stepTensors[i + 1] != t,
                  !program.isFloat[t], let q = program.parameters[t], let o = plan.offsets[t] else { continue }
            let f = (floats + o).assumingMemoryBound(to: Float.self)
            let wide = program.quantization.tensorBits[t] == 16
            guard let x8 = program.memory.slot(t, as: Int8.self), let x16 = program.memory.slot(t, as: Int16.self) else { continue }
            var maxError: Float = 0, sum: Float = 0, lo = Float.infinity, hi = -Float.infinity
            let count = graph.tensors[t].elementCount
            for k in 0..<count {
                let d = abs((wide ? q.dequantize(x16[k]) : q.dequantize(x8[k])) - f[k])
                maxError = max(maxError, d)
                sum += d * d
                lo = min(lo, f[k]); hi = max(hi, f[k])
            }
            var op = "input"
            for operation in graph.operations where operation.output == t { op = operation.kind.name }
            reports.append(IntegerTensorReport(tensor: t, name: graph.tensors[t].name, operation: op, maxError: maxError,
                                               rmsError: (sum / Float(count)).squareRoot(), lower: lo, upper: hi,
                                               scale: q.scale))
        }
        return reports
    }
}

extension Interpreter {
    /// The float path's outputs with every filter fake-quantised per channel to int8 (what the
    /// weights alone cost in accuracy).
    package func floatOutputsWithInt8Weights(input: [Float], clipSearch: Bool = false, skipQuantization: Bool = false, onlyOperation: Int = -1) -> [[Float]] {
        var g = graph
        if !skipQuantization { Self.roundWeightsToInt8(&g, clipSearch: clipSearch, onlyOperation: onlyOperation) }
        guard let p = try? MemoryPlan(graph: g) else { return [] }
        let arena = UnsafeMutableRawPointer.allocate(byteCount: max(p.byteCount, 64), alignment: 64)
        defer { arena.deallocate() }
        arena.initializeMemory(as: UInt8.self, repeating: 0, count: max(p.byteCount, 64))
        let program = FloatProgram(graph: g, plan: p, arena: arena)
        guard let inputOffset = p.offsets[g.inputs[0]], input.count == g.tensors[g.inputs[0]].elementCount else { return [] }
        let inputFloats = (arena + inputOffset).assumingMemoryBound(to: Float.self)
        for i in 0..<input.count { inputFloats[i] = input[i] }
        program.run()
        var outputs: [[Float]] = []
        for o in g.outputs {
            guard let offset = p.offsets[o] else { return [] }
            outputs.append(Array(UnsafeBufferPointer(start: (arena + offset).assumingMemoryBound(to: Float.self),
                                                     count: g.tensors[o].elementCount)))
        }
        return outputs
    }
}

extension Interpreter {
    /// On the integer path: the program's bytes (arena, scratch, float intermediates and float
    /// runs) and, of them, the float runs' (`FloatIsland`: their shared arena and packed
    /// constants), with the number of runs. Nil on the float path.
    package var integerMemory: (bytes: Int, floatRunBytes: Int, floatRuns: Int)? {
        guard case .integer(let program) = engine else { return nil }
        return (program.byteCount, program.floatRunBytes, program.islands.count)
    }

    /// On the integer path with float runs: their shared float arena (inside the program's block,
    /// so inside a `SharedArena`'s integer block when the interpreter shares one). Nil otherwise.
    package var floatRunArena: UnsafeRawBufferPointer? {
        guard case .integer(let program) = engine, !program.islands.isEmpty else { return nil }
        return UnsafeRawBufferPointer(start: program.memory.floatRuns, count: program.memory.floatRunByteCount)
    }
}
