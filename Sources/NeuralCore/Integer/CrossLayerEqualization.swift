/// Cross-layer equalisation (Nagel et al., "Data-Free Quantization", 2019), applied to the float
/// graph at load before calibration and quantisation.
///
/// Where a DEPTHWISE_CONV_2D (no activation, or RELU — both positively homogeneous) feeds only a
/// CONV_2D, its channel `i` can be divided by `s_i > 0` and the convolution's input channel `i`
/// multiplied by `s_i` without changing the float result. The MediaPipe models have depthwise
/// outputs whose channel ranges differ by two orders of magnitude (BlazeFace's last block:
/// −309…8), so one per-tensor int8 scale wastes most of its levels, and per-output-channel filter
/// scales of the following convolution cannot resolve the small weights of the large channels.
/// With `s_i = √(r1_i / r2_i)` (`r1_i`: the depthwise filter's range for channel i, `r2_i`: the
/// convolution's range over input channel i), both filters end with the range `√(r1_i · r2_i)`.
enum CrossLayerEqualization {
    /// The depthwise outputs `apply` would rescale.
    static func candidates(_ graph: Graph) -> [Int] {
        var out: [Int] = []
        _ = visit(graph) { x, _, _ in out.append(x) }
        return out
    }

    /// Rescales `graph`'s constants in place; returns how many channel pairs were equalised.
    /// With `activationRanges` (largest |value| per channel of a depthwise output, from
    /// calibration), `s_i = √(a_i / r2_i)` balances the activation's channel ranges against the
    /// convolution's filter ranges instead of the two filters'.
    @discardableResult
    static func apply(_ graph: inout Graph, activationRanges: [Int: [Float]] = [:], imbalance: Float = 8) -> Int {
        var equalised = 0
        let pairs = visit(graph) { _, _, _ in }
        for (x, first, second) in pairs {
            let w1 = first.inputs[1], b1 = first.inputs.count > 2 ? first.inputs[2] : -1
            let w2 = second.inputs[1]
            let o1 = graph.tensors[w1].constantOffset!, o2 = graph.tensors[w2].constantOffset!
            let c = graph.tensors[w1].shape[3]
            let taps1 = graph.tensors[w1].elementCount / c
            let outer2 = graph.tensors[w2].elementCount / c
            var r1 = [Float](repeating: 0, count: c), r2 = [Float](repeating: 0, count: c)
            for t in 0..<taps1 { for i in 0..<c { r1[i] = max(r1[i], abs(graph.constants[o1 + t * c + i])) } }
            for t in 0..<outer2 { for i in 0..<c { r2[i] = max(r2[i], abs(graph.constants[o2 + t * c + i])) } }
            if let a = activationRanges[x], a.count == c {
                // Only where the channel ranges are badly imbalanced: elsewhere the rescaling
                // moves error into the convolution's filters for no gain.
                let sorted = a.sorted()
                guard sorted[c / 2] > 0, sorted[c - 1] / sorted[c / 2] > imbalance else { continue }
                r1 = a
            }
            for i in 0..<c where r1[i] > 0 && r2[i] > 0 {
                let s = (r1[i] / r2[i]).squareRoot()
                for t in 0..<taps1 { graph.constants[o1 + t * c + i] /= s }
                if b1 >= 0, let ob = graph.tensors[b1].constantOffset { graph.constants[ob + i] /= s }
                for t in 0..<outer2 { graph.constants[o2 + t * c + i] *= s }
                equalised += 1
            }
        }
        return equalised
    }

    /// The (depthwise output, depthwise op, convolution op) pairs that can be equalised.
    static func visit(_ graph: Graph, _ found: (Int, Operation, Operation) -> Void) -> [(Int, Operation, Operation)] {
        let n = graph.tensors.count
        var consumers = [Int](repeating: 0, count: n)
        var weightUses = [Int](repeating: 0, count: n)
        for op in graph.operations {
            for t in op.inputs where t >= 0 {
                consumers[t] += 1
                if graph.tensors[t].constantOffset != nil { weightUses[t] += 1 }
            }
        }
        var isOutput = [Bool](repeating: false, count: n)
        for o in graph.outputs { isOutput[o] = true }
        var producer = [Int](repeating: -1, count: n)
        for (k, op) in graph.operations.enumerated() { producer[op.output] = k }

        var pairs: [(Int, Operation, Operation)] = []
        for second in graph.operations {
            guard case .conv2D = second.kind else { continue }
            let x = second.inputs[0]
            guard producer[x] >= 0, consumers[x] == 1, !isOutput[x] else { continue }
            let first = graph.operations[producer[x]]
            guard case .depthwiseConv2D(let g) = first.kind, g.depthMultiplier == 1,
                  g.activation == .none || g.activation == .relu else { continue }
            let w1 = first.inputs[1], b1 = first.inputs.count > 2 ? first.inputs[2] : -1
            let w2 = second.inputs[1]
            guard weightUses[w1] == 1, weightUses[w2] == 1, b1 < 0 || weightUses[b1] == 1,
                  graph.tensors[w1].constantOffset != nil, graph.tensors[w2].constantOffset != nil
            else { continue }
            let c = graph.tensors[w1].shape[3]
            guard graph.tensors[w2].shape[3] == c else { continue }
            found(x, first, second)
            pairs.append((x, first, second))
        }
        return pairs
    }
}
