/// Pass 3 of the integer lowering (`IntegerProgram`): how every tensor is represented, decided
/// before any kernel is built.
///
/// - Float tensors: outputs made by an op that can write float (CONV_2D and the transpose
///   convolution from their int32 accumulators; RESHAPE, CONCATENATION and LOGISTIC from float or
///   quantised inputs), and, going back, inputs of such ops that only float-reading ops read
///   (BlazeFace's and the landmark models' regressors).
/// - Per-tensor parameters for the activation width `bits` (asymmetric int8 or symmetric int16)
///   from the calibrated ranges; graph inputs also cover the calibration's input range; outputs of
///   MAX/AVERAGE_POOL, PAD, RESHAPE and RESIZE_BILINEAR share their input's parameters (their
///   kernels copy values), LOGISTIC's are fixed to TFLite's 1/256, −128 (int8) or 1/32768, 0
///   (int16).
///
/// The activation width is one per model today (`IntegerCalibration.activationWidth(for:)`), so
/// every operation's precision is `bits`.
struct QuantizationPlan {
    /// Quantisation of every tensor (nil for constants and float tensors).
    var parameters: [QuantParams?]
    /// Tensors computed in float.
    var isFloat: [Bool]
    /// Bits per quantised activation (8 or 16).
    var bits: Int

    init<E: QuantizedActivation>(_ calibrated: CalibratedGraph, calibration: IntegerCalibration, as _: E.Type) {
        let graph = calibrated.graph
        let ranges = calibrated.ranges
        let isFloat = Self.floatTensors(graph)
        var q = [QuantParams?](repeating: nil, count: graph.tensors.count)
        for i in graph.inputs {
            let (lo, hi) = ranges[i]
            q[i] = .covering(min: min(lo, calibration.inputLower), max: max(hi, calibration.inputUpper), as: E.self)
        }
        for op in graph.operations where !isFloat[op.output] {
            switch op.kind {
            case .maxPool2D, .averagePool2D, .pad, .reshape, .resizeBilinear:
                q[op.output] = q[op.inputs[0]]
            case .logistic:
                q[op.output] = E.bitWidth == 8 ? QuantParams(scale: 1.0 / 256, zeroPoint: -128)
                                               : QuantParams(scale: 1.0 / 32768, zeroPoint: 0)
            default:
                let (lo, hi) = ranges[op.output]
                q[op.output] = lo <= hi ? .covering(min: lo, max: hi, as: E.self) : .covering(min: -1, max: 1, as: E.self)
            }
        }
        parameters = q
        self.isFloat = isFloat
        bits = E.bitWidth
    }

    /// Which tensors of `graph` are computed in float (see the type's description).
    static func floatTensors(_ graph: Graph) -> [Bool] {
        let n = graph.tensors.count
        var producer = [Int](repeating: -1, count: n)
        var consumers = [[Int]](repeating: [], count: n)
        for (k, op) in graph.operations.enumerated() {
            producer[op.output] = k
            for t in op.inputs where t >= 0 { consumers[t].append(k) }
        }
        var isOutput = [Bool](repeating: false, count: n)
        for o in graph.outputs { isOutput[o] = true }

        var isFloat = [Bool](repeating: false, count: n)
        func writesFloat(_ t: Int) -> Bool {
            guard producer[t] >= 0 else { return false }
            switch graph.operations[producer[t]].kind {
            case .conv2D, .transposeConvBias, .reshape, .concatenation(_, .none), .logistic: return true
            default: return false
            }
        }
        func readsFloat(_ k: Int) -> Bool {
            switch graph.operations[k].kind {
            case .reshape, .concatenation(_, .none), .logistic: return true
            default: return false
            }
        }
        for o in graph.outputs where writesFloat(o) { isFloat[o] = true }
        for k in stride(from: graph.operations.count - 1, through: 0, by: -1) {
            let op = graph.operations[k]
            guard isFloat[op.output] && readsFloat(k) else { continue }
            for t in op.inputs where t >= 0 && writesFloat(t) && !isOutput[t] {
                if consumers[t].allSatisfy({ isFloat[graph.operations[$0].output] && readsFloat($0) }) { isFloat[t] = true }
            }
        }
        return isFloat
    }
}
