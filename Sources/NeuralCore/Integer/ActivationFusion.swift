/// Folds a standalone RELU into the operation that produces its input, applied to the integer
/// path's copy of the graph at load (before equalisation and calibration).
///
/// The MediaPipe models write `CONV_2D → RELU`, `DEPTHWISE_CONV_2D → RELU` and `ADD → RELU` as two
/// operators. Run as two int8 steps, the producer's output has to be quantised over its whole
/// signed range, half of whose levels the RELU then throws away; fused, the producer's output
/// stage clamps at zero and its tensor is quantised over `[0, max]` only (twice the resolution),
/// and one pass over the tensor (a lookup) disappears.
///
/// A RELU is folded when its input is written by a CONV_2D, DEPTHWISE_CONV_2D, ADD or MUL whose
/// fused activation is NONE, RELU or RELU6, and nothing else reads that input (nor is it a graph
/// output). The float result is unchanged (RELU∘RELU = RELU,
/// RELU∘RELU6 = RELU6).
enum ActivationFusion {
    /// Rewrites `graph` in place; returns how many RELUs were folded.
    @discardableResult
    static func apply(_ graph: inout Graph) -> Int {
        let n = graph.tensors.count
        var consumers = [Int](repeating: 0, count: n)
        var producer = [Int](repeating: -1, count: n)
        for (k, op) in graph.operations.enumerated() {
            producer[op.output] = k
            for t in op.inputs where t >= 0 { consumers[t] += 1 }
        }
        var isOutput = [Bool](repeating: false, count: n)
        for o in graph.outputs { isOutput[o] = true }

        func fused(_ a: Activation) -> Activation? {
            switch a {
            case .none, .relu: return .relu
            case .relu6: return .relu6
            case .reluN1To1: return nil
            }
        }

        var removed = [Bool](repeating: false, count: graph.operations.count)
        var folded = 0
        for k in 0..<graph.operations.count {
            guard case .relu = graph.operations[k].kind else { continue }
            let x = graph.operations[k].inputs[0]
            let p = producer[x]
            guard p >= 0, !removed[p], consumers[x] == 1, !isOutput[x] else { continue }
            var kind = graph.operations[p].kind
            switch kind {
            case .conv2D(var g):
                guard let a = fused(g.activation) else { continue }
                g.activation = a; kind = .conv2D(g)
            case .depthwiseConv2D(var g):
                guard let a = fused(g.activation) else { continue }
                g.activation = a; kind = .depthwiseConv2D(g)
            case .add(let act):
                guard let a = fused(act) else { continue }
                kind = .add(a)
            case .mul(let act):
                guard let a = fused(act) else { continue }
                kind = .mul(a)
            default:
                continue
            }
            let out = graph.operations[k].output
            graph.operations[p].kind = kind
            graph.operations[p].output = out
            producer[out] = p
            removed[k] = true
            folded += 1
        }
        if folded > 0 {
            var kept: [Operation] = []
            for (k, op) in graph.operations.enumerated() where !removed[k] { kept.append(op) }
            graph.operations = kept
        }
        return folded
    }
}
