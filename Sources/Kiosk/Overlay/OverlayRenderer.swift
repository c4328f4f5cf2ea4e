import ImageCore
import Passport
import Vision

/// Draws one screen: the camera frame scaled and mirrored, the oval layout guide (green when the
/// face is acceptable), the face box, one instruction, the debug panel, the countdown digits and
/// the last photo's thumbnail. Draws straight into the display's back buffer (XRGB8888); all
/// scratch buffers are allocated once here.
final class OverlayRenderer {
    let layout: PreviewLayout
    let rotation: Rotation?
    let profile: Profile?
    /// The preview scaled to its screen rectangle (I420), then mirrored.
    private let scaled: ImageBuffer
    private let mirrored: ImageBuffer
    private let uprightScratch: ImageBuffer?

    static let background: UInt32 = 0x0020_2020

    init(layout: PreviewLayout, rotation: Rotation?, profile: Profile?) {
        self.layout = layout
        self.rotation = rotation
        self.profile = profile
        scaled = ImageBuffer(format: .i420, width: layout.width, height: layout.height)
        mirrored = ImageBuffer(format: .i420, width: layout.width, height: layout.height)
        uprightScratch = rotation.map { _ in ImageBuffer(format: .i420, width: layout.frameWidth, height: layout.frameHeight) }
    }

    /// The instruction's text under the active profile.
    func text(for instruction: Instruction) -> String {
        profile?.text(instruction) ?? instruction.defaultText
    }

    /// A live frame with its overlay.
    func render(frame: Image, live: LiveState, ui: UIState, now: ContinuousClock.Instant, timings: StageTimings, into screen: Image) {
        var source = frame
        if let rotation, let uprightScratch {
            Rotate.run(frame, uprightScratch.image(), rotation)
            source = uprightScratch.image()
        }
        Fill.run(screen.luma, value: Self.background)
        ResizeBilinear.run(source, scaled.image())
        var shown = scaled.image()
        if layout.mirrored {
            Mirror.run(shown, mirrored.image())
            shown = mirrored.image()
        }
        YUVToRGB.run(shown, screen.cropped(x: layout.x, y: layout.y, width: layout.width, height: layout.height), matrix: .bt601Full)
    }

    /// A screen without a camera frame: "Camera unavailable", or the review of the last photo.
    func renderWithoutFrame(live: LiveState, ui: UIState, cameraAvailable: Bool, now: ContinuousClock.Instant, into screen: Image) {
        Fill.run(screen.luma, value: Self.background)
    }
}
