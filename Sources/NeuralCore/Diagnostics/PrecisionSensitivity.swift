/// What the precision of one operation's output costs at the model's outputs: research for
/// choosing activation precision per layer (issue 16) instead of per model. `package`: seen by
/// the tests and tools of this package only.
package struct PrecisionSensitivity: Sendable {
    /// The operation (index into the integer path's rewritten graph) and its kind.
    package var operation: Int
    package var kind: String
    /// Its output tensor's name, and index.
    package var tensor: String
    package var output: Int
    /// The worst `error` over the inputs with this operation's output at the trial width and every
    /// other quantised tensor at the base width.
    package var error: Float
}

extension Interpreter {
    /// On a float-path interpreter: the integer path's graph and quantisation plan for
    /// `calibration` simulated in float — filters rounded to int8 per channel, every quantised
    /// activation rounded to its `baseBits` parameters after the operation that writes it (fake
    /// quantisation) — first as is (`base`), then once per operation with a quantised output, with
    /// that output at its `trialBits` parameters instead. `error(outputs, reference)` scores a run
    /// against this interpreter's float outputs; each figure is the worst over `inputs`.
    ///
    /// Not bit-exact with the integer kernels (float arithmetic between the rounding points), but
    /// it ranks the layers by what their width costs, which is what a per-layer choice needs.
    package func precisionSensitivity(inputs: [[Float]], calibration: IntegerCalibration, baseBits: Int, trialBits: Int,
                                      error: ([[Float]], [[Float]]) -> Float)
        throws(ModelError) -> (base: Float, operations: [PrecisionSensitivity]) {
        guard case .float = engine else { throw .pathUnavailable("precision sensitivity needs the float path") }
        guard [8, 16].contains(baseBits) && [8, 16].contains(trialBits) else {
            throw .unsupported("activation widths are 8 or 16 bits")
        }
        let calibrated = try CalibratedGraph(graph, calibration: calibration)
        var g = calibrated.graph
        Self.roundWeightsToInt8(&g)
        let plan8 = try QuantizationPlan(calibrated, calibration: calibration, as: Int8.self)
        let plan16 = try QuantizationPlan(calibrated, calibration: calibration, as: Int16.self)
        let base = baseBits == 8 ? plan8 : plan16, trial = trialBits == 8 ? plan8 : plan16
        let retained = try RetainedFloatRun(graph: g)
        defer { retained.deallocate() }
        let plan = retained.plan, arena = retained.arena, program = retained.program

        func values(_ t: Int) -> UnsafeMutableBufferPointer<Float>? {
            guard let offset = plan.offsets[t] else { return nil }
            return UnsafeMutableBufferPointer(start: (arena + offset).assumingMemoryBound(to: Float.self),
                                              count: g.tensors[t].elementCount)
        }
        func roundTensor(_ t: Int, _ p: QuantParams?, bits: Int) {
            guard let p, let v = values(t) else { return }
            for i in 0..<v.count {
                v[i] = bits == 8 ? p.dequantize(p.quantize(v[i], as: Int8.self)) : p.dequantize(p.quantize(v[i], as: Int16.self))
            }
        }
        func simulate(_ input: [Float], trialOperation: Int) -> [[Float]] {
            guard let x = values(g.inputs[0]) else { return [] }
            for i in 0..<min(x.count, input.count) { x[i] = input[i] }
            roundTensor(g.inputs[0], base.parameters[g.inputs[0]], bits: baseBits)
            program.run { k in
                let t = g.operations[k].output
                if k == trialOperation { roundTensor(t, trial.parameters[t], bits: trialBits) } else {
                    roundTensor(t, base.parameters[t], bits: baseBits)
                }
            }
            return g.outputs.map { o in values(o).map { Array($0) } ?? [] }
        }

        let references = try outputs(of: inputs)
        func worst(_ trialOperation: Int) -> Float {
            var e: Float = 0
            for (i, input) in inputs.enumerated() { e = max(e, error(simulate(input, trialOperation: trialOperation), references[i])) }
            return e
        }
        var operations: [PrecisionSensitivity] = []
        for (k, op) in g.operations.enumerated() where base.parameters[op.output] != nil {
            operations.append(PrecisionSensitivity(operation: k, kind: op.kind.name, tensor: g.tensors[op.output].name,
                                                   output: op.output, error: worst(k)))
        }
        return (worst(-1), operations)
    }

    /// The filter of convolution `op` of `g` (CONV_2D, transpose convolution, depthwise): its first
    /// index into `g.constants`, its values, channels and channel axis. Nil for other operations.
    static func filter(of op: Operation, in g: Graph) -> (start: Int, weights: [Float], channels: Int, axis: ChannelWeights.ChannelAxis)? {
        let axis: ChannelWeights.ChannelAxis
        switch op.kind {
        case .conv2D, .transposeConvBias: axis = .outermost
        case .depthwiseConv2D: axis = .innermost
        default: return nil
        }
        let t = op.inputs[1]
        guard t >= 0, let start = g.tensors[t].constantOffset else { return nil }
        return (start, Array(g.constant(t)), axis == .outermost ? g.tensors[t].shape[0] : g.tensors[t].shape[3], axis)
    }

    /// This interpreter's outputs on each of `inputs` (the references the simulations are scored against).
    func outputs(of inputs: [[Float]]) throws(ModelError) -> [[[Float]]] {
        var references: [[[Float]]] = []
        for input in inputs {
            guard input.count == graph.tensors[graph.inputs[0]].elementCount else {
                throw .unsupported("an input does not have the model's input size")
            }
            _ = withInput(0) { $0.update(fromContentsOf: input) }
            run()
            references.append((0..<outputCount).map { o in withOutput(o) { Array($0) } })
        }
        return references
    }

    /// Every CONV_2D, transpose-convolution and depthwise filter of `g` (or only operation
    /// `onlyOperation`'s) replaced by its int8 per-channel rounding, as the integer path quantises it.
    static func roundWeightsToInt8(_ g: inout Graph, clipSearch: Bool = false, onlyOperation: Int = -1) {
        for (k, op) in g.operations.enumerated() where onlyOperation < 0 || k == onlyOperation {
            guard let f = filter(of: op, in: g) else { continue }
            let (start, w, channels, axis) = (f.start, f.weights, f.channels, f.axis)
            let cw = ChannelWeights(quantizing: w, channels: channels, axis: axis, clipSearch: clipSearch)
            let inner = w.count / channels
            for i in 0..<w.count {
                let c = axis == .outermost ? i / inner : i % channels
                g.constants[start + i] = clipSearch && cw.scales[0] < 0 ? w[i] : Float(cw.values[i]) * cw.scales[c]
            }
        }
    }
}

/// One operation of the integer path's rewritten graph, as `FloatChoice` tries it in float.
package struct RewrittenOperation: Sendable {
    /// Index into the rewritten graph's operations, its kind, and the tensor it writes (the
    /// `CalibrationTable`'s `f` record names it).
    package var operation: Int
    package var kind: String
    package var output: Int
    /// Its multiply-adds, from the shapes: a convolution's output values × kernel taps × input
    /// channels per output (depthwise: × taps; transposed: input values × outputs per input);
    /// a pooling window's taps per output value; 4 per output value for a bilinear resize; the
    /// output's values times the number of inputs for everything else (elementwise operations,
    /// activations, copies).
    package var macs: Int
    /// The values it writes, and the non-constant tensors it reads with their value counts: what a
    /// float run made of it alone quantises and dequantises at its edges (`FloatIsland`).
    package var outputCount: Int
    package var reads: [Int]
    package var readCounts: [Int]
    /// Whether its output is one of the model's outputs.
    package var isModelOutput: Bool
}

extension Interpreter {
    /// The operations of the graph the integer path runs for `calibration` (after its rewrites),
    /// with the tensor each writes.
    package func rewrittenOperations(calibration: IntegerCalibration) throws(ModelError) -> [RewrittenOperation] {
        let calibrated = try CalibratedGraph(graph, calibration: calibration)
        let g = calibrated.graph
        let outputs = Set(g.outputs)
        return g.operations.enumerated().map { k, op in
            let out = g.tensors[op.output].elementCount
            let reads = op.inputs.filter { $0 >= 0 && g.tensors[$0].constantOffset == nil }
            var macs = out * max(1, reads.count)
            switch op.kind {
            case .conv2D:
                let w = g.tensors[op.inputs[1]].shape4
                macs = out * w[1] * w[2] * w[3]
            case .depthwiseConv2D:
                let w = g.tensors[op.inputs[1]].shape4
                macs = out * w[1] * w[2]
            case .transposeConvBias:
                let w = g.tensors[op.inputs[1]].shape4
                macs = g.tensors[op.inputs[0]].elementCount * w[0] * w[1] * w[2]
            case .maxPool2D(let p), .averagePool2D(let p):
                macs = out * p.filterH * p.filterW
            case .mean:
                macs = g.tensors[op.inputs[0]].elementCount
            case .resizeBilinear:
                macs = out * 4
            default:
                break
            }
            return RewrittenOperation(operation: k, kind: op.kind.name, output: op.output, macs: macs, outputCount: out,
                                      reads: reads, readCounts: reads.map { g.tensors[$0].elementCount },
                                      isModelOutput: outputs.contains(op.output))
        }
    }
}
