// The kiosk's steady state with the fake camera: one frame through capture → frame ring →
// faces, passport rules and the hidden-background mask → overlay → screen, on one thread.
// `KioskRuntime.Lockstep` runs the same stage functions the kiosk's capture, vision and main
// threads run. Held at zero mallocs per frame (Thresholds/). Needs the models (`make setup`).
//
// `Vision.frame-*` is the vision thread's work alone (`VisionStep`) on the same 640×480 frame:
// cpu time per frame (median = a tracking frame; max = the frame the detector runs on, every
// 30 frames while a second face is looked for; 300 frames hold 10 of them) and mallocs per frame,
// also held at zero.
import Benchmark
import Foundation
import ImageCore
import ImageFiles
import Kiosk
import Logging
import Passport
import Vision

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

    // The vision step alone, on a photo letterboxed into a 640×480 I420 frame as the folder camera
    // shows it; each frame 33 ms after the last (the trackers' filters see a 30 fps feed).
    func letterboxed(_ path: String) -> ImageBuffer {
        let frame = ImageBuffer(format: .i420, width: 640, height: 480)
        let portrait = try! ImageDecoder.decode(path: path, as: .i420)
        let fitW = min(640, portrait.width * 480 / portrait.height) & ~1
        frame.withImage { image in
            Fill.run(image.planes.0, value: 16)
            Fill.run(image.planes.1, value: 128)
            Fill.run(image.planes.2, value: 128)
            portrait.withImage { ResizeBilinear.run($0, image.cropped(x: (640 - fitW) / 2 & ~1, y: 0, width: fitW, height: 480)) }
        }
        return frame
    }
    // The astronaut: a face about 150 pixels wide, whose mesh region is under 1.5 × the 192-pixel
    // tensor (one warp tap).
    let frame = letterboxed(models + "/astronaut.png")
    // A passport sitter who fills the oval (the examiner set's deepface-img3): the mesh region is
    // over 1.5 × 192, so the warp averages 2×2 taps, and the face's pixels are more to measure.
    // The kiosk on this photo (`booth run --mode passport --camera-folder`) reads about 5.2 ms a
    // frame where the astronaut's benchmark reads under 4 (session 17).
    let sitter = letterboxed(root + "/Tests/PassportTests/ExaminerSet/deepface-img3.jpg")
    let profile = try! ProfileLibrary.load(root + "/profiles/uk.toml")
    // The vision thread's CPU time per frame (CLOCK_THREAD_CPUTIME_ID, µs): other processes on the
    // machine do not inflate it, and the benchmark's own CPU metric counts in 10 ms ticks.
    let visionCPU = BenchmarkMetric.custom("Vision CPU per frame (μs)", polarity: .prefersSmaller, useScalingFactor: false)
    func threadCPUNanoseconds() -> Int {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return t.tv_sec * 1_000_000_000 + t.tv_nsec
    }
    // The mesh input's tensor warp alone (`Warp.*`, outside the `Vision.*` filter), the scalar
    // reference and the SIMD twin in the same run, thread CPU per call: the tracked face's region
    // as in the Vision benchmark (about 152 pixels, turned 0.1 rad: one tap, upsampled) into
    // 192×192, [0, 1], replicated border. Their ratio is the figure to compare across changes.
    let meshGrid = TensorSampler.grid(RotatedRect(center: Point2(330, 230), width: 152, height: 152, rotation: 0.1),
                                      width: 192, height: 192)
    let meshInput = UnsafeMutableBufferPointer<Float>.allocate(capacity: 192 * 192 * 3)
    for (label, variant) in [("scalar", KernelVariant.scalar), ("simd", KernelVariant.simd)] {
        Benchmark("Warp.mesh-\(label)",
                  configuration: .init(metrics: [visionCPU, .mallocCountTotal], warmupIterations: 20,
                                       maxDuration: .seconds(5), maxIterations: 500)) { benchmark in
            let cpu = frame.withImage { image in
                benchmark.startMeasurement()
                let start = threadCPUNanoseconds()
                TensorWarp.sample(image, grid: meshGrid, into: meshInput, width: 192, height: 192, range: .zeroToOne,
                                  border: .replicate, variant: variant)
                let cpu = threadCPUNanoseconds() - start
                benchmark.stopMeasurement()
                return cpu
            }
            blackHole(meshInput[1000])
            benchmark.measurement(visionCPU, cpu / 1000)
        }
    }

    // BOOTH_FRAME_TRACE=DIR: each Vision benchmark also writes DIR/NAME.tsv, one line per frame
    // (warm-up included): thread CPU and wall µs, the thread's minor and major page faults and
    // voluntary and involuntary context switches during the frame, whether a detector slice ran,
    // and the first face's mesh region side in frame pixels (above 1.5 × 192 = 288 the mesh
    // warp averages 2×2 taps per input pixel); for tracing the frames over 8 ms (is it the work,
    // or the machine).
    let traceDirectory = ProcessInfo.processInfo.environment["BOOTH_FRAME_TRACE"]
    // BOOTH_FRAME_PACE_MS=N: each Vision benchmark sleeps N ms after each frame (outside the
    // measurement), as the kiosk's vision thread waits for the camera's next frame (66 at 15 fps):
    // the same work on caches and a core that idled in between, which is what the kiosk's stats
    // line reads. Unset: frames back to back.
    let paceMicroseconds = UInt32(max(0, min(1000, Int(ProcessInfo.processInfo.environment["BOOTH_FRAME_PACE_MS"] ?? "") ?? 0))) * 1000
    func wallNanoseconds() -> Int {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return t.tv_sec * 1_000_000_000 + t.tv_nsec
    }
    func threadUsage() -> (Int, Int, Int, Int) {
        var u = rusage()
        getrusage(__rusage_who_t(1), &u)   // RUSAGE_THREAD (Linux)
        return (u.ru_minflt, u.ru_majflt, u.ru_nvcsw, u.ru_nivcsw)
    }
    for (name, passport, hide, frame) in [("passport-background-hidden", true, true, frame), ("booth-background-kept", false, false, frame),
                                          ("booth-background-hidden", false, true, frame),
                                          ("passport-sitter-background-hidden", true, true, sitter)] {
        let step = try! VisionStep(models: models, profile: passport ? profile : nil, hideBackground: hide, width: 640, height: 480)
        var sequence: UInt64 = 0
        let traceCapacity = 4096
        let trace = UnsafeMutablePointer<Int>.allocate(capacity: traceCapacity * 8)
        var traced = 0
        Benchmark("Vision.frame-\(name)",
                  configuration: .init(metrics: [visionCPU, .wallClock, .mallocCountTotal], warmupIterations: 40,
                                       maxDuration: .seconds(20), maxIterations: 300)) { benchmark in
            sequence += 1
            let metadata = FrameMetadata(sequence: sequence, timestampNanoseconds: sequence * 33_333_333)
            let runs = step.tracker.detectorRuns
            let cpu = frame.withImage(metadata: metadata) { image in
                benchmark.startMeasurement()
                let usage = threadUsage(), wall = wallNanoseconds()
                let start = threadCPUNanoseconds()
                blackHole(step.run(image))
                let cpu = threadCPUNanoseconds() - start
                if traceDirectory != nil && traced < traceCapacity {
                    let after = threadUsage(), t = trace + 8 * traced
                    t[0] = cpu / 1000; t[1] = (wallNanoseconds() - wall) / 1000
                    t[2] = after.0 - usage.0; t[3] = after.1 - usage.1; t[4] = after.2 - usage.2; t[5] = after.3 - usage.3
                    t[6] = step.tracker.detectorRuns - runs
                    t[7] = step.tracker.count > 0 ? Int(step.tracker.face(0).region.width) : 0
                    traced += 1
                }
                benchmark.stopMeasurement()
                return cpu
            }
            benchmark.measurement(visionCPU, cpu / 1000)
            if paceMicroseconds > 0 { usleep(paceMicroseconds) }
            if let traceDirectory, traced % 20 == 0 {
                var text = "cpu_us\twall_us\tminflt\tmajflt\tnvcsw\tnivcsw\tdetector\tmesh_side\n"
                for i in 0..<traced {
                    text += (0..<8).map { String(trace[8 * i + $0]) }.joined(separator: "\t") + "\n"
                }
                try? text.write(toFile: traceDirectory + "/\(name).tsv", atomically: true, encoding: .utf8)
            }
        }
    }
}
