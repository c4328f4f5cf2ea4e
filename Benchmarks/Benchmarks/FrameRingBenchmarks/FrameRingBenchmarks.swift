// The FrameRing's steady state: the camera produces a 640×480 NV12 frame (its fill writes the
// first row only, so the ring's own cost shows), a consumer leases the newest frame and
// returns it. Held at zero mallocs (Thresholds/).
import Benchmark
import ImageCore

let benchmarks: @Sendable () -> Void = {
    let zeroMallocs: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p0: 0, .p25: 0, .p50: 0, .p75: 0, .p90: 0, .p99: 0, .p100: 0]),
    ]
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .milliseconds(500),
        thresholds: zeroMallocs)

    let ring = FrameRing(slotCount: 4, format: .nv12, width: 640, height: 480)
    Benchmark("FrameRing.produce-lease-release") { benchmark in
        var sequence: UInt64 = 0
        for _ in benchmark.scaledIterations {
            sequence += 1
            ring.produce(metadata: FrameMetadata(sequence: sequence, timestampNanoseconds: sequence)) { image in
                image.luma.row(0)[0] = UInt8(truncatingIfNeeded: sequence)
            }
            if let lease = ring.newest(after: sequence - 1) {
                blackHole(lease.withImage { $0.luma.row(0)[0] })
            }
        }
    }

    let held = FrameRing(slotCount: 3, format: .nv12, width: 640, height: 480)
    Benchmark("FrameRing.produce-with-two-leases-held") { benchmark in
        var sequence: UInt64 = 0
        held.produce(metadata: FrameMetadata(sequence: 0)) { _ in }
        let a = held.newest()!
        held.produce(metadata: FrameMetadata(sequence: 0)) { _ in }
        let b = held.newest()!
        for _ in benchmark.scaledIterations {
            sequence += 1
            held.produce(metadata: FrameMetadata(sequence: sequence)) { image in
                image.luma.row(0)[0] = UInt8(truncatingIfNeeded: sequence)
            }
        }
        blackHole(a.slot)
        blackHole(b.slot)
    }

    // Control: proves the malloc interposer counts (one array buffer per iteration), so the
    // zeros above are measured, not missing. No threshold.
    Benchmark("control: one array allocation",
              configuration: .init(metrics: [.mallocCountTotal], scalingFactor: .kilo,
                                   maxDuration: .milliseconds(200), thresholds: [:])) { benchmark in
        for i in benchmark.scaledIterations {
            blackHole([i, i + 1, i + 2])
        }
    }
}
