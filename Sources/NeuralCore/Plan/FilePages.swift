/// Gives the pages of a model file's bytes back to the system while the graph is parsed from them,
/// as soon as the float32 constants on a page have been copied into the graph (`ResidentPages`):
/// the file's weights and the graph's float copy are then not resident together (the parse's
/// peak was both: 5.3 MB for the iris model, whose file is 2.6 MB of float32 weights).
///
/// Only pages wholly inside a tensor's data are given back, and only once every tensor whose data
/// touches the page has been copied (tensors may share a buffer): the FlatBuffer's tables, and the
/// data read later (int32 constants, sparse fp16 ones), stay. An fp16 constant (the palm and hand
/// models' weights) goes once its DEQUANTIZE is folded, when no other operation reads it. For bytes that
/// only the parse reads (`Interpreter(taking:)`, whose storage is unique); those pages read as
/// zero afterwards.
struct FilePages {
    private let start: Int, end: Int, firstPage: Int
    /// Per page of the bytes: how many tensors' data on it are still to be copied.
    private var pending: [Int32] = []
    private let model: TFLiteModel
    /// Per tensor: how many operations read it (an fp16 constant's pages wait for all of them).
    private var readers: [Int: Int] = [:]

    init(_ model: TFLiteModel) {
        self.model = model
        (start, end) = model.bytes.withUnsafeBufferPointer { b in
            (Int(bitPattern: b.baseAddress), Int(bitPattern: b.baseAddress) + b.count)
        }
        let page = ResidentPages.size
        firstPage = start / page
        guard end > start else { return }
        pending = [Int32](repeating: 0, count: (end - 1) / page - firstPage + 1)
        for t in model.tensors.indices {
            guard let pages = pages(t) else { continue }
            for p in pages { pending[p] += 1 }
        }
        for op in model.operators {
            for t in op.inputs where t >= 0 { readers[t, default: 0] += 1 }
        }
    }

    /// One operation that reads constant `t` (an fp16 DEQUANTIZE) has been built from it: once
    /// every reader has, its pages go as `copied`'s do.
    mutating func read(_ t: Int) {
        let left = (readers[t] ?? 1) - 1
        readers[t] = left
        if left <= 0 { copied(t) }
    }

    /// Page indices (from `firstPage`) that tensor `t`'s data touches; nil when it has none.
    private func pages(_ t: Int) -> ClosedRange<Int>? {
        let range = model.data(of: t)
        guard range.count > 0 else { return nil }
        let page = ResidentPages.size
        let from = start + range.start
        return (from / page - firstPage)...((from + range.count - 1) / page - firstPage)
    }

    /// Tensor `t`'s data has been copied and is never read again: the pages wholly inside it that
    /// no other tensor's data still to be copied touches go back.
    mutating func copied(_ t: Int) {
        guard let pages = pages(t) else { return }
        let page = ResidentPages.size
        let range = model.data(of: t)
        // Whole pages inside this tensor's data only (its first and last may hold other bytes).
        let inside = ((start + range.start + page - 1) / page - firstPage)..<((start + range.start + range.count) / page - firstPage)
        var run: Range<Int>? = nil
        func flush() {
            if let r = run, let p = UnsafeMutableRawPointer(bitPattern: (firstPage + r.lowerBound) * page) {
                ResidentPages.release(p, bytes: r.count * page)
            }
            run = nil
        }
        for p in pages {
            pending[p] -= 1
            if pending[p] == 0 && inside.contains(p) { run = run.map { $0.lowerBound..<(p + 1) } ?? p..<(p + 1) } else { flush() }
        }
        flush()
    }
}
