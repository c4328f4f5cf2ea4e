import ImageCore

/// Puts the people of a frame over a background through an 8-bit mask, with ImageCore's
/// `AlphaBlend` (integer SIMD kernel, bit-exact with its scalar reference).
///
/// Sized once for a frame size and format (RGB888 or XRGB8888); `setBackground` renders colour
/// and image backgrounds once, so `composite` allocates nothing per frame (the blurred
/// background is rebuilt from each frame at a quarter size in preallocated buffers).
public final class BackgroundCompositor {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    private let backgroundBuffer: ImageBuffer
    private let small: ImageBuffer
    private let scratch: ScratchBuffer<UInt8>
    private var blurStrength: Int? = nil

    public init(width: Int, height: Int, format: PixelFormat) {
        precondition(format == .rgb888 || format == .xrgb8888, "compositing needs RGB888 or XRGB8888 frames")
        self.width = width; self.height = height; self.format = format
        backgroundBuffer = ImageBuffer(format: format, width: width, height: height)
        small = ImageBuffer(format: format, width: max(1, (width + 3) / 4), height: max(1, (height + 3) / 4))
        scratch = ScratchBuffer(count: max(width, height) * 4)
    }

    /// Bytes of working memory.
    public var byteCount: Int { backgroundBuffer.byteCount + small.byteCount + scratch.byteCount }

    /// Lends the background as rendered for the last frame to `body`.
    public func withBackground<Result: ~Copyable, Failure: Error>(
        _ body: (Image) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try backgroundBuffer.withImage(body)
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
            Fill.run(dst.planes.0, value: value)
            blurStrength = nil
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
        case .blurred(let strength):
            blurStrength = max(1, strength)
        }
    }

    /// `destination = frame·mask + background·(1 − mask)`; `destination` may be `frame`.
    public func composite(frame: Image, mask: Plane, into destination: Image) {
        precondition(frame.format == format && frame.width == width && frame.height == height, "composite: frame differs from the plan")
        backgroundBuffer.withImage { background in
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
