import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import ImageFiles
import NeuralCore
import Posix
import Vision

/// `booth model …`: look inside a .tflite model and run it from the command line, so NeuralCore can
/// be checked from outside (against LiteRT, for instance).
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Inspect, run and time a .tflite model with Booth's own engine.",
        subcommands: [Info.self, Run.self, Bench.self, CalibrateCommand.self])

    enum PathOption: String, ExpressibleByArgument {
        case float, int
        var path: ExecutionPath { self == .float ? .float : .integer }
    }

    static func load(_ file: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandFailure("cannot read model file \(file)", status: .io)
        }
        return [UInt8](data)
    }

    static func interpreter(_ file: String, _ path: ExecutionPath, scalar: Bool = false,
                            kernels chosen: InterpreterKernels? = nil) throws -> Interpreter {
        var bytes = try load(file)
        do {
            // The integer path with the model's shipped calibration table, as the product runs it;
            // the file's bytes are released once parsed, as the product's builds do.
            var calibration = IntegerCalibration.unit
            if path == .integer, let table = ModelCalibrations.table(forModel: bytes) { calibration.adopt(table) }
            return try Interpreter(taking: &bytes, path: path, kernels: chosen ?? (scalar ? .scalar : .native), calibration: calibration)
        } catch {
            throw CommandFailure("\(file): \(error.description)", status: .badInput)
        }
    }

    static func shapeText(_ shape: [Int]) -> String {
        shape.isEmpty ? "scalar" : shape.map(String.init).joined(separator: "x")
    }

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Operators, tensors and arena size of a model.")

        @Argument(help: "The .tflite file.") var model: String

        func run() throws {
            let bytes = try ModelCommand.load(model)
            let parsed: TFLiteModel
            do { parsed = try TFLiteModel(bytes: bytes) } catch { throw CommandFailure("\(model): \(error.description)", status: .badInput) }
            print("model: \(model) (\(bytes.count) bytes, schema version \(parsed.version))")
            if !parsed.description.isEmpty { print("description: \(parsed.description)") }

            var counts: [String: Int] = [:]
            var order: [String] = []
            for op in parsed.operators {
                let name = op.code.name
                if counts[name] == nil { order.append(name) }
                counts[name, default: 0] += 1
            }
            print("\noperators (\(parsed.operators.count)):")
            for name in order { print("  \(Text.padded(name, to: 30)) \(counts[name, default: 0])") }

            print("\ntensors (\(parsed.tensors.count)):")
            for (i, t) in parsed.tensors.enumerated() {
                var role = ""
                if parsed.inputs.contains(i) { role = " [input]" }
                if parsed.outputs.contains(i) { role = " [output]" }
                let constant = parsed.buffers.indices.contains(t.buffer) && parsed.buffers[t.buffer].count > 0 ? " const" : ""
                print("  \(Text.padded(String(i), to: 4)) \(Text.padded(String(describing: t.type), to: 8)) \(Text.padded(ModelCommand.shapeText(t.shape), to: 16)) \(t.name)\(constant)\(role)")
            }

            do {
                let interpreter = try Interpreter(model: bytes)
                print("\ninputs:  " + (0..<interpreter.inputCount).map { ModelCommand.shapeText(interpreter.inputShape($0)) }.joined(separator: ", "))
                print("outputs: " + (0..<interpreter.outputCount).map { ModelCommand.shapeText(interpreter.outputShape($0)) }.joined(separator: ", "))
                print("operations after folding: \(interpreter.graph.operations.count)")
                print("arena: \(interpreter.arenaByteCount) bytes (float path)")
            } catch {
                print("\nnot runnable: \(error.description)")
            }
        }
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a model on a raw float32 input and write its outputs.",
            discussion: "IN.f32 holds little-endian float32 values in the model's NHWC input shape. OUT.f32 receives every output in order, concatenated as little-endian float32.")

        @Argument(help: "The .tflite file.") var model: String
        @Option(help: "Raw little-endian float32 input (NHWC).") var input: String
        @Option(help: "Where to write the outputs (float32, concatenated).") var output: String
        @Option(help: "Execution path: float or int.") var path: PathOption = .float
        @Flag(help: "Use the scalar reference kernels (float path).") var scalarKernels = false
        @Option(help: "Also write every operation's output tensor T as DIR/T.f32 (float path; T is the model's tensor index).") var dump: String?

        func run() throws {
            if dump != nil && path != .float { throw CommandFailure("--dump needs --path float", status: .usage) }
            let interpreter = try ModelCommand.interpreter(model, path.path, scalar: scalarKernels)
            guard let data = FileManager.default.contents(atPath: input) else { throw CommandFailure("cannot read input file \(input)", status: .io) }
            let expected = interpreter.inputShape(0).reduce(1, *)
            guard interpreter.inputCount == 1 else { throw CommandFailure("the model has \(interpreter.inputCount) inputs; only single-input models can be run here", status: .badInput) }
            guard data.count == expected * 4 else {
                throw CommandFailure("\(input) has \(data.count) bytes; the model expects \(expected * 4) bytes (\(ModelCommand.shapeText(interpreter.inputShape(0))) float32 values)", status: .badInput)
            }
            interpreter.withInput(0) { dst in
                data.withUnsafeBytes { raw in
                    for i in 0..<expected {
                        dst[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
                    }
                }
            }
            if let dump {
                var failed: String?
                interpreter.run { k, values in
                    var bytes = Data(capacity: values.count * 4)
                    for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
                    let file = dump + "/\(interpreter.graph.operations[k].output).f32"
                    if (try? bytes.write(to: URL(fileURLWithPath: file))) == nil { failed = file }
                }
                if let failed { throw CommandFailure("cannot write \(failed)", status: .io) }
            } else {
                interpreter.run()
            }
            var out = Data()
            for k in 0..<interpreter.outputCount {
                interpreter.withOutput(k) { values in
                    for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { out.append(contentsOf: $0) } }
                }
            }
            do throws(ImageFileError) { try FileIO.writeAtomically([UInt8](out), to: output) } catch { throw CommandFailure(error.description, status: .io) }
        }
    }

    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Time single-threaded inference (ms per run).")

        @Argument(help: "The .tflite file.") var model: String
        @Option(help: "Timed runs after warm-up.") var runs: Int = 50
        @Option(help: "Raw float32 input (default: seeded noise in [-1, 1]).") var input: String?
        @Option(help: "Execution path: float or int.") var path: PathOption = .float
        @Option(help: "Kernel set, one of this CPU's (default: the fastest, as the product runs).") var kernels: String?

        func run() throws {
            try OptionCheck.int(runs, "--runs", in: 1...1_000_000)
            let sets = InterpreterKernels.all(for: .current)
            var chosen: InterpreterKernels?
            if let kernels {
                guard let set = sets.first(where: { "\($0.name)" == kernels }) else {
                    throw CommandFailure("--kernels \(kernels): not one of this CPU's kernel sets: "
                                         + sets.map { "\($0.name)" }.joined(separator: ", "), status: .usage)
                }
                chosen = set
            }
            let interpreter = try ModelCommand.interpreter(model, path.path, kernels: chosen)
            let count = interpreter.inputShape(0).reduce(1, *)
            if let input {
                guard let data = FileManager.default.contents(atPath: input), data.count == count * 4 else {
                    throw CommandFailure("\(input) must hold \(count * 4) bytes of float32", status: .badInput)
                }
                interpreter.withInput(0) { dst in
                    data.withUnsafeBytes { raw in for i in 0..<count { dst[i] = raw.loadUnaligned(fromByteOffset: 4 * i, as: Float.self) } }
                }
            } else {
                var state: UInt64 = 42
                interpreter.withInput(0) { dst in
                    for i in 0..<count {
                        state = state &* 6364136223846793005 &+ 1442695040888963407
                        dst[i] = Float(state >> 40) / Float(1 << 24) * 2 - 1
                    }
                }
            }
            for _ in 0..<3 { interpreter.run() }
            var times = [Double]()
            for _ in 0..<runs {
                let start = MonotonicTime.now()
                interpreter.run()
                times.append(MonotonicTime.now().seconds(since: start) * 1e3)
            }
            times.sort()
            let median = times[times.count / 2]
            let mean = times.reduce(0, +) / Double(times.count)
            print(Path.lastComponent(model) + String(cFormat: ": median %.3f ms, mean %.3f ms, min %.3f ms over %ld runs", median, mean, times[0], times.count)
                  + " (\(path.rawValue) path, \(chosen?.name ?? InterpreterKernels.native.name) kernels, arena \(interpreter.arenaByteCount) bytes)")
        }
    }
}
