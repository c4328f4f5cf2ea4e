import Config
import Foundation
import Hardware
import ImageCore
import ImageFiles
import Logging
import NeuralCore
import Passport
import Synchronization
import Vision

/// What `booth run` was asked to do beyond the config and board files.
public struct KioskOptions {
    public var config: KioskConfig
    public var board: Board
    /// Stop after this long (`--for`); nil = until SIGTERM/SIGINT.
    public var duration: Duration?
    /// Overrides of the board's fake devices, for demos and tests.
    public var cameraFolder: String?
    public var screensDirectory: String?
    public var shutterScript: [Double]?
    /// How often the stats line is logged.
    public var reportInterval: Duration = .seconds(60)
    /// Inference path of the live face stages.
    public var inference: ExecutionPath = .integer
    /// Replaces the board's camera (tests inject failing cameras here); still wrapped for reconnects.
    public var openCamera: ReconnectingFrameSource.Opener?

    public init(config: KioskConfig, board: Board) {
        self.config = config
        self.board = board
    }
}

/// What a run did, for the log and for tests.
public struct KioskSummary: Sendable {
    public var framesPublished: UInt64
    public var framesDropped: UInt64
    public var framesAnalysed: UInt64
    public var framesShown: UInt64
    public var photos: [SavedPhoto]
    public var messages: [String]
    public var cameraEvents: [String]
    public var start: ProcessStats
    public var end: ProcessStats
}

/// The kiosk. Start-up reads top to bottom — config → models → camera → display → button →
/// loop → teardown — and `run` owns three threads besides the caller's: capture (pumps the
/// camera into the frame ring; never waits for anyone), vision (takes the newest frame, drops the
/// rest) and still (encodes and saves photos off the preview path). The caller's thread draws the
/// screen, reads the buttons and pings the watchdog.
///
/// Thread ownership (hence `@unchecked Sendable`): the camera is touched only by the capture
/// thread (a still is requested through `stillRequested`), the face stages only by the vision
/// thread, the still processor only by the still thread, display/buttons/renderer only by the
/// caller's thread. They share the frame ring, `live` (a Mutex), the atomics and `StillQueue`.
public final class KioskRuntime: @unchecked Sendable {
    let options: KioskOptions
    let log: Logger
    let ring: FrameRing
    let camera: ReconnectingFrameSource
    let display: DisplaySink
    let shutter: ShutterButton
    let hideButton: ShutterButton?
    let debugButton: ShutterButton?
    let vision: LiveVision
    let segmenter: PersonSegmenter
    let masks: MaskExchange
    let stills: StillProcessor
    let renderer: OverlayRenderer
    let guide: LayoutGuide
    let timings = StageTimings()
    let notifier = SystemdNotifier()

    private let live = Mutex(LiveState())
    private let cameraStatus = CameraStatus()
    private let stillRequested = Atomic<Bool>(false)
    private let hideBackground = Atomic<Bool>(false)
    private let stillQueue = StillQueue()
    private let rotation: Rotation?
    private let upright: ImageBuffer?

    public init(options: KioskOptions, logger: Logger) throws(KioskError) {
        // Big short-lived buffers from mmap, so they cannot fragment the heap (see ProcessMemory).
        ProcessMemory.largeBuffersFromMmap()
        ProcessMemory.oneArena()
        self.options = options
        log = logger
        let board = options.board, config = options.config

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
        guard let dir = ModelFiles.directory() else {
            throw .models("not found in \(ModelFiles.searchPath.joined(separator: ", ")); run scripts/fetch-models")
        }
        // The still thread's own models (interpreters are not shared between threads): the
        // accurate segmenter, and in passport mode a face analyzer for the photo maker, built per
        // still and released after it. StillModels builds them once to check them, first, and the
        // pages they took go back before the live models load (the start-up peak stays low).
        let stillModels = try StillModels(directory: dir, inference: options.inference, faces: profile != nil)
        ProcessMemory.returnFreePages()
        do {
            // The stills analyzer's detector and landmarker, driven by the tracker for video;
            // without the iris model (no live rule reads it; stills load their own with it).
            let faces = try FaceAnalyzer(modelDirectory: dir, path: options.inference, iris: false)
            vision = LiveVision(tracker: FaceTracker(detector: faces.detector, landmarker: faces.landmarker, maxFaces: 2),
                                rules: profile.map { LiveRules(profile: $0) })
        } catch {
            throw .models("\(error)")
        }
        do {
            let s = try PersonSegmenter(level: .fast, generalModel: nil,
                                        landscapeModel: try FileIO.read("\(dir)/selfie_segmentation_landscape.tflite", limit: 64 << 20))
            s.temporalStability = true
            segmenter = s
        } catch {
            throw .models("segmentation: \(error)")
        }
        let finish: StillFinish
        let greeting = try Self.background(config, as: .rgb888)
        if let profile {
            finish = .passport(profile, stillModels)
        } else {
            finish = .greeting(models: stillModels, background: greeting)
        }
        stills = StillProcessor(config: config, board: board, store: store, profile: profile, finish: finish)

        // 3. Camera: frames go into a ring sized from the preview format, allocated once.
        let status = cameraStatus, log = logger
        camera = Devices.camera(board, folderOverride: options.cameraFolder, open: options.openCamera) { event in
            status.note(event, log: log)
        }
        let pw = board.camera.previewWidth, ph = board.camera.previewHeight
        ring = FrameRing(slotCount: 4, format: .i420, width: pw, height: ph)
        rotation = Rotation(rawValue: board.camera.rotation)
        let (uw, uh) = rotation?.rotatedSize(width: pw, height: ph) ?? (pw, ph)
        upright = rotation.map { _ in ImageBuffer(format: .i420, width: uw, height: uh) }
        guide = LayoutGuide.centred(width: uw, height: uh)
        masks = MaskExchange(width: uw, height: uh)

        // 4. Display.
        do { display = try Devices.display(board, folderOverride: options.screensDirectory) } catch { throw .display(error) }
        renderer = OverlayRenderer(layout: PreviewLayout(frameWidth: uw, frameHeight: uh, screenWidth: display.width,
                                                         screenHeight: display.height, mirrored: board.camera.mirrorPreview),
                                   rotation: rotation, profile: profile, font: try OverlayFont.load(), guide: guide,
                                   background: try Self.background(config, as: .xrgb8888))

        // 5. Buttons.
        do {
            shutter = try Devices.shutter(board, script: options.shutterScript)
            hideButton = try Devices.extraButton(board, line: board.gpio.hideBackgroundLine, consumer: "booth-hide-background")
            debugButton = try Devices.extraButton(board, line: board.gpio.debugLine, consumer: "booth-debug")
        } catch { throw .button(error) }
        ProcessMemory.returnFreePages()   // what loading the live models dropped
        logger.info("kiosk ready", metadata: [
            "board": "\(board.name)", "mode": "\(config.mode.rawValue)", "camera": "\(camera.name) \(pw)x\(ph)",
            "display": "\(display.name)", "shutter": "\(shutter.name)", "photos": "\(config.photoDirectory)",
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

    /// Runs until `stop` is set (or `options.duration` passes); returns what happened.
    public func run(stop: StopSignal) -> KioskSummary {
        let start = ProcessStats.now()
        let began = ContinuousClock.now
        var photos: [SavedPhoto] = []
        var messages: [String] = []

        // 6. Threads: capture, vision, still.
        let threadsDone = DispatchGroup()
        spawn("booth-capture", threadsDone) { [self] in captureLoop(stop) }
        spawn("booth-vision", threadsDone) { [self] in visionLoop(stop) }
        spawn("booth-still", threadsDone) { [self] in stillLoop(stop) }
        notifier.ready(status: "running")

        var ui = UIState(config: options.config)
        var lastShown: UInt64? = nil
        var lastWatchdog = ContinuousClock.now
        var lastReport = ContinuousClock.now
        var shown: UInt64 = 0
        var lastFrameShown: ContinuousClock.Instant? = nil
        try? shutter.setReadyLight(false)
        var lightOn = false

        while !stop.isSet {
            let now = ContinuousClock.now
            if let d = options.duration, now - began >= d { break }
            let state = live.withLock { $0 }

            // Buttons.
            if let event = try? shutter.nextEvent(timeoutMilliseconds: 0), event.isPress {
                handleShutter(&ui, state: state, now: now)
            }
            if let b = hideButton, let e = try? b.nextEvent(timeoutMilliseconds: 0), e.isPress { ui.hideBackground.toggle() }
            if let b = debugButton, let e = try? b.nextEvent(timeoutMilliseconds: 0), e.isPress { ui.debug.toggle() }
            hideBackground.store(ui.hideBackground, ordering: .relaxed)
            let ready = options.config.mode == .booth || state.green
            if ready != lightOn { try? shutter.setReadyLight(ready); lightOn = ready }

            // Countdown, still results, review.
            if ui.tick(now: now) { requestStill(state: state, ui: &ui, now: now) }
            if let result = stillQueue.takeResult() {
                if let saved = result.saved { photos.append(saved) }
                messages.append(result.message)
                ui.showResult(result, now: now)
                if result.saved == nil { log.error("photo not saved", metadata: ["reason": "\(result.message)"]) }
                else { log.info("photo saved", metadata: ["path": "\(result.saved!.jpeg)"]) }
            }

            // Draw the newest frame (or the camera-unavailable screen).
            let available = cameraStatus.isAvailable
            if drawNewest(after: &lastShown, state: state, ui: ui, now: now) {
                shown &+= 1
                if let previous = lastFrameShown {
                    let dt = Double((now - previous).nanoseconds) / 1e9
                    if dt > 0 { ui.fps = ui.fps == 0 ? 1 / dt : 0.9 * ui.fps + 0.1 / dt }
                }
                lastFrameShown = now
            } else if !available || ui.needsRedrawWithoutFrame {
                let ui2 = ui
                present { screen in renderer.renderWithoutFrame(live: state, ui: ui2, cameraAvailable: available, now: now, into: screen) }
                ui.needsRedrawWithoutFrame = false
                usleep(20_000)
            } else {
                usleep(2_000)
            }

            // Watchdog and the stats line.
            if let interval = notifier.watchdogInterval, now - lastWatchdog >= interval {
                notifier.watchdog()
                lastWatchdog = now
            }
            if now - lastReport >= options.reportInterval {
                report(shown: shown, fps: ui.fps)
                lastReport = now
            }
        }

        // 7. Teardown: stop the threads (they watch the same flag), wait, release devices.
        notifier.stopping()
        stop.set()
        stillQueue.wake()
        threadsDone.wait()
        // A still the still thread finished during shutdown counts too.
        while let result = stillQueue.takeResult() {
            if let saved = result.saved { photos.append(saved) }
            messages.append(result.message)
        }
        do throws(HardwareError) { try (display as? PNGDisplay)?.flush() } catch {   // PNG screens are written off-thread
            log.error("display failed", metadata: ["error": "\(error)"])
        }
        try? shutter.setReadyLight(false)
        report(shown: shown, fps: ui.fps)
        let end = ProcessStats.now()
        return KioskSummary(framesPublished: ring.publishedCount, framesDropped: ring.droppedCount,
                            framesAnalysed: live.withLock { $0.analysedFrames }, framesShown: shown,
                            photos: photos, messages: messages, cameraEvents: cameraStatus.events, start: start, end: end)
    }

    /// Draws the newest frame after `lastShown`, if any, with the overlay; true when one was shown.
    private func drawNewest(after lastShown: inout UInt64?, state: LiveState, ui: UIState, now: ContinuousClock.Instant) -> Bool {
        guard let lease = ring.newest(after: lastShown) else { return false }
        // The lease keeps the slot from being overwritten until the frame is drawn.
        let frame = lease.image
        lastShown = frame.metadata.sequence
        (shutter as? ScriptedShutter)?.noteFrame(sequence: frame.metadata.sequence)
        let masks = self.masks, renderer = self.renderer, timings = self.timings
        present { screen in
            masks.withNewest { mask in
                renderer.render(frame: frame, mask: ui.hideBackground ? mask : nil, live: state, ui: ui, now: now,
                                timings: timings, into: screen)
            }
        }
        _ = consume lease
        return true
    }

    private func present(_ draw: (Image) -> Void) {
        do throws(HardwareError) {
            let t0 = ContinuousClock.now
            let screen = try display.beginFrame()
            draw(screen)
            let t1 = ContinuousClock.now
            try display.present()
            timings.record(.render, nanoseconds: (t1 - t0).nanoseconds)
            timings.record(.display, nanoseconds: (ContinuousClock.now - t1).nanoseconds)
        } catch {
            log.error("display failed", metadata: ["error": "\(error)"])
        }
    }

    private func handleShutter(_ ui: inout UIState, state: LiveState, now: ContinuousClock.Instant) {
        guard ui.canShoot else { return }
        if options.config.mode == .passport && !state.green {
            ui.flash("\(renderer.text(for: state.instruction))", now: now)
            log.info("shutter refused", metadata: ["instruction": "\(state.instruction)"])
            return
        }
        if options.config.mode == .booth && options.config.countdown > 0 {
            ui.startCountdown(now: now)
        } else {
            requestStill(state: state, ui: &ui, now: now)
        }
    }

    private func requestStill(state: LiveState, ui: inout UIState, now: ContinuousClock.Instant) {
        do {
            // Only the reserve here (min_free_mib = 0 means 0); the save checks the photo's own bytes.
            try stills.store.checkSpace(for: 0)
        } catch {
            if case .diskNearlyFull = error { ui.flash("Disk full: photo not taken", now: now) }
            else { ui.flash("Photo folder unavailable: photo not taken", now: now) }
            log.error("shot refused", metadata: ["reason": "\(error)"])
            return
        }
        guard cameraStatus.isAvailable else {
            ui.flash("Camera unavailable", now: now)
            return
        }
        stillQueue.expect(live: state, hideBackground: ui.hideBackground)
        stillRequested.store(true, ordering: .releasing)
        ui.capturing(now: now)
    }

    private func report(shown: UInt64, fps: Double) {
        // Per stage: mean wall ms × runs, then the thread's CPU ms (median / max) where measured.
        let t = timings.drain().filter { $0.count > 0 }.map { s in
            let cpu = s.meanCPUMilliseconds > 0
                ? String(format: "(cpu %.2f/%.2f)", s.medianCPUMilliseconds, s.maxCPUMilliseconds) : ""
            return "\(s.stage.name)=\(String(format: "%.1f", s.meanMilliseconds))ms\(cpu)×\(s.count)"
        }.joined(separator: " ")
        log.info("stats", metadata: [
            "published": "\(ring.publishedCount)", "dropped": "\(ring.droppedCount)", "shown": "\(shown)",
            "fps": "\(String(format: "%.1f", fps))",
            "timings": "\(t)", "process": "\(ProcessStats.now())",
        ])
    }

    // MARK: Threads

    private func spawn(_ name: String, _ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        let t = Thread {
            body()
            group.leave()
        }
        t.name = name
        t.start()
    }

    /// Capture: pump the camera into the ring; a still goes to the still worker (copied once,
    /// since the camera's buffer is only valid during the callback).
    private func captureLoop(_ stop: StopSignal) {
        do { try camera.start() } catch { log.error("camera start failed", metadata: ["error": "\(error)"]) }
        while !stop.isSet { captureStep(timeoutMilliseconds: 50) }
        camera.stop()
    }

    /// One pump of the camera: a preview frame into the ring, or a still to the still worker.
    private func captureStep(timeoutMilliseconds: Int32) {
        let ring = self.ring, queue = stillQueue, timings = self.timings
        if stillRequested.exchange(false, ordering: .acquiringAndReleasing) {
            do { try camera.requestStill() } catch {
                log.error("still request failed", metadata: ["error": "\(error)"])
            }
        }
        _ = camera.pump(timeoutMilliseconds: timeoutMilliseconds, deliver: { metadata, fill in
            let start = ContinuousClock.now
            let ok = ring.produce(metadata: metadata, fill)
            timings.record(.capture, nanoseconds: (ContinuousClock.now - start).nanoseconds)
            return ok
        }, still: { image in
            let copy = ImageBuffer(format: image.format, width: image.width, height: image.height)
            CopyPlane.run(image, copy.image())
            queue.submit(copy, metadata: image.metadata)
        })
    }

    /// Vision: the newest frame only; frames that arrive meanwhile are skipped (the ring counts them).
    private func visionLoop(_ stop: StopSignal) {
        var last: UInt64? = nil
        while !stop.isSet {
            if !visionStep(after: &last) { usleep(2_000) }
        }
    }

    /// The newest frame after `last` through faces, rules and (background hidden) segmentation.
    private func visionStep(after last: inout UInt64?) -> Bool {
        guard let lease = ring.newest(after: last) else { return false }
        var frame = lease.image
        last = frame.metadata.sequence
        if let rotation, let upright {
            Rotate.run(frame, upright.image(), rotation)
            frame = upright.image(metadata: frame.metadata)
        }
        let guide = self.guide, vision = self.vision, timings = self.timings
        timings.measure(.vision) {
            let state = vision.analyze(frame, guide: guide, timings: timings)
            live.withLock { $0 = state }
            if hideBackground.load(ordering: .relaxed) {
                let segmenter = self.segmenter
                let mask = timings.measure(.segment) { segmenter.segment(frame) }
                masks.publish(mask.plane, sequence: frame.metadata.sequence &+ 1)
            }
        }
        _ = consume lease
        return true
    }

    /// Still: encode and save each still as it comes.
    private func stillLoop(_ stop: StopSignal) {
        while !stop.isSet {
            guard let job = stillQueue.next(stop: stop) else { continue }
            let result = timings.measure(.still) { stills.process(job) }
            ProcessMemory.returnFreePages()   // the still's models, dropped
            stillQueue.finish(result)
        }
    }

    // MARK: Lockstep (the steady-state benchmark)

    /// The per-frame stages on the caller's thread, in the order the threads run them, with the
    /// same functions `run` uses: camera → ring → vision (faces, rules, mask when the background
    /// is hidden) → overlay → display. For `Benchmarks/KioskBenchmarks`, which holds one frame of
    /// this at zero mallocs. Not for use while `run` is running.
    public final class Lockstep {
        let kiosk: KioskRuntime
        var ui: UIState
        var lastAnalysed: UInt64? = nil
        var lastShown: UInt64? = nil

        public init(_ kiosk: KioskRuntime) throws(KioskError) {
            self.kiosk = kiosk
            ui = UIState(config: kiosk.options.config)
            kiosk.hideBackground.store(ui.hideBackground, ordering: .relaxed)
            do { try kiosk.camera.start() } catch { throw .camera(error) }
        }

        deinit { kiosk.camera.stop() }

        /// One frame; false when the camera had none ready.
        @discardableResult
        public func frame() -> Bool {
            kiosk.captureStep(timeoutMilliseconds: 100)
            guard kiosk.visionStep(after: &lastAnalysed) else { return false }
            let state = kiosk.live.withLock { $0 }
            return kiosk.drawNewest(after: &lastShown, state: state, ui: ui, now: .now)
        }
    }
}
