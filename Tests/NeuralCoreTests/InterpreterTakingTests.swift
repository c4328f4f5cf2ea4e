import NeuralCore
import TestSupport
import Testing

/// `Interpreter(taking:)`: the file's bytes are released once parsed (the model builds' peak
/// without them) and the interpreter is the one `init(model:)` builds, output for output (on the
/// integer path it also gives the float weights' pages back as it lowers them, which
/// `init(model:)` does not: `ConstantPages`).
struct InterpreterTakingTests {
    static func outputs(_ interpreter: Interpreter) -> [[Float]] {
        InterpreterTests.fillNoise(interpreter, seed: 7)
        interpreter.run()
        return (0..<interpreter.outputCount).map { i in interpreter.withOutput(i) { Array($0) } }
    }

    @Test("taking the bytes empties them and builds the same interpreter, bit for bit",
          arguments: [("face_detection_short_range", ExecutionPath.integer), ("iris_landmark", .integer),
                      ("face_landmark", .float), ("hand_landmark_lite", .float)])
    func takingMatchesCopying(model: String, path: ExecutionPath) throws {
        let bytes = try InterpreterTests.bytes(model)
        var taken = bytes
        let held = try Interpreter(model: bytes, path: path)
        let built = try Interpreter(taking: &taken, path: path)
        #expect(taken.isEmpty, "the bytes are released once parsed")
        #expect(built.graph.constants.isEmpty == (path == .integer))
        let a = Self.outputs(held), b = Self.outputs(built)
        #expect(a.count == b.count)
        for (x, y) in zip(a, b) { #expect(x.map(\.bitPattern) == y.map(\.bitPattern)) }
        // `taken` shared its storage with `bytes`: the pages the parse gave back were a copy's.
        #expect(bytes == (try InterpreterTests.bytes(model)), "a caller's other array keeps the file's bytes")
    }

    @Test("the parse gives the file's pages back as it copies the weights out of them (float32; fp16 once DEQUANTIZE is folded)",
          arguments: ["iris_landmark", "face_landmark", "hand_landmark_lite", "palm_detection_lite"])
    func fileBytesReleasedWhileParsed(name: String) throws {
        let bytes = try InterpreterTests.bytes(name)
        let parsed = try TFLiteModel(bytes: bytes)
        var taken = bytes
        taken.withUnsafeMutableBufferPointer { _ in }   // storage of its own, as Interpreter(taking:) makes it
        let model = try TFLiteModel(bytes: taken)
        taken = []
        let graph = try Graph(model: model, releasingFileBytes: true)
        #expect(graph.constants.map(\.bitPattern) == (try Graph(model: parsed)).constants.map(\.bitPattern))
        // The float weights' bytes now read as zero, page by page (all but each buffer's partial
        // first and last page); the tables (names, shapes) do not.
        func zeros(_ m: TFLiteModel, _ b: [UInt8]) -> (zero: Int, total: Int) {
            var zero = 0, total = 0
            for t in m.tensors where (t.type == .float32 || t.type == .float16) && t.sparsity == nil && t.buffer < m.buffers.count {
                let r = m.buffers[t.buffer]
                total += r.count
                for k in r.start..<(r.start + r.count) where b[k] == 0 { zero += 1 }
            }
            return (zero, total)
        }
        let before = zeros(parsed, bytes), after = zeros(model, Array(model.bytes))
        #expect(after.total == before.total && before.total > 100_000)
        #expect(after.zero > before.zero + before.total / 2, "most of the weights' pages were given back")
        #expect(model.tensors.map(\.name) == parsed.tensors.map(\.name))
        #expect(bytes == (try InterpreterTests.bytes(name)), "the caller's array keeps the file's bytes")
    }

    @Test("a float build that keeps no weights gives their pages back as it packs them, and runs the same bits",
          arguments: ["hand_landmark_lite", "palm_detection_lite", "face_landmark"])
    func floatWeightsReleasedWhilePacked(model: String) throws {
        let bytes = try InterpreterTests.bytes(model)
        let kept = try Interpreter(model: bytes, path: .float)
        let released = try Interpreter(model: bytes, path: .float, keepingWeights: false)
        #expect(!kept.graph.constants.isEmpty)
        #expect(released.graph.constants.isEmpty)
        let a = Self.outputs(kept), b = Self.outputs(released)
        #expect(a.count == b.count)
        for (x, y) in zip(a, b) { #expect(x.map(\.bitPattern) == y.map(\.bitPattern)) }
    }

    @Test("a file that does not parse is an error, and its bytes are left as they were")
    func badFileIsAnError() throws {
        var bytes = Array(try InterpreterTests.bytes("face_detection_short_range").prefix(4096))
        let before = bytes
        #expect(throws: ModelError.self) { try Interpreter(taking: &bytes, path: .integer) }
        #expect(bytes == before)
    }
}
