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
/// The width of each tensor is the `WidthPlan`'s (pass 3a): one per model unless the model's
/// calibration table asks for other widths per tensor.
struct QuantizationPlan {
    /// Quantisation of every tensor (nil for constants and float tensors).
    var parameters: [QuantParams?]
    /// Tensors computed in float.
    var isFloat: [Bool]
    /// Bits per quantised activation of most tensors (8 or 16; the model's width).
    var bits: Int
    /// Bits per activation of every tensor (0: float or constant).
    var tensorBits: [Int]

    /// Every quantised tensor at `E`'s width (no conversions).
    init<E: QuantizedActivation>(_ calibrated: CalibratedGraph, calibration: IntegerCalibration, as _: E.Type) throws(ModelError) {
        self.init(try WidthPlan.uniform(calibrated, bits: E.bitWidth,
                                        inputRange: (calibration.inputLower, calibration.inputUpper)),
                  calibration: calibration)
    }

    init(_ widths: WidthPlan, calibration: IntegerCalibration) {
        let graph = widths.graph
        let ranges = widths.ranges
        let isFloat = widths.isFloat
        var q = [QuantParams?](repeating: nil, count: graph.tensors.count)
        func covering(_ lo: Float, _ hi: Float, _ t: Int) -> QuantParams {
            widths.bits[t] == 16 ? .covering(min: lo, max: hi, as: Int16.self) : .covering(min: lo, max: hi, as: Int8.self)
        }
        for i in graph.inputs where !isFloat[i] {
            let (lo, hi) = ranges[i]
            q[i] = covering(min(lo, calibration.inputLower), max(hi, calibration.inputUpper), i)
        }
        for (k, op) in graph.operations.enumerated() where !isFloat[op.output] {
            if widths.isConversion[k] {
                // A copy at the other width covers its source's range (the model input's too).
                var (lo, hi) = ranges[op.output]
                if graph.inputs.contains(op.inputs[0]) { (lo, hi) = (min(lo, calibration.inputLower), max(hi, calibration.inputUpper)) }
                q[op.output] = lo <= hi ? covering(lo, hi, op.output) : covering(-1, 1, op.output)
                continue
            }
            switch op.kind {
            case .maxPool2D, .averagePool2D, .pad, .reshape, .resizeBilinear:
                q[op.output] = q[op.inputs[0]]
            case .logistic:
                q[op.output] = widths.bits[op.output] == 8 ? QuantParams(scale: 1.0 / 256, zeroPoint: -128)
                                                           : QuantParams(scale: 1.0 / 32768, zeroPoint: 0)
            default:
                let (lo, hi) = ranges[op.output]
                q[op.output] = lo <= hi ? covering(lo, hi, op.output) : covering(-1, 1, op.output)
            }
        }
        parameters = q
        self.isFloat = isFloat
        bits = widths.base
        tensorBits = widths.bits
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
