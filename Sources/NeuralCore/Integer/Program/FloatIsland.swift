import CNeuralKernels

/// A run of consecutive operations of an integer program computed in float32 by the float path's
/// own kernels (`FloatProgram`, fused multiply-adds as the float engine runs them): the layers a
/// model's `CalibrationTable` names in `f` records, chosen offline because int8 weights or
/// quantised activations cost them too much (issue 16).
///
/// A run reads its inputs from the integer arena, dequantised (`IntegerKernelSetOf.dequantize`)
/// into float buffers of its own — or straight from the interpreter's float tensor for a model
/// input, and from the program's float buffer for a tensor the quantisation plan computes in float
/// — runs its operations on a sub-graph of the rewritten graph (the run's operations only, with
/// only their constants), and hands back every value read after it: quantised into the tensor's
/// slot at its width and parameters, copied into the program's float buffer for a float tensor,
/// and written unrounded into the interpreter's float tensor for a model output.
///
/// Its memory is planned and allocated at load: the packed constants its own, the arena shared
/// with the program's other runs (`Memory`, as large as the largest run's plan, inside the
/// program's `IntegerArena`); a run allocates nothing.
final class FloatIsland {
    /// Where a value the run reads comes from.
    enum Source {
        case int8(UnsafePointer<Int8>, QuantParams)
        case int16(UnsafePointer<Int16>, QuantParams)
        case float(UnsafePointer<Float>)
    }

    /// Where a value the run writes goes.
    enum Sink {
        case int8(UnsafeMutablePointer<Int8>, QuantParams)
        case int16(UnsafeMutablePointer<Int16>, QuantParams)
        case float(UnsafeMutablePointer<Float>)
    }

    /// One tensor crossing the run's edge: `count` values between the run's arena and the program.
    struct Edge<Endpoint> {
        var endpoint: Endpoint
        var island: UnsafeMutablePointer<Float>
        var count: Int
    }

    /// A run's sub-graph and the plan of its float memory, made before any memory is given so
    /// that the runs of one program can share one arena (`Memory`; they run one after another
    /// and keep nothing in it between runs).
    struct Layout {
        let operations: Range<Int>
        /// The run's operations over the program graph's tensor indices, with its constants only.
        let graph: Graph
        let plan: MemoryPlan
        /// Tensors the run reads from before it, and those read after it (or model outputs).
        let inputs: [Int], outputs: [Int]

        init(graph: Graph, operations: Range<Int>) throws(ModelError) {
            precondition(!operations.isEmpty && operations.upperBound <= graph.operations.count, "an empty or foreign run")
            self.operations = operations
            let ops = Array(graph.operations[operations])
            var produced = Set<Int>()
            var inputs: [Int] = []
            for op in ops {
                for t in op.inputs where t >= 0 && graph.tensors[t].constantOffset == nil && !produced.contains(t) && !inputs.contains(t) {
                    inputs.append(t)
                }
                produced.insert(op.output)
            }
            var readLater = Set(graph.outputs)
            for op in graph.operations[operations.upperBound...] { for t in op.inputs where t >= 0 { readLater.insert(t) } }
            var outputs: [Int] = []
            for op in ops where readLater.contains(op.output) && !outputs.contains(op.output) { outputs.append(op.output) }
            var sub = graph
            sub.operations = ops
            sub.inputs = inputs
            sub.outputs = outputs
            sub.constants = []
            for t in 0..<sub.tensors.count { sub.tensors[t].constantOffset = nil }
            var used = Set<Int>()
            for op in ops { for t in op.inputs where t >= 0 && graph.tensors[t].constantOffset != nil { used.insert(t) } }
            // Reserved at once: no regrowth (old and new copies alive together) while copied.
            sub.constants.reserveCapacity(used.reduce(0) { $0 + graph.tensors[$1].elementCount })
            for t in used.sorted() {
                sub.tensors[t].constantOffset = sub.constants.count
                sub.constants += graph.constant(t)
            }
            self.graph = sub
            plan = try MemoryPlan(graph: sub)
            self.inputs = inputs
            self.outputs = outputs
        }
    }

    /// The float arena the runs of one program share, as large as the largest run's plan: a region
    /// of the program's `IntegerArena` (after its scratch), so that a program in a `SharedArena`
    /// shares it with the other programs as well. Not zeroed: every operation of a run writes its
    /// output before a later one reads it, and the run's inputs are written at its start.
    struct Memory {
        let base: UnsafeMutableRawPointer
        let byteCount: Int

        /// The bytes the runs laid out in `layouts` need (their largest plan).
        static func byteCount(_ layouts: [Layout]) -> Int {
            max(layouts.map { $0.plan.byteCount }.max() ?? 0, MemoryPlan.alignment)
        }
    }

    /// The run's last operation when it is a PRELU with one slope per channel whose output goes
    /// to one int8 slot only, computed with that slot's quantisation in one pass
    /// (`IslandPReLUKernel`): from the int8 tensor it reads when it is the whole run (no float
    /// values at all: iris_landmark's 45 PRELU-only runs), else from its float input in the run's
    /// arena. The same bits as the float PRELU and the quantise pass.
    struct FusedPReLU {
        enum Input {
            case int8(UnsafePointer<Int8>, QuantParams)
            case float(UnsafePointer<Float>)
        }
        let input: Input
        /// The slopes (the run's own copy; its float program no longer computes the PRELU).
        let alpha: UnsafeMutablePointer<Float>
        let pixels: Int, channels: Int
        let output: QuantParams
        let out: UnsafeMutablePointer<Int8>
        let kernel: IslandPReLUKernel

        @inline(__always)
        func run() {
            switch input {
            case .int8(let p, let q): kernel.quantized(p, q, UnsafePointer(alpha), pixels, channels, output, out)
            case .float(let p): kernel.float(p, UnsafePointer(alpha), pixels, channels, output, out)
            }
        }
    }

    /// The run's last operation when it is a CONV_2D, or a DEPTHWISE_CONV_2D with one output per
    /// input channel, whose output goes to one int8 or int16 slot only: computed with its own
    /// packed weights by `IslandConvKernel`, which quantises in its store, so the float output is
    /// never written (when the kernel does not take the shape, the float convolution into the
    /// run's arena and the quantise pass). When it is the whole run and reads a float tensor (a
    /// model input), it reads it where the program keeps it, without the copy.
    struct FusedConv {
        let depthwise: Bool
        let dims: FloatConvolution.Dims
        let shape: UnsafeMutablePointer<booth_fconv>
        let input: UnsafePointer<Float>
        /// Packed as `FloatProgram` packs them (the run's own copy: its program no longer has the operation).
        let weights: UnsafeMutablePointer<Float>, bias: UnsafeMutablePointer<Float>
        let weightCount: Int
        /// The float output in the run's arena (the passes' route only).
        let slot: UnsafeMutablePointer<Float>
        let sink: Sink
        let kernel: IslandConvKernel

        func run(_ k8: IntegerKernelSetOf<Int8>, _ k16: IntegerKernelSetOf<Int16>) {
            let count = dims.batch * dims.outH * dims.outW * dims.outC
            switch sink {
            case .int16(let p, let q):
                if kernel.run(depthwise, shape, input, weights, bias, 16, q, UnsafeMutableRawPointer(p)) { return }
                runFloat()
                k16.quantize(UnsafePointer(slot), count, q, p)
            case .int8(let p, let q):
                if kernel.run(depthwise, shape, input, weights, bias, 8, q, UnsafeMutableRawPointer(p)) { return }
                runFloat()
                k8.quantize(UnsafePointer(slot), count, q, p)
            case .float(let p):
                runFloat()
                copyFloats(slot, count, to: p)
            }
        }

        /// The float path's convolution (`FloatProgram`'s kernel choice, fused arithmetic) into `slot`.
        private func runFloat() {
            let m = FloatArithmetic.Fused.self, w = UnsafePointer(weights), b = UnsafePointer(bias)
            let neon = FloatProgram.usesNEON(scalarOnly: false, fused: true)
            if depthwise {
                FloatProgram.depthwise(m, dims, input, w, b, slot, scalarOnly: false, neon: neon)
            } else {
                FloatProgram.conv(m, dims, input, w, b, slot, scalarOnly: false, neon: neon)
            }
        }
    }

    /// The graph operations the run computes (indices into the program's graph).
    let operations: Range<Int>
    /// The run's operations in float (without a fused final PRELU).
    let program: FloatProgram
    /// The runs' shared arena (owned by the program's `IntegerArena`).
    let memory: Memory
    private let entries: [Edge<Source>]
    private let exits: [Edge<Sink>]
    let fused: FusedPReLU?
    let fusedConv: FusedConv?

    /// The run laid out in `layout`, in `memory` (at least `layout.plan.byteCount` bytes);
    /// `source(t)` says where the program keeps input tensor `t`, `sinks(t)` where output tensor
    /// `t` must go. `floatSIMD` selects the float path's SIMD kernels (false: its scalar reference).
    /// With `prelu` a final PRELU that qualifies is computed by it (`FusedPReLU`).
    init(_ layout: Layout, memory: Memory, elementCounts graph: Graph, floatSIMD: Bool, prelu: IslandPReLUKernel? = nil,
         conv: IslandConvKernel? = nil, source: (Int) throws(ModelError) -> Source, sinks: (Int) throws(ModelError) -> [Sink]) throws(ModelError) {
        precondition(layout.plan.byteCount <= memory.byteCount, "a float run larger than the shared arena")
        operations = layout.operations
        self.memory = memory
        let base = memory.base, plan = layout.plan
        func slot(_ t: Int) -> UnsafeMutablePointer<Float> {
            // Every input and output of the sub-graph is planned (MemoryPlan keeps them live).
            (base + plan.offsets[t]!).assumingMemoryBound(to: Float.self)
        }
        var entries: [Edge<Source>] = []
        for t in layout.inputs { entries.append(Edge(endpoint: try source(t), island: slot(t), count: graph.tensors[t].elementCount)) }
        var exits: [Edge<Sink>] = []
        for t in layout.outputs {
            for s in try sinks(t) { exits.append(Edge(endpoint: s, island: slot(t), count: graph.tensors[t].elementCount)) }
        }
        var sub = layout.graph
        var fused: FusedPReLU? = nil
        if let prelu, let op = sub.operations.last, let channels = Self.perChannelSlope(op, sub),
           layout.outputs.contains(op.output) {
            let x = op.inputs[0]
            let writes = exits.indices.filter { exits[$0].island == slot(op.output) }
            if writes.count == 1, case .int8(let out, let q) = exits[writes[0]].endpoint {
                var input = FusedPReLU.Input.float(UnsafePointer(slot(x)))
                var dropEntry: Int? = nil
                // A run of the PRELU alone reads its input where the program keeps it.
                if sub.operations.count == 1, let e = entries.firstIndex(where: { $0.island == slot(x) }) {
                    switch entries[e].endpoint {
                    case .int8(let p, let qin): input = .int8(p, qin); dropEntry = e
                    case .float(let p): input = .float(p); dropEntry = e
                    case .int16: break
                    }
                }
                let slopes = sub.constant(op.inputs[1])
                let alpha = UnsafeMutablePointer<Float>.allocate(capacity: channels)
                slopes.withUnsafeBufferPointer { alpha.initialize(from: $0.baseAddress!, count: channels) }
                fused = FusedPReLU(input: input, alpha: alpha, pixels: graph.tensors[op.output].elementCount / channels,
                                   channels: channels, output: q, out: out, kernel: prelu)
                exits.remove(at: writes[0])
                if let dropEntry { entries.remove(at: dropEntry) }
                sub.operations.removeLast()
            }
        }
        var fusedConv: FusedConv? = nil
        if fused == nil, let conv, let op = sub.operations.last, let geometry = Self.fusableConvolution(op, sub),
           layout.outputs.contains(op.output) {
            let writes = exits.indices.filter { exits[$0].island == slot(op.output) }
            var quantized = false
            if writes.count == 1 { switch exits[writes[0]].endpoint { case .int8, .int16: quantized = true; case .float: break } }
            if quantized {
                let x = op.inputs[0]
                var input = UnsafePointer(slot(x))
                // A run of the convolution alone reads a float input where the program keeps it.
                if sub.operations.count == 1, let e = entries.firstIndex(where: { $0.island == slot(x) }),
                   case .float(let p) = entries[e].endpoint {
                    input = p
                    entries.remove(at: e)
                }
                fusedConv = Self.fuse(op, geometry, sub, input: input, slot: slot(op.output), sink: exits[writes[0]].endpoint, kernel: conv)
                exits.remove(at: writes[0])
                sub.operations.removeLast()
            }
        }
        program = FloatProgram(graph: sub, plan: plan, arena: base, scalarOnly: !floatSIMD, fused: true)
        self.fused = fused
        self.fusedConv = fusedConv
        self.entries = entries
        self.exits = exits
    }

    deinit {
        fused?.alpha.deallocate()
        if let c = fusedConv {
            c.weights.deallocate()
            c.bias.deallocate()
            c.shape.deallocate()
        }
    }

    /// The geometry of `op` when it is a CONV_2D, or a DEPTHWISE_CONV_2D with one output per
    /// input channel, with constant filters of the float path's layout (a bias constant or none).
    static func fusableConvolution(_ op: Operation, _ g: Graph) -> ConvGeometry? {
        guard op.inputs.count >= 2, op.inputs[0] >= 0, op.inputs[1] >= 0, g.tensors[op.inputs[1]].constantOffset != nil,
              g.tensors[op.inputs[0]].shape4.count == 4, g.tensors[op.output].shape4.count == 4,
              g.tensors[op.inputs[1]].shape.count == 4 else { return nil }
        if op.inputs.count > 2 && op.inputs[2] >= 0 && g.tensors[op.inputs[2]].constantOffset == nil { return nil }
        switch op.kind {
        case .conv2D(let geometry): return geometry
        case .depthwiseConv2D(let geometry):
            let x = g.tensors[op.inputs[0]].shape4, y = g.tensors[op.output].shape4
            return geometry.depthMultiplier == 1 && x[3] == y[3] ? geometry : nil
        default: return nil
        }
    }

    /// `op`'s weights and bias packed as `FloatProgram` packs them, and its shape.
    static func fuse(_ op: Operation, _ geometry: ConvGeometry, _ g: Graph, input: UnsafePointer<Float>,
                     slot: UnsafeMutablePointer<Float>, sink: Sink, kernel: IslandConvKernel) -> FusedConv {
        let xs = g.tensors[op.inputs[0]].shape4, os = g.tensors[op.output].shape4, ws = g.tensors[op.inputs[1]].shape
        let dims = FloatConvolution.Dims(batch: xs[0], inH: xs[1], inW: xs[2], inC: xs[3], outH: os[1], outW: os[2], outC: os[3],
                                         kH: ws[1], kW: ws[2], g: geometry)
        let depthwise: Bool
        if case .depthwiseConv2D = op.kind { depthwise = true } else { depthwise = false }
        let ocp = dims.outCPadded
        let count = depthwise ? ws[1] * ws[2] * ocp : ws[1] * ws[2] * ws[3] * ocp
        let weights = UnsafeMutablePointer<Float>.allocate(capacity: count)
        let bias = UnsafeMutablePointer<Float>.allocate(capacity: ocp)
        weights.initialize(repeating: 0, count: count)
        bias.initialize(repeating: 0, count: ocp)
        let src = g.constant(op.inputs[1])
        let b: ArraySlice<Float>? = op.inputs.count > 2 && op.inputs[2] >= 0 ? g.constant(op.inputs[2]) : nil
        if depthwise {
            FloatConvolution.packDepthwiseWeights(src, bias: b, taps: ws[1] * ws[2], outC: ws[3], weightsAt: weights, biasAt: bias)
        } else {
            FloatConvolution.packConvWeights(ohwi: src, bias: b, outC: ws[0], kH: ws[1], kW: ws[2], inC: ws[3],
                                             weightsAt: weights, biasAt: bias)
        }
        let shape = UnsafeMutablePointer<booth_fconv>.allocate(capacity: 1)
        shape.initialize(to: FloatConvolution.cDims(dims))
        return FusedConv(depthwise: depthwise, dims: dims, shape: shape, input: input, weights: weights, bias: bias,
                         weightCount: count + ocp, slot: slot, sink: sink, kernel: kernel)
    }

    /// The channel count of PRELU `op` when its slope is a constant with one value per channel of
    /// an input of the output's shape (the float path's rows with a broadcast-free slope row).
    static func perChannelSlope(_ op: Operation, _ g: Graph) -> Int? {
        guard case .prelu = op.kind, op.inputs.count == 2, op.inputs[0] >= 0, op.inputs[1] >= 0 else { return nil }
        let x = g.tensors[op.inputs[0]], a = g.tensors[op.inputs[1]], y = g.tensors[op.output]
        guard a.constantOffset != nil, x.shape4.count == 4, x.shape4 == y.shape4, a.shape4.count == 4 else { return nil }
        let c = x.shape4[3]
        guard c > 0, a.shape4 == [1, 1, 1, c], a.elementCount == c, y.elementCount % c == 0 else { return nil }
        return c
    }

    /// Bytes of float memory of its own: the packed constants (the shared arena counts once, in
    /// `Memory`).
    var constantBytes: Int { program.constantCount * 4 + (fused?.channels ?? 0) * 4 + (fusedConv?.weightCount ?? 0) * 4 }

    /// Dequantises the inputs, runs the operations in float (a fused final PRELU writing its int8
    /// output), and quantises the other outputs with the program's kernels `k8` / `k16`.
    func run(_ k8: IntegerKernelSetOf<Int8>, _ k16: IntegerKernelSetOf<Int16>) {
        for e in entries {
            switch e.endpoint {
            case .int8(let p, let q): k8.dequantize(p, e.count, q, e.island)
            case .int16(let p, let q): k16.dequantize(p, e.count, q, e.island)
            case .float(let p): copyFloats(p, e.count, to: e.island)
            }
        }
        program.run()
        fused?.run()
        fusedConv?.run(k8, k16)
        for x in exits {
            switch x.endpoint {
            case .int8(let p, let q): k8.quantize(UnsafePointer(x.island), x.count, q, p)
            case .int16(let p, let q): k16.quantize(UnsafePointer(x.island), x.count, q, p)
            case .float(let p): copyFloats(x.island, x.count, to: p)
            }
        }
    }
}
