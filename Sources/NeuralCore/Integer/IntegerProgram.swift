/// The production integer path: the graph resolved at load into integer kernel calls, with
/// activations of type `E` — `Int8` (asymmetric, TFLite's int8 scheme) or `Int16` (symmetric, zero
/// point 0, TFLite's 16x8 scheme); weights are int8 per channel either way and accumulators int32.
///
/// Which width a model gets is `IntegerCalibration.activationWidth(for:)`: int16 for the models
/// with a per-pixel output (the two segmentation models), int8 for the face models — chosen by
/// measurement against LiteRT (the table is on `activationWidth(for:)`). One width per model keeps
/// every op a single kernel call with no conversions between widths; the face models meet their
/// goals in int8, where the segmentation masks miss theirs even when calibrated on the test image.
///
/// int16 activations with int32 accumulators: the GEMM's `A` operand is already int16 (activations
/// minus the zero point), so the same packed GEMM serves both widths; a convolution output channel
/// cannot overflow while `32768 · Σ|w| + |bias| < 2^31`, which `checkAccumulator` verifies at load
/// (the deepest reduction of the segmentation models is 128 channels: ≈ 2^29). ADD shifts its
/// inputs left by 15 instead of 20; MUL needs a multiplier below one (checked at load);
/// RESIZE_BILINEAR uses Q7 instead of Q10 coordinates; unary functions are 65,536-entry tables.
///
/// At load:
/// 1. standalone RELUs are folded into the op before them (`ActivationFusion`), so that op's
///    output is quantised over `[0, max]` only;
/// 2. activation ranges are calibrated: from the shipped `CalibrationTable` of the model when it
///    fits, else at load (`IntegerCalibration`: the float path on a generated set);
/// 3. every tensor gets per-tensor parameters from its range, except where the kernel needs its
///    output to share the input's (MAX/AVERAGE_POOL, PAD, RESHAPE, RESIZE_BILINEAR) and LOGISTIC,
///    whose output is fixed to TFLite's 1/256, −128 (int8) or 1/32768, 0 (int16);
/// 4. filters are quantised per output channel (symmetric, ±127) and packed; biases become
///    int32 at `inputScale · weightScale[c]`; multipliers and lookup tables are built;
/// 5. activations are placed in one arena by the same lifetime planner as the float path.
///
/// At the model boundary inputs are quantised from, and outputs dequantised into, the
/// interpreter's float32 tensors. Outputs produced by a CONV_2D (directly or through RESHAPE /
/// CONCATENATION, as BlazeFace's and the landmark models' regressors are) are computed in float
/// from the int32 accumulators, so the output itself adds no int8 rounding (1 LSB of a 0...192 px
/// landmark range would be 0.75 px).
final class IntegerProgram<E: QuantizedActivation> {
    enum Step {
        case quantize(UnsafePointer<Float>, Int, QuantParams, UnsafeMutablePointer<E>)
        case dequantize(UnsafePointer<E>, Int, QuantParams, UnsafeMutablePointer<Float>)
        case conv(UnsafePointer<E>, WindowGeometry, Int32, PackedGEMMWeights, OutputStage, UnsafeMutablePointer<E>)
        case convFloat(UnsafePointer<E>, WindowGeometry, Int32, PackedGEMMWeights, FloatOutputStage, UnsafeMutablePointer<Float>)
        case depthwise(UnsafePointer<E>, WindowGeometry, Int32, PackedDepthwiseWeights, OutputStage, UnsafeMutablePointer<E>)
        case transpose(TransposeConvPlan, UnsafePointer<E>, Int32, OutputStage, UnsafeMutablePointer<E>)
        case transposeFloat(TransposeConvPlan, UnsafePointer<E>, Int32, FloatOutputStage, UnsafeMutablePointer<Float>)
        case logisticFloat(UnsafePointer<Float>, Int, UnsafeMutablePointer<Float>)
        case elementwise(UnsafePointer<E>, UnsafePointer<E>, Int, Int, ElementwiseParams, UnsafeMutablePointer<E>)
        case pool(UnsafePointer<E>, WindowGeometry, PoolParams, UnsafeMutablePointer<E>)
        case mean(UnsafePointer<E>, Int, Int, MeanParams, UnsafeMutablePointer<E>)
        case lookup(UnsafePointer<E>, Int, LookupTable, UnsafeMutablePointer<E>)
        case prelu(UnsafePointer<Int8>, Int, PReLUParams, UnsafeMutablePointer<Int8>)
        case resize(UnsafePointer<E>, ResizeParams, UnsafeMutablePointer<E>)
        case pad(UnsafePointer<E>, PadSpec, UnsafeMutablePointer<E>)
        /// `outer` rows of `inner` values to rows of `stride` (concatenation part), requantised.
        case part(UnsafePointer<E>, outer: Int, inner: Int, stride: Int, RequantizeParams, UnsafeMutablePointer<E>)
        case partFloat(UnsafePointer<Float>, outer: Int, inner: Int, stride: Int, UnsafeMutablePointer<Float>)
        case partDequantize(UnsafePointer<E>, outer: Int, inner: Int, stride: Int, QuantParams, UnsafeMutablePointer<Float>)
    }

    let kernels: IntegerKernelSetOf<E>
    private(set) var steps: [Step] = []
    /// The tensor each step writes (for diagnostics).
    private(set) var stepTensors: [Int] = []
    /// Quantisation of every tensor (nil for constants and float-only tensors).
    let parameters: [QuantParams?]
    /// Tensors computed in float (regressor outputs).
    let isFloat: [Bool]
    let plan: MemoryPlan
    let arena: UnsafeMutableRawPointer
    /// Float buffers of intermediate float tensors, and scratch.
    private var owned: [UnsafeMutableRawPointer] = []
    let scratch16: UnsafeMutablePointer<Int16>
    let scratch32: UnsafeMutablePointer<Int32>
    static var tileRows: Int { 64 }

    /// Bytes of integer memory: the int8 arena plus scratch.
    let byteCount: Int
    /// Whether the activation ranges came from `IntegerCalibration.table` (not a load-time run).
    let usedTable: Bool

    init(graph: Graph, floatPlan: MemoryPlan, floatArena: UnsafeMutableRawPointer,
         calibration: IntegerCalibration, kernels: IntegerKernelSetOf<E>) throws(ModelError) {
        self.kernels = kernels
        var graph = graph
        if calibration.fuseActivations { ActivationFusion.apply(&graph) }
        // A table recorded offline replaces both load-time runs (see `CalibrationTable`).
        let table = calibration.usableTable(graph)
        usedTable = table != nil
        if calibration.equalize {
            let candidates = CrossLayerEqualization.candidates(graph)
            var channels: [Int: [Float]] = [:]
            if calibration.activationAwareEqualization {
                if let table { channels = table.channels } else {
                    channels = try RangeRecorder.record(graph: graph, calibration: calibration, perChannel: candidates).channels
                }
            }
            CrossLayerEqualization.apply(&graph, activationRanges: channels)
        }
        let ranges: [(Float, Float)]
        if let table { ranges = table.ranges } else { ranges = try RangeRecorder.record(graph: graph, calibration: calibration) }
        let n = graph.tensors.count

        // Producers and consumers.
        var producer = [Int](repeating: -1, count: n)
        var consumers = [[Int]](repeating: [], count: n)
        for (k, op) in graph.operations.enumerated() {
            producer[op.output] = k
            for t in op.inputs where t >= 0 { consumers[t].append(k) }
        }
        var isOutput = [Bool](repeating: false, count: n)
        for o in graph.outputs { isOutput[o] = true }

        // Float tensors: outputs made by an op that can write float (CONV_2D and the transpose
        // convolution from their int32 accumulators; RESHAPE, CONCATENATION and LOGISTIC from float
        // or int8 inputs), and, going back, inputs of such ops that only float-reading ops read.
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

        // Quantisation parameters, in graph order.
        var q = [QuantParams?](repeating: nil, count: n)
        func fromRange(_ t: Int) -> QuantParams {
            let (lo, hi) = ranges[t]
            return lo <= hi ? .covering(min: lo, max: hi, as: E.self) : .covering(min: -1, max: 1, as: E.self)
        }
        for i in graph.inputs {
            let (lo, hi) = ranges[i]
            q[i] = .covering(min: min(lo, calibration.inputLower), max: max(hi, calibration.inputUpper), as: E.self)
        }
        for op in graph.operations where !isFloat[op.output] {
            let x = op.inputs[0]
            switch op.kind {
            case .maxPool2D, .averagePool2D, .pad, .reshape, .resizeBilinear:
                q[op.output] = q[x]
            case .logistic:
                q[op.output] = E.bitWidth == 8 ? QuantParams(scale: 1.0 / 256, zeroPoint: -128)
                                               : QuantParams(scale: 1.0 / 32768, zeroPoint: 0)
            default:
                q[op.output] = fromRange(op.output)
            }
        }
        parameters = q

        // The activation arena.
        plan = try MemoryPlan(graph: graph, elementSize: MemoryLayout<E>.stride, tailPadding: 64)
        arena = UnsafeMutableRawPointer.allocate(byteCount: max(plan.byteCount, MemoryPlan.alignment),
                                                 alignment: MemoryPlan.alignment)
        arena.initializeMemory(as: UInt8.self, repeating: 0, count: max(plan.byteCount, MemoryPlan.alignment))

        // Scratch sizes.
        var need16 = 1, need32 = 1
        for op in graph.operations {
            switch op.kind {
            case .conv2D, .transposeConvBias:
                let ws = graph.tensors[op.inputs[1]].shape
                let depth = ws[1] * ws[2] * ws[3]
                need16 = max(need16, Self.tileRows * ((depth + 1) / 2 * 2))
                need32 = max(need32, Self.tileRows * ws[0])
                if case .transposeConvBias = op.kind {
                    let os = graph.tensors[op.output].shape4
                    need16 = max(need16, (os[2] + 1) * ((depth + 1) / 2 * 2))
                    need32 = max(need32, (os[2] + 1) * ws[0])
                }
            default: break
            }
        }
        scratch16 = .allocate(capacity: need16)
        scratch16.initialize(repeating: 0, count: need16)
        scratch32 = .allocate(capacity: need32)
        scratch32.initialize(repeating: 0, count: need32)
        var floatBytes = 0

        // Pointers.
        let arena = self.arena
        let plan = self.plan
        func quant(_ t: Int) -> UnsafeMutablePointer<E> {
            (arena + plan.offsets[t]!).assumingMemoryBound(to: E.self)
        }
        var floatBuffers = [UnsafeMutablePointer<Float>?](repeating: nil, count: n)
        func float(_ t: Int) -> UnsafeMutablePointer<Float> {
            if isOutput[t] || graph.inputs.contains(t) {
                return (floatArena + floatPlan.offsets[t]!).assumingMemoryBound(to: Float.self)
            }
            if let p = floatBuffers[t] { return p }
            let p = UnsafeMutablePointer<Float>.allocate(capacity: graph.tensors[t].elementCount)
            p.initialize(repeating: 0, count: graph.tensors[t].elementCount)
            floatBytes += graph.tensors[t].elementCount * 4
            floatBuffers[t] = p
            return p
        }
        func constant(_ t: Int) -> [Float] { Array(graph.constant(t)) }
        func activationBounds(_ a: Activation, _ p: QuantParams) -> (Int32, Int32) {
            switch a {
            case .none: return FusedActivation.none.bounds(p, as: E.self)
            case .relu: return FusedActivation.relu.bounds(p, as: E.self)
            case .relu6: return FusedActivation.relu6.bounds(p, as: E.self)
            case .reluN1To1: return FusedActivation.reluN1To1.bounds(p, as: E.self)
            }
        }

        var steps: [Step] = []
        var stepTensors: [Int] = []
        for i in graph.inputs {
            steps.append(.quantize(UnsafePointer(float(i)), graph.tensors[i].elementCount, q[i]!, quant(i)))
        }
        for i in graph.inputs { stepTensors.append(i) }
        for (k, op) in graph.operations.enumerated() {
            defer { while stepTensors.count < steps.count { stepTensors.append(op.output) } }
            let label = "operator " + String(k) + " (" + op.kind.name + ")"
            let x = op.inputs[0]
            let xs = graph.tensors[x].shape4
            let out = op.output
            let os = graph.tensors[out].shape4
            guard xs[0] == 1 && os[0] == 1 else { throw .unsupported(label + ": the integer path runs batch 1 only") }
            let qx = q[x]
            switch op.kind {
            case .conv2D(let g), .depthwiseConv2D(let g), .transposeConvBias(let g):
                guard let qx else { throw .unsupported(label + " reads a float tensor") }
                guard g.dilationH == 1 && g.dilationW == 1 else { throw .unsupported(label + " with dilation") }
                let ws = graph.tensors[op.inputs[1]].shape
                let wf = constant(op.inputs[1])
                let bias: [Float]? = op.inputs.count > 2 && op.inputs[2] >= 0 ? constant(op.inputs[2]) : nil
                switch op.kind {
                case .conv2D:
                    let oc = ws[0]
                    let geo = WindowGeometry(inputHeight: xs[1], inputWidth: xs[2], channels: xs[3],
                                             kernelHeight: ws[1], kernelWidth: ws[2], strideY: g.strideH,
                                             strideX: g.strideW, padTop: g.padTop, padLeft: g.padLeft,
                                             outputHeight: os[1], outputWidth: os[2])
                    let cw = ChannelWeights(quantizing: wf, channels: oc, axis: .outermost)
                    try Self.checkAccumulator(cw, bias: cw.quantizedBias(bias, inputScale: qx.scale), label)
                    let packed = PackedGEMMWeights(weights: cw.values, outputChannels: oc, depth: ws[1] * ws[2] * ws[3])
                    if isFloat[out] {
                        let stage = FloatOutputStage(weights: cw, inputScale: qx.scale, bias: bias, activation: g.activation)
                        steps.append(.convFloat(UnsafePointer(quant(x)), geo, qx.zeroPoint, packed, stage, float(out)))
                    } else {
                        let qo = q[out]!
                        let (lo, hi) = activationBounds(g.activation, qo)
                        let stage = OutputStage(bias: cw.quantizedBias(bias, inputScale: qx.scale),
                                                multipliers: cw.multipliers(inputScale: qx.scale, output: qo),
                                                outputZeroPoint: qo.zeroPoint, minimum: lo, maximum: hi)
                        steps.append(.conv(UnsafePointer(quant(x)), geo, qx.zeroPoint, packed, stage, quant(out)))
                    }
                case .depthwiseConv2D:
                    guard g.depthMultiplier == 1 else { throw .unsupported(label + " with a depth multiplier") }
                    let c = ws[3]
                    let geo = WindowGeometry(inputHeight: xs[1], inputWidth: xs[2], channels: c,
                                             kernelHeight: ws[1], kernelWidth: ws[2], strideY: g.strideH,
                                             strideX: g.strideW, padTop: g.padTop, padLeft: g.padLeft,
                                             outputHeight: os[1], outputWidth: os[2])
                    let cw = ChannelWeights(quantizing: wf, channels: c, axis: .innermost)
                    try Self.checkAccumulator(cw, bias: cw.quantizedBias(bias, inputScale: qx.scale), label)
                    let packed = PackedDepthwiseWeights(weights: cw.values, kernelHeight: ws[1], kernelWidth: ws[2], channels: c)
                    let qo = q[out]!
                    let (lo, hi) = activationBounds(g.activation, qo)
                    let stage = OutputStage(bias: cw.quantizedBias(bias, inputScale: qx.scale),
                                            multipliers: cw.multipliers(inputScale: qx.scale, output: qo),
                                            outputZeroPoint: qo.zeroPoint, minimum: lo, maximum: hi)
                    steps.append(.depthwise(UnsafePointer(quant(x)), geo, qx.zeroPoint, packed, stage, quant(out)))
                default:
                    guard g.strideH == g.strideW else { throw .unsupported(label + " with unequal strides") }
                    let oc = ws[0]
                    let cw = ChannelWeights(quantizing: wf, channels: oc, axis: .outermost)
                    try Self.checkAccumulator(cw, bias: cw.quantizedBias(bias, inputScale: qx.scale), label)
                    let tplan = TransposeConvPlan(filter: cw.values, outputChannels: oc, kernelHeight: ws[1],
                                                  kernelWidth: ws[2], inputHeight: xs[1], inputWidth: xs[2],
                                                  inputChannels: xs[3], outputHeight: os[1], outputWidth: os[2],
                                                  stride: g.strideH, padTop: g.padTop, padLeft: g.padLeft)
                    guard tplan.scratchCount <= need16 else { throw .unsupported(label + " needs more scratch") }
                    if isFloat[out] {
                        let stage = FloatOutputStage(weights: cw, inputScale: qx.scale, bias: bias, activation: g.activation)
                        steps.append(.transposeFloat(tplan, UnsafePointer(quant(x)), qx.zeroPoint, stage, float(out)))
                    } else {
                        let qo = q[out]!
                        let (lo, hi) = activationBounds(g.activation, qo)
                        let stage = OutputStage(bias: cw.quantizedBias(bias, inputScale: qx.scale),
                                                multipliers: cw.multipliers(inputScale: qx.scale, output: qo),
                                                outputZeroPoint: qo.zeroPoint, minimum: lo, maximum: hi)
                        steps.append(.transpose(tplan, UnsafePointer(quant(x)), qx.zeroPoint, stage, quant(out)))
                    }
                }

            case .add(let act), .mul(let act):
                var a = x, b = op.inputs[1]
                let count = graph.tensors[out].elementCount
                if graph.tensors[a].elementCount != count { swap(&a, &b) }
                let bc = graph.tensors[b].elementCount
                guard graph.tensors[a].elementCount == count,
                      bc == count || bc == 1 || (bc == os[3] && graph.tensors[b].shape4[3] == os[3])
                else { throw .unsupported(label + " broadcasts in a way the integer path does not implement") }
                let qa = try Self.activation(q[a], graph, a, label), qb = try Self.activation(q[b], graph, b, label)
                let qo = q[out]!
                var operation = ElementwiseParams.Operation.add
                if case .mul = op.kind { operation = .mul }
                var p = ElementwiseParams(operation, qa, qb, output: qo, as: E.self)
                (p.minimum, p.maximum) = activationBounds(act, qo)
                if E.bitWidth == 16 && operation == .mul && p.outputMultiplier.leftShift > 0 {
                    // (x1·x2) reaches 2^30 with int16 operands: no room for a left shift.
                    throw .unsupported(label + ": an int16 MUL needs a multiplier below one")
                }
                steps.append(.elementwise(UnsafePointer(quant(a)), UnsafePointer(quant(b)), count, bc, p, quant(out)))

            case .prelu:
                guard let qx else { throw .unsupported(label + " reads a float tensor") }
                guard E.bitWidth == 8 else { throw .unsupported(label + ": PRELU has no int16-activation kernel") }
                let alphaTensor = op.inputs[1]
                guard graph.tensors[alphaTensor].constantOffset != nil else { throw .unsupported(label + " needs a constant alpha") }
                let alpha = constant(alphaTensor)
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
                let p = PReLUParams(input: qx, output: q[out]!, alpha: perChannel)
                steps.append(.prelu(UnsafePointer(UnsafeMutableRawPointer(quant(x)).assumingMemoryBound(to: Int8.self)),
                                    xs[1] * xs[2], p, UnsafeMutableRawPointer(quant(out)).assumingMemoryBound(to: Int8.self)))

            case .pad(let before, let after):
                guard before[0] == 0 && after[0] == 0 else { throw .unsupported(label + " pads the batch") }
                let spec = PadSpec(height: xs[1], width: xs[2], channels: xs[3], top: before[1], left: before[2],
                                   front: before[3], outputHeight: os[1], outputWidth: os[2], outputChannels: os[3],
                                   zeroPoint: try Self.activation(qx, graph, x, label).zeroPoint)
                steps.append(.pad(UnsafePointer(quant(x)), spec, quant(out)))

            case .maxPool2D(let g), .averagePool2D(let g):
                let qo = try Self.activation(q[out], graph, out, label)
                let geo = WindowGeometry(inputHeight: xs[1], inputWidth: xs[2], channels: xs[3],
                                         kernelHeight: g.filterH, kernelWidth: g.filterW, strideY: g.strideH,
                                         strideX: g.strideW, padTop: g.padTop, padLeft: g.padLeft,
                                         outputHeight: os[1], outputWidth: os[2])
                var kind = PoolParams.Kind.max
                if case .averagePool2D = op.kind { kind = .average }
                let (lo, hi) = activationBounds(g.activation, qo)
                steps.append(.pool(UnsafePointer(quant(x)), geo, PoolParams(kind, minimum: lo, maximum: hi), quant(out)))

            case .mean(let reduced):
                guard reduced == [false, true, true, false] else { throw .unsupported(label + " reduces other axes than H and W") }
                let qin = try Self.activation(qx, graph, x, label)
                let p = MeanParams(input: qin, output: q[out]!, pixels: xs[1] * xs[2])
                steps.append(.mean(UnsafePointer(quant(x)), xs[1] * xs[2], xs[3], p, quant(out)))

            case .logistic where isFloat[out]:
                let count = graph.tensors[x].elementCount
                if isFloat[x] {
                    steps.append(.logisticFloat(UnsafePointer(float(x)), count, float(out)))
                } else {
                    steps.append(.partDequantize(UnsafePointer(quant(x)), outer: 1, inner: count, stride: count,
                                                 try Self.activation(qx, graph, x, label), float(out)))
                    steps.append(.logisticFloat(UnsafePointer(float(out)), count, float(out)))
                }

            case .relu, .hardSwish, .logistic:
                let qin = try Self.activation(qx, graph, x, label)
                let table: LookupTable
                switch op.kind {
                case .relu: table = LookupTable(input: qin, output: q[out]!, as: E.self, LookupTable.relu)
                case .hardSwish: table = LookupTable.hardSwish(input: qin, output: q[out]!, as: E.self)
                default: table = LookupTable(input: qin, output: q[out]!, as: E.self, LookupTable.logistic)
                }
                steps.append(.lookup(UnsafePointer(quant(x)), graph.tensors[x].elementCount, table, quant(out)))

            case .reshape:
                let count = graph.tensors[x].elementCount
                if isFloat[out] {
                    if isFloat[x] {
                        steps.append(.partFloat(UnsafePointer(float(x)), outer: 1, inner: count, stride: count, float(out)))
                    } else {
                        steps.append(.partDequantize(UnsafePointer(quant(x)), outer: 1, inner: count, stride: count,
                                                     try Self.activation(qx, graph, x, label), float(out)))
                    }
                } else {
                    let qin = try Self.activation(qx, graph, x, label)
                    steps.append(.part(UnsafePointer(quant(x)), outer: 1, inner: count, stride: count,
                                       RequantizeParams(input: qin, output: q[out]!), quant(out)))
                }

            case .concatenation(let axis, let act):
                var outer = 1
                for d in 0..<axis { outer *= os[d] }
                let total = graph.tensors[out].elementCount / outer
                var offset = 0
                let qo = q[out]
                if act != .none && isFloat[out] { throw .unsupported(label + " float output with an activation") }
                for t in op.inputs {
                    let inner = graph.tensors[t].elementCount / outer
                    if isFloat[out] {
                        if isFloat[t] {
                            steps.append(.partFloat(UnsafePointer(float(t)), outer: outer, inner: inner, stride: total,
                                                    float(out) + offset))
                        } else {
                            steps.append(.partDequantize(UnsafePointer(quant(t)), outer: outer, inner: inner, stride: total,
                                                         try Self.activation(q[t], graph, t, label), float(out) + offset))
                        }
                    } else {
                        let qt = try Self.activation(q[t], graph, t, label)
                        steps.append(.part(UnsafePointer(quant(t)), outer: outer, inner: inner, stride: total,
                                           RequantizeParams(input: qt, output: qo!), quant(out) + offset))
                    }
                    offset += inner
                }
                if act != .none, let qo {
                    let bounds = act.bounds
                    let table = LookupTable(input: qo, output: qo, as: E.self) { min(max($0, bounds.lower), bounds.upper) }
                    steps.append(.lookup(UnsafePointer(quant(out)), graph.tensors[out].elementCount, table, quant(out)))
                }

            case .resizeBilinear(let ac, let hp):
                _ = try Self.activation(qx, graph, x, label)
                let p = ResizeParams(inputHeight: xs[1], inputWidth: xs[2], channels: xs[3], outputHeight: os[1],
                                     outputWidth: os[2], alignCorners: ac, halfPixelCenters: hp)
                steps.append(.resize(UnsafePointer(quant(x)), p, quant(out)))
            }
        }
        for o in graph.outputs where !isFloat[o] {
            steps.append(.dequantize(UnsafePointer(quant(o)), graph.tensors[o].elementCount, q[o]!, float(o)))
        }
        for p in floatBuffers { if let p { owned.append(UnsafeMutableRawPointer(p)) } }
        while stepTensors.count < steps.count { stepTensors.append(-1) }
        self.steps = steps
        self.stepTensors = stepTensors
        self.isFloat = isFloat
        byteCount = plan.byteCount + need16 * 2 + need32 * 4 + floatBytes
    }

    /// With int16 activations (|x| ≤ 32768) an int32 accumulator holds any input when, for every
    /// output channel, `32768 · Σ|w| + |bias| < 2^31`; checked at load, so that the kernels can keep
    /// int32 accumulators (the largest `Σ|w|` of the segmentation models is far inside this bound:
    /// their deepest reduction is 128 channels, 127 · 128 · 32768 ≈ 2^29).
    static func checkAccumulator(_ cw: ChannelWeights, bias: [Int32], _ label: String) throws(ModelError) {
        guard E.bitWidth == 16 else { return }
        let c = cw.channels, inner = cw.values.count / c
        var sums = [Int64](repeating: 0, count: c)
        for i in 0..<cw.values.count {
            let ch = cw.channelAxis == .outermost ? i / inner : i % c
            sums[ch] += Int64(cw.values[i] < 0 ? -Int32(cw.values[i]) : Int32(cw.values[i]))
        }
        for ch in 0..<c where sums[ch] * 32768 + (bias[ch] < 0 ? -Int64(bias[ch]) : Int64(bias[ch])) >= Int64(Int32.max) {
            throw .unsupported(label + ": int16 activations could overflow its int32 accumulator")
        }
    }

    static func activation(_ p: QuantParams?, _ graph: Graph, _ t: Int, _ label: String) throws(ModelError) -> QuantParams {
        guard let p else {
            throw .unsupported(label + " reads '" + graph.tensors[t].name + "', which the integer path does not quantise")
        }
        return p
    }

    deinit {
        arena.deallocate()
        scratch16.deallocate()
        scratch32.deallocate()
        for p in owned { p.deallocate() }
    }

    func run() {
        for step in steps { run(step) }
    }

    @inline(__always)
    func run(_ step: Step) {
        let k = kernels
        do {
            switch step {
            case .quantize(let src, let count, let p, let dst):
                k.quantize(src, count, p, dst)
            case .dequantize(let src, let count, let p, let dst):
                k.dequantize(src, count, p, dst)
            case .conv(let input, let g, let zp, let w, let stage, let output):
                if E.bitWidth == 8, let gemm8 = k.gemm8,
                   conv2D8(UnsafeRawPointer(input).assumingMemoryBound(to: Int8.self), g, inputZeroPoint: zp, weights: w,
                           stage: stage, output: UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int8.self),
                           scratch: UnsafeMutableRawPointer(scratch16), scratchBytes: Self.tileRows * w.depthStride * 2,
                           kernel: gemm8) {
                    break
                }
                conv2D(input, g, inputZeroPoint: zp, weights: w, stage: stage, output: output,
                       scratch: scratch16, scratchRows: Self.tileRows, kernel: k.gemm)
            case .convFloat(let input, let g, let zp, let w, let stage, let output):
                var first = 0
                let n = w.outputChannels
                while first < g.outputPixels {
                    let count = min(Self.tileRows, g.outputPixels - first)
                    im2col(input, g, zeroPoint: zp, firstPixel: first, count: count, depthStride: w.depthStride,
                           into: scratch16)
                    k.gemm(scratch16, count, w, .int32(scratch32, rowStride: n))
                    stage.apply(scratch32, rows: count, channels: n, output: output + first * n, rowStride: n)
                    first += count
                }
            case .depthwise(let input, let g, let zp, let w, let stage, let output):
                k.depthwise(input, g, zp, w, stage, output)
            case .transpose(let plan, let input, let zp, let stage, let output):
                plan.run(input, inputZeroPoint: zp, output: .quantized(stage, output), scratch: scratch16, kernel: k.gemm)
            case .transposeFloat(let plan, let input, let zp, let stage, let output):
                plan.run(input, inputZeroPoint: zp, output: .float(stage, output, scratch32), scratch: scratch16,
                         kernel: k.gemm)
            case .logisticFloat(let input, let count, let output):
                for i in 0..<count { output[i] = FloatMath.logistic(input[i]) }
            case .elementwise(let a, let b, let count, let period, let p, let output):
                k.elementwise(a, b, count, period, p, output)
            case .pool(let input, let g, let p, let output):
                k.pool(input, g, p, output)
            case .mean(let input, let pixels, let channels, let p, let output):
                k.mean(input, pixels, channels, p, output)
            case .lookup(let input, let count, let table, let output):
                k.lookup(input, count, table, output)
            case .prelu(let input, let pixels, let p, let output):
                k.prelu(input, pixels, p, output)
            case .resize(let input, let p, let output):
                k.resize(input, p, output)
            case .pad(let input, let spec, let output):
                spec.run(input, output)
            case .part(let src, let outer, let inner, let stride, let p, let dst):
                for o in 0..<outer { k.requantize(src + o * inner, inner, p, dst + o * stride) }
            case .partFloat(let src, let outer, let inner, let stride, let dst):
                for o in 0..<outer { (dst + o * stride).update(from: src + o * inner, count: inner) }
            case .partDequantize(let src, let outer, let inner, let stride, let p, let dst):
                for o in 0..<outer { k.dequantize(src + o * inner, inner, p, dst + o * stride) }
            }
        }
    }
}

/// CONV_2D output computed in float from the int32 accumulators:
/// `acc · inputScale · weightScale[c] + bias[c]`, clamped by the fused activation.
final class FloatOutputStage {
    let scale: [Float]
    let bias: [Float]
    let lower: Float, upper: Float

    init(weights: ChannelWeights, inputScale: Float, bias: [Float]?, activation: Activation) {
        scale = weights.scales.map { $0 * inputScale }
        self.bias = bias ?? [Float](repeating: 0, count: weights.channels)
        (lower, upper) = activation.bounds
    }

    init(scale: [Float], bias: [Float], lower: Float, upper: Float) {
        self.scale = scale
        self.bias = bias
        self.lower = lower
        self.upper = upper
    }

    func apply(_ acc: UnsafePointer<Int32>, rows: Int, channels n: Int, output: UnsafeMutablePointer<Float>,
               rowStride: Int) {
        scale.withUnsafeBufferPointer { s in
            bias.withUnsafeBufferPointer { b in
                for r in 0..<rows {
                    for c in 0..<n {
                        let v = Float(acc[r * n + c]) * s[c] + b[c]
                        output[r * rowStride + c] = min(max(v, lower), upper)
                    }
                }
            }
        }
    }
}

/// Constant padding of an NHWC tensor (batch 1) along H, W and C with the zero point.
struct PadSpec {
    var height: Int, width: Int, channels: Int
    var top: Int, left: Int, front: Int
    var outputHeight: Int, outputWidth: Int, outputChannels: Int
    var zeroPoint: Int32

    func run<E: QuantizedActivation>(_ input: UnsafePointer<E>, _ output: UnsafeMutablePointer<E>) {
        let z = E(truncatingIfNeeded: zeroPoint)
        if front == 0 && outputChannels == channels {
            padSpatial(input, height: height, width: width, channels: channels, top: top,
                       bottom: outputHeight - height - top, left: left, right: outputWidth - width - left,
                       zeroPoint: zeroPoint, output: output)
            return
        }
        output.update(repeating: z, count: outputHeight * outputWidth * outputChannels)
        for y in 0..<height {
            for x in 0..<width {
                let dst = output + ((y + top) * outputWidth + x + left) * outputChannels + front
                dst.update(from: input + (y * width + x) * channels, count: channels)
            }
        }
    }
}
