import ImageCore

/// Fills a model's float NHWC input (RGB in [0, 1]) from a frame through a `MaskMapping`:
/// rotation, region crop and stretch/letterbox in one pass, bilinear taps on the frame, zero
/// outside `content` (MediaPipe's BORDER_ZERO). It also writes the input's luma (0…255, one byte
/// per model pixel), which temporal stabilisation uses to see motion.
///
/// `taps` bilinear samples per axis are averaged per model pixel (1 = plain bilinear as
/// MediaPipe's CPU path; more anti-alias a strong downscale, e.g. a 12 MP still).
/// Frame formats: RGB888, XRGB8888, Gray8, I420, NV12 (`yuvFullRange` picks JPEG full range or
/// BT.601 limited range). Allocates nothing.
public enum ModelInputSampler {
    public static func fill(_ input: UnsafeMutableBufferPointer<Float>, luma: UnsafeMutablePointer<UInt8>?,
                            from frame: Image, mapping: MaskMapping, taps: Int = 1, yuvFullRange: Bool = true) {
        precondition(frame.width == mapping.frameWidth && frame.height == mapping.frameHeight, "sampler: frame size differs from mapping")
        precondition(input.count >= mapping.modelWidth * mapping.modelHeight * 3, "sampler: input tensor too small")
        let mw = mapping.modelWidth, mh = mapping.modelHeight
        let c = mapping.content
        let t = max(1, taps)
        let inv = 1 / Float(t)
        let src = FramePixels(frame, fullRange: yuvFullRange)
        let out = input.baseAddress!
        for my in 0..<mh {
            for mx in 0..<mw {
                let cx = Float(mx) + 0.5, cy = Float(my) + 0.5
                var r: Float = 0, g: Float = 0, b: Float = 0
                if cx >= c.x && cx < c.x + c.width && cy >= c.y && cy < c.y + c.height {
                    for sy in 0..<t {
                        for sx in 0..<t {
                            let px = Float(mx) + (Float(sx) + 0.5) * inv
                            let py = Float(my) + (Float(sy) + 0.5) * inv
                            let f = mapping.frame(fromModel: px, py)
                            let s = src.rgb(f.x, f.y)
                            r += s.0; g += s.1; b += s.2
                        }
                    }
                    let k = inv * inv / 255
                    r *= k; g *= k; b *= k
                }
                let o = (my * mw + mx) * 3
                out[o] = r; out[o + 1] = g; out[o + 2] = b
                if let luma {
                    let y = (0.299 * r + 0.587 * g + 0.114 * b) * 255 + 0.5
                    luma[my * mw + mx] = UInt8(min(max(y, 0), 255))
                }
            }
        }
    }
}

/// Bilinear RGB reads (0…255 floats) at continuous frame coordinates, edges clamped.
struct FramePixels {
    let format: PixelFormat
    let p0: Plane, p1: Plane, p2: Plane
    let width: Int, height: Int
    let fullRange: Bool

    init(_ image: Image, fullRange: Bool) {
        precondition(image.format != .nv12 || image.planes.1.width > 0, "NV12 without chroma plane")
        format = image.format
        p0 = image.planes.0; p1 = image.planes.1; p2 = image.planes.2
        width = image.width; height = image.height
        self.fullRange = fullRange
    }

    @inline(__always)
    static func taps(_ c: Float, _ n: Int) -> (Int, Int, Float) {
        let p = min(max(c - 0.5, 0), Float(n - 1))
        let i0 = Int(p)
        return (i0, min(i0 + 1, n - 1), p - Float(i0))
    }

    /// Bilinear read of byte `channel` of a plane with `bpp` bytes per pixel.
    @inline(__always)
    static func read(_ p: Plane, _ x: Float, _ y: Float, bpp: Int, channel: Int) -> Float {
        let (x0, x1, fx) = taps(x, p.width)
        let (y0, y1, fy) = taps(y, p.height)
        let r0 = p.row(y0), r1 = p.row(y1)
        let a = Float(r0[x0 * bpp + channel]), b = Float(r0[x1 * bpp + channel])
        let c = Float(r1[x0 * bpp + channel]), d = Float(r1[x1 * bpp + channel])
        let top = a + (b - a) * fx, bottom = c + (d - c) * fx
        return top + (bottom - top) * fy
    }

    @inline(__always)
    func rgb(_ x: Float, _ y: Float) -> (Float, Float, Float) {
        switch format {
        case .rgb888:
            return (FramePixels.read(p0, x, y, bpp: 3, channel: 0), FramePixels.read(p0, x, y, bpp: 3, channel: 1),
                    FramePixels.read(p0, x, y, bpp: 3, channel: 2))
        case .xrgb8888:
            return (FramePixels.read(p0, x, y, bpp: 4, channel: 2), FramePixels.read(p0, x, y, bpp: 4, channel: 1),
                    FramePixels.read(p0, x, y, bpp: 4, channel: 0))
        case .gray8:
            let v = FramePixels.read(p0, x, y, bpp: 1, channel: 0)
            return (v, v, v)
        case .i420, .nv12:
            let yy = FramePixels.read(p0, x, y, bpp: 1, channel: 0)
            let cu: Float, cv: Float
            if format == .i420 {
                cu = FramePixels.read(p1, x / 2, y / 2, bpp: 1, channel: 0)
                cv = FramePixels.read(p2, x / 2, y / 2, bpp: 1, channel: 0)
            } else {
                cu = FramePixels.read(p1, x / 2, y / 2, bpp: 2, channel: 0)
                cv = FramePixels.read(p1, x / 2, y / 2, bpp: 2, channel: 1)
            }
            return FramePixels.yuvToRGB(yy, cu - 128, cv - 128, fullRange: fullRange)
        }
    }

    /// BT.601 YCbCr → RGB (JPEG full range, or limited range 16…235 / 16…240), clamped to 0…255.
    @inline(__always)
    static func yuvToRGB(_ y: Float, _ u: Float, _ v: Float, fullRange: Bool) -> (Float, Float, Float) {
        let yy = fullRange ? y : (y - 16) * (255 / 219)
        let k: Float = fullRange ? 1 : 255 / 224
        let r = yy + 1.402 * k * v
        let g = yy - 0.344136 * k * u - 0.714136 * k * v
        let b = yy + 1.772 * k * u
        return (min(max(r, 0), 255), min(max(g, 0), 255), min(max(b, 0), 255))
    }
}
