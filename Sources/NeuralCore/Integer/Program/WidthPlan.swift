/// Pass 3a of the integer lowering (`IntegerProgram`): the activation width of every operation
/// and tensor, and the conversions where a consumer's width differs from its producer's.
///
/// Every quantised tensor gets the width it is asked for (`requested`, by tensor of the calibrated
/// graph — shipped in the model's `CalibrationTable` — else `base`), except where the kernel
/// cannot change width: MAX/AVERAGE_POOL, PAD, RESHAPE and RESIZE_BILINEAR copy values, so their
/// output keeps their input's width; PRELU has an int8 kernel only; a convolution whose int32
/// accumulator could overflow with int16 activations (`32768 · Σ|w| + |bias| ≥ 2^31` in some
/// channel, as `checkAccumulator` checks at lowering) runs at int8. An operation runs at its
/// output's width (an operation with a float output: at its first quantised input's), and each
/// quantised input at another width is read through a copy at the operation's width: a RESHAPE
/// onto the same shape inserted before it in the graph, with the source's range, which the
/// lowering turns into a `ProgramStep.widen` / `.narrow`. One copy per (tensor, width) serves
/// every later consumer; the arena's lifetime planner places the copies like any tensor.
///
/// Operations computed in float (`floatOperations`, by output tensor; `FloatIsland`) read any
/// width and write their output at the width asked for, without the int8-only exceptions above,
/// and need no copies of their inputs.
///
/// With every tensor at `base` no copy is made and the graph is unchanged.
struct WidthPlan {
    /// The calibrated graph with the conversions inserted (tensor indices of the calibrated graph
    /// are kept; copies are appended).
    var graph: Graph
    var ranges: [(Float, Float)]
    /// Tensors computed in float (`QuantizationPlan.floatTensors` of the calibrated graph; copies
    /// are never float).
    var isFloat: [Bool]
    /// Bits per activation of every tensor: 8 or 16 for quantised tensors, 0 for float tensors and
    /// constants.
    var bits: [Int]
    /// Bits each operation runs at (0: a float operation on float inputs).
    var operationBits: [Int]
    /// Whether each operation is an inserted conversion.
    var isConversion: [Bool]
    /// The width most tensors have (the model's `activationWidth`).
    var base: Int

    /// `inputRange` is the calibration's model-input range (graph inputs' parameters cover it).
    init(_ calibrated: CalibratedGraph, base: Int, requested: [Int: Int],
         inputRange: (Float, Float) = (0, 1), floatOperations: Set<Int> = []) throws(ModelError) {
        let source = calibrated.graph
        let n = source.tensors.count
        for (t, b) in requested {
            guard t >= 0 && t < n else { throw .malformed("a precision record names tensor " + String(t) + " of " + String(n)) }
            guard b == 8 || b == 16 else { throw .malformed("tensor " + String(t) + " asks for " + String(b) + "-bit activations") }
        }
        let floats = QuantizationPlan.floatTensors(source)
        var graph = source
        graph.operations = []
        graph.operations.reserveCapacity(source.operations.count)
        var ranges = calibrated.ranges
        var isFloat = floats
        var bits = [Int](repeating: 0, count: n)
        var operationBits: [Int] = [], isConversion: [Bool] = []
        var copies: [Int: Int] = [:]   // (tensor << 5 | width) -> copy
        func quantised(_ t: Int) -> Bool { t >= 0 && source.tensors[t].constantOffset == nil && !floats[t] }
        for i in source.inputs where quantised(i) { bits[i] = requested[i] ?? base }

        for op in source.operations {
            let inputs = op.inputs.filter { quantised($0) }
            var width: Int
            if floatOperations.contains(op.output) && !floats[op.output] {
                width = requested[op.output] ?? base
                graph.operations.append(op)
                operationBits.append(width)
                isConversion.append(false)
                bits[op.output] = width
                continue
            }
            switch op.kind {
            case .maxPool2D, .averagePool2D, .pad, .reshape, .resizeBilinear:
                width = inputs.first.map { bits[$0] } ?? base
            case .prelu:
                width = 8
            default:
                // A float operation on float inputs (a logistic or reshape of a regressor) has no width.
                if floats[op.output] { width = inputs.first.map { bits[$0] } ?? 0 } else {
                    width = requested[op.output] ?? base
                }
            }
            if width == 16, let x = op.inputs.first, quantised(x) {
                var (lo, hi) = ranges[x]
                if source.inputs.contains(x) { (lo, hi) = (min(lo, inputRange.0), max(hi, inputRange.1)) }
                if Self.int16Overflows(op, source, inputScale: QuantParams.covering(min: lo, max: hi, as: Int16.self).scale) {
                    width = 8
                }
            }
            var rewritten = op
            for (j, t) in op.inputs.enumerated() where quantised(t) && bits[t] != width {
                guard bits[t] != 0 else { throw .malformed("operator " + op.kind.name + " reads tensor " + String(t) + " before it is written") }
                let key = t << 5 | width
                if let copy = copies[key] { rewritten.inputs[j] = copy; continue }
                var tensor = source.tensors[t]
                tensor.name += width == 8 ? "/int8" : "/int16"
                tensor.quantization = nil
                let copy = graph.tensors.count
                graph.tensors.append(tensor)
                ranges.append(ranges[t])
                isFloat.append(false)
                bits.append(width)
                graph.operations.append(Operation(kind: .reshape, inputs: [t], output: copy))
                operationBits.append(width)
                isConversion.append(true)
                copies[key] = copy
                rewritten.inputs[j] = copy
            }
            graph.operations.append(rewritten)
            operationBits.append(width)
            isConversion.append(false)
            if !floats[op.output] { bits[op.output] = width }
        }
        self.graph = graph
        self.ranges = ranges
        self.isFloat = isFloat
        self.bits = bits
        self.operationBits = operationBits
        self.isConversion = isConversion
        self.base = base
    }

    /// Every tensor at `bits` (but convolutions that would overflow at int16): the graph as it is.
    static func uniform(_ calibrated: CalibratedGraph, bits: Int, inputRange: (Float, Float)) throws(ModelError) -> WidthPlan {
        try WidthPlan(calibrated, base: bits, requested: [:], inputRange: inputRange)
    }

    /// Whether convolution `op` of `graph` could overflow its int32 accumulator with int16
    /// activations at `inputScale` (the lowering's `checkAccumulator`, decided before the widths
    /// are fixed). False for other operations and for filters the lowering will refuse anyway.
    static func int16Overflows(_ op: Operation, _ graph: Graph, inputScale: Float) -> Bool {
        let axis: ChannelWeights.ChannelAxis
        switch op.kind {
        case .conv2D, .transposeConvBias: axis = .outermost
        case .depthwiseConv2D: axis = .innermost
        default: return false
        }
        guard op.inputs.count > 1, op.inputs[1] >= 0, graph.tensors[op.inputs[1]].constantOffset != nil else { return false }
        let ws = graph.tensors[op.inputs[1]].shape
        guard ws.count == 4, ws.allSatisfy({ $0 > 0 }) else { return false }
        let channels = axis == .outermost ? ws[0] : ws[3]
        let w = Array(graph.constant(op.inputs[1]))
        guard w.count == ws[0] * ws[1] * ws[2] * ws[3] else { return false }
        var bias: [Float]? = nil
        if op.inputs.count > 2 && op.inputs[2] >= 0 && graph.tensors[op.inputs[2]].constantOffset != nil {
            bias = Array(graph.constant(op.inputs[2]))
            guard bias?.count == channels else { return false }
        }
        let cw = ChannelWeights(quantizing: w, channels: channels, axis: axis)
        let b = cw.quantizedBias(bias, inputScale: inputScale)
        let inner = w.count / channels
        var sums = [Int64](repeating: 0, count: channels)
        for i in 0..<w.count {
            let ch = axis == .outermost ? i / inner : i % channels
            sums[ch] += Int64(cw.values[i] < 0 ? -Int32(cw.values[i]) : Int32(cw.values[i]))
        }
        for ch in 0..<channels where sums[ch] * 32768 + (b[ch] < 0 ? -Int64(b[ch]) : Int64(b[ch])) >= Int64(Int32.max) {
            return true
        }
        return false
    }

    /// Bytes per element of each tensor's arena slot (float tensors and constants: `base`'s, as a
    /// one-width program sizes them).
    var elementSizes: [Int] { bits.map { ($0 == 0 ? base : $0) / 8 } }

    /// How many operations run at 8 and at 16 bits (conversions not counted).
    var operationCounts: (int8: Int, int16: Int) {
        var c8 = 0, c16 = 0
        for (k, b) in operationBits.enumerated() where !isConversion[k] {
            if b == 8 { c8 += 1 } else if b == 16 { c16 += 1 }
        }
        return (c8, c16)
    }
}
