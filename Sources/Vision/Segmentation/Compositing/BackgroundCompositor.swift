import ImageCore

/// Puts the people of a frame over a background through an 8-bit mask, with ImageCore's
/// `AlphaBlend` (integer SIMD kernel, bit-exact with its scalar reference).
///
/// Sized once for a frame size and format (RGB888 or XRGB8888); `setBackground` renders colour
/// and image backgrounds once, so `composite` allocates nothing per frame (the blurred
/// background is rebuilt from each frame at a quarter size in preallocated buffers). A colour is
/// rendered as one row and blended row by row against it (the same kernel, so the same bytes):
/// the rest of the background buffer is never touched, and a large one stays out of resident
/// memory (1.2 MiB on the kiosk's 640×480 preview).
public final class BackgroundCompositor {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    private let backgroundBuffer: ImageBuffer
    private let small: ImageBuffer
    private let scratch: ScratchBuffer<UInt8>
    private var blurStrength: Int? = nil
    /// Whether the background is one colour, drawn in the buffer's first row only.
    private var colourRow = true

    public init(width: Int, height: Int, format: PixelFormat) {
        precondition(format == .rgb888 || format == .xrgb8888, "compositing needs RGB888 or XRGB8888 frames")
        self.width = width; self.height = height; self.format = format
        // Not zeroed: a colour uses its first row only, an image or blur writes all of it. Until
        // `setBackground` it is black, as one row (what a zeroed buffer gave).
        backgroundBuffer = ImageBuffer(unzeroedFormat: format, width: width, height: height)
        backgroundBuffer.withImage { $0.planes.0.row(0).update(repeating: 0, count: width * format.bytesPerPixel(plane: 0)) }
        small = ImageBuffer(format: format, width: max(1, (width + 3) / 4), height: max(1, (height + 3) / 4))
        scratch = ScratchBuffer(count: max(width, height) * 4)
    }

    /// Bytes of working memory.
    public var byteCount: Int { backgroundBuffer.byteCount + small.byteCount + scratch.byteCount }

    /// Lends the background as rendered for the last frame to `body` (a colour is first drawn over
    /// the whole buffer).
    public func withBackground<Result: ~Copyable, Failure: Error>(
        _ body: (Image) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try backgroundBuffer.withImage { (image) throws(Failure) -> Result in
            if colourRow {
                let row = image.planes.0.row(0), bytes = width * format.bytesPerPixel(plane: 0)
                for y in 1..<max(height, 1) { image.planes.0.row(y).update(from: row, count: bytes) }
                colourRow = false
            }
            return try body(image)
        }
    }

    /// Renders a colour or image background once (an image is scaled to cover and centred);
    /// a blurred background is made per frame.
    public func setBackground(_ bg: Background) {
        backgroundBuffer.withImage { dst in render(bg, into: dst) }
    }

    /// Draws a colour or image background into `dst`, or notes the strength of a blurred one.
    private func render(_ bg: Background, into dst: Image) {
        switch bg {
        case .color(let r, let g, let b):
            let value: UInt32 = format == .xrgb8888
                ? 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                : UInt32(b) << 16 | UInt32(g) << 8 | UInt32(r)
            Fill.run(dst.planes.0.cropped(x: 0, y: 0, width: width, height: 1), value: value)
            blurStrength = nil
            colourRow = true
        case .image(let picture):
            precondition(picture.format == format, "background picture must have the frames' pixel format")
            let fit = CoverFit(sourceWidth: picture.width, sourceHeight: picture.height, width: width, height: height)
            let crop = picture.cropped(x: fit.x, y: fit.y, width: fit.width, height: fit.height)
            if fit.width >= 2 * width && fit.height >= 2 * height {
                ResizeArea.run(crop, dst)
            } else {
                ResizeBilinear.run(crop, dst)
            }
            blurStrength = nil
            colourRow = false
        case .blurred(let strength):
            blurStrength = max(1, strength)
            colourRow = false
        }
    }

    /// `destination = frame·mask + background·(1 − mask)`; `destination` may be `frame`.
    public func composite(frame: Image, mask: Plane, into destination: Image) {
        precondition(frame.format == format && frame.width == width && frame.height == height, "composite: frame differs from the plan")
        backgroundBuffer.withImage { background in
            if colourRow {
                let row = background.cropped(x: 0, y: 0, width: width, height: 1)
                for y in 0..<height {
                    AlphaBlend.run(foreground: frame.cropped(x: 0, y: y, width: width, height: 1), background: row,
                                   mask: mask.cropped(x: 0, y: y, width: width, height: 1),
                                   destination: destination.cropped(x: 0, y: y, width: width, height: 1))
                }
                return
            }
            if let strength = blurStrength {
                small.withImage { s in
                    ResizeArea.run(frame, s)
                    let radius = max(1, min(s.width, s.height) * strength / 100)
                    BoxBlur.run(s.planes.0, radius: radius, passes: 3, scratch: scratch.pointer)
                    ResizeBilinear.run(s, background)
                }
            }
            AlphaBlend.run(foreground: frame, background: background, mask: mask, destination: destination)
        }
    }
}
