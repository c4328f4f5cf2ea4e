/// Research for issue 15 (the float islands of the integer models): why an operation a model's
/// calibration table runs in float (`f` records, `FloatIsland`) is there — whether its error in
/// integer comes from its int8 filter or from rounding the activations it reads and writes.
/// `package`: seen by `booth model calibrate --island-sensitivity` and the tests only.
package struct IslandSensitivity: Sendable {
    /// One float operation taken back to integer alone (the others stay float), simulated three
    /// ways. Each array holds the `error` figures per input.
    package struct Trial: Sendable {
        /// The operation (index into the rewritten graph), its kind and the tensor it writes.
        package var operation: Int
        package var kind: String
        package var output: Int
        /// The activation width it would run at in integer (8: an int16 convolution whose
        /// accumulator could overflow, which runs at int8).
        package var bits: Int
        /// Filter rounded (at `weightBits`) and activations rounded: the integer program, simulated.
        package var both: [[Float]]
        /// Only its filter rounded (its inputs and output as in float).
        package var weights: [[Float]]
        /// Only the activations it reads and writes rounded (its filter exact).
        package var activations: [[Float]]
    }
    /// The table's program simulated (every float operation exact), per input.
    package var base: [[Float]]
    package var trials: [Trial]
}

extension Interpreter {
    /// On a float-path interpreter: the integer program of `calibration` (its table's float
    /// operations `floatTensors` in float) simulated in float as `precisionSensitivity` does —
    /// filters of integer operations rounded per channel to `weightBits` (8: the integer path's
    /// int8), every quantised activation rounded to its parameters (at the width the `WidthPlan`
    /// gives it) unless only float operations write and read it — then, for every tensor of
    /// `trials`, the program with its writer taken back to integer (`IslandSensitivity.Trial`).
    /// `error(outputs, reference)` scores one run against this interpreter's float outputs.
    ///
    /// Not bit-exact with the integer kernels (float arithmetic between the rounding points), but
    /// it separates what a float operation's filter costs in integer from what its activations do.
    package func islandSensitivity(inputs: [[Float]], calibration: IntegerCalibration, floatTensors: Set<Int>,
                                   trials: [Int], weightBits: Int = 8, error: ([[Float]], [[Float]]) -> [Float])
        throws(ModelError) -> IslandSensitivity {
        guard case .float = engine else { throw .pathUnavailable("island sensitivity needs the float path") }
        guard weightBits >= 2 && weightBits <= 16 else { throw .unsupported("filters are rounded to 2...16 bits") }
        let calibrated = try CalibratedGraph(graph, calibration: calibration)
        let bits = calibration.activationWidth(for: calibrated.graph) == .int16 ? 16 : 8
        for t in floatTensors.union(trials) where t < 0 || t >= calibrated.graph.tensors.count {
            throw .malformed("a float record names tensor " + String(t) + " of " + String(calibrated.graph.tensors.count))
        }

        let references = try outputs(of: inputs)

        /// Runs every input through the program with `floats` in float; the filter of the
        /// operation writing `exactFilter` is left unrounded even if it is integer, and with
        /// `roundAs` the activations are rounded as for that float set instead of `floats`.
        func simulate(floats: Set<Int>, exactFilter: Int?, roundAs: Set<Int>?) throws(ModelError) -> (bits: [Int], errors: [[Float]]) {
            let widths = try WidthPlan(calibrated, base: bits, requested: [:],
                                       inputRange: (calibration.inputLower, calibration.inputUpper), floatOperations: floats)
            var roundingWidths: WidthPlan? = nil
            if let roundAs {
                roundingWidths = try WidthPlan(calibrated, base: bits, requested: [:],
                                               inputRange: (calibration.inputLower, calibration.inputUpper), floatOperations: roundAs)
            }
            let q = QuantizationPlan(widths, calibration: calibration)
            let rounding = roundingWidths.map { QuantizationPlan($0, calibration: calibration) } ?? q
            let roundingGraph = roundingWidths?.graph ?? widths.graph
            var g = widths.graph
            let integerFilters = Set(g.operations.indices.filter { k in
                !widths.isConversion[k] && !floats.contains(g.operations[k].output) && g.operations[k].output != exactFilter
            })
            Self.roundWeights(&g, operations: integerFilters, bits: weightBits)
            // A tensor is rounded unless float operations (or the model's outputs) alone write and read it.
            let rg = roundingGraph
            let floatSet = roundAs ?? floats
            var rounded = [Bool](repeating: false, count: rg.tensors.count)
            for (k, op) in rg.operations.enumerated() {
                let readerIsInteger = !floatSet.contains(op.output) || (roundingWidths?.isConversion[k] ?? widths.isConversion[k])
                for t in op.inputs where t >= 0 && rg.tensors[t].constantOffset == nil && readerIsInteger { rounded[t] = true }
                if !floatSet.contains(op.output) { rounded[op.output] = true }
            }
            // Rounding happens after the writer runs (or on the input); the two graphs share the
            // calibrated graph's tensors, and copies only exist in the graph that has them.
            let retained = try RetainedFloatRun(graph: g)
            defer { retained.deallocate() }
            func values(_ t: Int) -> UnsafeMutableBufferPointer<Float>? {
                guard t < g.tensors.count, let offset = retained.plan.offsets[t] else { return nil }
                return UnsafeMutableBufferPointer(start: (retained.arena + offset).assumingMemoryBound(to: Float.self),
                                                  count: g.tensors[t].elementCount)
            }
            func round(_ t: Int) {
                guard t < rounded.count, rounded[t], let p = rounding.parameters[t], let v = values(t) else { return }
                let wide = rounding.tensorBits[t] == 16
                for i in 0..<v.count {
                    v[i] = wide ? p.dequantize(p.quantize(v[i], as: Int16.self)) : p.dequantize(p.quantize(v[i], as: Int8.self))
                }
            }
            var errors: [[Float]] = []
            for (i, input) in inputs.enumerated() {
                guard let x = values(g.inputs[0]) else { return (widths.operationBits, []) }
                for j in 0..<min(x.count, input.count) { x[j] = input[j] }
                round(g.inputs[0])
                retained.program.run { k in round(g.operations[k].output) }
                errors.append(error(g.outputs.map { o in values(o).map { Array($0) } ?? [] }, references[i]))
            }
            var byOutput = [Int](repeating: 0, count: g.tensors.count)
            for (k, op) in g.operations.enumerated() where !widths.isConversion[k] { byOutput[op.output] = widths.operationBits[k] }
            return (byOutput, errors)
        }

        let base = try simulate(floats: floatTensors, exactFilter: nil, roundAs: nil)
        var out: [IslandSensitivity.Trial] = []
        for t in trials {
            var rest = floatTensors
            rest.remove(t)
            let both = try simulate(floats: rest, exactFilter: nil, roundAs: nil)
            let weights = try simulate(floats: rest, exactFilter: nil, roundAs: floatTensors)
            let activations = try simulate(floats: rest, exactFilter: t, roundAs: nil)
            let k = calibrated.graph.operations.firstIndex { $0.output == t } ?? -1
            out.append(IslandSensitivity.Trial(operation: k, kind: k >= 0 ? calibrated.graph.operations[k].kind.name : "?",
                                               output: t, bits: t < both.bits.count ? both.bits[t] : 0,
                                               both: both.errors, weights: weights.errors, activations: activations.errors))
        }
        return IslandSensitivity(base: base.errors, trials: out)
    }

    /// The filters of `operations` (indices into `g`) rounded per channel to `bits`-bit symmetric
    /// values (`ChannelWeights`' rule at 8 bits: scale max|w| / (2^(bits−1) − 1)).
    static func roundWeights(_ g: inout Graph, operations: Set<Int>, bits: Int) {
        let top = Float((1 << (bits - 1)) - 1)
        for k in operations.sorted() {
            guard let f = filter(of: g.operations[k], in: g), f.channels > 0, f.weights.count % f.channels == 0 else { continue }
            let (start, w, channels, axis) = (f.start, f.weights, f.channels, f.axis)
            let inner = w.count / channels
            var maxAbs = [Float](repeating: 0, count: channels)
            for i in 0..<w.count {
                let c = axis == .outermost ? i / inner : i % channels
                maxAbs[c] = max(maxAbs[c], abs(w[i]))
            }
            for i in 0..<w.count {
                let c = axis == .outermost ? i / inner : i % channels
                guard maxAbs[c] > 0 else { continue }
                let scale = maxAbs[c] / top
                g.constants[start + i] = min(max((w[i] / scale).rounded(), -top), top) * scale
            }
        }
    }
}
