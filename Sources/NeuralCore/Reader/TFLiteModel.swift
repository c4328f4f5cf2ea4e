/// A .tflite file read into plain values: the first subgraph's tensors and operators, the
/// operator codes and the buffers (as byte ranges into the file, not copies).
///
/// Reading checks every offset, count and index; nothing here trusts the file.
public struct TFLiteModel: Sendable {
    /// Quantisation parameters of a tensor (present on int8 tensors; carried for the integer path).
    public struct Quantization: Sendable, Equatable {
        public var scale: [Float]
        public var zeroPoint: [Int64]
        public var quantizedDimension: Int
    }

    /// A constant stored compressed (the schema's `SparsityParameters`), in the one form the
    /// reader accepts — the form of MediaPipe's sparse models: dimensions in their order, no
    /// blocks, every dimension dense but the last, which is CSR. Row r (of the leading
    /// dimensions' product) holds the values `segments[r]..<segments[r + 1]` of the buffer, at
    /// last-dimension positions `indices[segments[r]..<segments[r + 1]]`; the rest are zero.
    public struct Sparsity: Sendable, Equatable {
        public var segments: [Int]
        public var indices: [Int]
    }

    public struct Tensor: Sendable {
        public var name: String
        public var shape: [Int]
        public var type: TensorType
        /// Index into `buffers`; buffer 0 is the schema's empty sentinel.
        public var buffer: Int
        public var quantization: Quantization?
        /// Set when the buffer holds only the stored values of a sparse constant (see DENSIFY).
        public var sparsity: Sparsity? = nil
    }

    /// An operator code: a builtin code, or CUSTOM with its custom code string.
    public struct OperatorCode: Sendable, Equatable {
        public var builtin: Int32
        public var custom: String?
        public var version: Int32

        /// The name of the operator as the schema or the custom code gives it.
        public var name: String { builtin == BuiltinCode.custom ? (custom ?? "CUSTOM") : BuiltinCode.name(builtin) }
    }

    public struct Operator: Sendable {
        public var code: OperatorCode
        /// Tensor indices; -1 marks an omitted optional input.
        public var inputs: [Int]
        public var outputs: [Int]
        public var options: OperatorOptions
        /// The custom options bytes of a CUSTOM operator.
        public var customOptions: [UInt8]
    }

    /// Byte range of one buffer's data inside the file (empty for buffers without data).
    public struct BufferRange: Sendable, Equatable {
        public var start: Int
        public var count: Int
    }

    /// The file (an array or a read-only mapping; see `ModelBytes`).
    public let bytes: ModelBytes
    public let version: UInt32
    public let description: String
    public let tensors: [Tensor]
    public let operators: [Operator]
    public let inputs: [Int]
    public let outputs: [Int]
    public let buffers: [BufferRange]

    /// Limits that keep a hostile file from asking for absurd work at load time.
    static let maxRank = 8
    static let maxElements = 1 << 28

    public init(bytes: [UInt8]) throws(ModelError) {
        try self.init(bytes: ModelBytes(bytes))
    }

    /// Reads the model in `bytes` (a file mapping reads only the pages of the tables it visits).
    public init(bytes: ModelBytes) throws(ModelError) {
        guard bytes.count >= 8 else { throw .truncated("file is shorter than a FlatBuffers header") }
        let fb = FlatBuffer(bytes: bytes)
        // Bytes 4..<8 hold the file identifier "TFL3".
        guard bytes[4] == 0x54, bytes[5] == 0x46, bytes[6] == 0x4C, bytes[7] == 0x33 else {
            throw .malformed("missing the TFL3 file identifier (not a .tflite file)")
        }
        let model = try fb.root()
        self.bytes = bytes
        version = try model.uint32(Schema.Model.version)
        description = try model.string(Schema.Model.description, "model description") ?? ""

        // Buffers.
        var buffers = [BufferRange]()
        for b in try model.tables(Schema.Model.buffers, "buffer") {
            if let v = try b.vector(Schema.Buffer.data, elementSize: 1, "buffer data") {
                buffers.append(BufferRange(start: v.start, count: v.count))
            } else {
                let offset = try b.uint64(Schema.Buffer.offset)
                let size = try b.uint64(Schema.Buffer.size)
                if offset > 1 {
                    // Data stored after the FlatBuffer, addressed from the start of the file.
                    guard offset < UInt64(bytes.count), size <= UInt64(bytes.count) - offset else {
                        throw .truncated("external buffer data")
                    }
                    buffers.append(BufferRange(start: Int(offset), count: Int(size)))
                } else {
                    buffers.append(BufferRange(start: 0, count: 0))
                }
            }
        }
        self.buffers = buffers

        // Operator codes.
        var codes = [OperatorCode]()
        for c in try model.tables(Schema.Model.operatorCodes, "operator code") {
            let deprecated = Int32(try c.int8(Schema.OperatorCode.deprecatedBuiltinCode))
            let builtin = try c.int32(Schema.OperatorCode.builtinCode)
            codes.append(OperatorCode(
                builtin: max(deprecated, builtin),
                custom: try c.string(Schema.OperatorCode.customCode, "custom code"),
                version: try c.int32(Schema.OperatorCode.version, default: 1)))
        }

        // The first subgraph is the model's main graph.
        let subgraphs = try model.tables(Schema.Model.subgraphs, "subgraph")
        guard let graph = subgraphs.first else { throw .malformed("the model has no subgraph") }

        var tensors = [Tensor]()
        for t in try graph.tables(Schema.SubGraph.tensors, "tensor") {
            tensors.append(try Self.readTensor(t, bufferCount: buffers.count))
        }
        self.tensors = tensors

        func indices(_ raw: [Int32], allowOmitted: Bool, _ what: String) throws(ModelError) -> [Int] {
            var out = [Int]()
            out.reserveCapacity(raw.count)
            for r in raw {
                if r == -1 && allowOmitted { out.append(-1); continue }
                guard r >= 0, Int(r) < tensors.count else {
                    throw .malformed(what + " refers to tensor " + String(r) + " of " + String(tensors.count))
                }
                out.append(Int(r))
            }
            return out
        }
        inputs = try indices(try graph.int32Vector(Schema.SubGraph.inputs, "subgraph inputs"), allowOmitted: false, "a graph input")
        outputs = try indices(try graph.int32Vector(Schema.SubGraph.outputs, "subgraph outputs"), allowOmitted: false, "a graph output")

        var operators = [Operator]()
        for (n, o) in try graph.tables(Schema.SubGraph.operators, "operator").enumerated() {
            let index = Int(try o.uint32(Schema.Operator.opcodeIndex))
            guard index < codes.count else {
                throw .malformed("operator " + String(n) + " uses opcode " + String(index) + " of " + String(codes.count))
            }
            let code = codes[index]
            let opInputs = try indices(try o.int32Vector(Schema.Operator.inputs, "operator inputs"), allowOmitted: true, "operator " + String(n))
            let opOutputs = try indices(try o.int32Vector(Schema.Operator.outputs, "operator outputs"), allowOmitted: false, "operator " + String(n))
            var custom = [UInt8]()
            if code.builtin == BuiltinCode.custom {
                if let v = try o.vector(Schema.Operator.customOptions, elementSize: 1, "custom options") {
                    custom = Array(bytes[v.start..<(v.start + v.count)])
                } else {
                    let offset = try o.uint64(Schema.Operator.largeCustomOptionsOffset)
                    let size = try o.uint64(Schema.Operator.largeCustomOptionsSize)
                    if offset > 0 {
                        guard offset < UInt64(bytes.count), size <= UInt64(bytes.count) - offset else {
                            throw .truncated("large custom options")
                        }
                        custom = Array(bytes[Int(offset)..<Int(offset + size)])
                    }
                }
            }
            let options = try OperatorOptions.read(o, builtin: code.builtin, operatorIndex: n)
            operators.append(Operator(code: code, inputs: opInputs, outputs: opOutputs, options: options, customOptions: custom))
        }
        self.operators = operators
    }

    static func readTensor(_ t: FlatTable, bufferCount: Int) throws(ModelError) -> Tensor {
        let name = try t.string(Schema.Tensor.name, "tensor name") ?? ""
        let rawShape = try t.int32Vector(Schema.Tensor.shape, "tensor shape")
        guard rawShape.count <= maxRank else { throw .unsupported("tensor '" + name + "' has rank " + String(rawShape.count)) }
        var shape = [Int]()
        var elements = 1
        for d in rawShape {
            guard d >= 0 else { throw .malformed("tensor '" + name + "' has a negative dimension") }
            shape.append(Int(d))
            elements = elements &* max(Int(d), 1)
            guard elements <= maxElements else { throw .unsupported("tensor '" + name + "' is too large") }
        }
        let rawType = try t.int8(Schema.Tensor.type)
        guard let type = TensorType(rawValue: rawType) else {
            throw .unsupported("tensor '" + name + "' has element type " + String(rawType))
        }
        let buffer = Int(try t.uint32(Schema.Tensor.buffer))
        guard buffer < max(bufferCount, 1) else {
            throw .malformed("tensor '" + name + "' refers to buffer " + String(buffer) + " of " + String(bufferCount))
        }
        var sparsity: Sparsity? = nil
        if let sp = try t.table(Schema.Tensor.sparsity, "sparsity") {
            sparsity = try readSparsity(sp, shape: shape, name: name)
        }
        var quantization: Quantization? = nil
        if let q = try t.table(Schema.Tensor.quantization, "quantization") {
            let scale = try q.floatVector(Schema.Quantization.scale, "quantization scales")
            let zero = try q.int64Vector(Schema.Quantization.zeroPoint, "quantization zero points")
            let dim = Int(try q.int32(Schema.Quantization.quantizedDimension))
            if !scale.isEmpty || !zero.isEmpty {
                quantization = Quantization(scale: scale, zeroPoint: zero, quantizedDimension: dim)
            }
        }
        return Tensor(name: name, shape: shape, type: type, buffer: buffer, quantization: quantization, sparsity: sparsity)
    }

    /// Reads a tensor's `SparsityParameters`, accepting only the row-CSR form of `Sparsity` and
    /// checking that its segments and indices describe `shape`.
    static func readSparsity(_ sp: FlatTable, shape: [Int], name: String) throws(ModelError) -> Sparsity {
        let unsupported = ModelError.unsupported("tensor '" + name + "' is sparse in a form other than dense rows with a CSR last dimension")
        let order = try sp.int32Vector(Schema.SparsityParameters.traversalOrder, "traversal order")
        guard !shape.isEmpty, order.count == shape.count, try sp.vector(Schema.SparsityParameters.blockMap, elementSize: 4, "block map") == nil else {
            throw unsupported
        }
        for (d, o) in order.enumerated() where Int(o) != d { throw unsupported }
        let dims = try sp.tables(Schema.SparsityParameters.dimMetadata, "dimension metadata")
        guard dims.count == shape.count else { throw unsupported }
        var rows = 1
        for (d, dim) in dims.enumerated() {
            typealias F = Schema.DimensionMetadata
            let format = try dim.int8(F.format)
            if d < dims.count - 1 {
                guard format == Schema.Sparse.dense, Int(try dim.int32(F.denseSize)) == shape[d] else { throw unsupported }
                rows *= shape[d]
            } else {
                guard format == Schema.Sparse.sparseCSR else { throw unsupported }
            }
        }
        let last = dims[dims.count - 1]
        typealias F = Schema.DimensionMetadata
        let segments = try readIndexVector(last, type: F.arraySegmentsType, value: F.arraySegments, name: name)
        let indices = try readIndexVector(last, type: F.arrayIndicesType, value: F.arrayIndices, name: name)
        let malformed = ModelError.malformed("sparse tensor '" + name + "' has inconsistent segments or indices")
        guard segments.count == rows + 1, segments[0] == 0, segments[rows] == indices.count else { throw malformed }
        let width = shape[shape.count - 1]
        for r in 0..<rows {
            guard segments[r] <= segments[r + 1] else { throw malformed }
            var previous = -1
            for k in segments[r]..<segments[r + 1] {
                guard indices[k] > previous, indices[k] < width else { throw malformed }
                previous = indices[k]
            }
        }
        return Sparsity(segments: segments, indices: indices)
    }

    /// One `SparseIndexVector` union field (uint8, uint16 or int32 values) as Ints.
    static func readIndexVector(_ dim: FlatTable, type typeID: Int, value valueID: Int, name: String) throws(ModelError) -> [Int] {
        let type = try dim.uint8(typeID)
        guard let table = try dim.table(valueID, "sparse index vector") else {
            throw .malformed("sparse tensor '" + name + "' misses an index vector")
        }
        let size: Int
        switch type {
        case Schema.Sparse.uint8: size = 1
        case Schema.Sparse.uint16: size = 2
        case Schema.Sparse.int32: size = 4
        default: throw .malformed("sparse tensor '" + name + "' has index vector type " + String(type))
        }
        guard let v = try table.vector(Schema.IndexVector.values, elementSize: size, "sparse index values") else { return [] }
        guard v.count <= maxElements else { throw .unsupported("sparse tensor '" + name + "' is too large") }
        var out = [Int]()
        out.reserveCapacity(v.count)
        let fb = table.buffer
        for k in 0..<v.count {
            switch size {
            case 1: out.append(Int(try fb.u8(v.start + k)))
            case 2: out.append(Int(try fb.u16(v.start + 2 * k)))
            default: out.append(Int(try fb.i32(v.start + 4 * k)))
            }
        }
        return out
    }

    /// Number of elements of a tensor (1 for a scalar).
    public func elementCount(_ tensor: Int) -> Int {
        var n = 1
        for d in tensors[tensor].shape { n *= d }
        return n
    }

    /// The data of a tensor's buffer (empty when the tensor has no constant data).
    func data(of tensor: Int) -> BufferRange {
        let b = tensors[tensor].buffer
        return b < buffers.count ? buffers[b] : BufferRange(start: 0, count: 0)
    }
}
