import CNeuralKernels

/// The float reference path: the graph's operations resolved into steps with fixed pointers into
/// the arena and the packed constants, so that `run()` only calls kernels (no allocation, no lookup).
final class FloatProgram {
    /// One kernel call with everything it needs.
    enum Step {
        case conv(FloatConvolution.Dims, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
        case depthwise(FloatConvolution.Dims, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
        case transpose(FloatConvolution.Dims, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
        case binary(FloatKernels.Binary, [Int], [Int], out: [Int], Activation, a: UnsafePointer<Float>, b: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
        case unary(FloatKernels.Unary, count: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
        case pad([Int], out: [Int], before: [Int], input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
        case maxPool([Int], out: [Int], PoolGeometry, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
        case averagePool([Int], out: [Int], PoolGeometry, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
        case mean([Int], reduced: [Bool], input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
        case concatenatePart([Int], axis: Int, outAxisSize: Int, axisOffset: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
        case clamp(Activation, count: Int, UnsafeMutablePointer<Float>)
        case resize([Int], out: [Int], alignCorners: Bool, halfPixelCenters: Bool, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
        case landmarksMatrix(LandmarksTransformParameters, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
        case transformBilinear([Int], out: [Int], input: UnsafePointer<Float>, matrix: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
        case transformLandmarks(count: Int, dimensions: Int, input: UnsafePointer<Float>, matrix: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
    }

    /// Selects the scalar reference kernels instead of the SIMD ones (for tests).
    let scalarOnly: Bool
    /// Fused multiply-adds in the convolutions (the float engine); false: separately rounded,
    /// the arithmetic calibration ranges are recorded with (see `FloatMultiplyAdd`).
    let fused: Bool
    /// The C NEON convolutions (`FloatConvolution.convNEON` …) instead of the Swift SIMD ones:
    /// aarch64, fused arithmetic, not `scalarOnly`. Same bits (see FloatConvolutionNEON.swift).
    let neon: Bool
    /// The steps, in a buffer allocated once at load: iterating it by pointer allocates nothing
    /// even in unoptimised builds (an Array iterator's read coroutine mallocs its frame at -Onone).
    private(set) var steps = UnsafeMutableBufferPointer<Step>(start: nil, count: 0)
    /// For graph operation k, the index one past its last step (a concatenation takes several).
    private(set) var operationEnds = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
    /// Packed weights and biases of the convolutions plus the other constants the operations read
    /// (one allocation; the filters and biases are not copied raw as well).
    let constants: UnsafeMutablePointer<Float>
    let constantCount: Int

    /// Where `pack` put each operation's and constant's values in the one constants block.
    struct Packed {
        var constants: UnsafeMutablePointer<Float>
        var count: Int
        /// Operation index → offsets of its packed weights and bias.
        var packedAt: [Int: (weights: Int, bias: Int)]
        /// Constant tensor → offset from `rawBase` (the constants read as operands).
        var rawAt: [Int: Int]
        var rawBase: Int
    }

    /// The C NEON convolutions run: aarch64, fused arithmetic, not `scalarOnly`.
    static func usesNEON(scalarOnly: Bool, fused: Bool) -> Bool {
        fused && !scalarOnly && booth_neon_available() != 0
    }

    /// `graph`'s constants (kept in the graph) packed for the program.
    convenience init(graph: Graph, plan: MemoryPlan, arena: UnsafeMutableRawPointer, scalarOnly: Bool = false, fused: Bool = false) {
        let neon = Self.usesNEON(scalarOnly: scalarOnly, fused: fused)
        let packed = graph.constants.withUnsafeBufferPointer { Self.pack(graph, values: $0, neon: neon, releasing: false) }
        self.init(graph: graph, packed: packed, plan: plan, arena: arena, scalarOnly: scalarOnly, fused: fused, neon: neon)
    }

    /// As `init(graph:…)`, taking `graph`'s constants (`graph.constants` is left empty): each
    /// filter's and bias's pages are returned to the system as soon as they are packed, so the
    /// graph's float weights and the program's packed copy are not resident together while the
    /// program is built (about 4 MB less at the build of the palm and hand models).
    convenience init(taking graph: inout Graph, plan: MemoryPlan, arena: UnsafeMutableRawPointer, scalarOnly: Bool = false,
                     fused: Bool = false) {
        let neon = Self.usesNEON(scalarOnly: scalarOnly, fused: fused)
        var values = graph.constants
        graph.constants = []
        // A mutable view makes `values` the only reference (copied if the caller still shares
        // it), so the pages given back are nobody else's.
        let packed = values.withUnsafeMutableBufferPointer { Self.pack(graph, values: UnsafeBufferPointer($0), neon: neon, releasing: true) }
        values = []
        self.init(graph: graph, packed: packed, plan: plan, arena: arena, scalarOnly: scalarOnly, fused: fused, neon: neon)
    }

    /// Lays out and fills the constants block: packed convolution weights first, then the raw
    /// graph constants. The weights are packed straight into the one allocation (no whole-graph
    /// packed copy beside the graph's constants while the program is built). With `releasing`
    /// (the caller owns `values` and never reads them again), the raw constants are copied first,
    /// then each page of `values` is given back once every filter and bias on it is packed, and
    /// each operation's part of the block is zeroed only when it is packed: the block's pages
    /// become resident as the source's go.
    static func pack(_ graph: Graph, values: UnsafeBufferPointer<Float>, neon: Bool, releasing: Bool) -> Packed {
        var packedAt = [Int: (weights: Int, bias: Int)]()  // operation index → offsets
        var packedEnd = [Int: Int]()  // operation index → end of its weights and bias
        var packedCount = 0
        for (k, op) in graph.operations.enumerated() {
            let ws: [Int]
            switch op.kind {
            case .conv2D, .transposeConvBias, .depthwiseConv2D: ws = graph.tensors[op.inputs[1]].shape
            default: continue
            }
            let weightCount: Int, ocp: Int
            if case .depthwiseConv2D = op.kind {
                ocp = (ws[3] + 7) & ~7
                weightCount = ws[1] * ws[2] * ocp
            } else if neon, case .transposeConvBias = op.kind {
                // The C kernel's block (weights regrouped per input channel, then its scratch) in
                // place of the packed weights, so that a call neither regroups nor allocates.
                ocp = (ws[0] + 7) & ~7
                weightCount = FloatConvolution.transposePackedCount(inC: ws[3], outC: ws[0], kH: ws[1], kW: ws[2])
            } else {
                ocp = (ws[0] + 7) & ~7
                weightCount = ws[1] * ws[2] * ws[3] * ocp
            }
            packedAt[k] = (packedCount, packedCount + weightCount)
            packedCount += weightCount + ocp
            packedEnd[k] = packedCount
        }
        // Then the raw constants an operation reads as an operand: not the convolutions' filters
        // and biases, which are read packed only (a second copy of every weight).
        var rawAt = [Int: Int]()  // constant tensor → offset from rawBase
        var rawCount = 0
        for op in graph.operations {
            let packedOperands: Bool
            switch op.kind {
            case .conv2D, .depthwiseConv2D, .transposeConvBias: packedOperands = true
            default: packedOperands = false
            }
            for (i, t) in op.inputs.enumerated() where t >= 0 && !(packedOperands && (i == 1 || i == 2)) {
                guard graph.tensors[t].constantOffset != nil, rawAt[t] == nil else { continue }
                rawAt[t] = rawCount
                rawCount += graph.tensors[t].elementCount
            }
        }
        let rawBase = packedCount
        let constantCount = packedCount + rawCount + 8
        let constants = UnsafeMutablePointer<Float>.allocate(capacity: constantCount)
        func source(_ t: Int) -> UnsafeBufferPointer<Float> {
            let start = graph.tensors[t].constantOffset!
            return UnsafeBufferPointer(rebasing: values[start..<(start + graph.tensors[t].elementCount)])
        }
        if releasing {
            (constants + packedCount).initialize(repeating: 0, count: rawCount + 8)
        } else {
            constants.initialize(repeating: 0, count: constantCount)
        }
        for (t, offset) in rawAt {
            (constants + rawBase + offset).update(from: source(t).baseAddress!, count: graph.tensors[t].elementCount)
        }

        // With `releasing`, each page of `values` goes back once every convolution reading it is packed.
        var pages = releasing ? ConstantPages(graph, values: values, operations: packedAt.keys.sorted()) : nil

        for (k, op) in graph.operations.enumerated() {
            guard let at = packedAt[k] else { continue }
            let ws = graph.tensors[op.inputs[1]].shape
            let w = constants + at.weights, b = constants + at.bias
            if releasing { w.initialize(repeating: 0, count: packedEnd[k]! - at.weights) }
            let src = source(op.inputs[1])
            let bias: UnsafeBufferPointer<Float>? = op.inputs[2] >= 0 ? source(op.inputs[2]) : nil
            if case .depthwiseConv2D = op.kind {
                FloatConvolution.packDepthwiseWeights(src, bias: bias, taps: ws[1] * ws[2], outC: ws[3], weightsAt: w, biasAt: b)
            } else if neon, case .transposeConvBias = op.kind {
                let count = ws[1] * ws[2] * ws[3] * ((ws[0] + 7) & ~7)
                let conv = UnsafeMutablePointer<Float>.allocate(capacity: count)
                defer { conv.deallocate() }
                conv.initialize(repeating: 0, count: count)
                FloatConvolution.packConvWeights(ohwi: src, bias: bias, outC: ws[0], kH: ws[1], kW: ws[2], inC: ws[3],
                                                 weightsAt: conv, biasAt: b)
                FloatConvolution.transposePack(inC: ws[3], outC: ws[0], kH: ws[1], kW: ws[2], weights: conv, into: w)
            } else {
                FloatConvolution.packConvWeights(ohwi: src, bias: bias, outC: ws[0], kH: ws[1], kW: ws[2], inC: ws[3],
                                                 weightsAt: w, biasAt: b)
            }
            pages?.finished(k)
        }
        return Packed(constants: constants, count: constantCount, packedAt: packedAt, rawAt: rawAt, rawBase: rawBase)
    }

    private init(graph: Graph, packed: Packed, plan: MemoryPlan, arena: UnsafeMutableRawPointer, scalarOnly: Bool, fused: Bool,
                 neon: Bool) {
        self.scalarOnly = scalarOnly
        self.fused = fused
        self.neon = neon
        self.constantCount = packed.count
        self.constants = packed.constants
        let constants = packed.constants, packedAt = packed.packedAt, rawAt = packed.rawAt, rawBase = packed.rawBase

        func pointer(_ t: Int) -> UnsafeMutablePointer<Float> {
            if graph.tensors[t].constantOffset != nil { return constants + rawBase + rawAt[t]! }
            return (arena + plan.offsets[t]!).assumingMemoryBound(to: Float.self)
        }
        var steps = [Step]()
        var ends = [Int]()
        defer {
            self.steps = .allocate(capacity: steps.count)
            _ = self.steps.initialize(from: steps)
            self.operationEnds = .allocate(capacity: ends.count)
            _ = self.operationEnds.initialize(from: ends)
        }
        for (k, op) in graph.operations.enumerated() {
            defer { ends.append(steps.count) }
            let out = pointer(op.output)
            let os = graph.tensors[op.output].shape4
            let x = op.inputs[0]
            let xs = graph.tensors[x].shape4
            let input = UnsafePointer(pointer(x))
            func dims(_ g: ConvGeometry) -> FloatConvolution.Dims {
                let ws = graph.tensors[op.inputs[1]].shape
                return FloatConvolution.Dims(batch: xs[0], inH: xs[1], inW: xs[2], inC: xs[3], outH: os[1], outW: os[2], outC: os[3],
                                             kH: ws[1], kW: ws[2], g: g)
            }
            switch op.kind {
            case .conv2D(let g), .depthwiseConv2D(let g), .transposeConvBias(let g):
                let at = packedAt[k]!
                let w = UnsafePointer(constants + at.weights), b = UnsafePointer(constants + at.bias)
                switch op.kind {
                case .conv2D: steps.append(.conv(dims(g), input: input, weights: w, bias: b, output: out))
                case .depthwiseConv2D: steps.append(.depthwise(dims(g), input: input, weights: w, bias: b, output: out))
                default: steps.append(.transpose(dims(g), input: input, weights: w, bias: b, output: out))
                }
            case .add(let a), .mul(let a):
                let y = op.inputs[1]
                let kind: FloatKernels.Binary
                if case .add = op.kind { kind = .add } else { kind = .mul }
                steps.append(.binary(kind, xs, graph.tensors[y].shape4, out: os, a, a: input, b: UnsafePointer(pointer(y)), output: out))
            case .prelu:
                let y = op.inputs[1]
                steps.append(.binary(.prelu, xs, graph.tensors[y].shape4, out: os, .none, a: input, b: UnsafePointer(pointer(y)), output: out))
            case .pad(let before, _):
                steps.append(.pad(xs, out: os, before: before, input: input, output: out))
            case .maxPool2D(let g):
                steps.append(.maxPool(xs, out: os, g, input: input, output: out))
            case .averagePool2D(let g):
                steps.append(.averagePool(xs, out: os, g, input: input, output: out))
            case .mean(let reduced):
                steps.append(.mean(xs, reduced: reduced, input: input, output: out))
            case .relu:
                steps.append(.unary(.relu, count: graph.tensors[x].elementCount, input: input, output: out))
            case .hardSwish:
                steps.append(.unary(.hardSwish, count: graph.tensors[x].elementCount, input: input, output: out))
            case .logistic:
                steps.append(.unary(.logistic, count: graph.tensors[x].elementCount, input: input, output: out))
            case .reshape:
                steps.append(.unary(.copy, count: graph.tensors[x].elementCount, input: input, output: out))
            case .concatenation(let axis, let activation):
                var offset = 0
                for t in op.inputs {
                    let s = graph.tensors[t].shape4
                    steps.append(.concatenatePart(s, axis: axis, outAxisSize: os[axis], axisOffset: offset, input: UnsafePointer(pointer(t)), output: out))
                    offset += s[axis]
                }
                if activation != .none { steps.append(.clamp(activation, count: graph.tensors[op.output].elementCount, out)) }
            case .resizeBilinear(let ac, let hp):
                steps.append(.resize(xs, out: os, alignCorners: ac, halfPixelCenters: hp, input: input, output: out))
            case .landmarksToTransformMatrix(let p):
                steps.append(.landmarksMatrix(p, input: input, output: out))
            case .transformTensorBilinear:
                steps.append(.transformBilinear(xs, out: os, input: input, matrix: UnsafePointer(pointer(op.inputs[1])), output: out))
            case .transformLandmarks:
                let s = graph.tensors[x].shape
                steps.append(.transformLandmarks(count: s[1], dimensions: s[2], input: input, matrix: UnsafePointer(pointer(op.inputs[1])), output: out))
            }
        }
    }

    deinit {
        steps.deinitialize()
        steps.deallocate()
        operationEnds.deallocate()
        constants.deallocate()
    }

    func run() {
        for i in 0..<steps.count { runStep(i) }
    }

    /// Runs the graph operation by operation, calling `body` after each with the operation's index
    /// (its values are then in the arena until a later operation reuses the slot).
    func run(inspecting body: (_ operation: Int) -> Void) {
        var i = 0
        for k in 0..<operationEnds.count {
            while i < operationEnds[k] {
                runStep(i)
                i += 1
            }
            body(k)
        }
    }

    /// One convolution step in arithmetic `M`, scalar or SIMD.
    @inline(__always)
    private func conv<M: FloatMultiplyAdd>(_ m: M.Type, _ d: FloatConvolution.Dims, _ i: UnsafePointer<Float>, _ w: UnsafePointer<Float>,
                                           _ b: UnsafePointer<Float>, _ o: UnsafeMutablePointer<Float>) {
        Self.conv(m, d, i, w, b, o, scalarOnly: scalarOnly, neon: neon)
    }

    @inline(__always)
    private func depthwise<M: FloatMultiplyAdd>(_ m: M.Type, _ d: FloatConvolution.Dims, _ i: UnsafePointer<Float>, _ w: UnsafePointer<Float>,
                                                _ b: UnsafePointer<Float>, _ o: UnsafeMutablePointer<Float>) {
        Self.depthwise(m, d, i, w, b, o, scalarOnly: scalarOnly, neon: neon)
    }

    /// The float path's choice of convolution kernel (scalar reference, x86, NEON, portable SIMD),
    /// for a program's steps and for an integer program's island convolution (`FloatIsland`).
    @inline(__always)
    static func conv<M: FloatMultiplyAdd>(_ m: M.Type, _ d: FloatConvolution.Dims, _ i: UnsafePointer<Float>, _ w: UnsafePointer<Float>,
                                          _ b: UnsafePointer<Float>, _ o: UnsafeMutablePointer<Float>, scalarOnly: Bool, neon: Bool) {
        if scalarOnly {
            FloatConvolution.convScalar(m, d, input: i, weights: w, bias: b, output: o)
            return
        }
#if arch(x86_64)
        if M.self == FloatArithmetic.Fused.self && FloatConvolution.convX86(d, input: i, weights: w, bias: b, output: o) { return }
#endif
        if !(neon && FloatConvolution.convNEON(d, input: i, weights: w, bias: b, output: o)) {
            FloatConvolution.conv(m, d, input: i, weights: w, bias: b, output: o)
        }
    }

    /// The float path's choice of depthwise kernel (see `conv`).
    @inline(__always)
    static func depthwise<M: FloatMultiplyAdd>(_ m: M.Type, _ d: FloatConvolution.Dims, _ i: UnsafePointer<Float>, _ w: UnsafePointer<Float>,
                                               _ b: UnsafePointer<Float>, _ o: UnsafeMutablePointer<Float>, scalarOnly: Bool, neon: Bool) {
        if scalarOnly {
            FloatConvolution.depthwiseScalar(m, d, input: i, weights: w, bias: b, output: o)
            return
        }
#if arch(x86_64)
        if M.self == FloatArithmetic.Fused.self && FloatConvolution.depthwiseX86(d, input: i, weights: w, bias: b, output: o) { return }
#endif
        if !(neon && FloatConvolution.depthwiseNEON(d, input: i, weights: w, bias: b, output: o)) {
            FloatConvolution.depthwise(m, d, input: i, weights: w, bias: b, output: o)
        }
    }

    @inline(__always)
    private func transpose<M: FloatMultiplyAdd>(_ m: M.Type, _ d: FloatConvolution.Dims, _ i: UnsafePointer<Float>, _ w: UnsafePointer<Float>,
                                                _ b: UnsafePointer<Float>, _ o: UnsafeMutablePointer<Float>) {
        if scalarOnly {
            FloatConvolution.transposeScalar(m, d, input: i, weights: w, bias: b, output: o)
            return
        }
#if arch(x86_64)
        if M.self == FloatArithmetic.Fused.self && FloatConvolution.transposeX86(d, input: i, weights: w, bias: b, output: o) { return }
#endif
        if neon {
            // `w` is the C kernel's packed block (see init), which it always takes.
            let done = FloatConvolution.transposeNEON(d, input: i, packed: UnsafeMutablePointer(mutating: w), bias: b, output: o)
            precondition(done, "booth_transpose_f32 refused a shape it was packed for")
        } else {
            FloatConvolution.transpose(m, d, input: i, weights: w, bias: b, output: o)
        }
    }

    @inline(__always)
    private func runStep(_ i: Int) {
        guard let base = steps.baseAddress else { return }
        switch base[i] {
        case .conv(let d, let i, let w, let b, let o):
            if fused { conv(FloatArithmetic.Fused.self, d, i, w, b, o) } else { conv(FloatArithmetic.Separate.self, d, i, w, b, o) }
        case .depthwise(let d, let i, let w, let b, let o):
            if fused { depthwise(FloatArithmetic.Fused.self, d, i, w, b, o) } else { depthwise(FloatArithmetic.Separate.self, d, i, w, b, o) }
        case .transpose(let d, let i, let w, let b, let o):
            if fused { transpose(FloatArithmetic.Fused.self, d, i, w, b, o) } else { transpose(FloatArithmetic.Separate.self, d, i, w, b, o) }
        case .binary(let op, let sa, let sb, let so, let act, let a, let b, let o):
            FloatKernels.binary(op, sa, sb, out: so, activation: act, a: a, b: b, output: o)
        case .unary(let op, let count, let i, let o):
            FloatKernels.unary(op, count: count, input: i, output: o)
        case .pad(let s, let so, let before, let i, let o):
            FloatKernels.pad(s, out: so, before: before, input: i, output: o)
        case .maxPool(let s, let so, let g, let i, let o):
            FloatKernels.maxPool(s, out: so, g, input: i, output: o)
        case .averagePool(let s, let so, let g, let i, let o):
            FloatKernels.averagePool(s, out: so, g, input: i, output: o)
        case .mean(let s, let reduced, let i, let o):
            FloatKernels.mean(s, reduced: reduced, input: i, output: o)
        case .concatenatePart(let s, let axis, let size, let offset, let i, let o):
            FloatKernels.concatenatePart(s, axis: axis, outAxisSize: size, axisOffset: offset, input: i, output: o)
        case .clamp(let act, let count, let p):
            FloatKernels.clamp(act, count: count, p)
        case .resize(let s, let so, let ac, let hp, let i, let o):
            FloatKernels.resizeBilinear(s, out: so, alignCorners: ac, halfPixelCenters: hp, input: i, output: o)
        case .landmarksMatrix(let p, let i, let o):
            FloatLandmarkTransforms.matrix(p, landmarks: i, output: o)
        case .transformBilinear(let s, let so, let i, let m, let o):
            FloatLandmarkTransforms.bilinear(s, out: so, input: i, matrix: m, output: o)
        case .transformLandmarks(let count, let dims, let i, let m, let o):
            FloatLandmarkTransforms.landmarks(count: count, dimensions: dims, input: i, matrix: m, output: o)
        }
    }
}

/// The float path on a plan without reuse (`MemoryPlan.withoutReuse`): every tensor keeps its
/// values after `run()`, for the calibration and diagnostics that read them all. The arena starts
/// zeroed; the caller frees it with `deallocate()` (a `defer` beside the `init`).
struct RetainedFloatRun {
    let plan: MemoryPlan
    let arena: UnsafeMutableRawPointer
    let program: FloatProgram

    init(graph: Graph) throws(ModelError) {
        plan = try MemoryPlan.withoutReuse(graph: graph)
        arena = UnsafeMutableRawPointer.allocate(byteCount: plan.byteCount, alignment: MemoryPlan.alignment)
        arena.initializeMemory(as: UInt8.self, repeating: 0, count: plan.byteCount)
        program = FloatProgram(graph: graph, plan: plan, arena: arena)
    }

    func deallocate() { arena.deallocate() }
}
