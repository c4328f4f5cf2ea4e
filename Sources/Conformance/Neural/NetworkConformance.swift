import NeuralCore

/// One model file's bytes, as the caller read them (the x86 tests from `models/`, the aarch64
/// driver from `--models DIR`): the Embedded runner has no file system of its own.
public struct ModelBlob: Sendable {
    public var file: String
    public var bytes: [UInt8]

    public init(file: String, bytes: [UInt8]) {
        self.file = file
        self.bytes = bytes
    }
}

/// The integer networks end to end: each model of DESIGN.md loaded on NeuralCore's integer path
/// (calibration included), run on one fixed seeded input with every kernel set of
/// `InterpreterKernels.all(for: .current)` (scalar reference, SIMD, NEON…); every variant's outputs must equal the reference's bit
/// for bit, and the reference's float32 outputs are checksummed into the golden file, so the
/// aarch64 build must reproduce x86's outputs exactly. The float path's outputs on the same
/// input are checksummed too (`net.<model> float.outputN`).
public enum NetworkConformance {
    /// Model files and the input range each is calibrated and fed with.
    public static let models: [(file: String, lower: Float, upper: Float)] = [
        ("face_detection_short_range.tflite", -1, 1),
        ("face_landmark.tflite", 0, 1),
        ("iris_landmark.tflite", 0, 1),
        ("selfie_segmentation.tflite", 0, 1),
        ("selfie_segmentation_landscape.tflite", 0, 1),
    ]

    /// Checksums (`net.<model> outputN`) and failures for the models in `blobs`; a listed model
    /// that is missing is a failure.
    public static func run(_ blobs: [ModelBlob]) -> ConformanceRun {
        var run = ConformanceRun()
        for model in models {
            guard let blob = blobs.first(where: { $0.file.utf8.elementsEqual(model.file.utf8) }) else {
                run.failures.append("net: model \(model.file) not given")
                continue
            }
            run.append(self.run(blob, lower: model.lower, upper: model.upper))
        }
        return run
    }

    static func run(_ blob: ModelBlob, lower: Float, upper: Float) -> ConformanceRun {
        var run = ConformanceRun()
        let suffix = ".tflite".utf8.count
        let stem = blob.file.utf8.count > suffix ? String(decoding: Array(blob.file.utf8.dropLast(suffix)), as: UTF8.self) : blob.file
        let name = "net." + stem
        var reference: [[Float]] = []
        for (index, set) in InterpreterKernels.all(for: .current).enumerated() {
            let outputs: [[Float]]
            do throws(ModelError) {
                outputs = try self.outputs(blob.bytes, kernels: set, lower: lower, upper: upper)
            } catch {
                run.failures.append("\(name): \(error.description)")
                return run
            }
            if index == 0 {
                reference = outputs
                for (i, o) in outputs.enumerated() {
                    var h = FNV1a()
                    o.withUnsafeBytes { h.combine($0.baseAddress!, count: $0.count) }
                    run.results.append(ConformanceResult(kernel: name, caseLabel: "output\(i)", checksum: h.value))
                }
            } else {
                for (i, o) in outputs.enumerated() where !bitwiseEqual(o, reference[i]) {
                    run.failures.append("\(name) output\(i): kernel set \(NeuralCoreKernels.name(set.name)) differs from the scalar reference")
                }
            }
        }
        // The float path (the reference engine, SIMD kernels with fused multiply-adds) on the same
        // input: its checksums hold x86 (`vfmadd`) and aarch64 (`fmla`) to the same bits.
        do throws(ModelError) {
            let interpreter = try Interpreter(model: try TFLiteModel(bytes: blob.bytes), path: .float)
            fillInput(interpreter, lower: lower, upper: upper)
            interpreter.run()
            for o in 0..<interpreter.outputCount {
                var h = FNV1a()
                interpreter.withOutput(o) { out in
                    if let base = out.baseAddress { h.combine(UnsafeRawPointer(base), count: out.count * 4) }
                }
                run.results.append(ConformanceResult(kernel: name, caseLabel: "float.output\(o)", checksum: h.value))
            }
        } catch {
            run.failures.append("\(name) float: \(error.description)")
        }
        return run
    }

    /// Loads `bytes` on the integer path and runs it once on the fixed input.
    static func outputs(_ bytes: [UInt8], kernels: InterpreterKernels, lower: Float, upper: Float) throws(ModelError) -> [[Float]] {
        let calibration = IntegerCalibration(inputLower: lower, inputUpper: upper)
        let interpreter = try Interpreter(model: try TFLiteModel(bytes: bytes), path: .integer,
                                          kernels: kernels, calibration: calibration)
        fillInput(interpreter, lower: lower, upper: upper)
        interpreter.run()
        var outputs: [[Float]] = []
        for o in 0..<interpreter.outputCount {
            outputs.append(interpreter.withOutput(o) { Array($0) })
        }
        return outputs
    }

    /// Input 0 of `interpreter` set to the fixed input: a smooth gradient with seeded noise,
    /// inside `[lower, upper]`.
    static func fillInput(_ interpreter: Interpreter, lower: Float, upper: Float) {
        var random = ConformanceRandom(seed: 0x1A7E_6E75)
        let shape = interpreter.inputShape(0)
        let width = shape.count >= 3 ? shape[shape.count - 2] : 1
        let channels = shape.last ?? 1
        interpreter.withInput(0) { input in
            // A smooth gradient with seeded noise, inside the calibrated range.
            for i in 0..<input.count {
                let c = i % channels, x = (i / channels) % width, y = i / (channels * width)
                let base = Float((x * 3 + y * 5 + c * 40) % 256) / 255
                let noise = Float(random.next() % 1000) / 1000 * 0.2 - 0.1
                input[i] = lower + (upper - lower) * min(max(base + noise, 0), 1)
            }
        }
    }

    static func bitwiseEqual(_ a: [Float], _ b: [Float]) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a[i].bitPattern != b[i].bitPattern { return false }
        return true
    }
}
