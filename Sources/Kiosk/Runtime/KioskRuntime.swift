import Config
#if canImport(Glibc)
import Glibc
#endif
import Posix
import Hardware
import ImageCore
import ImageFiles
import Logging
import NeuralCore
import Passport
import Vision

/// The kiosk: wires five stages and runs an event loop.
///
/// Start-up reads top to bottom — config → models → camera → display → button → stages — and
/// builds the stages (`KioskStage`): capture (camera → frame ring; a still made upright for the
/// still stage), vision (newest frame → upright frame record with faces, verdict and mask),
/// still (finish, encode, save), input (buttons, ready light) and present (newest record + the
/// screen's state → display). `run` then loops on `options.clock`: it reads what the stages
/// reported (presses, a finished still, the camera's state), advances the screen's timed state
/// (countdown, messages, review), lets the present stage draw, pings the watchdog, logs the stats
/// line, and sleeps until its next deadline or until a stage wakes it.
///
/// On the wall clock capture, vision, still and input each run on their own thread and present
/// on the caller's; on a `VirtualClock` every stage is stepped inline, in pipeline order, on the
/// caller's thread. Stages share only the frame ring, the frame records and their own small
/// hand-offs (hence `@unchecked Sendable`: each stage's state is touched by its thread only).
public final class KioskRuntime: @unchecked Sendable {
    /// How many recent photos, messages, refusals and camera events a run keeps.
    public static let historyCapacity = 32
    /// The longest the loop sleeps with nothing due (it wakes earlier for any stage's news).
    static let idleWait: Duration = .milliseconds(100)

    let options: KioskOptions
    let log: Logger
    let clock: any KioskClock
    let timings: StageTimings
    let notifier = SystemdNotifier()
    let ring: FrameRing
    let capture: CaptureStage
    let vision: VisionStage
    let still: StillStage
    let input: InputStage
    let present: PresentStage
    /// Notified by every stage that has news for the event loop.
    let wakeup: StageSignal
    private let cameraStatus: CameraStatus
    /// The stages in pipeline order (the order they are stepped on virtual time).
    private var stages: [any KioskStage] { [capture, vision, still, input, present] }

    public init(options: KioskOptions, logger: Logger) throws(KioskError) {
        // Big short-lived buffers from mmap, so they cannot fragment the heap (see ProcessMemory).
        ProcessMemory.largeBuffersFromMmap()
        ProcessMemory.oneArena()
        self.options = options
        log = logger
        clock = options.clock
        let board = options.board, config = options.config
        let wakeup = StageSignal(), cameraStatus = CameraStatus()
        self.wakeup = wakeup
        self.cameraStatus = cameraStatus

        // 1. Config: the profile (passport mode) and the photo store.
        let profile: Profile?
        if config.mode == .passport {
            do { profile = try ProfileLibrary.load(config.profile) } catch { throw .config(error) }
        } else {
            profile = nil
        }
        let store: PhotoStore
        do { store = try PhotoStore(root: config.photoDirectory, minimumFreeBytes: Int64(config.minimumFreeMiB) << 20) } catch {
            throw .storage(error)
        }

        // 2. Models.
        let models: ModelStore
        do { models = try ModelStore.locate() } catch { throw .models(error.description) }
        // The still stage's own models (interpreters are not shared between threads): the
        // accurate segmenter, and in passport mode a face analyzer for the photo maker, built per
        // still and released after it. StillModels builds them once to check them, first, and the
        // pages they took go back before the live models load (the start-up peak stays low).
        let stillModels = try StillModels(store: models, inference: options.inference, faces: profile != nil)
        ProcessMemory.returnFreePages()
        // The live models run one after another on the vision thread, so they share one block of
        // integer working memory: resident is the largest model's (the full-range detector's), not
        // the sum of the three (2.2 MiB less; see SharedArena).
        // Its float plans go in the integer block: a passport still's float palm and hand models
        // run in it (under the live lock), on pages the live programs already made resident.
        let liveArena = SharedArena(capacity: 32 << 20, floatPlansInIntegerBlock: true)
        let liveVision: LiveVision
        do {
            // The stills analyzer's detector and landmarker, driven by the tracker for video;
            // without the iris model (no live rule reads it; stills load their own with it). The
            // detector is the config's (`detector`, by mode: full range in booth mode).
            let faces = try models.faceAnalyzer(path: options.inference, iris: false, detector: config.liveDetector, verify: false,
                                                sharing: liveArena)
            let tracker = FaceTracker(detector: faces.detector, landmarker: faces.landmarker, maxFaces: 2)
            tracker.detectionSlices = FaceTracker.liveDetectionSlices   // no frame carries the whole detector
            tracker.halvesLargeFaces = true   // a sitter filling the oval: the mesh input from the frame halved
            // The step costs measured and the sliced run made now, on a blank frame of the
            // vision frames' (upright I420) size, not in a live frame.
            let (vw, vh) = Rotation(rawValue: board.camera.rotation)?
                .rotatedSize(width: board.camera.previewWidth, height: board.camera.previewHeight)
                ?? (board.camera.previewWidth, board.camera.previewHeight)
            tracker.prepareDetectionSlices(frameWidth: vw, frameHeight: vh, format: .i420)
            liveVision = LiveVision(tracker: tracker, rules: profile.map { LiveRules(profile: $0) })
        } catch {
            throw .models("\(error)")
        }
        let segmenter: PersonSegmenter
        do {
            segmenter = try models.segmenter(.fast, sharing: liveArena)
            segmenter.temporalStability = true
        } catch {
            throw .models("segmentation: \(error)")
        }
        // Lent to the still path: a landscape still runs the live model under the live lock.
        let liveSegmentation = LiveSegmentation(segmenter: segmenter, arena: liveArena)
        stillModels.live = liveSegmentation
        let finish: StillFinish
        let greeting = try Self.background(config, as: .rgb888)
        if let profile {
            finish = .passport(profile, stillModels)
        } else {
            finish = .greeting(models: stillModels, background: greeting)
        }
        let processor = StillProcessor(config: config, board: board, store: store, profile: profile, finish: finish)

        // 3. Camera: frames go into a ring sized from the preview format, allocated once; the
        //    vision stage makes each one upright, once, into a frame record of the upright size.
        let camera = Devices.camera(board, folderOverride: options.cameraFolder, open: options.openCamera,
                                    clock: options.clock.monotonic) { event in
            cameraStatus.note(event, log: logger)
            wakeup.notify()
        }
        let pw = board.camera.previewWidth, ph = board.camera.previewHeight
        let rotation = Rotation(rawValue: board.camera.rotation)
        let (uw, uh) = rotation?.rotatedSize(width: pw, height: ph) ?? (pw, ph)
        let links = StageLinks(ring: FrameRing(slotCount: 4, format: .i420, width: pw, height: ph),
                               records: FrameRecords(width: uw, height: uh), rotation: rotation, timings: StageTimings(),
                               frameArrived: StageSignal(), wakeup: wakeup,
                               log: { what, error in logger.error("\(what)", metadata: ["error": "\(error)"]) })
        ring = links.ring
        timings = links.timings
        let still = StillStage(processor: processor, links: links)
        self.still = still
        capture = CaptureStage(camera: camera, previewSize: (pw, ph), links: links) { image, metadata in
            still.submit(image, metadata: metadata)
        }
        let guide = LayoutGuide.centred(width: uw, height: uh)
        vision = VisionStage(links: links, vision: liveVision, live: liveSegmentation, guide: guide)

        // 4. Display.
        let display: DisplaySink
        do { display = try Devices.display(board, folderOverride: options.screensDirectory) } catch { throw .display(error) }
        let renderer = OverlayRenderer(layout: PreviewLayout(frameWidth: uw, frameHeight: uh, screenWidth: display.width,
                                                             screenHeight: display.height, mirrored: board.camera.mirrorPreview),
                                       profile: profile, font: try OverlayFont.load(), guide: guide,
                                       background: try Self.background(config, as: .xrgb8888))
        present = PresentStage(display: display, renderer: renderer, clock: options.clock, ui: UIState(config: config), links: links)

        // 5. Buttons.
        do {
            input = InputStage(shutter: try Devices.shutter(board, script: options.shutterScript, clock: options.clock.monotonic),
                               hideButton: try Devices.extraButton(board, line: board.gpio.hideBackgroundLine,
                                                                   consumer: "booth-hide-background"),
                               debugButton: try Devices.extraButton(board, line: board.gpio.debugLine, consumer: "booth-debug"),
                               links: links)
        } catch { throw .button(error) }
        ProcessMemory.returnFreePages()   // what loading the live models dropped

        // 6. Stages: each checks what it was handed.
        for stage in stages { try stage.configure() }
        logger.info("kiosk ready", metadata: [
            "board": "\(board.name)", "mode": "\(config.mode.rawValue)", "camera": "\(camera.name) \(pw)x\(ph)",
            "display": "\(display.name)", "shutter": "\(input.shutter.name)", "photos": "\(config.photoDirectory)",
        ])
    }

    /// What replaces the hidden background: the greeting image in booth mode, else white.
    static func background(_ config: KioskConfig, as format: PixelFormat) throws(KioskError) -> ImageBuffer? {
        guard config.mode == .booth, !config.background.isEmpty else { return nil }
        do { return try ImageDecoder.decode(path: config.background, as: format) } catch {
            throw .config(ConfigError(file: config.background, key: "background", message: error.description))
        }
    }

    // MARK: The loop

    /// What a run has seen, kept bounded for the life of the service.
    private struct Tally {
        var presses: UInt64 = 0
        var refusals = RecentHistory<String>(capacity: KioskRuntime.historyCapacity)
        var photos = RecentHistory<SavedPhoto>(capacity: KioskRuntime.historyCapacity)
        var messages = RecentHistory<String>(capacity: KioskRuntime.historyCapacity)
    }

    /// Runs until `stop` is set (or `options.duration` passes on the clock); returns what happened.
    public func run(stop: StopSignal) -> KioskSummary {
        let startStats = ProcessStats.now()
        let began = clock.now
        var tally = Tally()

        // 7. Stages start; on the wall clock capture, vision, still and input get a thread each.
        for stage in stages {
            do { try stage.start() } catch { log.error("\(stage.name) start failed", metadata: ["error": "\(error)"]) }
        }
        var threads: [PosixThread] = []
        if !clock.isVirtual {
            threads.append(spawn(capture, every: 50, stop))
            threads.append(spawn(vision, every: 20, stop))
            threads.append(spawn(still, every: 200, stop))
            threads.append(spawn(input, every: 20, stop))
        }
        notifier.ready(status: "running")

        let end = options.duration.map { began + $0 }
        var nextReport = began + options.reportInterval
        var nextWatchdog = notifier.watchdogInterval.map { began + $0 }
        while !stop.isSet {
            let generation = wakeup.generation
            if let end, clock.now >= end { break }
            if clock.isVirtual {
                for stage in [capture, vision, still, input] as [any KioskStage] { stage.step(timeoutMilliseconds: 0) }
            }
            let now = clock.now
            handleStageNews(now: now, tally: &tally)
            present.step(timeoutMilliseconds: 0)

            // Watchdog and the stats line.
            if let due = nextWatchdog, let interval = notifier.watchdogInterval, now >= due {
                notifier.watchdog()
                nextWatchdog = now + interval
            }
            if now >= nextReport {
                report()
                nextReport = now + options.reportInterval
            }
            var deadline = min(nextReport, now + Self.idleWait)
            if let due = nextWatchdog { deadline = min(deadline, due) }
            if let end { deadline = min(deadline, end) }
            if let due = present.ui.nextDeadline() { deadline = min(deadline, due) }
            clock.wait(until: deadline, wakeup: wakeup, generation: generation)
        }

        // 8. Teardown: the threads watch the same flag; then the stages release their devices.
        notifier.stopping()
        stop.set()
        still.stop()
        for t in threads { t.join() }
        // A still that arrived or finished during shutdown is saved and counted too.
        still.step(timeoutMilliseconds: 0)
        if let result = still.takeResult() { take(result, now: clock.now, tally: &tally) }
        for stage in stages.reversed() { stage.stop() }
        do throws(HardwareError) { try (present.display as? PNGDisplay)?.flush() } catch {   // PNG screens are written off-thread
            log.error("display failed", metadata: ["error": "\(error)"])
        }
        report()
        return KioskSummary(framesPublished: ring.publishedCount, framesDropped: ring.droppedCount,
                            framesAnalysed: vision.analysedFrames, framesShown: present.shown,
                            shutterPresses: tally.presses, refusals: tally.refusals.elements,
                            photosSaved: tally.photos.total, photos: tally.photos.elements, messages: tally.messages.elements,
                            cameraEvents: cameraStatus.events, start: startStats, end: ProcessStats.now())
    }

    /// Acts on what the stages reported since the last turn: button presses, the camera coming
    /// and going, the screen's timed state, a finished still. The shutter is judged on the live
    /// state of the frame on screen.
    private func handleStageNews(now: ContinuousClock.Instant, tally: inout Tally) {
        let live = present.shownLive
        let presses = input.takePresses()
        for _ in 0..<presses.shutter {
            tally.presses &+= 1
            handleShutter(state: live, now: now, tally: &tally)
        }
        if presses.hideBackground % 2 == 1 { present.ui.hideBackground.toggle() }
        if presses.debug % 2 == 1 { present.ui.debug.toggle() }
        vision.hideBackground.store(present.ui.hideBackground, ordering: .relaxed)
        input.setReadyLight(options.config.mode == .booth || live.green)

        let available = cameraStatus.isAvailable
        if available != present.cameraAvailable {
            present.cameraAvailable = available
            present.ui.needsRedrawWithoutFrame = true
        }
        if present.ui.tick(now: now) { requestStill(state: live, now: now) }
        if let result = still.takeResult() { take(result, now: now, tally: &tally) }
    }

    private func take(_ result: StillResult, now: ContinuousClock.Instant, tally: inout Tally) {
        tally.messages.append(result.message)
        present.ui.showResult(result, now: now)
        if let saved = result.saved {
            tally.photos.append(saved)
            log.info("photo saved", metadata: ["path": "\(saved.jpeg)"])
        } else {
            log.error("photo not saved", metadata: ["reason": "\(result.message)"])
        }
    }

    private func handleShutter(state: LiveState, now: ContinuousClock.Instant, tally: inout Tally) {
        guard present.ui.canShoot else { return }
        if options.config.mode == .passport && !state.green {
            let text = present.renderer.text(for: state.instruction)
            present.ui.flash(text, now: now)
            tally.refusals.append(text)
            log.info("shutter refused", metadata: ["instruction": "\(state.instruction)"])
            return
        }
        if options.config.mode == .booth && options.config.countdown > 0 {
            present.ui.startCountdown(now: now)
        } else {
            requestStill(state: state, now: now)
        }
    }

    private func requestStill(state: LiveState, now: ContinuousClock.Instant) {
        do {
            // Only the reserve here (min_free_mib = 0 means 0); the save checks the photo's own bytes.
            try still.processor.store.checkSpace(for: 0)
        } catch {
            if case .diskNearlyFull = error { present.ui.flash("Disk full: photo not taken", now: now) }
            else { present.ui.flash("Photo folder unavailable: photo not taken", now: now) }
            log.error("shot refused", metadata: ["reason": "\(error)"])
            return
        }
        guard cameraStatus.isAvailable else {
            present.ui.flash("Camera unavailable", now: now)
            return
        }
        still.expect(live: state, hideBackground: present.ui.hideBackground)
        capture.requestStill()
        present.ui.capturing(now: now)
    }

    private func report() {
        // Per stage: mean wall ms × runs, then the thread's CPU ms (median / max) where measured.
        let t = timings.drain().filter { $0.count > 0 }.map { s in
            let cpu = s.meanCPUMilliseconds > 0
                ? String(cFormat: "(cpu %.2f/%.2f)", s.medianCPUMilliseconds, s.maxCPUMilliseconds) : ""
            return "\(s.stage.name)=\(String(cFormat: "%.1f", s.meanMilliseconds))ms\(cpu)×\(s.count)"
        }.joined(separator: " ")
        log.info("stats", metadata: [
            "published": "\(ring.publishedCount)", "dropped": "\(ring.droppedCount)", "shown": "\(present.shown)",
            "fps": "\(String(cFormat: "%.1f", present.ui.fps))",
            "timings": "\(t)", "process": "\(ProcessStats.now())",
        ])
    }

    /// Steps `stage` on a thread of its own until `stop`, letting it wait up to `every` ms for work.
    private func spawn(_ stage: any KioskStage, every timeoutMilliseconds: Int32, _ stop: StopSignal) -> PosixThread {
        guard let index = stages.firstIndex(where: { $0 === stage }) else { preconditionFailure("\(stage.name) is not a wired stage") }
        return PosixThread(name: "booth-\(stage.name)") { [self] in
            let stage = stages[index]
            while !stop.isSet { stage.step(timeoutMilliseconds: timeoutMilliseconds) }
        }
    }

    // MARK: Lockstep (the steady-state benchmark)

    /// The per-frame stages on the caller's thread, with the same steps `run` uses: capture →
    /// ring → vision (upright record: faces, rules, mask when the background is hidden) →
    /// present. For `Benchmarks/KioskBenchmarks`, which holds one frame of this at zero mallocs.
    /// Not for use while `run` is running.
    public final class Lockstep {
        let kiosk: KioskRuntime

        public init(_ kiosk: KioskRuntime) throws(KioskError) {
            self.kiosk = kiosk
            kiosk.vision.hideBackground.store(kiosk.present.ui.hideBackground, ordering: .relaxed)
            try kiosk.capture.start()
        }

        deinit { kiosk.capture.stop() }

        /// One frame; false when the camera had none ready.
        @discardableResult
        public func frame() -> Bool {
            kiosk.capture.step(timeoutMilliseconds: 100)
            guard kiosk.vision.step(timeoutMilliseconds: 0) else { return false }
            return kiosk.present.step(timeoutMilliseconds: 0)
        }
    }
}
