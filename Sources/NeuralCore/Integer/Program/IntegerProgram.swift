/// The production integer path: the graph resolved at load into integer kernel calls, with
/// activations `Int8` (asymmetric, TFLite's int8 scheme) or `Int16` (symmetric, zero point 0,
/// TFLite's 16x8 scheme) per tensor; weights are int8 per channel either way and accumulators int32.
///
/// The model's width is `IntegerCalibration.activationWidth(for:)`: int16 for the models with a
/// per-pixel output (the two segmentation models), int8 for the face models — chosen by
/// measurement against LiteRT (the table is on `activationWidth(for:)`). The model's calibration
/// table may ask for another width per tensor (`CalibrationTable.widths`, chosen offline by
/// measured sensitivity): then each operation runs at its output's width, and a tensor read at
/// another width goes through a converted copy (`WidthPlan`, `ProgramStep.widen` / `.narrow`).
/// A model with every tensor at one width has no conversions and the steps of a one-width program.
///
/// int16 activations with int32 accumulators: the GEMM's `A` operand is already int16 (activations
/// minus the zero point), so the same packed GEMM serves both widths; a convolution output channel
/// cannot overflow while `32768 · Σ|w| + |bias| < 2^31`, which `checkAccumulator` verifies at load
/// (the deepest reduction of the segmentation models is 128 channels: ≈ 2^29). ADD shifts its
/// inputs left by 15 instead of 20; MUL needs a multiplier below one (checked at load);
/// RESIZE_BILINEAR uses Q7 instead of Q10 coordinates; unary functions are 65,536-entry tables.
///
/// Loading is a row of passes, each its own value, as XNNPACK's `subgraph/` lowers a graph:
/// 1. `CalibratedGraph` — the graph rewrites: standalone RELUs folded into the op before them
///    (`ActivationFusion`), so that op's output is quantised over `[0, max]` only, and
///    cross-layer equalisation (`CrossLayerEqualization`);
/// 2. `CalibratedGraph` — activation ranges: from the shipped `CalibrationTable` of the model when
///    it fits, else at load (`IntegerCalibration`: the float path on a generated set);
/// 3. `WidthPlan` — the width of every operation and tensor, and the conversions between widths;
///    `QuantizationPlan` — which tensors are computed in float, and per-tensor parameters from the
///    ranges, except where the kernel needs its output to share the input's (MAX/AVERAGE_POOL, PAD,
///    RESHAPE, RESIZE_BILINEAR) and LOGISTIC, whose output is fixed to TFLite's 1/256, −128 (int8)
///    or 1/32768, 0 (int16);
/// 4. `IntegerArena` — activations placed in one arena by the same lifetime planner as the float
///    path, and the GEMM scratch sized;
/// 5. `Lowering` — one function per op family (`IntegerProgram+Conv`, `+Depthwise`,
///    `+Elementwise`, `+Pooling`, `+Activation`, `+Layout`): filters quantised per output channel
///    (symmetric, ±127) and packed, biases as int32 at `inputScale · weightScale[c]`, multipliers
///    and lookup tables built, each op turned into `Step`s.
///
/// At the model boundary inputs are quantised from, and outputs dequantised into, the
/// interpreter's float32 tensors. Outputs produced by a CONV_2D (directly or through RESHAPE /
/// CONCATENATION, as BlazeFace's and the landmark models' regressors are) are computed in float
/// from the int32 accumulators, so the output itself adds no int8 rounding (1 LSB of a 0...192 px
/// landmark range would be 0.75 px).
///
/// The operations the table names in `f` records run in float32 (`FloatIsland`: inputs
/// dequantised, the float path's kernels, outputs quantised back), one island per run of
/// consecutive such operations; without `f` records the steps are those of an all-integer program.
final class IntegerProgram {
    let kernels8: IntegerKernelSetOf<Int8>
    let kernels16: IntegerKernelSetOf<Int16>
    /// The loop width conversions run: the int8 set's (`widthConversion`), or the scalar
    /// reference with `.scalar` kernels.
    let conversions: WidthConversion.Variant
    let steps: [ProgramStep]
    /// The tensor each step writes (for diagnostics; -1 where none).
    let stepTensors: [Int]
    /// The width of every operation and tensor (pass 3a); its graph is the one the steps describe.
    let widths: WidthPlan
    /// Per-tensor parameters and float tensors (pass 3).
    let quantization: QuantizationPlan
    /// The arena, scratch and float buffers the steps point into (pass 4); owns them.
    let memory: IntegerArena
    let scratch16: UnsafeMutablePointer<Int16>
    let scratch32: UnsafeMutablePointer<Int32>
    static var tileRows: Int { 64 }

    /// Whether the activation ranges came from `IntegerCalibration.table` (not a load-time run).
    let usedTable: Bool

    /// Quantisation of every tensor (nil for constants and float-only tensors).
    var parameters: [QuantParams?] { quantization.parameters }
    /// Tensors computed in float (regressor outputs).
    var isFloat: [Bool] { quantization.isFloat }
    /// The runs of operations computed in float (`FloatIsland`), in program order.
    let islands: [FloatIsland]
    /// Bytes of integer memory: the arena, scratch, float intermediates and float runs' arena
    /// (`IntegerArena`), and the float runs' packed constants.
    var byteCount: Int { memory.byteCount + islands.reduce(0) { $0 + $1.constantBytes } }
    /// Bytes of the float runs: their shared arena once (part of `memory`), and their packed constants.
    var floatRunBytes: Int {
        memory.floatRunByteCount + islands.reduce(0) { $0 + $1.constantBytes }
    }

    /// Lowers `graph` through the passes above at `bits` (8 or 16) per activation, except the
    /// tensors the calibration table gives another width. `floatPlan`/`floatArena` are the
    /// interpreter's float32 tensors, where the model's inputs are read and its outputs written.
    /// With `shared` the arena and scratch are the shared block (see `SharedArena`).
    convenience init(graph: Graph, floatPlan: MemoryPlan, floatArena: UnsafeMutableRawPointer,
                     calibration: IntegerCalibration, bits: Int, kernels: InterpreterKernels,
                     shared: SharedArena? = nil) throws(ModelError) {
        var graph = graph
        try self.init(taking: &graph, floatPlan: floatPlan, floatArena: floatArena, calibration: calibration,
                      bits: bits, kernels: kernels, shared: shared)
    }

    /// As `init(graph:…)`, rewriting `graph` itself (`CalibratedGraph(taking:)`): a caller that
    /// holds the only reference to its float constants has them equalised in place, not copied.
    /// `releasingConstants` (for such a caller only: `Interpreter`): each page of the float
    /// constants is given back once every operation reading it is lowered (`ConstantPages`), so
    /// the float weights and their packed integer copy are not resident together.
    init(taking graph: inout Graph, floatPlan: MemoryPlan, floatArena: UnsafeMutableRawPointer,
         calibration: IntegerCalibration, bits: Int, kernels: InterpreterKernels,
         shared: SharedArena? = nil, releasingConstants: Bool = false) throws(ModelError) {
        kernels8 = kernels.int8
        kernels16 = kernels.int16
        conversions = kernels.floatSIMD ? kernels.int8.widthConversion : .scalar
        let calibrated = try CalibratedGraph(taking: &graph, calibration: calibration)
        usedTable = calibrated.usedTable
        let table = calibration.usableTable(calibrated.graph)
        let widths = try WidthPlan(calibrated, base: bits, requested: table?.widths ?? [:],
                                   inputRange: (calibration.inputLower, calibration.inputUpper),
                                   floatOperations: table?.floatTensors ?? [])
        let quantization = QuantizationPlan(widths, calibration: calibration)
        let g = widths.graph
        let floatTensors = table?.floatTensors ?? []
        for t in floatTensors where t >= g.tensors.count {
            throw .malformed("a float record names tensor " + String(t) + " of " + String(g.tensors.count))
        }
        let runsInFloat = g.operations.indices.map { !widths.isConversion[$0] && floatTensors.contains(g.operations[$0].output) }
        var layouts: [Int: FloatIsland.Layout] = [:]   // first operation -> its run
        var first = 0
        while first < g.operations.count {
            guard runsInFloat[first] else { first += 1; continue }
            var end = first + 1
            while end < g.operations.count && runsInFloat[end] { end += 1 }
            layouts[first] = try FloatIsland.Layout(graph: g, operations: first..<end)
            first = end
        }
        // The float runs' arena is part of the program's (and so of a shared arena's) block.
        let memory = try IntegerArena(graph: g, elementSizes: widths.elementSizes, tileRows: Self.tileRows,
                                      floatRunBytes: layouts.isEmpty ? 0 : FloatIsland.Memory.byteCount(Array(layouts.values)),
                                      shared: shared)
        let islandMemory = layouts.isEmpty ? nil : FloatIsland.Memory(base: memory.floatRuns, byteCount: memory.floatRunByteCount)
        var narrow = Lowering<Int8>(graph: widths.graph, quantization: quantization, memory: memory,
                                    floatPlan: floatPlan, floatArena: floatArena)
        var wide = Lowering<Int16>(graph: widths.graph, quantization: quantization, memory: memory,
                                   floatPlan: floatPlan, floatArena: floatArena)
        // The float runs' layouts hold their own copies of their weights (made above).
        var pages = releasingConstants
            ? g.constants.withUnsafeBufferPointer { ConstantPages(g, values: $0, operations: g.operations.indices) } : nil
        var steps: [ProgramStep] = [], stepTensors: [Int] = []
        func take(_ t: Int) {
            for s in narrow.steps { steps.append(.int8(s)); stepTensors.append(t) }
            for s in wide.steps { steps.append(.int16(s)); stepTensors.append(t) }
            narrow.steps.removeAll()
            wide.steps.removeAll()
        }
        var islands: [FloatIsland] = []
        var islandOutputs = Set<Int>()
        for i in g.inputs {
            narrow.label = "model input"
            wide.label = "model input"
            if quantization.tensorBits[i] == 16 { try wide.lowerInput(i) } else { try narrow.lowerInput(i) }
            take(i)
        }
        var k = 0
        while k < g.operations.count {
            defer { k += 1 }
            let op = g.operations[k]
            let label = "operator " + String(k) + " (" + op.kind.name + ")"
            narrow.label = label
            wide.label = label
            // Each run's layout (its sub-graph with its own copy of its float weights) is dropped
            // as soon as its program has packed them, not kept to the end of the build.
            if let islandMemory, let layout = layouts.removeValue(forKey: k) {
                let end = layout.operations.upperBound
                let island = try Self.island(layout, islandMemory, g, quantization: quantization, narrow: narrow, wide: wide,
                                             floatSIMD: kernels.floatSIMD,
                                             prelu: kernels.floatSIMD ? kernels.int8.islandPReLU : nil,
                                             conv: kernels.floatSIMD ? kernels.int8.islandConv : nil)
                islands.append(island)
                for o in layout.outputs where g.outputs.contains(o) { islandOutputs.insert(o) }
                steps.append(.float(island))
                stepTensors.append(-1)
                for j in layout.operations { pages?.finished(j) }
                k = end - 1
                continue
            }
            if widths.isConversion[k] {
                let p = RequantizeParams(input: try narrow.parameters(op.inputs[0]), output: try narrow.parameters(op.output))
                let count = g.tensors[op.output].elementCount
                if widths.operationBits[k] == 16 {
                    steps.append(.widen(UnsafePointer(try narrow.quantized(op.inputs[0])), count, p, try wide.quantized(op.output)))
                } else {
                    steps.append(.narrow(UnsafePointer(try wide.quantized(op.inputs[0])), count, p, try narrow.quantized(op.output)))
                }
                stepTensors.append(op.output)
                continue
            }
            if widths.operationBits[k] == 16 { try wide.lower(op) } else { try narrow.lower(op) }
            take(op.output)
            pages?.finished(k)
        }
        for o in g.outputs where !quantization.isFloat[o] && !islandOutputs.contains(o) {
            narrow.label = "model output"
            wide.label = "model output"
            if quantization.tensorBits[o] == 16 { try wide.lowerOutput(o) } else { try narrow.lowerOutput(o) }
            take(-1)
        }
        // The steps hold their own packed copies of the weights: the rewritten graph kept for the
        // widths keeps no float constants (the equalised copy of every weight: 4.9 MiB across the
        // kiosk's live models, the mesh's 2.4).
        if kernels.fusesAddPReLU { (steps, stepTensors) = Self.fusingAddPReLU(steps, stepTensors, g) }
        var slim = widths
        slim.graph.constants = []
        self.widths = slim
        self.quantization = quantization
        self.memory = memory
        scratch16 = memory.scratch16
        scratch32 = memory.scratch32
        self.steps = steps
        self.stepTensors = stepTensors
        self.islands = islands
    }

    /// Each int8 ADD step without broadcast followed by the PRELU step reading its output, where
    /// that PRELU is the tensor's only reader and the tensor no model output, as one
    /// `IntegerStep.addPReLU` writing the PRELU's output (the ADD's tensor is then never written);
    /// every other step as it is. `tensors`: the tensor each step writes (`stepTensors`).
    static func fusingAddPReLU(_ steps: [ProgramStep], _ tensors: [Int], _ g: Graph) -> ([ProgramStep], [Int]) {
        var readers = [Int](repeating: 0, count: g.tensors.count)
        for op in g.operations { for t in op.inputs where t >= 0 { readers[t] += 1 } }
        var fused: [ProgramStep] = [], fusedTensors: [Int] = []
        var i = 0
        while i < steps.count {
            if i + 1 < steps.count, case .int8(.elementwise(let a, let b, let count, let period, let add, let sum)) = steps[i],
               case .int8(.prelu(let x, let pixels, let p, let out)) = steps[i + 1],
               add.operation == .add, period == count, Int(bitPattern: x) == Int(bitPattern: sum),
               pixels * p.channels == count, tensors[i] >= 0, readers[tensors[i]] == 1, !g.outputs.contains(tensors[i]) {
                fused.append(.int8(.addPReLU(a, b, count, add, p, out)))
                fusedTensors.append(tensors[i + 1])
                i += 2
                continue
            }
            fused.append(steps[i])
            fusedTensors.append(tensors[i])
            i += 1
        }
        return (fused, fusedTensors)
    }

    func run() {
        for step in steps { run(step) }
    }

    @inline(__always)
    func run(_ step: ProgramStep) {
        switch step {
        case .int8(let s): s.run(kernels8, scratch16: scratch16, scratch32: scratch32, tileRows: Self.tileRows)
        case .int16(let s): s.run(kernels16, scratch16: scratch16, scratch32: scratch32, tileRows: Self.tileRows)
        case .widen(let src, let count, let p, let dst): WidthConversion.widen(conversions, src, count, p, dst)
        case .narrow(let src, let count, let p, let dst): WidthConversion.narrow(conversions, src, count, p, dst)
        case .float(let island):
            island.run(kernels8, kernels16)
        }
    }

    /// The float run laid out in `layout` (operations of `g`), in the shared `memory`, wired to the program's tensors: model inputs read from
    /// the interpreter's float tensor, float tensors from the program's buffers, quantised ones
    /// dequantised from their slot; outputs to the slot of a quantised tensor, to the float buffer
    /// of a float one, and unrounded to the interpreter's tensor of a model output. With `prelu`
    /// (the int8 set's `islandPReLU`, SIMD kernels only) a final PRELU writes its int8 slot itself.
    static func island(_ layout: FloatIsland.Layout, _ memory: FloatIsland.Memory, _ g: Graph, quantization: QuantizationPlan,
                       narrow: Lowering<Int8>, wide: Lowering<Int16>, floatSIMD: Bool,
                       prelu: IslandPReLUKernel? = nil, conv: IslandConvKernel? = nil) throws(ModelError) -> FloatIsland {
        try FloatIsland(layout, memory: memory, elementCounts: g, floatSIMD: floatSIMD, prelu: prelu, conv: conv, source: { t throws(ModelError) -> FloatIsland.Source in
            if g.inputs.contains(t) || quantization.isFloat[t] { return .float(UnsafePointer(try narrow.float(t))) }
            if quantization.tensorBits[t] == 16 { return .int16(UnsafePointer(try wide.quantized(t)), try wide.parameters(t)) }
            return .int8(UnsafePointer(try narrow.quantized(t)), try narrow.parameters(t))
        }, sinks: { t throws(ModelError) -> [FloatIsland.Sink] in
            var sinks: [FloatIsland.Sink] = []
            if quantization.isFloat[t] || g.outputs.contains(t) { sinks.append(.float(try narrow.float(t))) }
            if !quantization.isFloat[t] {
                if quantization.tensorBits[t] == 16 {
                    sinks.append(.int16(try wide.quantized(t), try wide.parameters(t)))
                } else {
                    sinks.append(.int8(try narrow.quantized(t), try narrow.parameters(t)))
                }
            }
            return sinks
        })
    }
}
