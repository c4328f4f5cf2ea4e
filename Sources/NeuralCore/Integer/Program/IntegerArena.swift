/// Pass 4 of the integer lowering (`IntegerProgram`): the program's memory, planned and allocated
/// once at load, and owned here so that a lowering that fails part-way frees it.
///
/// - the arena: every quantised activation placed by the float path's lifetime planner
///   (`MemoryPlan`) at its width's bytes per element (`WidthPlan.elementSizes`), with 64 bytes of tail padding per tensor
///   for the SIMD kernels' over-reads;
/// - scratch: int16 im2col rows (`tileRows` output pixels at a time, depth rounded up to even)
///   and int32 accumulator rows, as large as the largest CONV_2D or transpose convolution needs;
/// - the float runs' arena (`FloatIsland.Memory`: the largest run's float plan), after the scratch,
///   so that with a `SharedArena` it is shared with the other programs too;
/// - float buffers for the intermediate tensors the quantisation plan computes in float, made on
///   request by the lowering.
final class IntegerArena {
    let plan: MemoryPlan
    let base: UnsafeMutableRawPointer
    let scratch16: UnsafeMutablePointer<Int16>
    let scratch32: UnsafeMutablePointer<Int32>
    /// Elements of `scratch16` and `scratch32`.
    let scratch16Count: Int, scratch32Count: Int
    /// The float runs' arena (`floatRunByteCount` bytes, none without float runs).
    let floatRuns: UnsafeMutableRawPointer
    let floatRunByteCount: Int
    /// The block `base` starts, holding the arena, both scratch buffers and the float runs' arena: the shared arena's
    /// (not freed here), or this arena's own.
    private let shared: SharedArena?
    private var floatBuffers: [Int: UnsafeMutablePointer<Float>] = [:]
    private var floatBytes = 0

    /// With `shared`, the arena, scratch and `floatRunBytes` of float runs' arena start at the
    /// shared block (see `SharedArena`).
    ///
    /// The memory is not zeroed: every step (and every float run's operation) writes its output
    /// before a later one reads it, so the pages of a model that has not run yet stay out of
    /// resident memory (tested by running on an arena filled with a pattern).
    init(graph: Graph, elementSizes: [Int], tileRows: Int, floatRunBytes: Int = 0, shared: SharedArena? = nil) throws(ModelError) {
        plan = try MemoryPlan(graph: graph, elementSizes: elementSizes, tailPadding: 64)
        (scratch16Count, scratch32Count) = try Self.scratchCounts(graph, tileRows: tileRows)
        let a = MemoryPlan.alignment
        let scratch16Offset = (max(plan.byteCount, a) + a - 1) / a * a
        let scratch32Offset = (scratch16Offset + scratch16Count * 2 + a - 1) / a * a
        let floatRunOffset = (scratch32Offset + scratch32Count * 4 + a - 1) / a * a
        let bytes = floatRunOffset + floatRunBytes
        self.shared = shared
        base = try shared?.claim(bytes) ?? UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: a)
        scratch16 = (base + scratch16Offset).assumingMemoryBound(to: Int16.self)
        scratch32 = (base + scratch32Offset).assumingMemoryBound(to: Int32.self)
        floatRuns = base + floatRunOffset
        floatRunByteCount = floatRunBytes
    }

    deinit {
        if shared == nil { base.deallocate() }
        for p in floatBuffers.values { p.deallocate() }
    }

    /// Bytes of integer memory: the arena, scratch, float runs' arena and float buffers.
    var byteCount: Int { plan.byteCount + scratch16Count * 2 + scratch32Count * 4 + floatRunByteCount + floatBytes }

    /// Tensor `t`'s slot in the arena, or nil when the plan gave it none (constants, unused tensors).
    func slot<E>(_ t: Int, as _: E.Type) -> UnsafeMutablePointer<E>? {
        guard t >= 0 && t < plan.offsets.count, let offset = plan.offsets[t] else { return nil }
        return (base + offset).assumingMemoryBound(to: E.self)
    }

    /// The float buffer of intermediate tensor `t` (`count` values, zeroed), made on first request.
    func floatBuffer(_ t: Int, count: Int) -> UnsafeMutablePointer<Float> {
        if let p = floatBuffers[t] { return p }
        let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
        p.initialize(repeating: 0, count: count)
        floatBytes += count * 4
        floatBuffers[t] = p
        return p
    }

    /// Scratch elements (int16 rows, int32 rows) for `graph`'s convolutions at `tileRows` pixels
    /// per tile; the transpose convolution also needs a row of its output plus one.
    static func scratchCounts(_ graph: Graph, tileRows: Int) throws(ModelError) -> (Int, Int) {
        var need16 = 1, need32 = 1
        for op in graph.operations {
            switch op.kind {
            case .conv2D, .transposeConvBias:
                guard op.inputs.count > 1 && op.inputs[1] >= 0 else {
                    throw .malformed(op.kind.name + " has no filter tensor")
                }
                let ws = graph.tensors[op.inputs[1]].shape
                guard ws.count == 4 else { throw .malformed(op.kind.name + " filter is not 4-D") }
                let depth = ws[1] * ws[2] * ws[3]
                need16 = max(need16, tileRows * ((depth + 1) / 2 * 2))
                need32 = max(need32, tileRows * ws[0])
                if case .transposeConvBias = op.kind {
                    let os = graph.tensors[op.output].shape4
                    guard os.count == 4 else { throw .unsupported(op.kind.name + " output of rank above 4") }
                    need16 = max(need16, (os[2] + 1) * ((depth + 1) / 2 * 2))
                    need32 = max(need32, (os[2] + 1) * ws[0])
                }
            default: break
            }
        }
        return (need16, need32)
    }
}
