// NeuralCore timings that used to be printed by unit tests (which could not fail), now measured
// here, each against its peer in the same run:
// - every integer kernel set (`IntegerKernels.all`: scalar reference first, then SIMD/NEON) on
//   the GEMM, depthwise and ADD shapes of the face and segmentation models, in GOPS / M elements/s;
// - each MediaPipe model through the float (reference) and the integer (product) path, one
//   inference per iteration, single-threaded. Models come from `models/` (or `$BOOTH_MODELS`);
// - person segmentation per level (`SegmentationLevels.swift`).
import Benchmark
import Foundation
import NeuralCore

/// Billions of integer operations (multiply + add = 2) per second.
let gops = BenchmarkMetric.custom("GOPS", polarity: .prefersLarger, useScalingFactor: false)
/// Millions of elements per second.
let megaElements = BenchmarkMetric.custom("M elements/s", polarity: .prefersLarger, useScalingFactor: false)

/// Deterministic values (xorshift64), so every run times the same data.
struct Noise {
    var state: UInt64
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
    mutating func int8s(_ n: Int) -> [Int8] { (0..<n).map { _ in Int8(truncatingIfNeeded: next() >> 24) } }
    mutating func int16s(_ n: Int, magnitude: Int16) -> [Int16] {
        (0..<n).map { _ in Int16(truncatingIfNeeded: Int(next() >> 40) % (2 * Int(magnitude) + 1)) - magnitude }
    }
    mutating func floats(_ n: Int, _ r: ClosedRange<Float>) -> [Float] {
        (0..<n).map { _ in r.lowerBound + Float(next() >> 40) / Float(1 << 24) * (r.upperBound - r.lowerBound) }
    }
}

/// Runs `body` once per scaled iteration and reports `work` units per nanosecond × `scale`.
func measure(_ benchmark: Benchmark, _ metric: BenchmarkMetric, work: Double, scale: Double, _ body: () -> Void) {
    let clock = ContinuousClock()
    for _ in benchmark.scaledIterations {
        let start = clock.now
        body()
        let d = clock.now - start
        let ns = Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
        benchmark.measurement(metric, Int(work / max(ns, 1) * scale))
    }
}

/// Objects built once per benchmark process and reused by every run of a benchmark's closure, so
/// what is timed (and counted) is the steady state, never the construction (an integer model's
/// load-time set-up, a segmenter's buffers).
final class Built<Value>: @unchecked Sendable {
    private var value: Value?
    private let lock = NSLock()
    private let make: () throws -> Value
    init(_ make: @escaping () throws -> Value) { self.make = make }
    func get() throws -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let value { return value }
        let made = try make()
        value = made
        return made
    }
}

var modelDirectory: String {
    if let dir = ProcessInfo.processInfo.environment["BOOTH_MODELS"] { return dir }
    var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)   // Benchmarks/Benchmarks/NeuralBenchmarks/NeuralBenchmarks.swift
    return parts.joined(separator: "/") + "/models"
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 2,
        maxDuration: .milliseconds(500),
        maxIterations: 200)
    var noise = Noise(state: 0x9E37_79B9_7F4A_7C15)

    // GEMM: (rows, K, N) of pointwise layers of the face and segmentation models, and a 3×3 im2col.
    for (rows, k, n) in [(4096, 32, 32), (1024, 128, 128), (256, 256, 256), (1024, 27, 24), (64 * 64, 16 * 9, 16)] {
        let w = ChannelWeights(quantizing: noise.floats(n * k, -1...1), channels: n, axis: .outermost)
        let packed = PackedGEMMWeights(weights: w.values, outputChannels: n, depth: k)
        let a = noise.int16s(rows * packed.depthStride, magnitude: 255)
        let stage = OutputStage(bias: [Int32](repeating: 0, count: n),
                                multipliers: w.multipliers(inputScale: 0.02, output: QuantParams(scale: 0.1, zeroPoint: 0)),
                                outputZeroPoint: 0)
        for set in IntegerKernels.all {
            Benchmark("gemm \(rows)x\(k)x\(n) \(set.name)", configuration: .init(metrics: [gops, .wallClock, .mallocCountTotal])) { b in
                var out = [Int8](repeating: 0, count: rows * n)
                a.withUnsafeBufferPointer { ap in
                    out.withUnsafeMutableBufferPointer { op in
                        guard let input = ap.baseAddress, let output = op.baseAddress else { return }
                        measure(b, gops, work: 2 * Double(rows * k * n), scale: 1) {
                            set.gemm(input, rows, packed, .int8(output, rowStride: n, stage: stage))
                        }
                    }
                }
            }
        }
    }

    // Depthwise: (side, channels, kernel, stride).
    for (h, c, k, s) in [(64, 32, 3, 1), (32, 128, 5, 1), (64, 64, 3, 2)] {
        let geo = WindowGeometry(inputHeight: h, inputWidth: h, channels: c, kernelHeight: k, kernelWidth: k,
                                 strideY: s, strideX: s, same: true)
        let input = noise.int8s(h * h * c)
        let w = ChannelWeights(quantizing: noise.floats(k * k * c, -1...1), channels: c, axis: .innermost)
        let packed = PackedDepthwiseWeights(weights: w.values, kernelHeight: k, kernelWidth: k, channels: c)
        let stage = OutputStage(bias: [Int32](repeating: 0, count: c),
                                multipliers: w.multipliers(inputScale: 0.02, output: QuantParams(scale: 0.1, zeroPoint: 0)),
                                outputZeroPoint: 0)
        for set in IntegerKernels.all {
            Benchmark("depthwise \(h)x\(h)x\(c) \(k)x\(k)/\(s) \(set.name)", configuration: .init(metrics: [gops, .wallClock, .mallocCountTotal])) { b in
                var out = [Int8](repeating: 0, count: geo.outputPixels * c)
                out.withUnsafeMutableBufferPointer { op in
                    guard let output = op.baseAddress else { return }
                    measure(b, gops, work: 2 * Double(geo.outputPixels * c * k * k), scale: 1) {
                        set.depthwise(input, geo, 3, packed, stage, output)
                    }
                }
            }
        }
    }

    // ADD of two int8 tensors with different scales.
    let count = 64 * 64 * 32
    let x = noise.int8s(count), y = noise.int8s(count)
    let add = ElementwiseParams(.add, QuantParams(scale: 0.05, zeroPoint: 3), QuantParams(scale: 0.03, zeroPoint: -9),
                                output: QuantParams(scale: 0.07, zeroPoint: 1))
    for set in IntegerKernels.all {
        Benchmark("add \(count) \(set.name)", configuration: .init(metrics: [megaElements, .wallClock, .mallocCountTotal])) { b in
            var out = [Int8](repeating: 0, count: count)
            out.withUnsafeMutableBufferPointer { op in
                guard let output = op.baseAddress else { return }
                measure(b, megaElements, work: Double(count), scale: 1e3) { set.elementwise(x, y, count, count, add, output) }
            }
        }
    }

    segmentationBenchmarks(modelDirectory: modelDirectory)

    // The five models, float (reference) against integer (product path), one inference each.
    let models: [(String, IntegerCalibration)] = [
        ("face_detection_short_range", .signedUnit), ("face_landmark", .unit), ("iris_landmark", .eyes),
        ("selfie_segmentation", .unit), ("selfie_segmentation_landscape", .unit),
    ]
    for (model, calibration) in models {
        guard let data = FileManager.default.contents(atPath: modelDirectory + "/" + model + ".tflite") else {
            print("NeuralBenchmarks: \(modelDirectory)/\(model).tflite is absent (run scripts/fetch-models); skipped")
            continue
        }
        let bytes = [UInt8](data)
        for path in [ExecutionPath.float, .integer] {
            let built = Built { () throws -> Interpreter in
                let interpreter = path == .float ? try Interpreter(model: bytes, path: .float)
                    : try Interpreter(model: bytes, path: .integer, calibration: calibration)
                var inputs = Noise(state: 5)
                let input = inputs.floats(interpreter.inputShape(0).reduce(1, *), 0...1)
                interpreter.withInput(0) { $0.update(fromContentsOf: input) }
                interpreter.run()
                return interpreter
            }
            Benchmark("model \(model) \(path == .float ? "float" : "integer")",
                      configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxIterations: 50)) { b in
                let interpreter: Interpreter
                do { interpreter = try built.get() } catch {
                    print("NeuralBenchmarks: \(model): \(error)")
                    return
                }
                b.startMeasurement()
                for _ in b.scaledIterations { interpreter.run() }
                b.stopMeasurement()
            }
        }
    }
}
