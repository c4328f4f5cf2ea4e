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

    /// The graph operations the run computes (indices into the program's graph).
    let operations: Range<Int>
    let program: FloatProgram
    /// The runs' shared arena (owned by the program's `IntegerArena`).
    let memory: Memory
    private let entries: [Edge<Source>]
    private let exits: [Edge<Sink>]

    /// The run laid out in `layout`, in `memory` (at least `layout.plan.byteCount` bytes);
    /// `source(t)` says where the program keeps input tensor `t`, `sinks(t)` where output tensor
    /// `t` must go. `floatSIMD` selects the float path's SIMD kernels (false: its scalar reference).
    init(_ layout: Layout, memory: Memory, elementCounts graph: Graph, floatSIMD: Bool,
         source: (Int) throws(ModelError) -> Source, sinks: (Int) throws(ModelError) -> [Sink]) throws(ModelError) {
        precondition(layout.plan.byteCount <= memory.byteCount, "a float run larger than the shared arena")
        operations = layout.operations
        self.memory = memory
        program = FloatProgram(graph: layout.graph, plan: layout.plan, arena: memory.base, scalarOnly: !floatSIMD, fused: true)
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
        self.entries = entries
        self.exits = exits
    }

    /// Bytes of float memory of its own: the packed constants (the shared arena counts once, in
    /// `Memory`).
    var constantBytes: Int { program.constantCount * 4 }

    /// Dequantises the inputs, runs the operations in float, and quantises the outputs with the
    /// program's kernels `k8` / `k16`.
    func run(_ k8: IntegerKernelSetOf<Int8>, _ k16: IntegerKernelSetOf<Int16>) {
        for e in entries {
            switch e.endpoint {
            case .int8(let p, let q): k8.dequantize(p, e.count, q, e.island)
            case .int16(let p, let q): k16.dequantize(p, e.count, q, e.island)
            case .float(let p): copyFloats(p, e.count, to: e.island)
            }
        }
        program.run()
        for x in exits {
            switch x.endpoint {
            case .int8(let p, let q): k8.quantize(UnsafePointer(x.island), x.count, q, p)
            case .int16(let p, let q): k16.quantize(UnsafePointer(x.island), x.count, q, p)
            case .float(let p): copyFloats(x.island, x.count, to: p)
            }
        }
    }
}
