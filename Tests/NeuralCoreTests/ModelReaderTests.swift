import NeuralCore
import TestSupport
import Testing

/// The .tflite reader and graph builder on real, truncated, corrupted and patched files: every
/// failure is a typed `ModelError`, never a crash. (Fuzz/ and scripts/fuzz-model go further with
/// libFuzzer and AddressSanitizer.)
struct ModelReaderTests {
    static func bytes(_ name: String) throws -> [UInt8] { try LiteRTReferenceTests.modelBytes(name) }

    @Test("the five models parse with the expected operators and boundary shapes")
    func realModels() throws {
        let expected: [String: (input: [Int], outputs: [[Int]], ops: Set<String>)] = [
            "face_detection_short_range": ([1, 128, 128, 3], [[1, 896, 16], [1, 896, 1]],
                                           ["CONV_2D", "DEPTHWISE_CONV_2D", "ADD", "PAD", "MAX_POOL_2D", "RELU", "RESHAPE", "CONCATENATION", "DEQUANTIZE"]),
            "face_landmark": ([1, 192, 192, 3], [[1, 1, 1, 1404], [1, 1, 1, 1]], ["CONV_2D", "PRELU", "DEPTHWISE_CONV_2D", "ADD", "MAX_POOL_2D", "PAD", "DEQUANTIZE"]),
            "iris_landmark": ([1, 64, 64, 3], [[1, 213], [1, 15]], ["CONV_2D", "PRELU", "DEPTHWISE_CONV_2D", "ADD", "MAX_POOL_2D", "PAD", "RESHAPE"]),
            "selfie_segmentation": ([1, 256, 256, 3], [[1, 256, 256, 1]],
                                    ["CONV_2D", "HARD_SWISH", "RELU", "DEPTHWISE_CONV_2D", "AVERAGE_POOL_2D", "LOGISTIC", "MUL", "ADD", "RESIZE_BILINEAR", "Convolution2DTransposeBias", "DEQUANTIZE"]),
            "selfie_segmentation_landscape": ([1, 144, 256, 3], [[1, 144, 256, 1]],
                                              ["CONV_2D", "HARD_SWISH", "RELU", "DEPTHWISE_CONV_2D", "MEAN", "LOGISTIC", "MUL", "ADD", "RESIZE_BILINEAR", "Convolution2DTransposeBias", "DEQUANTIZE"]),
        ]
        for (name, e) in expected {
            let model = try TFLiteModel(bytes: try Self.bytes(name))
            #expect(model.tensors[model.inputs[0]].shape == e.input, "\(name)")
            #expect(model.outputs.map { model.tensors[$0].shape } == e.outputs, "\(name)")
            #expect(Set(model.operators.map { $0.code.name }) == e.ops, "\(name)")
        }
    }

    @Test("fp16 weights are folded: no DEQUANTIZE survives in the graph")
    func dequantizeFolded() throws {
        let model = try TFLiteModel(bytes: try Self.bytes("face_detection_short_range"))
        let dequantizes = model.operators.filter { $0.code.builtin == BuiltinCode.dequantize }.count
        #expect(dequantizes > 0)
        let graph = try Graph(model: model)
        #expect(graph.operations.count == model.operators.count - dequantizes)
        for t in model.operators.filter({ $0.code.builtin == BuiltinCode.dequantize }).map({ $0.outputs[0] }) {
            #expect(graph.tensors[t].constantOffset != nil)
        }
    }

    @Test("every truncation is a typed error", arguments: ["face_detection_short_range", "selfie_segmentation"])
    func truncations(name: String) throws {
        let full = try Self.bytes(name)
        var cuts = Array(0..<64)
        var rng = SeededGenerator(seed: 17)
        for _ in 0..<120 { cuts.append(Int.random(in: 0..<full.count, using: &rng)) }
        for cut in cuts {
            let bytes = Array(full[0..<cut])
            do {
                _ = try Interpreter(model: bytes)
                Issue.record("\(name) cut at \(cut) bytes loaded")
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test("corrupted bytes load or fail with a typed error, never crash")
    func corruptions() throws {
        let original = try Self.bytes("face_detection_short_range")
        var rng = SeededGenerator(seed: 99)
        var loaded = 0, rejected = 0
        for _ in 0..<120 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                // Bias toward the FlatBuffer tables at the end of the file, where offsets live.
                let region = Bool.random(using: &rng) ? bytes.count - min(bytes.count, 8192) : 0
                let at = Int.random(in: region..<bytes.count, using: &rng)
                bytes[at] = UInt8.random(in: 0...255, using: &rng)
            }
            do {
                let interpreter = try Interpreter(model: bytes)
                interpreter.run()
                loaded += 1
            } catch {
                rejected += 1
            }
        }
        #expect(loaded + rejected == 120)
    }

    @Test("not a .tflite file")
    func notAModel() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        #expect(throws: ModelError.malformed("missing the TFL3 file identifier (not a .tflite file)")) {
            _ = try TFLiteModel(bytes: png)
        }
        #expect(throws: ModelError.self) { _ = try TFLiteModel(bytes: []) }
    }

    @Test("an unknown custom operator is a load-time error naming it")
    func unsupportedCustomOperator() throws {
        var bytes = try Self.bytes("selfie_segmentation")
        let name = Array("Convolution2DTransposeBias".utf8)
        guard let at = (0...(bytes.count - name.count)).first(where: { Array(bytes[$0..<($0 + name.count)]) == name }) else {
            Issue.record("custom code not found")
            return
        }
        bytes[at + name.count - 1] = UInt8(ascii: "X")
        do {
            _ = try Interpreter(model: bytes)
            Issue.record("loaded a model with an unknown custom operator")
        } catch {
            guard case .unsupportedOperator(let what) = error else {
                Issue.record("unexpected error \(error.description)")
                return
            }
            #expect(what.contains("Convolution2DTransposeBiaX"))
            #expect(error.description.hasPrefix("unsupported operator in model: Convolution2DTransposeBiaX"))
        }
    }

    @Test("builtin operator names follow the schema")
    func builtinNames() {
        #expect(BuiltinCode.name(9) == "FULLY_CONNECTED")
        #expect(BuiltinCode.name(BuiltinCode.hardSwish) == "HARD_SWISH")
        #expect(BuiltinCode.name(100_000) == "builtin 100000")
        #expect(BuiltinCode.name(-3) == "builtin -3")
    }
}
