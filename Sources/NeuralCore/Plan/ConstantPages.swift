/// Gives the pages of a graph's float constants back to the system while a program is built from
/// them, as soon as every operation that reads the constants on a page has been built
/// (`ResidentPages`): the graph's float weights and the program's packed copy are then not
/// resident together (the build's peak was both). For a build that holds the only reference to
/// the constants and never reads a finished operation's constants again; the values on a given
/// page read as zero afterwards.
struct ConstantPages {
    private let start: Int, end: Int, firstPage: Int
    /// Per page of the constants: how many constant tensors on it still have readers to build.
    private var pending: [Int32] = []
    /// Per constant tensor: how many of its reading operations are still to be built.
    private var readersLeft: [Int: Int] = [:]
    /// Per operation: the constant tensors it reads (once each).
    private var reads: [Int: [Int]] = [:]
    private let graph: Graph

    /// `values`: the storage of `graph.constants` (alive and unchanged until the build ends);
    /// `operations`: the operations whose constant operands are to be given back once built
    /// (constants no listed operation reads stay resident).
    init(_ graph: Graph, values: UnsafeBufferPointer<Float>, operations: some Sequence<Int>) {
        self.graph = graph
        start = Int(bitPattern: values.baseAddress)
        end = start + values.count * MemoryLayout<Float>.stride
        let page = ResidentPages.size
        firstPage = start / page
        guard values.count > 0 else { return }
        pending = [Int32](repeating: 0, count: (end - 1) / page - firstPage + 1)
        for k in operations {
            var tensors: [Int] = []
            for t in graph.operations[k].inputs where t >= 0 && graph.tensors[t].constantOffset != nil && !tensors.contains(t) {
                tensors.append(t)
            }
            reads[k] = tensors
            for t in tensors {
                if readersLeft[t] == nil { for p in pages(t) { pending[p] += 1 } }
                readersLeft[t, default: 0] += 1
            }
        }
    }

    /// Page indices (from `firstPage`) that tensor `t`'s values touch.
    private func pages(_ t: Int) -> ClosedRange<Int> {
        let page = ResidentPages.size
        let from = start + graph.tensors[t].constantOffset! * MemoryLayout<Float>.stride
        let bytes = max(graph.tensors[t].elementCount * MemoryLayout<Float>.stride, 1)
        return (from / page - firstPage)...((from + bytes - 1) / page - firstPage)
    }

    /// Operation `k` is built: the pages none of whose constants is still to be read go back.
    mutating func finished(_ k: Int) {
        guard let tensors = reads.removeValue(forKey: k) else { return }
        let page = ResidentPages.size
        for t in tensors {
            guard let left = readersLeft[t] else { continue }
            readersLeft[t] = left - 1
            guard left == 1 else { continue }
            var run: Range<Int>? = nil
            func flush() {
                // Only whole pages inside the constants (the first and last may hold other data).
                if let r = run {
                    let from = max((firstPage + r.lowerBound) * page, start), to = min((firstPage + r.upperBound) * page, end)
                    if to > from, let p = UnsafeMutableRawPointer(bitPattern: from) { ResidentPages.release(p, bytes: to - from) }
                }
                run = nil
            }
            for p in pages(t) {
                pending[p] -= 1
                if pending[p] == 0 { run = run.map { $0.lowerBound..<(p + 1) } ?? p..<(p + 1) } else { flush() }
            }
            flush()
        }
    }
}
