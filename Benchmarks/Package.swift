// swift-tools-version: 6.1
// Booth's benchmarks: a separate package so the product never depends on the benchmark tool.
// Run with `make bench` (or `cd Benchmarks && swift package benchmark`).
import PackageDescription

let package = Package(
    name: "BoothBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Booth", path: ".."),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Every entry of ImageCore's KernelTable at 640×480, scalar against SIMD: MB/s and mallocs.
        .executableTarget(
            name: "KernelBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ImageCore", package: "Booth"),
            ],
            path: "Benchmarks/KernelBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // The kiosk's per-frame steady state with the fake camera, and its vision step alone
        // (cpu ms per frame, median and max), both held at zero mallocs.
        .executableTarget(
            name: "KioskBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Kiosk", package: "Booth"),
                .product(name: "ImageCore", package: "Booth"),
                .product(name: "ImageFiles", package: "Booth"),
                .product(name: "NeuralCore", package: "Booth"),
                .product(name: "Vision", package: "Booth"),
                .product(name: "Passport", package: "Booth"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/KioskBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // The FrameRing produce/lease cycle, held at zero mallocs.
        .executableTarget(
            name: "FrameRingBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ImageCore", package: "Booth"),
            ],
            path: "Benchmarks/FrameRingBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // NeuralCore: every integer kernel set on the models' GEMM/depthwise/ADD shapes, each model
        // through the float and the integer path, segmentation per level (timings that unit tests
        // used to print).
        .executableTarget(
            name: "NeuralBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ImageCore", package: "Booth"),
                .product(name: "NeuralCore", package: "Booth"),
                .product(name: "Vision", package: "Booth"),
            ],
            path: "Benchmarks/NeuralBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
