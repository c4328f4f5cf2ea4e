/// The model as a list of operations over tensors, checked at load so that kernels can trust
/// every shape: each operation's output shape is computed from its inputs and parameters and must
/// equal the shape the file declares, constants must have exactly the bytes their shape needs, and
/// operations must come in dependency order. DEQUANTIZE of fp16 constants is folded to float32,
/// DENSIFY of sparse fp16 constants to dense ones, and DEPTH_TO_SPACE is lowered to a transposed
/// convolution (see `lowerDepthToSpace`).
public struct Graph: Sendable {
    public var tensors: [GraphTensor]
    public var operations: [Operation]
    public var inputs: [Int]
    public var outputs: [Int]
    /// Float data of every constant tensor, concatenated.
    public var constants: [Float]

    public init(model: TFLiteModel) throws(ModelError) {
        try self.init(model: model, releasingFileBytes: false)
    }

    /// `releasingFileBytes`: the pages of `model.bytes` go back to the system as the float32
    /// constants on them are copied (`FilePages`), for bytes no one else holds or reads again
    /// (`Interpreter(taking:)`): the file's weights and their float copy are not resident together.
    package init(model: TFLiteModel, releasingFileBytes: Bool) throws(ModelError) {
        var builder = GraphBuilder(model: model)
        if releasingFileBytes { builder.filePages = FilePages(model) }
        try builder.build()
        tensors = builder.tensors
        operations = builder.operations
        inputs = model.inputs
        outputs = model.outputs
        constants = builder.constants
    }

    /// The constant float data of a tensor (precondition: it is constant).
    public func constant(_ tensor: Int) -> ArraySlice<Float> {
        let t = tensors[tensor]
        let start = t.constantOffset!
        return constants[start..<(start + t.elementCount)]
    }
}

/// Builds a `Graph` from a `TFLiteModel`, operator by operator.
struct GraphBuilder {
    let model: TFLiteModel
    var tensors: [GraphTensor] = []
    var operations: [Operation] = []
    var constants: [Float] = []
    /// Tensors whose values exist at this point of the graph (inputs, constants, produced outputs).
    var available: [Bool] = []
    /// fp16 constants made dense by DENSIFY (the bits of every element), by tensor.
    var densified: [Int: [UInt16]] = [:]
    /// When set, the file's pages go back as the float32 constants on them are copied.
    var filePages: FilePages? = nil

    init(model: TFLiteModel) { self.model = model }

    mutating func build() throws(ModelError) {
        tensors.reserveCapacity(model.tensors.count)
        available = [Bool](repeating: false, count: model.tensors.count)
        constants.reserveCapacity(Self.constantCapacity(model))
        for (i, t) in model.tensors.enumerated() {
            var count = 1
            for d in t.shape { count *= d }
            // Rank > 4 is only valid where no kernel sees it (an empty `shape4` marks it).
            var shape4: [Int] = []
            if t.shape.count <= 4 {
                shape4 = [Int](repeating: 1, count: 4 - t.shape.count) + t.shape
            }
            tensors.append(GraphTensor(name: t.name, shape: t.shape, shape4: shape4, elementCount: count,
                                       constantOffset: nil, quantization: t.quantization))
            if model.data(of: i).count > 0 {
                available[i] = true
                if t.sparsity != nil {
                    guard t.type == .float16 else { throw .unsupported("sparse constant '" + t.name + "' is not float16") }
                } else if t.type == .float32 {
                    try storeFloatConstant(i)
                    filePages?.copied(i)
                }
            }
        }
        guard !model.inputs.isEmpty, !model.outputs.isEmpty else { throw .malformed("the graph has no inputs or no outputs") }
        for i in model.inputs {
            try requireFloat(i, "graph input")
            guard !available[i] else { throw .malformed("graph input '" + tensors[i].name + "' is a constant") }
            available[i] = true
        }
        for (n, op) in model.operators.enumerated() {
            try add(op, index: n)
        }
        for o in model.outputs {
            try requireFloat(o, "graph output")
            guard available[o] else { throw .malformed("graph output '" + tensors[o].name + "' is never computed") }
        }
    }

    // MARK: Constants

    /// The float values the file's float32 and fp16 constants fold to, counted only where the
    /// bytes match (checked again when each is stored): reserved at once, so that the constants
    /// array is not regrown (old and new copies alive together, up to twice the capacity kept)
    /// while a model is built. A sparse constant counts its dense size only up to 16 values per
    /// stored byte, so a hostile file cannot make the reservation outgrow its own size by more.
    static func constantCapacity(_ model: TFLiteModel) -> Int {
        var total = 0
        for (i, t) in model.tensors.enumerated() {
            let bytes = model.data(of: i).count
            guard bytes > 0 else { continue }
            let count = model.elementCount(i)
            if t.sparsity != nil {
                if t.type == .float16 && count <= 16 * bytes { total += count }
            } else if (t.type == .float32 && bytes == count * 4) || (t.type == .float16 && bytes == count * 2) {
                total += count
            }
        }
        return total
    }

    func requireFloat(_ t: Int, _ role: String) throws(ModelError) {
        guard model.tensors[t].type == .float32 else {
            throw .unsupported(role + " '" + tensors[t].name + "' is not float32")
        }
    }

    mutating func storeFloatConstant(_ t: Int) throws(ModelError) {
        let range = model.data(of: t)
        guard range.count == tensors[t].elementCount * 4 else {
            throw .malformed("constant '" + tensors[t].name + "' has " + String(range.count) + " bytes for "
                + String(tensors[t].elementCount) + " float32 values")
        }
        tensors[t].constantOffset = constants.count
        let b = model.bytes
        var p = range.start
        for _ in 0..<tensors[t].elementCount {
            let bits = UInt32(b[p]) | UInt32(b[p + 1]) << 8 | UInt32(b[p + 2]) << 16 | UInt32(b[p + 3]) << 24
            constants.append(Float(bitPattern: bits))
            p += 4
        }
    }

    mutating func foldDequantize(input: Int, output: Int) throws(ModelError) {
        let src = model.tensors[input]
        if let dense = densified[input] {
            try requireFloat(output, "DEQUANTIZE output")
            guard dense.count == tensors[output].elementCount else {
                throw .malformed("DEQUANTIZE changes the element count of '" + src.name + "'")
            }
            tensors[output].constantOffset = constants.count
            for h in dense { constants.append(floatFromHalf(h)) }
            available[output] = true
            return
        }
        guard src.sparsity == nil else {
            throw .unsupportedOperator("DEQUANTIZE of the sparse tensor '" + src.name + "' (DENSIFY it first)")
        }
        guard model.data(of: input).count > 0 else {
            throw .unsupportedOperator("DEQUANTIZE of a non-constant tensor ('" + src.name + "')")
        }
        guard src.type == .float16 else {
            throw .unsupportedOperator("DEQUANTIZE of a " + (src.type == .int8 ? "int8" : "non-fp16") + " tensor ('" + src.name + "')")
        }
        try requireFloat(output, "DEQUANTIZE output")
        guard tensors[input].elementCount == tensors[output].elementCount else {
            throw .malformed("DEQUANTIZE changes the element count of '" + src.name + "'")
        }
        let range = model.data(of: input)
        guard range.count == tensors[input].elementCount * 2 else {
            throw .malformed("constant '" + src.name + "' has " + String(range.count) + " bytes for "
                + String(tensors[input].elementCount) + " float16 values")
        }
        tensors[output].constantOffset = constants.count
        let b = model.bytes
        for k in 0..<tensors[input].elementCount {
            let p = range.start + 2 * k
            constants.append(floatFromHalf(UInt16(b[p]) | UInt16(b[p + 1]) << 8))
        }
        available[output] = true
    }

    /// Expands a sparse fp16 constant (`TFLiteModel.Sparsity`) into `densified[output]`.
    mutating func foldDensify(input: Int, output: Int, _ label: String) throws(ModelError) {
        let src = model.tensors[input]
        guard let sparsity = src.sparsity else { throw .unsupportedOperator(label + " of a dense tensor ('" + src.name + "')") }
        guard src.type == .float16, model.tensors[output].type == .float16, model.tensors[output].sparsity == nil else {
            throw .unsupportedOperator(label + " of a non-fp16 tensor ('" + src.name + "')")
        }
        guard tensors[output].shape == tensors[input].shape else { throw .malformed(label + " changes the shape of '" + src.name + "'") }
        let range = model.data(of: input)
        guard range.count == sparsity.indices.count * 2 else {
            throw .malformed("sparse constant '" + src.name + "' has " + String(range.count) + " bytes for "
                + String(sparsity.indices.count) + " float16 values")
        }
        let width = tensors[input].shape[tensors[input].shape.count - 1]
        var dense = [UInt16](repeating: 0, count: tensors[input].elementCount)
        let b = model.bytes
        for r in 0..<(sparsity.segments.count - 1) {
            for k in sparsity.segments[r]..<sparsity.segments[r + 1] {
                let p = range.start + 2 * k
                dense[r * width + sparsity.indices[k]] = UInt16(b[p]) | UInt16(b[p + 1]) << 8
            }
        }
        densified[output] = dense
        available[output] = true
    }

    /// Appends a float constant tensor that no file tensor holds (weights of a lowered operator);
    /// returns its index.
    mutating func appendConstant(name: String, shape: [Int], values: [Float]) -> Int {
        let t = tensors.count
        tensors.append(GraphTensor(name: name, shape: shape, shape4: [Int](repeating: 1, count: 4 - shape.count) + shape,
                                   elementCount: values.count, constantOffset: constants.count, quantization: nil))
        constants.append(contentsOf: values)
        available.append(true)
        return t
    }

    /// DEPTH_TO_SPACE with block b on [N, H, W, b·b·C] as the transposed convolution it is: stride
    /// b, a b×b kernel, VALID, weights w[c, dy, dx, (dy·b + dx)·C + c] = 1 and 0 elsewhere, no
    /// bias. Every output is one input times 1 plus zeros, so the float path reproduces the
    /// permutation exactly and the integer path requantises it like any convolution output
    /// (weights 1 quantise exactly). Returns the operation's inputs and output shape.
    mutating func lowerDepthToSpace(x: Int, block: Int, _ label: String) throws(ModelError) -> (inputs: [Int], shape: [Int]) {
        guard tensors[x].shape.count == 4 else { throw .unsupported(label + " needs 4-D tensors") }
        let xs = tensors[x].shape
        guard block >= 2, block <= 16, xs[3] % (block * block) == 0 else { throw .malformed(label + " has a bad block size") }
        let c = xs[3] / (block * block)
        var weights = [Float](repeating: 0, count: c * block * block * xs[3])
        for o in 0..<c {
            for dy in 0..<block {
                for dx in 0..<block {
                    weights[((o * block + dy) * block + dx) * xs[3] + (dy * block + dx) * c + o] = 1
                }
            }
        }
        let name = tensors[x].name
        let w = appendConstant(name: name + "/depth_to_space_weights", shape: [c, block, block, xs[3]], values: weights)
        let bias = appendConstant(name: name + "/depth_to_space_bias", shape: [c], values: [Float](repeating: 0, count: c))
        return ([x, w, bias], [xs[0], xs[1] * block, xs[2] * block, c])
    }

    /// Reads an int32 constant tensor (PAD paddings, MEAN axes, RESIZE size).
    func int32Constant(_ t: Int, _ role: String) throws(ModelError) -> [Int] {
        let range = model.data(of: t)
        guard model.tensors[t].type == .int32, range.count == tensors[t].elementCount * 4 else {
            throw .unsupported(role + " must be a constant int32 tensor")
        }
        var out = [Int]()
        let b = model.bytes
        for k in 0..<tensors[t].elementCount {
            let p = range.start + 4 * k
            out.append(Int(Int32(bitPattern: UInt32(b[p]) | UInt32(b[p + 1]) << 8 | UInt32(b[p + 2]) << 16 | UInt32(b[p + 3]) << 24)))
        }
        return out
    }

    // MARK: Operators

    mutating func add(_ op: TFLiteModel.Operator, index n: Int) throws(ModelError) {
        let name = op.code.name
        let label = "operator " + String(n) + " (" + name + ")"
        if op.code.builtin == BuiltinCode.dequantize {
            guard op.inputs.count == 1, op.outputs.count == 1, op.inputs[0] >= 0 else { throw .malformed(label + " needs 1 input and 1 output") }
            guard !available[op.outputs[0]] else { throw .malformed(label + " writes a tensor that already has a value") }
            try foldDequantize(input: op.inputs[0], output: op.outputs[0])
            filePages?.read(op.inputs[0])
            return
        }
        if op.code.builtin == BuiltinCode.densify {
            guard op.inputs.count == 1, op.outputs.count == 1, op.inputs[0] >= 0 else { throw .malformed(label + " needs 1 input and 1 output") }
            guard !available[op.outputs[0]] else { throw .malformed(label + " writes a tensor that already has a value") }
            try foldDensify(input: op.inputs[0], output: op.outputs[0], label)
            return
        }
        guard op.outputs.count == 1 else { throw .malformed(label + " has " + String(op.outputs.count) + " outputs") }
        let out = op.outputs[0]
        guard !available[out] else { throw .malformed(label + " writes a tensor that already has a value") }
        try requireFloat(out, label + " output")
        guard !tensors[out].shape4.isEmpty else { throw .unsupported(label + " output has rank above 4") }

        func input(_ k: Int, optional: Bool = false) throws(ModelError) -> Int {
            guard k < op.inputs.count, op.inputs[k] >= 0 else {
                if optional { return -1 }
                throw .malformed(label + " misses input " + String(k))
            }
            let t = op.inputs[k]
            guard available[t] else { throw .malformed(label + " reads tensor '" + tensors[t].name + "' before it is computed") }
            return t
        }
        func floatInput(_ k: Int, optional: Bool = false, constant: Bool = false) throws(ModelError) -> Int {
            let t = try input(k, optional: optional)
            if t < 0 { return t }
            try requireFloat(t, label + " input")
            guard !tensors[t].shape4.isEmpty else { throw .unsupported(label + " input has rank above 4") }
            if constant && tensors[t].constantOffset == nil {
                throw .unsupported(label + " needs constant weights")
            }
            return t
        }
        func expectCount(_ c: Int) throws(ModelError) {
            guard op.inputs.count == c else { throw .malformed(label + " has " + String(op.inputs.count) + " inputs, expected " + String(c)) }
        }
        func rank4(_ t: Int) throws(ModelError) -> [Int] {
            guard tensors[t].shape.count == 4 else { throw .unsupported(label + " needs 4-D tensors") }
            return tensors[t].shape
        }

        var kind: OperationKind
        var inputs: [Int]
        var shape: [Int]  // the computed output shape (compared with the declared one)

        switch op.code.builtin {
        case BuiltinCode.conv2D, BuiltinCode.depthwiseConv2D:
            guard op.inputs.count == 2 || op.inputs.count == 3 else { throw .malformed(label + " needs 2 or 3 inputs") }
            let x = try floatInput(0), w = try floatInput(1, constant: true), b = try floatInput(2, optional: true, constant: true)
            let xs = try rank4(x), ws = try rank4(w)
            let depthwise = op.code.builtin == BuiltinCode.depthwiseConv2D
            var g: ConvGeometry
            var padding: Padding
            switch op.options {
            case .conv2D(let p, let sw, let sh, let dw, let dh, let a):
                padding = p
                g = ConvGeometry(strideH: sh, strideW: sw, dilationH: dh, dilationW: dw, padTop: 0, padLeft: 0, activation: a, depthMultiplier: 1)
            case .depthwiseConv2D(let p, let sw, let sh, let m, let dw, let dh, let a):
                padding = p
                g = ConvGeometry(strideH: sh, strideW: sw, dilationH: dh, dilationW: dw, padTop: 0, padLeft: 0, activation: a, depthMultiplier: m)
            default: throw .malformed(label + " has no convolution options")
            }
            let outChannels: Int
            if depthwise {
                guard ws[0] == 1, ws[3] > 0, xs[3] > 0, ws[3] % xs[3] == 0 else { throw .malformed(label + " weights do not fit the input channels") }
                g.depthMultiplier = ws[3] / xs[3]
                outChannels = ws[3]
            } else {
                guard ws[3] == xs[3] else { throw .malformed(label + " weights do not fit the input channels") }
                outChannels = ws[0]
            }
            if b >= 0 { guard tensors[b].elementCount == outChannels else { throw .malformed(label + " bias does not fit the output channels") } }
            let (oh, top) = try Self.convOutput(xs[1], ws[1], g.strideH, g.dilationH, padding, label)
            let (ow, left) = try Self.convOutput(xs[2], ws[2], g.strideW, g.dilationW, padding, label)
            g.padTop = top
            g.padLeft = left
            kind = depthwise ? .depthwiseConv2D(g) : .conv2D(g)
            inputs = [x, w, b]
            shape = [xs[0], oh, ow, outChannels]

        case BuiltinCode.custom where op.code.custom == "Convolution2DTransposeBias":
            try expectCount(3)
            let x = try floatInput(0), w = try floatInput(1, constant: true), b = try floatInput(2, constant: true)
            let xs = try rank4(x), ws = try rank4(w)
            let o = op.customOptions
            guard o.count >= 12 else { throw .malformed(label + " custom options are shorter than 12 bytes") }
            func le32(_ p: Int) -> Int { Int(Int32(bitPattern: UInt32(o[p]) | UInt32(o[p + 1]) << 8 | UInt32(o[p + 2]) << 16 | UInt32(o[p + 3]) << 24)) }
            // TfLiteTransposeConvParams: padding (1 = SAME, 2 = VALID), stride_width, stride_height.
            let padding = le32(0), sw = le32(4), sh = le32(8)
            guard padding == 1 || padding == 2, sw >= 1, sh >= 1, sw <= 64, sh <= 64 else { throw .malformed(label + " has bad custom options") }
            guard ws[3] == xs[3], ws[1] >= 1, ws[2] >= 1, tensors[b].elementCount == ws[0] else { throw .malformed(label + " weights do not fit") }
            var padH = 0, padW = 0
            if padding == 1 {
                padH = max(0, ws[1] - (xs[1] - 1) % sh - 1)
                padW = max(0, ws[2] - (xs[2] - 1) % sw - 1)
            }
            guard xs[1] >= 1, xs[2] >= 1 else { throw .malformed(label + " has an empty input") }
            let oh = sh * (xs[1] - 1) + ws[1] - padH
            let ow = sw * (xs[2] - 1) + ws[2] - padW
            kind = .transposeConvBias(ConvGeometry(strideH: sh, strideW: sw, dilationH: 1, dilationW: 1,
                                                   padTop: padH / 2, padLeft: padW / 2, activation: .none, depthMultiplier: 1))
            inputs = [x, w, b]
            shape = [xs[0], oh, ow, ws[0]]

        case BuiltinCode.add, BuiltinCode.mul:
            try expectCount(2)
            let a = try floatInput(0), b = try floatInput(1)
            guard case .activation(let act) = op.options else { throw .malformed(label + " has no options") }
            shape = try Self.broadcast(tensors[a].shape, tensors[b].shape, label)
            kind = op.code.builtin == BuiltinCode.add ? .add(act) : .mul(act)
            inputs = [a, b]

        case BuiltinCode.prelu:
            try expectCount(2)
            let x = try floatInput(0), alpha = try floatInput(1)
            shape = try Self.broadcast(tensors[x].shape, tensors[alpha].shape, label)
            guard shape == tensors[x].shape else { throw .malformed(label + " alpha does not broadcast to the input") }
            kind = .prelu
            inputs = [x, alpha]

        case BuiltinCode.pad:
            try expectCount(2)
            let x = try floatInput(0)
            let p = try int32Constant(try input(1), label + " paddings")
            let rank = tensors[x].shape.count
            guard rank <= 4, p.count == 2 * rank else { throw .malformed(label + " paddings do not fit the input rank") }
            var before = [0, 0, 0, 0], after = [0, 0, 0, 0]
            shape = tensors[x].shape
            for d in 0..<rank {
                guard p[2 * d] >= 0, p[2 * d + 1] >= 0, p[2 * d] <= 1 << 16, p[2 * d + 1] <= 1 << 16 else { throw .malformed(label + " has a negative or huge padding") }
                before[4 - rank + d] = p[2 * d]
                after[4 - rank + d] = p[2 * d + 1]
                shape[d] += p[2 * d] + p[2 * d + 1]
            }
            kind = .pad(before: before, after: after)
            inputs = [x]

        case BuiltinCode.maxPool2D, BuiltinCode.averagePool2D:
            try expectCount(1)
            let x = try floatInput(0)
            let xs = try rank4(x)
            guard case .pool2D(let padding, let sw, let sh, let fw, let fh, let act) = op.options else { throw .malformed(label + " has no pool options") }
            let (oh, top) = try Self.convOutput(xs[1], fh, sh, 1, padding, label)
            let (ow, left) = try Self.convOutput(xs[2], fw, sw, 1, padding, label)
            let g = PoolGeometry(filterH: fh, filterW: fw, strideH: sh, strideW: sw, padTop: top, padLeft: left, activation: act)
            kind = op.code.builtin == BuiltinCode.maxPool2D ? .maxPool2D(g) : .averagePool2D(g)
            inputs = [x]
            shape = [xs[0], oh, ow, xs[3]]

        case BuiltinCode.mean:
            try expectCount(2)
            let x = try floatInput(0)
            let axes = try int32Constant(try input(1), label + " axes")
            guard case .reducer(let keepDims) = op.options else { throw .malformed(label + " has no options") }
            let rank = tensors[x].shape.count
            guard rank <= 4 else { throw .unsupported(label + " input rank above 4") }
            var reduced = [false, false, false, false]
            for a in axes {
                let axis = a < 0 ? a + rank : a
                guard axis >= 0, axis < rank else { throw .malformed(label + " axis out of range") }
                reduced[4 - rank + axis] = true
            }
            shape = []
            for d in 0..<rank {
                if !reduced[4 - rank + d] { shape.append(tensors[x].shape[d]) } else if keepDims { shape.append(1) }
            }
            kind = .mean(reduced: reduced)
            inputs = [x]

        case BuiltinCode.relu, BuiltinCode.hardSwish, BuiltinCode.logistic:
            try expectCount(1)
            let x = try floatInput(0)
            shape = tensors[x].shape
            kind = op.code.builtin == BuiltinCode.relu ? .relu : op.code.builtin == BuiltinCode.logistic ? .logistic : .hardSwish
            inputs = [x]

        case BuiltinCode.reshape:
            guard op.inputs.count == 1 || op.inputs.count == 2 else { throw .malformed(label + " needs 1 or 2 inputs") }
            let x = try floatInput(0)
            guard tensors[x].elementCount == tensors[out].elementCount else { throw .malformed(label + " changes the element count") }
            shape = tensors[out].shape
            kind = .reshape
            inputs = [x]

        case BuiltinCode.concatenation:
            guard !op.inputs.isEmpty else { throw .malformed(label + " has no inputs") }
            guard case .concatenation(let axis0, let act) = op.options else { throw .malformed(label + " has no options") }
            inputs = []
            for k in 0..<op.inputs.count { inputs.append(try floatInput(k)) }
            let rank = tensors[inputs[0]].shape.count
            let axis = axis0 < 0 ? axis0 + rank : axis0
            guard rank >= 1, rank <= 4, axis >= 0, axis < rank else { throw .malformed(label + " axis out of range") }
            shape = tensors[inputs[0]].shape
            shape[axis] = 0
            for t in inputs {
                let s = tensors[t].shape
                guard s.count == rank else { throw .malformed(label + " joins tensors of different ranks") }
                for d in 0..<rank where d != axis { guard s[d] == shape[d] else { throw .malformed(label + " joins tensors of different shapes") } }
                shape[axis] += s[axis]
            }
            kind = .concatenation(axis: axis + 4 - rank, activation: act)

        case BuiltinCode.resizeBilinear:
            try expectCount(2)
            let x = try floatInput(0)
            let xs = try rank4(x)
            let size = try int32Constant(try input(1), label + " size")
            guard size.count == 2, size[0] >= 1, size[1] >= 1, size[0] <= 1 << 14, size[1] <= 1 << 14 else { throw .malformed(label + " has a bad size") }
            guard case .resizeBilinear(let ac, let hp) = op.options else { throw .malformed(label + " has no options") }
            guard !(ac && hp) else { throw .malformed(label + " sets both align_corners and half_pixel_centers") }
            shape = [xs[0], size[0], size[1], xs[3]]
            kind = .resizeBilinear(alignCorners: ac, halfPixelCenters: hp)
            inputs = [x]

        case BuiltinCode.depthToSpace:
            try expectCount(1)
            let x = try floatInput(0)
            guard case .depthToSpace(let block) = op.options else { throw .malformed(label + " has no options") }
            (inputs, shape) = try lowerDepthToSpace(x: x, block: block, label)
            kind = .transposeConvBias(ConvGeometry(strideH: block, strideW: block, dilationH: 1, dilationW: 1,
                                                   padTop: 0, padLeft: 0, activation: .none, depthMultiplier: 1))

        case BuiltinCode.fullyConnected:
            // Lowered to a 1×1 convolution of a 1×1 image: the input [1, K] (batch 1) is the
            // pixel's K channels, the weights [N, K] are read as [N, 1, 1, K] (the same memory).
            guard op.inputs.count == 2 || op.inputs.count == 3 else { throw .malformed(label + " needs 2 or 3 inputs") }
            let x = try floatInput(0), w = try floatInput(1, constant: true), b = try floatInput(2, optional: true, constant: true)
            guard case .fullyConnected(let act, let keepNumDims) = op.options else { throw .malformed(label + " has no options") }
            let ws = tensors[w].shape
            guard ws.count == 2 || (ws.count == 4 && ws[1] == 1 && ws[2] == 1) else { throw .unsupported(label + " needs 2-D weights") }
            let outC = ws[0], inC = ws[ws.count - 1]
            guard outC > 0, inC > 0, tensors[x].elementCount == inC else {
                throw .unsupported(label + " input of " + String(tensors[x].elementCount) + " values for " + String(inC)
                    + " weights per output (batch 1 only)")
            }
            if b >= 0 { guard tensors[b].elementCount == outC else { throw .malformed(label + " bias does not fit the output") } }
            tensors[w].shape = [outC, 1, 1, inC]
            tensors[w].shape4 = [outC, 1, 1, inC]
            kind = .conv2D(ConvGeometry(strideH: 1, strideW: 1, dilationH: 1, dilationW: 1, padTop: 0, padLeft: 0, activation: act,
                                        depthMultiplier: 1))
            inputs = [x, w, b]
            shape = keepNumDims ? Array(tensors[x].shape.dropLast()) + [outC] : [1, outC]

        case BuiltinCode.custom, BuiltinCode.stridedSlice:
            guard let t = try landmarkTransform(op, out: out, label: label) else { throw .unsupportedOperator(name + " (operator " + String(n) + ")") }
            (kind, inputs, shape) = t

        default:
            throw .unsupportedOperator(name + " (operator " + String(n) + ")")
        }

        guard shape == tensors[out].shape else {
            throw .malformed(label + " output '" + tensors[out].name + "' is declared " + Self.shapeText(tensors[out].shape)
                + " but computes to " + Self.shapeText(shape))
        }
        var elements = 1
        for d in shape { elements *= d }
        guard elements > 0 else { throw .malformed(label + " has an empty output") }
        available[out] = true
        operations.append(Operation(kind: kind, inputs: inputs, output: out))
    }

    /// Output size and leading padding of a window of `k` taps (dilation `d`) at `stride`.
    static func convOutput(_ size: Int, _ k: Int, _ stride: Int, _ d: Int, _ padding: Padding, _ label: String) throws(ModelError) -> (Int, Int) {
        guard stride >= 1, stride <= 1 << 10, d >= 1, d <= 1 << 10, k >= 1, k <= 1 << 10, size >= 1 else {
            throw .malformed(label + " has a bad stride, dilation, window or input size")
        }
        let span = (k - 1) * d + 1
        switch padding {
        case .same:
            let out = (size + stride - 1) / stride
            let total = max(0, (out - 1) * stride + span - size)
            return (out, total / 2)
        case .valid:
            guard size >= span else { throw .malformed(label + " window is larger than its input") }
            return ((size - span) / stride + 1, 0)
        }
    }

    /// NumPy broadcast of two shapes of rank ≤ 4.
    static func broadcast(_ a: [Int], _ b: [Int], _ label: String) throws(ModelError) -> [Int] {
        let rank = max(a.count, b.count)
        guard rank <= 4 else { throw .unsupported(label + " broadcasts tensors above rank 4") }
        var out = [Int]()
        for d in 0..<rank {
            let x = d - (rank - a.count) >= 0 ? a[d - (rank - a.count)] : 1
            let y = d - (rank - b.count) >= 0 ? b[d - (rank - b.count)] : 1
            guard x == y || x == 1 || y == 1 else { throw .malformed(label + " inputs do not broadcast") }
            out.append(x == 1 ? y : x)
        }
        return out
    }

    static func shapeText(_ s: [Int]) -> String {
        var t = "["
        for (i, d) in s.enumerated() { t += (i > 0 ? "x" : "") + String(d) }
        return t + "]"
    }
}

/// IEEE 754 binary16 → binary32 (exact; subnormals, infinities and NaN included).
@inline(__always)
func floatFromHalf(_ h: UInt16) -> Float {
    let sign = UInt32(h & 0x8000) << 16
    let exponent = UInt32(h >> 10) & 0x1F
    var mantissa = UInt32(h & 0x3FF)
    if exponent == 0 {
        if mantissa == 0 { return Float(bitPattern: sign) }
        // Subnormal: value = mantissa · 2^-24.
        var e: UInt32 = 127 - 15 + 1
        while mantissa & 0x400 == 0 { mantissa <<= 1; e -= 1 }
        return Float(bitPattern: sign | e << 23 | (mantissa & 0x3FF) << 13)
    }
    if exponent == 0x1F { return Float(bitPattern: sign | 0x7F80_0000 | mantissa << 13) }
    return Float(bitPattern: sign | (exponent + 127 - 15) << 23 | mantissa << 13)
}
