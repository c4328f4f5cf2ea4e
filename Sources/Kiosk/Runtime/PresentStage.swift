import Hardware
import ImageCore

/// Present: draws the newest frame record — its upright frame, its mask and its live state, so
/// the overlay always matches the picture — with the screen's own state (`ui`: countdown,
/// messages, review, toggles) into the display's back buffer and flips it. Runs on the event
/// loop's thread, which owns `ui`. Draws holding only the record, no lock.
final class PresentStage: KioskStage {
    let name = "present"
    let display: DisplaySink
    let renderer: OverlayRenderer
    let clock: any KioskClock
    let links: StageLinks
    /// What the screen shows besides the preview; the event loop changes it between steps.
    var ui: UIState
    /// False while the camera is away: the screen says so instead of showing a frame.
    var cameraAvailable = true
    /// Frames drawn, and the live state of the last one (what the person in front of it sees).
    private(set) var shown: UInt64 = 0
    private(set) var shownLive = LiveState()
    private var seen: UInt64? = nil
    private var lastFrameAt: ContinuousClock.Instant? = nil

    init(display: DisplaySink, renderer: OverlayRenderer, clock: any KioskClock, ui: UIState, links: StageLinks) {
        self.display = display
        self.renderer = renderer
        self.clock = clock
        self.ui = ui
        self.links = links
    }

    /// The screen must be large enough for the preview the layout places on it.
    func configure() throws(KioskError) {
        let l = renderer.layout
        guard l.x >= 0, l.y >= 0, l.x + l.width <= display.width, l.y + l.height <= display.height, l.width > 0, l.height > 0 else {
            throw .display(.unsupported(device: display.name, detail: "a \(display.width)x\(display.height) screen cannot hold "
                                        + "the \(l.width)x\(l.height) preview at \(l.x),\(l.y)"))
        }
    }

    func start() throws(KioskError) {}

    /// Draws the newest record if there is a new one (or the last one again when the screen's own
    /// state changed), or the screen without a frame while the camera is away; true when a new
    /// frame was shown. Never waits.
    func step(timeoutMilliseconds: Int32) -> Bool {
        let now = clock.now
        // After the review the last photo is only drawn in a corner: its corner-sized copy replaces
        // it (once per photo; the same pixels on screen).
        if let photo = ui.lastPhoto, !ui.isReviewing, let corner = renderer.cornerThumbnail(photo, screenWidth: display.width) {
            ui.lastPhoto = corner
        }
        let redraw = ui.needsRedrawWithoutFrame
        ui.needsRedrawWithoutFrame = false
        guard cameraAvailable else {
            if redraw { drawWithoutFrame(now: now) }
            return false
        }
        let renderer = self.renderer, timings = links.timings, ui = self.ui
        var live = shownLive
        let count = links.records.withNewest(after: redraw ? nil : seen) { record in
            live = record.live
            record.withFrame { frame, mask in
                present { screen in
                    renderer.render(frame: frame, mask: ui.hideBackground ? mask : nil, live: record.live, ui: ui, now: now,
                                    timings: timings, into: screen)
                }
            }
        }
        guard let count else {
            if redraw { drawWithoutFrame(now: now) }
            return false
        }
        shownLive = live
        guard count != seen else { return false }        // the same frame again, for a new message
        seen = count
        shown &+= 1
        if let previous = lastFrameAt {
            let dt = Double((now - previous).nanoseconds) / 1e9
            if dt > 0 { self.ui.fps = self.ui.fps == 0 ? 1 / dt : 0.9 * self.ui.fps + 0.1 / dt }
        }
        lastFrameAt = now
        return true
    }

    func stop() {}

    private func drawWithoutFrame(now: ContinuousClock.Instant) {
        let renderer = self.renderer, ui = self.ui, live = shownLive, available = cameraAvailable
        present { screen in renderer.renderWithoutFrame(live: live, ui: ui, cameraAvailable: available, now: now, into: screen) }
    }

    private func present(_ draw: (Image) -> Void) {
        do throws(HardwareError) {
            let t0 = ContinuousClock.now
            try display.drawFrame(draw)
            let t1 = ContinuousClock.now
            try display.present()
            links.timings.record(.render, nanoseconds: (t1 - t0).nanoseconds)
            links.timings.record(.display, nanoseconds: (ContinuousClock.now - t1).nanoseconds)
        } catch {
            links.log("display failed", error)
        }
    }
}
