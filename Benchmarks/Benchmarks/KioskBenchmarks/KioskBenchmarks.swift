// The kiosk's steady state with the fake camera: one frame through capture → frame ring →
// faces, passport rules and the hidden-background mask → overlay → screen, on one thread.
// `KioskRuntime.Lockstep` runs the same stage functions the kiosk's capture, vision and main
// threads run. Held at zero mallocs per frame (Thresholds/). Needs the models (`make setup`).
import Benchmark
import Foundation
import Kiosk
import Logging

let benchmarks: @Sendable () -> Void = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    let models = ProcessInfo.processInfo.environment["BOOTH_MODELS"] ?? root + "/models"
    setenv("BOOTH_MODELS", models, 1)

    // The folder camera replays the astronaut portrait (letterboxed into 640×480) with a face in it.
    let work = NSTemporaryDirectory() + "booth-kiosk-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: work + "/camera", withIntermediateDirectories: true)
    try? FileManager.default.removeItem(atPath: work + "/camera/astronaut.png")
    try! FileManager.default.copyItem(atPath: models + "/astronaut.png", toPath: work + "/camera/astronaut.png")
    let board = try! Board.parse("""
        name = "bench"
        [camera]
        source = "folder"
        folder = "\(work)/camera"
        preview = [640, 480]
        fps = 120
        [display]
        sink = "null"
        [gpio]
        shutter = "script"
        """, file: "bench.toml")

    func lockstep(mode: KioskConfig.Mode, hideBackground: Bool) -> KioskRuntime.Lockstep {
        var config = KioskConfig.defaults
        config.mode = mode
        config.profile = root + "/profiles/uk.toml"
        config.photoDirectory = work + "/photos"
        config.hideBackground = hideBackground
        config.debug = true                       // the debug panel is drawn too
        let kiosk = try! KioskRuntime(options: KioskOptions(config: config, board: board), logger: Logger(label: "bench"))
        return try! KioskRuntime.Lockstep(kiosk)
    }

    let zeroMallocs: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p0: 0, .p25: 0, .p50: 0, .p75: 0, .p90: 0, .p99: 0, .p100: 0]),
    ]
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 20,                     // the tracker locks on; buffers reach their size
        maxDuration: .seconds(3),
        maxIterations: 200,
        thresholds: zeroMallocs)

    for (name, mode, hide) in [("passport-background-hidden", KioskConfig.Mode.passport, true),
                               ("booth-background-kept", KioskConfig.Mode.booth, false)] {
        let step = lockstep(mode: mode, hideBackground: hide)
        Benchmark("Kiosk.frame-\(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(step.frame()) }
        }
    }
}
