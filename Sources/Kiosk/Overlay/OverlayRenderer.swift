#if canImport(Glibc)
import Glibc
#endif
import ImageCore
import Passport
import Vision

/// Draws one screen: the camera frame scaled and mirrored (the mirror in the colour conversion), the oval layout guide (green when the
/// face is acceptable, red otherwise), the face box, one instruction, the debug panel (roll,
/// pitch, yaw, quality coloured pass/fail, timings), the countdown digits and the last photo's
/// thumbnail. Draws straight into the display's back buffer (XRGB8888); scratch buffers are
/// allocated once here, and a frame allocates nothing but the debug panel's short strings.
final class OverlayRenderer {
    let layout: PreviewLayout
    let profile: Profile?
    let font: PSFFont
    let guide: LayoutGuide
    /// Text scale: 1 on an 800-pixel-wide screen, 2 on a 1920-pixel one.
    let scale: Int
    private let scaled: ImageBuffer
    /// Hidden background: the mask scaled (and mirrored) to the preview rectangle, and what replaces it.
    private let maskScaled: ImageBuffer
    private let maskMirrored: ImageBuffer
    private let compositor: BackgroundCompositor

    static let backdrop = Colour(32, 32, 32)

    init(layout: PreviewLayout, profile: Profile?, font: PSFFont, guide: LayoutGuide, background: ImageBuffer?) {
        self.layout = layout
        self.profile = profile
        self.font = font
        self.guide = guide
        scale = max(1, layout.screenWidth / 900)
        // Written whole before each read, and at scale 1 (the dev board) `scaled` and `maskScaled`
        // are never used: not zeroed, so they take no resident memory until then.
        scaled = ImageBuffer(unzeroedFormat: .i420, width: layout.width, height: layout.height)
        maskScaled = ImageBuffer(unzeroedFormat: .gray8, width: layout.width, height: layout.height)
        maskMirrored = ImageBuffer(unzeroedFormat: .gray8, width: layout.width, height: layout.height)
        compositor = BackgroundCompositor(width: layout.width, height: layout.height, format: .xrgb8888)
        if let background {
            background.withImage { compositor.setBackground(.image($0)) }
        } else if let p = profile {
            compositor.setBackground(.color(red: p.print.background.0, green: p.print.background.1, blue: p.print.background.2))
        } else {
            compositor.setBackground(.white)
        }
    }

    /// The instruction's text under the active profile.
    func text(for instruction: Instruction) -> String {
        profile?.text(instruction) ?? instruction.defaultText
    }

    // MARK: Screens

    /// A live frame (upright: the vision stage rotated it) with its overlay.
    func render(frame: Image, mask: Plane?, live: LiveState, ui: UIState, now: ContinuousClock.Instant, timings: StageTimings,
                into screen: Image) {
        if case .review = ui.phase, let photo = ui.lastPhoto {
            renderReview(photo, into: screen)
            return
        }
        drawPreview(frame, into: screen)
        if let mask { hideBackground(mask, in: screen) }
        let canvas = Canvas(screen)
        if profile != nil {
            let g = layout.rect(guide.box)
            canvas.strokeEllipse(cx: Int(g.center.x), cy: Int(g.center.y), rx: Int(g.width / 2), ry: Int(g.height / 2),
                                 thickness: 4 * scale, live.green ? .green : .red)
        }
        if let box = live.faceBox {
            let r = layout.rect(box)
            canvas.strokeRect(x: Int(r.x), y: Int(r.y), width: Int(r.width), height: Int(r.height), thickness: 2 * scale,
                              live.green ? .green : .amber)
        }
        if let digit = ui.countdownDigit(now: now) {
            let s = 8 * scale
            let t = OverlayNumber.text("", Double(digit), decimals: 0)
            let (w, h) = font.size(of: t, scale: s)
            canvas.text(t, x: (screen.width - w) / 2, y: (screen.height - h) / 2, font: font, scale: s, .white)
        }
        let banner: String
        if let message = ui.message { banner = message }
        else if case .capturing = ui.phase { banner = "Taking your photo…" }
        else if profile != nil { banner = text(for: live.instruction) }
        else { banner = live.faceCount == 0 ? "Step in front of the camera" : "Press the button to take a photo" }
        drawBanner(banner, canvas: canvas, screen: screen)
        if ui.debug { drawDebug(live, timings: timings, fps: ui.fps, canvas: canvas) }
        if let thumb = ui.lastPhoto { drawThumbnail(thumb, into: screen) }
    }

    /// A screen without a new camera frame: "Camera unavailable", the review, or a message.
    func renderWithoutFrame(live: LiveState, ui: UIState, cameraAvailable: Bool, now: ContinuousClock.Instant, into screen: Image) {
        if case .review = ui.phase, let photo = ui.lastPhoto {
            renderReview(photo, into: screen)
            return
        }
        let canvas = Canvas(screen)
        canvas.fill(x: 0, y: 0, width: screen.width, height: screen.height, Self.backdrop)
        let text = cameraAvailable ? (ui.message ?? "") : "Camera unavailable"
        if !text.isEmpty {
            let s = 2 * scale
            let (w, h) = font.size(of: text, scale: s)
            canvas.text(text, x: max(0, (screen.width - w) / 2), y: (screen.height - h) / 2, font: font, scale: s, .white)
        }
    }

    /// The saved photo, large, with "Saved".
    func renderReview(_ photo: ImageBuffer, into screen: Image) {
        let canvas = Canvas(screen)
        canvas.fill(x: 0, y: 0, width: screen.width, height: screen.height, Self.backdrop)
        let s = min(Double(screen.width) / Double(photo.width), Double(screen.height - 80 * scale) / Double(photo.height))
        let w = max(1, Int(Double(photo.width) * s)), h = max(1, Int(Double(photo.height) * s))
        let x = (screen.width - w) / 2, y = 10 * scale
        photo.withImage { ResizeBilinear.run($0, screen.cropped(x: x, y: y, width: w, height: h)) }
        drawBanner("Saved — thank you!", canvas: canvas, screen: screen)
    }

    // MARK: Parts

    private func drawPreview(_ source: Image, into screen: Image) {
        let canvas = Canvas(screen)
        // Only the borders around the preview need the backdrop.
        canvas.fill(x: 0, y: 0, width: screen.width, height: layout.y, Self.backdrop)
        canvas.fill(x: 0, y: layout.y + layout.height, width: screen.width, height: screen.height, Self.backdrop)
        canvas.fill(x: 0, y: layout.y, width: layout.x, height: layout.height, Self.backdrop)
        canvas.fill(x: layout.x + layout.width, y: layout.y, width: screen.width, height: layout.height, Self.backdrop)
        // The mirror is folded into the colour conversion (no pass of its own).
        let region = screen.cropped(x: layout.x, y: layout.y, width: layout.width, height: layout.height)
        // At scale 1 (a 640×480 frame on an 800×480 screen) the frame is shown as it is.
        if layout.isUnscaled {
            YUVToRGB.run(source, region, matrix: .bt601Full, mirrored: layout.mirrored)
            return
        }
        scaled.withImage { shown in
            ResizeBilinear.run(source, shown)
            YUVToRGB.run(shown, region, matrix: .bt601Full, mirrored: layout.mirrored)
        }
    }

    /// Replaces what the mask calls background in the preview rectangle.
    private func hideBackground(_ mask: Plane, in screen: Image) {
        let whole = Image(format: .gray8, width: mask.width, height: mask.height, planes: (mask, mask, mask))
        let region = screen.cropped(x: layout.x, y: layout.y, width: layout.width, height: layout.height)
        // Both scratch masks are borrowed for the whole composite: `m` may be a view of either.
        maskScaled.withImage { scaledMask in
            maskMirrored.withImage { mirroredMask in
                var m = mask
                if mask.width != layout.width || mask.height != layout.height {
                    ResizeBilinear.run(whole, scaledMask)
                    m = scaledMask.luma
                }
                if layout.mirrored {
                    Mirror.run(Image(format: .gray8, width: m.width, height: m.height, planes: (m, m, m)), mirroredMask)
                    m = mirroredMask.luma
                }
                compositor.composite(frame: region, mask: m, into: region)
            }
        }
    }

    private func drawBanner(_ text: String, canvas: Canvas, screen: Image) {
        let (w, h) = font.size(of: text, scale: scale)
        let pad = 8 * scale
        let y = screen.height - h - 3 * pad
        canvas.shade(x: 0, y: y - pad, width: screen.width, height: h + 2 * pad, .black, alpha: 160)
        canvas.text(text, x: max(pad, (screen.width - w) / 2), y: y, font: font, scale: scale, .white)
    }

    private func drawDebug(_ live: LiveState, timings: StageTimings, fps: Double, canvas: Canvas) {
        let c = live.check
        func colour(_ o: LiveRules.Outcome?) -> Colour { o.map { $0.passed ? .green : .red } ?? .grey }
        let lh = font.height * scale, lines = 7
        canvas.shade(x: 0, y: 0, width: 9 * font.width * scale, height: lines * lh + 8, .black, alpha: 140)
        // One line at a time, no array of lines: the panel is drawn every frame and allocates nothing.
        func line(_ i: Int, _ t: String, _ col: Colour) { canvas.text(t, x: 4, y: 4 + i * lh, font: font, scale: scale, col) }
        line(0, OverlayNumber.text("R ", live.roll, decimals: 2, signed: true), colour(c.roll))
        line(1, OverlayNumber.text("P ", live.pitch, decimals: 2, signed: true), colour(c.pitch))
        line(2, OverlayNumber.text("Y ", live.yaw, decimals: 2, signed: true), colour(c.yaw))
        line(3, live.quality.map { OverlayNumber.text("Q ", $0, decimals: 2) } ?? "Q --", colour(c.quality))
        line(4, OverlayNumber.text("lm ", timings.lastMilliseconds(.landmarks), decimals: 0, suffix: " ms"), .white)
        line(5, OverlayNumber.text("seg ", timings.lastMilliseconds(.segment), decimals: 0, suffix: " ms"), .white)
        line(6, OverlayNumber.text("", fps, decimals: 1, suffix: " fps"), .white)
    }

    /// The last photo at the size `drawThumbnail` draws it on a screen `screenWidth` wide, or nil
    /// when `thumb` is that size already: after the review (which shows it at 320 pixels wide,
    /// 400–520 KiB as XRGB8888) only the corner copy needs to stay. The same pixels are drawn (a
    /// bilinear resize to the same size copies), and no frame resizes it any more.
    func cornerThumbnail(_ thumb: ImageBuffer, screenWidth: Int) -> ImageBuffer? {
        let (w, h) = Self.thumbnailSize(thumb, screenWidth: screenWidth)
        guard w < thumb.width, w > 0 else { return nil }
        let corner = ImageBuffer(format: thumb.format, width: w, height: h)
        thumb.withImage { src in corner.withImage { ResizeBilinear.run(src, $0) } }
        return corner
    }

    static func thumbnailSize(_ thumb: ImageBuffer, screenWidth: Int) -> (width: Int, height: Int) {
        let w = min(thumb.width, screenWidth / 6)
        return (w, max(1, thumb.height * w / max(thumb.width, 1)))
    }

    private func drawThumbnail(_ thumb: ImageBuffer, into screen: Image) {
        let (w, h) = Self.thumbnailSize(thumb, screenWidth: screen.width)
        let x = screen.width - w - 8, y = 8
        guard x >= 0, y + h <= screen.height else { return }
        thumb.withImage { ResizeBilinear.run($0, screen.cropped(x: x, y: y, width: w, height: h)) }
        Canvas(screen).strokeRect(x: x - 2, y: y - 2, width: w + 4, height: h + 4, thickness: 2, .white)
    }
}
