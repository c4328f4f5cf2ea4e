import NeuralCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Throughput of the integer kernels, scalar reference vs SIMD, printed (never asserted).
/// Set `BOOTH_BENCH_SECONDS` (e.g. 2) for steadier figures; the default keeps CI fast.
@Suite(.serialized) struct IntegerKernelBenchmarkTests {
    static var budget: Double {
        if let s = getenv("BOOTH_BENCH_SECONDS"), let v = Double(String(cString: s)) { return v }
        return 0.05
    }

    /// Seconds per call, repeating until `budget` has elapsed (at least twice).
    static func time(_ body: () -> Void) -> Double {
        body()
        let clock = ContinuousClock()
        var runs = 0
        let start = clock.now
        var elapsed = 0.0
        repeat {
            body()
            runs += 1
            let d = clock.now - start
            elapsed = Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        } while elapsed < budget || runs < 2
        return elapsed / Double(runs)
    }

    @Test func gemmThroughput() {
        var g = SeededGenerator(seed: 7)
        // (rows, K, N): pointwise layers of the face and segmentation models, and a 3×3 im2col.
        let shapes = [(4096, 32, 32), (1024, 128, 128), (256, 256, 256), (1024, 27, 24), (64 * 64, 16 * 9, 16)]
        for (rows, k, n) in shapes {
            let w = ChannelWeights(quantizing: IntTest.floats(n * k, &g, -1...1), channels: n, axis: .outermost)
            let packed = PackedGEMMWeights(weights: w.values, outputChannels: n, depth: k)
            var a = [Int16](repeating: 0, count: rows * packed.depthStride)
            for i in 0..<a.count { a[i] = Int16.random(in: -255...255, using: &g) }
            let stage = OutputStage(bias: [Int32](repeating: 0, count: n),
                                    multipliers: w.multipliers(inputScale: 0.02, output: QuantParams(scale: 0.1, zeroPoint: 0)),
                                    outputZeroPoint: 0)
            var out = [Int8](repeating: 0, count: rows * n)
            var line = "gemm \(rows)x\(k)x\(n):"
            for set in IntegerKernels.all {
                let t = a.withUnsafeBufferPointer { ap in
                    out.withUnsafeMutableBufferPointer { op in
                        Self.time { set.gemm(ap.baseAddress!, rows, packed, .int8(op.baseAddress!, rowStride: n, stage: stage)) }
                    }
                }
                let gops = 2 * Double(rows * k * n) / t / 1e9
                line += " \(set.name) \((gops * 10).rounded() / 10) GOPS"
            }
            print(line)
        }
    }

    @Test func depthwiseAndElementwiseThroughput() {
        var g = SeededGenerator(seed: 8)
        for (h, c, k, s) in [(64, 32, 3, 1), (32, 128, 5, 1), (64, 64, 3, 2)] {
            let geo = WindowGeometry(inputHeight: h, inputWidth: h, channels: c, kernelHeight: k, kernelWidth: k,
                                     strideY: s, strideX: s, same: true)
            let input = IntTest.int8s(h * h * c, &g)
            let w = ChannelWeights(quantizing: IntTest.floats(k * k * c, &g, -1...1), channels: c, axis: .innermost)
            let packed = PackedDepthwiseWeights(weights: w.values, kernelHeight: k, kernelWidth: k, channels: c)
            let stage = OutputStage(bias: [Int32](repeating: 0, count: c),
                                    multipliers: w.multipliers(inputScale: 0.02, output: QuantParams(scale: 0.1, zeroPoint: 0)),
                                    outputZeroPoint: 0)
            var out = [Int8](repeating: 0, count: geo.outputPixels * c)
            var line = "depthwise \(h)x\(h)x\(c) \(k)x\(k)/\(s):"
            for set in IntegerKernels.all {
                let t = out.withUnsafeMutableBufferPointer { op in
                    Self.time { set.depthwise(input, geo, 3, packed, stage, op.baseAddress!) }
                }
                line += " \(set.name) \((2 * Double(geo.outputPixels * c * k * k) / t / 1e8).rounded() / 10) GOPS"
            }
            print(line)
        }
        let count = 64 * 64 * 32
        let a = IntTest.int8s(count, &g), b = IntTest.int8s(count, &g)
        let p = ElementwiseParams(.add, QuantParams(scale: 0.05, zeroPoint: 3), QuantParams(scale: 0.03, zeroPoint: -9),
                                  output: QuantParams(scale: 0.07, zeroPoint: 1))
        var out = [Int8](repeating: 0, count: count)
        var line = "add \(count):"
        for set in IntegerKernels.all {
            let t = out.withUnsafeMutableBufferPointer { op in Self.time { set.elementwise(a, b, count, count, p, op.baseAddress!) } }
            line += " \(set.name) \((Double(count) / t / 1e6).rounded()) M elements/s"
        }
        print(line)
    }
}
