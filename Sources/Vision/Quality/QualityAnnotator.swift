import ImageCore

/// Draws capture-quality scores onto an RGB888 or XRGB8888 image (in place) with a small
/// built-in 5×7 bitmap font of digits and '.', on a dark label, scaled with the image. Booth
/// has no general text renderer in ImageCore yet; this covers the numbers `booth analyze`
/// writes next to each face.
public enum QualityAnnotator {
    /// Rows of each glyph, 5 bits per row (bit 4 = leftmost column): "0"…"9", then ".".
    static let glyphs: [[UInt8]] = [
        [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E], // 0
        [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E], // 1
        [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F], // 2
        [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E], // 3
        [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02], // 4
        [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E], // 5
        [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E], // 6
        [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08], // 7
        [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E], // 8
        [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C], // 9
        [0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C], // .
    ]

    /// The score as text with two decimals ("0.87").
    public static func text(_ score: Float) -> String {
        let hundredths = Int((max(0, min(1, score)) * 100).rounded())
        return "\(hundredths / 100).\(hundredths / 10 % 10)\(hundredths % 10)"
    }

    /// Pixel scale of the font for an image (1 per 250 px of the long side, at least 2).
    public static func scale(for image: Image) -> Int { max(2, max(image.width, image.height) / 250) }

    /// Width and height in pixels of `text` at `scale`.
    public static func size(of text: String, scale: Int) -> (width: Int, height: Int) {
        (text.count * 6 * scale + scale, 9 * scale)
    }

    /// Draws `text` (digits and '.') with its label's top-left corner at (`x`, `y`), clipped to the image.
    public static func draw(_ text: String, x: Int, y: Int, scale: Int, on image: Image,
                            color: (UInt8, UInt8, UInt8) = (255, 255, 255),
                            background: (UInt8, UInt8, UInt8) = (0, 0, 0)) {
        precondition(image.format == .rgb888 || image.format == .xrgb8888, "annotation needs RGB888 or XRGB8888")
        let (w, h) = size(of: text, scale: scale)
        fill(x: x, y: y, width: w, height: h, color: background, on: image)
        var cx = x + scale
        for ch in text {
            let index: Int
            if let d = ch.wholeNumberValue, d >= 0, d <= 9 { index = d } else if ch == "." { index = 10 } else { cx += 6 * scale; continue }
            let glyph = glyphs[index]
            for row in 0..<7 {
                for col in 0..<5 where glyph[row] & (0x10 >> UInt8(col)) != 0 {
                    fill(x: cx + col * scale, y: y + scale + row * scale, width: scale, height: scale, color: color, on: image)
                }
            }
            cx += 6 * scale
        }
    }

    /// Each face's score above its box (inside the image), and the image's score at the top left.
    public static func drawScores(_ faces: [(box: Rect, score: Float)], imageScore: Float, on image: Image) {
        let s = scale(for: image)
        for face in faces {
            let label = text(face.score)
            let (w, h) = size(of: label, scale: s)
            var x = Int(face.box.x.rounded()), y = Int(face.box.y.rounded()) - h - s
            if y < 0 { y = Int((face.box.y + face.box.height).rounded()) + s }
            x = max(0, min(image.width - w, x)); y = max(0, min(image.height - h, y))
            draw(label, x: x, y: y, scale: s, on: image, color: (255, 255, 255), background: (200, 0, 0))
        }
        draw(text(imageScore), x: s, y: s, scale: s, on: image)
    }

    static func fill(x: Int, y: Int, width: Int, height: Int, color: (UInt8, UInt8, UInt8), on image: Image) {
        let plane = image.luma
        let x0 = max(0, x), y0 = max(0, y), x1 = min(image.width, x + width), y1 = min(image.height, y + height)
        guard x0 < x1, y0 < y1 else { return }
        for yy in y0..<y1 {
            let row = plane.row(yy)
            for xx in x0..<x1 {
                let p = row + xx * plane.bytesPerPixel
                if image.format == .rgb888 { p[0] = color.0; p[1] = color.1; p[2] = color.2 }
                else { p[0] = color.2; p[1] = color.1; p[2] = color.0 }
            }
        }
    }
}
