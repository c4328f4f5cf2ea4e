import Hardware
import ImageCore
import Passport
import Vision

/// The kiosk's overlay screens outside the kiosk loop, from fixed inputs, so that the same screen
/// can be drawn twice and compared pixel for pixel: `booth-vmcheck` draws them through DRM in
/// QEMU and on the host (scripts/vm/run). Everything a kiosk frame uses is real — the
/// `OverlayRenderer`, `UIState`, a `LiveState` whose rule outcomes come from `LiveRules`, the
/// console font, a camera frame from `SyntheticSource` — only the inputs are fixed: the face
/// measurements, the clock instant and the debug panel's timing.
public final class OverlayScenes {
    public enum Scene: Int, CaseIterable, Sendable {
        /// Face too small and off centre, head turned: red oval, amber box, "move closer", debug panel.
        case adjust
        /// Face in the guide: green oval and box, "ready", debug panel, last-photo thumbnail.
        case ready
        /// Green, countdown digit, background hidden by a person-shaped mask, thumbnail.
        case countdown
        /// The saved photo with "Saved".
        case review
        /// No camera frame: "Camera unavailable".
        case cameraUnavailable

        public var name: String {
            switch self {
            case .adjust: return "adjust"
            case .ready: return "ready"
            case .countdown: return "countdown"
            case .review: return "review"
            case .cameraUnavailable: return "camera-unavailable"
            }
        }
    }

    public let screenWidth: Int
    public let screenHeight: Int
    private let renderer: OverlayRenderer
    private let rules: LiveRules
    private let guide: LayoutGuide
    private let frame: ImageBuffer
    private let mask: ImageBuffer
    private let thumbnail: ImageBuffer
    private let timings = StageTimings()
    private let instant = ContinuousClock.now

    /// Scenes under the passport profile `profileName` (a name from `profiles/` or a path).
    public convenience init(screenWidth: Int, screenHeight: Int, profileName: String) throws(KioskError) {
        let profile: Profile
        do { profile = try ProfileLibrary.load(profileName) } catch { throw .config(error) }
        try self.init(screenWidth: screenWidth, screenHeight: screenHeight, profile: profile)
    }

    /// Scenes for a `screenWidth`×`screenHeight` screen, a 640×480 mirrored preview and `profile`.
    public init(screenWidth: Int, screenHeight: Int, profile: Profile) throws(KioskError) {
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        let fw = 640, fh = 480
        guide = LayoutGuide.centred(width: fw, height: fh)
        rules = LiveRules(profile: profile)
        renderer = OverlayRenderer(
            layout: PreviewLayout(frameWidth: fw, frameHeight: fh, screenWidth: screenWidth, screenHeight: screenHeight, mirrored: true),
            profile: profile, font: try OverlayFont.load(), guide: guide, background: nil)
        frame = ImageBuffer(format: .i420, width: fw, height: fh)
        frame.withImage { SyntheticSource.draw(into: $0, sequence: 42) }
        // A person: an ellipse for the head over a wider one for the shoulders.
        mask = ImageBuffer(format: .gray8, width: fw, height: fh)
        let g = guide.box
        mask.withImage { m in
            for y in 0..<fh {
                let row = m.luma.row(y)
                for x in 0..<fw {
                    let hx = (Float(x) - g.center.x) / (g.width / 2), hy = (Float(y) - g.center.y) / (g.height / 2)
                    let sx = (Float(x) - g.center.x) / (g.width * 1.2), sy = (Float(y) - Float(fh)) / (Float(fh) - g.y - g.height * 0.8)
                    row[x] = hx * hx + hy * hy <= 1 || sx * sx + sy * sy <= 1 ? 255 : 0
                }
            }
        }
        timings.record(.landmarks, nanoseconds: 12_400_000)
        thumbnail = StillProcessor.thumbnail(of: frame)
    }

    /// The face the scene shows, in frame coordinates, and the live state the vision worker would publish for it.
    public func live(_ scene: Scene) -> LiveState {
        let g = guide.box, p = rules.profile.live
        var face: FaceMeasurement
        switch scene {
        case .adjust, .cameraUnavailable:
            face = FaceMeasurement(box: Rect(x: g.x + g.width * 0.45, y: g.y + g.height * 0.30, width: g.width * 0.55, height: g.height * 0.55),
                                   roll: 0, pitch: p.maxAbsPitch * 0.5, yaw: p.maxAbsYaw * 1.6, quality: 0.9, eyeOpenness: 1, mouthOpenness: 0)
        case .ready, .countdown, .review:
            face = FaceMeasurement(box: Rect(x: g.x + 2, y: g.y + 3, width: g.width, height: g.height * 0.95),
                                   roll: p.maxAbsRoll * 0.2, pitch: -p.maxAbsPitch * 0.3, yaw: p.maxAbsYaw * 0.1,
                                   quality: 0.95, eyeOpenness: 1, mouthOpenness: 0)
        }
        var state = LiveState()
        state.sequence = 42
        state.analysedFrames = 42
        state.faceCount = 1
        state.faceBox = face.box
        state.roll = face.roll; state.pitch = face.pitch; state.yaw = face.yaw
        state.quality = face.quality
        state.check = withUnsafePointer(to: face) { rules.check(faces: UnsafeBufferPointer(start: $0, count: 1), guide: guide) }
        state.green = state.check.passed
        state.instruction = state.check.instruction
        return state
    }

    /// Bytes of the last photo the scenes draw: the review's copy, or (`cornerThumbnail`) the
    /// corner-sized one the kiosk keeps after the review.
    public func lastPhotoBytes(cornerThumbnail: Bool) -> Int {
        (cornerThumbnail ? renderer.cornerThumbnail(thumbnail, screenWidth: screenWidth) ?? thumbnail : thumbnail).byteCount
    }

    /// Draws `scene` into `screen` (XRGB8888, `screenWidth`×`screenHeight`), as the kiosk's loop would.
    /// `guideGreen` overrides the guide's colour (a negative control: the same scene, one colour changed).
    /// `cornerThumbnail`: the last photo as the kiosk keeps it after the review, at its corner size
    /// (`OverlayRenderer.cornerThumbnail`), instead of the review's 320-pixel copy.
    public func render(_ scene: Scene, into screen: Image, guideGreen: Bool? = nil, cornerThumbnail: Bool = false) {
        precondition(screen.format == .xrgb8888 && screen.width == screenWidth && screen.height == screenHeight, "scene screen size")
        var state = live(scene)
        if let guideGreen { state.green = guideGreen }
        var ui = UIState(reviewSeconds: 3, countdown: 3, hideBackground: false, debug: true)
        let thumbnail = cornerThumbnail ? renderer.cornerThumbnail(self.thumbnail, screenWidth: screenWidth) ?? self.thumbnail : self.thumbnail
        switch scene {
        case .adjust:
            break
        case .ready:
            ui.lastPhoto = thumbnail
        case .countdown:
            ui.lastPhoto = thumbnail
            ui.hideBackground = true
            ui.startCountdown(now: instant)
        case .review:
            ui.lastPhoto = thumbnail
            ui.phase = .review(until: instant + .seconds(3))
        case .cameraUnavailable:
            renderer.renderWithoutFrame(live: state, ui: ui, cameraAvailable: false, now: instant, into: screen)
            return
        }
        frame.withImage { frame in
            mask.withImage { mask in
                renderer.render(frame: frame, mask: ui.hideBackground ? mask.luma : nil, live: state, ui: ui, now: instant,
                                timings: timings, into: screen)
            }
        }
    }

    /// Pixels whose colour (the low 24 bits of XRGB8888) differs between two same-sized screens:
    /// the comparison of a rendered scene with its reference (host, VM readback, screendump).
    public static func differingPixels(_ a: Image, _ b: Image) -> Int {
        precondition(a.width == b.width && a.height == b.height, "compared images differ in size")
        var bad = 0
        for y in 0..<a.height {
            let ra = UnsafeRawPointer(a.planes.0.row(y)).assumingMemoryBound(to: UInt32.self)
            let rb = UnsafeRawPointer(b.planes.0.row(y)).assumingMemoryBound(to: UInt32.self)
            for x in 0..<a.width where (ra[x] ^ rb[x]) & 0xFF_FFFF != 0 { bad += 1 }
        }
        return bad
    }
}
