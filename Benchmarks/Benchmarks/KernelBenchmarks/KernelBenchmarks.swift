// Every entry of ImageCore's KernelTable on a 640×480 frame, scalar reference against SIMD
// variant, in the same run. Metrics: MB/s of source pixels (custom, larger is better),
// wall clock, throughput (frames/s) and mallocs (expected 0: kernels allocate nothing).
import Benchmark
import ImageCore

/// Source pixel bytes per second, in MB (10^6 bytes).
let megabytesPerSecond = BenchmarkMetric.custom("MB/s (source)", polarity: .prefersLarger, useScalingFactor: false)

/// Fills every plane with deterministic noise (xorshift64).
func fillNoise(_ image: Image, seed: UInt64) {
    var state = seed | 1
    for i in 0..<image.format.planeCount {
        let p = image.plane(i)
        for y in 0..<p.height {
            let row = p.row(y)
            for x in 0..<p.rowBytes {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                row[x] = UInt8(truncatingIfNeeded: state >> 24)
            }
        }
    }
}

/// Bytes of pixel data in an image (all planes, no stride slack).
func pixelBytes(_ image: Image) -> Int {
    (0..<image.format.planeCount).reduce(0) { $0 + image.plane($1).rowBytes * image.plane($1).height }
}

let benchmarks: @Sendable () -> Void = {
    let width = 640, height = 480
    Benchmark.defaultConfiguration = .init(
        metrics: [megabytesPerSecond, .wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 3,
        maxDuration: .milliseconds(400),
        maxIterations: 400)

    for entry in KernelTable.all {
        // Buffers live as long as the benchmark closures that capture them.
        let source = ImageBuffer(format: entry.sourceFormat, width: width, height: height)
        let background = ImageBuffer(format: entry.sourceFormat, width: width, height: height)
        let mask = ImageBuffer(format: .gray8, width: width, height: height)
        let size = entry.destinationSize(width, height)
        let destination = ImageBuffer(format: entry.destinationFormat, width: size.width, height: size.height)
        source.withImage { fillNoise($0, seed: 1) }
        background.withImage { fillNoise($0, seed: 2) }
        mask.withImage { fillNoise($0, seed: 3) }
        let bytes = source.withImage { pixelBytes($0) }
        for variant in KernelVariant.allCases {
            let label = variant == .scalar ? "scalar" : "simd"
            Benchmark("\(entry.name) \(label)") { benchmark in
                // The four buffers are borrowed for the whole run, so every view below stays valid.
                source.withImage { sourceImage in background.withImage { backgroundImage in
                    mask.withImage { maskImage in destination.withImage { destinationImage in
                        let arguments = KernelArguments(source: sourceImage, background: backgroundImage,
                                                        mask: maskImage.luma, destination: destinationImage)
                        let clock = ContinuousClock()
                        for _ in benchmark.scaledIterations {
                            let start = clock.now
                            entry.run(variant, arguments)
                            let elapsed = clock.now - start
                            let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
                            benchmark.measurement(megabytesPerSecond, Int(Double(bytes) / max(nanoseconds, 1) * 1e3))
                        }
                    } }
                } }
            }
        }
    }
}
