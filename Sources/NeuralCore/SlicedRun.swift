/// One run of an interpreter spread over several calls, for a model whose result is not needed in
/// the frame it starts on (the live face detector looking for more faces): `start()` then `step()`
/// once per frame until it returns true; the outputs are then those of one `run()`, bit for bit.
///
/// The integer program's steps are cut into `count` slices of about equal estimated cost (the
/// multiply-adds of convolutions, one per element elsewhere), cuts only between graph operations.
/// With a `SharedArena` the other models run between two slices and overwrite the arena, so a
/// slice that ends early copies out what the rest of the program still reads — the activations
/// live across the cut (by the same lifetimes as the memory plan), the model's float inputs still
/// to be read and its outputs — and the next slice copies them back first. The copy buffer is
/// allocated here, at the largest cut's size (BlazeFace: tens of kB), so `step()` allocates
/// nothing. Without a shared arena nothing is copied.
///
/// The float path (and `count` 1) runs the whole model in the first `step()`.
public final class SlicedRun {
    public let interpreter: Interpreter
    /// Slices per run (1 on the float path).
    public let count: Int
    private let program: IntegerProgram?
    /// Slice i runs `program.steps[bounds[i]..<bounds[i + 1]]`.
    let bounds: [Int]
    /// Per cut (after slice i): the byte ranges to keep across it.
    private let keeps: [[(UnsafeMutableRawPointer, Int)]]
    private let saved: UnsafeMutableRawPointer
    private let savedCapacity: Int
    /// The next slice to run; nil when no run is under way.
    public private(set) var next: Int? = nil
    /// Estimated cost of each slice (for tests and diagnostics).
    public let sliceCosts: [Int]

    /// Cuts `interpreter`'s integer program into `count` slices (at least 1; at most one per
    /// graph operation), of about equal cost: `stepCosts` (one per program step, e.g. measured by
    /// `measureStepCosts`) or else the estimate above. `headCost` (in the same unit) is work the
    /// caller does before the first slice on the same call (preparing the input): the first
    /// slice gets that much less.
    public init(_ interpreter: Interpreter, slices count: Int, stepCosts: [Int]? = nil, headCost: Int = 0) {
        precondition(count >= 1, "a sliced run needs at least one slice")
        self.interpreter = interpreter
        guard case .integer(let program) = interpreter.engine, count > 1 else {
            self.program = nil
            self.count = 1
            bounds = []
            keeps = []
            sliceCosts = []
            savedCapacity = 0
            saved = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: MemoryPlan.alignment)
            return
        }
        self.program = program
        let g = program.widths.graph
        let opCount = g.operations.count
        var producer = [Int](repeating: -1, count: g.tensors.count)
        for (k, op) in g.operations.enumerated() { producer[op.output] = k }
        // The graph operation each step belongs to (-1: input steps; opCount: output steps).
        var opOf: [Int] = []
        var cost: [Int] = []
        for (s, step) in program.steps.enumerated() {
            let t = program.stepTensors[s]
            if case .float(let island) = step {
                opOf.append(island.operations.upperBound - 1)
                cost.append(island.operations.reduce(0) { $0 + 2 * Self.cost(g, $1) })
            } else if t >= 0 {
                let k = g.inputs.contains(t) ? -1 : producer[t]
                opOf.append(k)
                cost.append(k >= 0 ? Self.cost(g, k) : g.tensors[t].elementCount)
            } else {
                opOf.append(opCount)
                cost.append(1)
            }
        }
        if let stepCosts, stepCosts.count == cost.count { cost = stepCosts.map { max($0, 0) } }
        // Cuts at the allowed step boundaries nearest the equal-cost targets.
        let head = stepCosts != nil ? max(headCost, 0) : 0
        let total = max(cost.reduce(0, +) + head, 1)
        var bounds = [0]
        var done = 0
        var s = 0
        for i in 1..<count {
            let target = total * i / count - head
            while s < cost.count && done + cost[s] <= target { done += cost[s]; s += 1 }
            // Step s straddles the target: end the slice before or after it, whichever is nearer.
            var cut = s
            if s < cost.count && target - done > done + cost[s] - target { cut = s + 1 }
            // Every slice runs at least one step: when the head (or one step) outweighs the
            // slice's share, the target can fall at or before the last cut.
            cut = max(cut, bounds.last! + 1)
            // Only between operations.
            while cut < opOf.count && cut > 0 && opOf[cut - 1] == opOf[cut] { cut += 1 }
            if cut > bounds.last! && cut < program.steps.count { bounds.append(cut) }
        }
        bounds.append(program.steps.count)
        self.count = bounds.count - 1
        self.bounds = bounds
        var sliceCosts: [Int] = []
        for i in 0..<self.count { sliceCosts.append(cost[bounds[i]..<bounds[i + 1]].reduce(0, +)) }
        self.sliceCosts = sliceCosts

        // Lifetimes over graph operations: written at `first`, last read at `last`.
        var first = [Int](repeating: Int.max, count: g.tensors.count)
        var last = [Int](repeating: -1, count: g.tensors.count)
        for t in g.inputs { first[t] = -1 }
        for (k, op) in g.operations.enumerated() {
            for t in op.inputs where t >= 0 && g.tensors[t].constantOffset == nil { last[t] = max(last[t], k) }
            first[op.output] = min(first[op.output], k)
        }
        for o in g.outputs { last[o] = opCount }
        var keeps: [[(UnsafeMutableRawPointer, Int)]] = []
        var most = 0
        if interpreter.shared != nil {
            let memory = program.memory
            for i in 1..<bounds.count - 1 {
                let k = opOf[bounds[i] - 1]   // operations 0...k are done
                var ranges: [(UnsafeMutableRawPointer, Int)] = []
                for t in 0..<g.tensors.count where first[t] <= k && last[t] > k {
                    guard t < memory.plan.offsets.count, let offset = memory.plan.offsets[t] else { continue }
                    ranges.append((memory.base + offset, memory.plan.sizes[t]))
                }
                // The interpreter's float tensors (the shared boundary block): inputs still read, all outputs.
                for t in interpreter.graph.inputs where last[t] > k {
                    ranges.append((UnsafeMutableRawPointer(interpreter.tensorPointer(t)), interpreter.graph.tensors[t].elementCount * 4))
                }
                for t in interpreter.graph.outputs {
                    ranges.append((UnsafeMutableRawPointer(interpreter.tensorPointer(t)), interpreter.graph.tensors[t].elementCount * 4))
                }
                keeps.append(ranges)
                most = max(most, ranges.reduce(0) { $0 + $1.1 })
            }
        }
        self.keeps = keeps
        savedCapacity = most
        saved = UnsafeMutableRawPointer.allocate(byteCount: max(most, 1), alignment: MemoryPlan.alignment)
    }

    deinit { saved.deallocate() }

    /// Bytes kept aside between slices (0 without a shared arena).
    public var keptByteCount: Int { savedCapacity }

    /// The cost of each step of `interpreter`'s integer program, as `clock` counts it (e.g. thread
    /// CPU nanoseconds): the least of `rounds` whole runs on the current inputs (the outputs are
    /// then those of a run). Nil on the float path.
    public static func measureStepCosts(_ interpreter: Interpreter, rounds: Int = 3, clock: () -> Int) -> [Int]? {
        guard case .integer(let program) = interpreter.engine else { return nil }
        var costs = [Int](repeating: Int.max, count: program.steps.count)
        for _ in 0..<max(rounds, 1) {
            for s in program.steps.indices {
                let t0 = clock()
                program.run(program.steps[s])
                costs[s] = min(costs[s], clock() - t0)
            }
        }
        return costs
    }

    /// Estimated cost of graph operation `k` of `g`: multiply-adds for convolutions, elements otherwise.
    static func cost(_ g: Graph, _ k: Int) -> Int {
        let op = g.operations[k]
        let out = g.tensors[op.output].elementCount
        switch op.kind {
        case .conv2D:
            let w = g.tensors[op.inputs[1]].shape
            return w.count == 4 ? out * w[1] * w[2] * w[3] : out
        case .depthwiseConv2D(let geometry):
            let w = g.tensors[op.inputs[1]].shape
            return w.count == 4 ? out * w[1] * w[2] : out * geometry.strideH
        case .transposeConvBias:
            let w = g.tensors[op.inputs[1]].shape
            return w.count == 4 ? g.tensors[op.inputs[0]].elementCount * w[0] * w[1] * w[2] : out
        default:
            return out
        }
    }

    /// Whether a run is under way (started and not finished).
    public var running: Bool { next != nil }

    /// Starts a run on the interpreter's current inputs (write them just before). A run under way
    /// is dropped.
    public func start() { next = 0 }

    /// Drops the run under way, if any.
    public func cancel() { next = nil }

    /// Runs the next slice of the run under way; true when the run is complete (its outputs are
    /// then readable until another interpreter sharing the arena runs, as after `run()`).
    public func step() -> Bool {
        guard let i = next else { preconditionFailure("SlicedRun.step() without start()") }
        guard let program else {
            interpreter.run()
            next = nil
            return true
        }
        if i > 0 { copy(keeps.isEmpty ? [] : keeps[i - 1], out: false) }
        for s in bounds[i]..<bounds[i + 1] { program.run(program.steps[s]) }
        if i + 1 == count {
            next = nil
            return true
        }
        if !keeps.isEmpty { copy(keeps[i], out: true) }
        next = i + 1
        return false
    }

    private func copy(_ ranges: [(UnsafeMutableRawPointer, Int)], out: Bool) {
        var at = saved
        for (p, n) in ranges {
            if out { at.copyMemory(from: p, byteCount: n) } else { p.copyMemory(from: at, byteCount: n) }
            at += n
        }
    }
}
