/// Which arithmetic runs the model: the float reference path (the oracle) or the production
/// integer path (int8 weights, int32 accumulation).
public enum ExecutionPath: Sendable {
    case float, integer
}

/// Runs one .tflite model. Loading reads and checks the file, folds fp16 weights, plans one arena
/// for all activations and prepares every kernel call; `run()` then allocates nothing.
///
/// Inputs and outputs are float32 NHWC at the model boundary on both paths.
public final class Interpreter {
    /// The model's graph; on the integer path without constant data (`constants` is empty).
    public let graph: Graph
    public let plan: MemoryPlan
    public let path: ExecutionPath
    /// The single activation arena (`plan.byteCount` bytes, 64-byte aligned).
    let arena: UnsafeMutableRawPointer
    /// Where the memory lives when shared (the arena is then its boundary block).
    let shared: SharedArena?
    let engine: Engine
    /// Per model input: the integer program's step that quantises it from the float tensor, and
    /// where its quantised values live (nil on the float path, or where a float run reads the
    /// input as float). See `quantizedInput(_:)`.
    let inputSlots: [InputSlot?]
    /// Per model input: written quantised (`withQuantizedInput`) since the last `withInput`, so
    /// `run()` leaves out its quantise step.
    var inputWrittenQuantized: [Bool]

    /// The execution engines; the integer path adds its case here.
    enum Engine {
        case float(FloatProgram)
        case integer(IntegerProgram)
    }

    /// `calibration` only matters to the integer path (see `IntegerCalibration`).
    public convenience init(model bytes: [UInt8], path: ExecutionPath = .float, kernels: InterpreterKernels = .native,
                            calibration: IntegerCalibration = .unit, sharing shared: SharedArena? = nil,
                            keepingWeights: Bool = true) throws(ModelError) {
        try self.init(model: try TFLiteModel(bytes: bytes), path: path, kernels: kernels, calibration: calibration, sharing: shared,
                      keepingWeights: keepingWeights)
    }

    /// `kernels` is the variant set both paths run (`.scalar` for the reference loops). `shared`
    /// holds the memory of a run, shared with other interpreters that never run at the same time
    /// as this one (`SharedArena`: read the outputs before another one runs): on the integer path
    /// the program's working memory and the float inputs and outputs, on the float path the whole
    /// activation arena (its boundary block, or its integer block when the arena says so; not
    /// zeroed, since every operation writes its output before a later one reads it).
    ///
    /// `keepingWeights` false: the float path drops the graph's float weights while its program
    /// packs its own copy, page by page (`graph.constants` is then empty, as on the integer path,
    /// which never keeps them), for a model that is only run; the float-path diagnostics
    /// (`PrecisionSensitivity`) need them kept.
    public convenience init(model: TFLiteModel, path: ExecutionPath = .float, kernels: InterpreterKernels = .native,
                            calibration: IntegerCalibration = .unit, sharing shared: SharedArena? = nil,
                            keepingWeights: Bool = true) throws(ModelError) {
        var graph = try Graph(model: model)
        try self.init(taking: &graph, path: path, kernels: kernels, calibration: calibration, sharing: shared,
                      keepingWeights: keepingWeights)
    }

    /// As `init(model:…)` from the file's `bytes`, which it takes: they are parsed into the graph
    /// and released at once (`bytes` is left empty), before any weight is packed. A caller that
    /// held the only reference (a file read for this model alone) so frees the file's copy before
    /// the build's peak instead of after it (the file's bytes, the float weights and their packed
    /// copy were alive together: 2.6 MB more for the iris model, 1.2 MB for the mesh). Their pages
    /// already go back while the graph copies the float32 weights out of them (`FilePages`), so
    /// the file and its float copy are not resident together either (the parse's peak: 5.3 MB
    /// for the iris model, 2.6 MB now).
    ///
    /// A file that does not parse leaves `bytes` as they were; once it parses they are taken
    /// (left empty) even when the graph is then refused. A caller whose array shares its storage
    /// with another keeps that other array intact: the bytes are first made unique (a copy then).
    public convenience init(taking bytes: inout [UInt8], path: ExecutionPath = .float, kernels: InterpreterKernels = .native,
                            calibration: IntegerCalibration = .unit, sharing shared: SharedArena? = nil,
                            keepingWeights: Bool = true) throws(ModelError) {
        var graph: Graph
        do {
            // Storage of our own (copied here when shared), so the pages given back are no one else's.
            bytes.withUnsafeMutableBufferPointer { _ in }
            let model = try TFLiteModel(bytes: bytes)
            bytes = []   // the model holds the only reference while the graph is parsed
            graph = try Graph(model: model, releasingFileBytes: true)
        }
        try self.init(taking: &graph, path: path, kernels: kernels, calibration: calibration, sharing: shared,
                      keepingWeights: keepingWeights, releasingIntegerWeights: true)
    }

    /// As `init(taking:…)` for a file's bytes as `ModelBytes` (`bytes` is left empty once they
    /// parse, so a caller holding no other copy unmaps a file mapping before the weights are
    /// packed). A read-only file mapping (`ModelStore.map`) is never read whole: the parse touches
    /// the tables' pages and each weight's pages while it copies them, and gives those back at
    /// once (`FilePages`; they are the file's clean pages, dropped and never copied). An array's
    /// bytes are parsed as they are and never given back (others may share them).
    public convenience init(taking bytes: inout ModelBytes, path: ExecutionPath = .float, kernels: InterpreterKernels = .native,
                            calibration: IntegerCalibration = .unit, sharing shared: SharedArena? = nil,
                            keepingWeights: Bool = true) throws(ModelError) {
        var graph: Graph
        do {
            let model = try TFLiteModel(bytes: bytes)
            let lent = bytes.isLent
            bytes = ModelBytes([])   // the model holds the only reference while the graph is parsed
            graph = try Graph(model: model, releasingFileBytes: lent)
        }
        try self.init(taking: &graph, path: path, kernels: kernels, calibration: calibration, sharing: shared,
                      keepingWeights: keepingWeights, releasingIntegerWeights: true)
    }

    /// Builds the interpreter of a parsed graph, which it takes: `graph` is left without its
    /// constants (on the integer path the program rewrites and packs the only reference to them;
    /// see `IntegerProgram(taking:)`). `releasingIntegerWeights`: the integer program gives each
    /// page of the float weights back once the operations reading it are lowered (`ConstantPages`;
    /// the builds from a file's bytes, `init(taking:…)`), so the float weights and the packed copy
    /// are not resident together (the float path does so when it keeps no weights).
    init(taking parsed: inout Graph, path: ExecutionPath, kernels: InterpreterKernels,
         calibration: IntegerCalibration, sharing shared: SharedArena?,
         keepingWeights: Bool, releasingIntegerWeights: Bool = false) throws(ModelError) {
        var graph = parsed
        parsed.constants = []
        let plan = try MemoryPlan(graph: graph)
        self.plan = plan
        self.path = path
        switch path {
        case .float:
            let bytes = max(plan.byteCount, MemoryPlan.alignment)
            self.shared = shared
            if let shared {
                arena = try shared.claimFloatPlan(bytes)
            } else {
                arena = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: MemoryPlan.alignment)
                arena.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
            }
            if keepingWeights {
                engine = .float(FloatProgram(graph: graph, plan: plan, arena: arena, scalarOnly: !kernels.floatSIMD, fused: true))
            } else {
                // The program takes the only reference to the weights and gives each page back
                // once packed (`FloatProgram(taking:)`): the float weights and their packed copy
                // are not resident together.
                engine = .float(FloatProgram(taking: &graph, plan: plan, arena: arena, scalarOnly: !kernels.floatSIMD, fused: true))
            }
            self.graph = graph
            inputSlots = graph.inputs.map { _ in nil }
        case .integer:
            // The float arena holds the boundary tensors (inputs, outputs); the program owns its int8 arena.
            // Only they are zeroed: the rest is never touched, so a large arena (an mmap'd block)
            // stays out of resident memory (6.8 MiB of float activations across the kiosk's models).
            // A shared arena is not written at all: its other models overwrite these tensors anyway
            // (`SharedArena`'s rules), and they may be running on another thread while this one is
            // built (a kiosk still's models lent the live models' memory run only under their lock).
            let bytes = max(plan.byteCount, MemoryPlan.alignment)
            self.shared = shared
            if let shared {
                arena = try shared.claimBoundary(bytes)
            } else {
                arena = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: MemoryPlan.alignment)
                for t in graph.inputs + graph.outputs {
                    if let offset = plan.offsets[t] {
                        (arena + offset).initializeMemory(as: Float.self, repeating: 0, count: graph.tensors[t].elementCount)
                    }
                }
            }
            // The program rewrites the only reference to the float weights (`working`), so that
            // equalisation rescales them in place instead of writing a second copy of them; the
            // integer path keeps no float weights once they are packed into the program
            // (5.9 MiB across the kiosk's models): its graph's `constants` are empty.
            let bits = calibration.activationWidth(for: graph) == .int16 ? 16 : 8
            var working = graph
            graph.constants = []
            let program: IntegerProgram
            do {
                program = try IntegerProgram(taking: &working, floatPlan: plan, floatArena: arena,
                                             calibration: calibration, bits: bits, kernels: kernels,
                                             shared: shared, releasingConstants: releasingIntegerWeights)
            } catch {
                if shared == nil { arena.deallocate() }
                throw error
            }
            engine = .integer(program)
            working.constants = []
            self.graph = graph
            inputSlots = Interpreter.inputSlots(program, inputs: graph.inputs)
        }
        inputWrittenQuantized = graph.inputs.map { _ in false }
    }

    deinit {
        if shared == nil { arena.deallocate() }
    }

    public var inputCount: Int { graph.inputs.count }
    public var outputCount: Int { graph.outputs.count }

    /// Shape of input `i` as the model declares it (NHWC for images).
    public func inputShape(_ i: Int) -> [Int] { graph.tensors[graph.inputs[i]].shape }
    public func outputShape(_ i: Int) -> [Int] { graph.tensors[graph.outputs[i]].shape }

    /// Bits per activation of the integer path (8 or 16: the model's width, which most tensors
    /// have; 32 on the float path).
    public var activationBits: Int {
        switch engine {
        case .float: return 32
        case .integer(let program): return program.quantization.bits
        }
    }

    /// How many operations of the integer program run at int8 and at int16 activations (width
    /// conversions not counted); nil on the float path.
    public var operationWidths: (int8: Int, int16: Int)? {
        switch engine {
        case .float: return nil
        case .integer(let program): return program.widths.operationCounts
        }
    }

    /// Whether the integer path took its activation ranges from `IntegerCalibration.table` (false
    /// on the float path, and when it calibrated at load).
    public var calibratedFromTable: Bool {
        switch engine {
        case .float: return false
        case .integer(let program): return program.usedTable
        }
    }

    /// Size of the activation arena in bytes.
    public var arenaByteCount: Int { plan.byteCount }

    func tensorPointer(_ t: Int) -> UnsafeMutablePointer<Float> {
        (arena + plan.offsets[t]!).assumingMemoryBound(to: Float.self)
    }

    /// Lends input `i`'s storage for writing float32 NHWC values (the next `run()` reads them,
    /// also after the input was written quantised).
    public func withInput<R>(_ i: Int, _ body: (UnsafeMutableBufferPointer<Float>) -> R) -> R {
        let t = graph.inputs[i]
        inputWrittenQuantized[i] = false
        return body(UnsafeMutableBufferPointer(start: tensorPointer(t), count: graph.tensors[t].elementCount))
    }

    /// Runs the model on the current inputs. Allocates nothing.
    public func run() {
        switch engine {
        case .float(let program): program.run()
        case .integer(let program):
            guard inputWrittenQuantized.contains(true) else { program.run(); return }
            runSkippingQuantizedInputs(program)
        }
    }

    /// Runs the model like `run()`, calling `body` after each graph operation with the operation's
    /// index and its output tensor's values (float path only; valid inside `body` only, since a later
    /// operation may reuse the slot). For comparing intermediates with another implementation.
    public func run(inspecting body: (_ operation: Int, _ output: UnsafeBufferPointer<Float>) -> Void) {
        guard case .float(let program) = engine else {
            preconditionFailure("run(inspecting:) needs the float path")
        }
        program.run { k in
            let t = graph.operations[k].output
            body(k, UnsafeBufferPointer(start: tensorPointer(t), count: graph.tensors[t].elementCount))
        }
    }

    /// Lends output `i`'s values after `run()`.
    public func withOutput<R>(_ i: Int, _ body: (UnsafeBufferPointer<Float>) -> R) -> R {
        let t = graph.outputs[i]
        return body(UnsafeBufferPointer(start: tensorPointer(t), count: graph.tensors[t].elementCount))
    }
}
