extension RangeRecorder {
    /// Bins of the value histogram `clipped` keeps per tensor.
    static let clipBins = 1024

    /// Each of `ranges` narrowed to the range whose `bits`-bit quantisation has the least mean
    /// squared error over the values the float path writes on the `count` inputs (`fill(index,
    /// input)`, as `record`'s): the values are counted in a histogram over the given range, then
    /// every candidate range (each bound moved inwards in 64 steps of 1/64 of the range, lower and
    /// upper independently) is scored by the rounding error of the values inside (step² / 12 per
    /// value) plus the squared clipping error of those outside; the best one is kept. Ranges of
    /// the graph input and of tensors without storage are left as they are; a range that does not
    /// span zero keeps its bound nearer zero (the integer path makes zero exact anyway).
    static func clipped(graph: Graph, ranges: [(Float, Float)], bits: Int, count: Int,
                        fill: (Int, UnsafeMutableBufferPointer<Float>) -> Void) throws(ModelError) -> [(Float, Float)] {
        guard bits == 8 || bits == 16 else { throw .unsupported("range clipping is for 8- or 16-bit activations") }
        guard graph.inputs.count == 1 else { throw .unsupported("integer calibration needs exactly one model input") }
        guard ranges.count == graph.tensors.count else { throw .unsupported("one range per tensor is needed to clip") }
        let retained = try RetainedFloatRun(graph: graph)
        defer { retained.deallocate() }
        let plan = retained.plan, arena = retained.arena, program = retained.program
        let n = graph.tensors.count
        let input = graph.inputs[0]
        guard let inputOffset = plan.offsets[input] else { throw .unsupported("the model input has no storage") }
        let inputBuffer = UnsafeMutableBufferPointer(start: (arena + inputOffset).assumingMemoryBound(to: Float.self),
                                                     count: graph.tensors[input].elementCount)
        let bins = clipBins
        var histograms: [Int: [Double]] = [:]
        for t in 0..<n where t != input && plan.offsets[t] != nil && ranges[t].0 < ranges[t].1 {
            histograms[t] = [Double](repeating: 0, count: bins)
        }
        for i in 0..<count {
            fill(i, inputBuffer)
            program.run()
            for (t, _) in histograms {
                guard let o = plan.offsets[t] else { continue }
                let p = (arena + o).assumingMemoryBound(to: Float.self)
                let (lo, hi) = ranges[t]
                let scale = Float(bins) / (hi - lo)
                histograms[t]!.withUnsafeMutableBufferPointer { h in
                    for k in 0..<graph.tensors[t].elementCount {
                        let b = Int(((p[k] - lo) * scale).rounded(.down))
                        h[min(bins - 1, max(0, b))] += 1
                    }
                }
            }
        }
        var out = ranges
        let levels = Double((1 << bits) - 1)
        for (t, h) in histograms {
            let (lo, hi) = (Double(ranges[t].0), Double(ranges[t].1))
            let width = (hi - lo) / Double(bins)
            let total = h.reduce(0, +)
            guard total > 0 else { continue }
            let steps = 64
            // A bound at zero (or on zero's side) stays: the candidates move only bounds away from zero.
            let lowerSteps = lo < 0 ? steps - 1 : 0, upperSteps = hi > 0 ? steps - 1 : 0
            var best = (error: Double.infinity, a: lo, b: hi)
            for i in 0...lowerSteps {
                let a = lo < 0 ? lo * Double(steps - i) / Double(steps) : lo
                for j in 0...upperSteps {
                    let b = hi > 0 ? hi * Double(steps - j) / Double(steps) : hi
                    guard b > a else { continue }
                    let step = (b - a) / levels
                    let inside = step * step / 12
                    var e = 0.0
                    for k in 0..<bins where h[k] > 0 {
                        let x = lo + (Double(k) + 0.5) * width
                        if x < a { e += h[k] * (a - x) * (a - x) } else if x > b { e += h[k] * (x - b) * (x - b) } else {
                            e += h[k] * inside
                        }
                    }
                    if e < best.error { best = (e, a, b) }
                }
            }
            out[t] = (Float(best.a), Float(best.b))
        }
        return out
    }
}
