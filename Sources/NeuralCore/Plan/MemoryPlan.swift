/// Where every activation tensor lives in the single arena, decided at load from lifetimes.
///
/// A tensor is alive from the operation that writes it to the last operation that reads it. Graph
/// inputs and outputs are alive for the whole run, so that a caller may write the input once and
/// run again, and read the outputs at any time. Tensors are placed largest first, each at
/// the lowest 64-byte-aligned offset that does not overlap a placed tensor whose lifetime meets
/// its own (the greedy-by-size strategy of TFLite's arena planner), so memory is reused as soon as
/// a tensor's last reader has run.
public struct MemoryPlan: Sendable {
    /// Byte offset of each tensor in the arena; nil for constants and unused tensors.
    public var offsets: [Int?]
    /// Bytes each tensor occupies (element count × `elementSize`).
    public var sizes: [Int]
    /// Total arena size in bytes.
    public var byteCount: Int

    public static let alignment = 64
    /// A model asking for more activation memory than this is refused at load.
    public static let maxArenaBytes = 1 << 30

    /// Plans `graph`'s activations at `elementSize` bytes per element (4 for float32).
    /// `extraTensorBytes` lets a path reserve more per tensor (e.g. SIMD over-read padding).
    /// `elementSizes`, when given, is the size per tensor instead (a mixed-width integer program).
    public init(graph: Graph, elementSize: Int = 4, elementSizes: [Int]? = nil, tailPadding: Int = 64) throws(ModelError) {
        let n = graph.tensors.count
        let opCount = graph.operations.count
        var first = [Int](repeating: Int.max, count: n)
        var last = [Int](repeating: -1, count: n)
        for i in graph.inputs {
            first[i] = -1
            last[i] = opCount
        }
        for (k, op) in graph.operations.enumerated() {
            for t in op.inputs where t >= 0 && graph.tensors[t].constantOffset == nil {
                last[t] = max(last[t], k)
            }
            first[op.output] = min(first[op.output], k)
            last[op.output] = max(last[op.output], k)
        }
        for o in graph.outputs { last[o] = opCount }

        var sizes = [Int](repeating: 0, count: n)
        var order = [Int]()
        for t in 0..<n where first[t] != Int.max && graph.tensors[t].constantOffset == nil {
            sizes[t] = graph.tensors[t].elementCount * (elementSizes?[t] ?? elementSize) + tailPadding
            order.append(t)
        }
        order.sort { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }

        var offsets = [Int?](repeating: nil, count: n)
        var placed = [Int]()
        var total = 0
        var conflicts = [(start: Int, end: Int)]()
        for t in order {
            conflicts.removeAll(keepingCapacity: true)
            for p in placed where first[p] <= last[t] && first[t] <= last[p] {
                conflicts.append((offsets[p]!, offsets[p]! + sizes[p]))
            }
            conflicts.sort { $0.start < $1.start }
            var offset = 0
            for c in conflicts {
                if offset + sizes[t] <= c.start { break }
                offset = max(offset, (c.end + Self.alignment - 1) / Self.alignment * Self.alignment)
            }
            offsets[t] = offset
            placed.append(t)
            total = max(total, offset + sizes[t])
            guard total <= Self.maxArenaBytes else { throw .unsupported("the model needs more than 1 GiB of activation memory") }
        }
        self.offsets = offsets
        self.sizes = sizes
        self.byteCount = (total + Self.alignment - 1) / Self.alignment * Self.alignment
    }

    /// `graph`'s float32 activations each in a slot of its own, in tensor order (no reuse): every
    /// tensor keeps its values after a run, for recording ranges and comparing intermediates.
    public static func withoutReuse(graph: Graph) throws(ModelError) -> MemoryPlan {
        var plan = try MemoryPlan(graph: graph)
        var offset = 0
        for t in 0..<plan.offsets.count where plan.offsets[t] != nil {
            plan.offsets[t] = offset
            offset += (plan.sizes[t] + alignment - 1) / alignment * alignment
        }
        plan.byteCount = max(offset, alignment)
        return plan
    }
}
