extension Canvas {
    /// Draws the set bits of `glyph` with its top-left at (x, y), each bit as a `scale`×`scale`
    /// block of `color`; unset bits are left as they are. Clipped.
    public func drawGlyph(_ glyph: GlyphBitmap, x: Int, y: Int, scale: Int = 1, color: DrawColor) {
        guard scale > 0 else { return }
        let value = color.pixelValue(for: image.format)
        for gy in 0..<glyph.height {
            var gx = 0
            while gx < glyph.width {
                guard glyph.isSet(x: gx, y: gy) else { gx += 1; continue }
                var end = gx + 1
                while end < glyph.width && glyph.isSet(x: end, y: gy) { end += 1 }
                for sy in 0..<scale {
                    span(y: y + gy * scale + sy, from: x + gx * scale, to: x + end * scale, value)
                }
                gx = end
            }
        }
    }

    /// Draws `text` left to right from (x, y) in `font`, advancing `font.width * scale` per
    /// character; characters the font lacks use `?` when it has one, else leave a gap.
    /// Returns the x after the last character.
    @discardableResult
    public func drawText(_ text: String, font: PSF2Font, x: Int, y: Int, scale: Int = 1, color: DrawColor) -> Int {
        var penX = x
        let fallback = font.glyphIndex(for: "?")
        for scalar in text.unicodeScalars {
            if let index = font.glyphIndex(for: scalar) ?? fallback {
                drawGlyph(font.glyph(index), x: penX, y: y, scale: scale, color: color)
            }
            penX += font.width * scale
        }
        return penX
    }
}
