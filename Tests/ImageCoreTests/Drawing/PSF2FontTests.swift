import ImageCore
import Testing

@Suite struct PSF2FontTests {
    /// A hand-made 2-glyph 6×4 font: glyph 0 blank, glyph 1 an "A"-ish shape; the unicode table
    /// maps "A" and "Å" (2-byte UTF-8) to glyph 1 and a sequence (ignored) to glyph 0.
    static func blob(unicode: Bool = true) -> [UInt8] {
        func le(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        var b: [UInt8] = [0x72, 0xB5, 0x4A, 0x86] + le(0) + le(32) + le(unicode ? 1 : 0) + le(2) + le(4) + le(4) + le(6)
        b += [0, 0, 0, 0]
        b += [0b0011_0000, 0b0100_1000, 0b0111_1000, 0b1000_0100]  // rows of glyph 1, MSB = leftmost
        if unicode {
            b += [0xFE, 0x41, 0x42, 0xFF]          // glyph 0: only a sequence
            b += [0x41, 0xC3, 0x85, 0xFF]          // glyph 1: "A", "Å"
        }
        return b
    }

    @Test func parsesHeaderGlyphsAndUnicodeTable() throws {
        let font = try PSF2Font(bytes: Self.blob())
        #expect(font.width == 6 && font.height == 4 && font.glyphCount == 2)
        #expect(font.glyphIndex(for: "A") == 1)
        #expect(font.glyphIndex(for: "Å") == 1)
        #expect(font.glyphIndex(for: "B") == nil)
        let g = font.glyph(1)
        #expect(g.isSet(x: 2, y: 0) && g.isSet(x: 3, y: 0) && !g.isSet(x: 1, y: 0))
        #expect(g.isSet(x: 0, y: 3) && g.isSet(x: 5, y: 3) && !g.isSet(x: 4, y: 3))
        let plain = try PSF2Font(bytes: Self.blob(unicode: false))
        #expect(plain.glyphIndex(for: "\u{1}") == 1 && plain.glyphIndex(for: "A") == nil)
    }

    @Test func rendersAScaledGlyph() throws {
        let font = try PSF2Font(bytes: Self.blob())
        let buffer = ImageBuffer(format: .xrgb8888, width: 16, height: 10)
        let canvas = Canvas(buffer.image())
        let end = canvas.drawText("A", font: font, x: 1, y: 1, scale: 2, color: .red)
        #expect(end == 13)
        withExtendedLifetime(buffer) {
            func isRed(_ x: Int, _ y: Int) -> Bool {
                let p = canvas.image.luma.row(y) + 4 * x
                return p[2] == DrawColor.red.red && p[1] == DrawColor.red.green && p[0] == DrawColor.red.blue
            }
            // Glyph pixel (gx, gy) covers canvas x 1+2gx ... 2+2gx, y 1+2gy ... 2+2gy.
            var expected = 0
            let glyph = font.glyph(1)
            for gy in 0..<4 { for gx in 0..<6 where glyph.isSet(x: gx, y: gy) {
                expected += 4
                for sy in 0..<2 { for sx in 0..<2 { #expect(isRed(1 + 2 * gx + sx, 1 + 2 * gy + sy)) } }
            } }
            let total = (0..<10).reduce(0) { s, y in s + (0..<16).filter { isRed($0, y) }.count }
            #expect(total == expected && expected == 4 * 10)
            #expect(!isRed(0, 0) && !isRed(1, 1))
        }
    }

    @Test func glyphsClipAtTheEdges() throws {
        let font = try PSF2Font(bytes: Self.blob())
        let buffer = ImageBuffer(format: .rgb888, width: 4, height: 3)
        let canvas = Canvas(buffer.image())
        canvas.drawText("AA", font: font, x: -3, y: -1, scale: 1, color: .white)
        withExtendedLifetime(buffer) {
            // Glyph rows 1...3 land on canvas rows 0...2; glyph columns start at x -3 and 3.
            func set(_ x: Int, _ y: Int) -> Bool { canvas.image.luma.row(y)[3 * x] == 255 }
            #expect(set(1, 0) && !set(0, 0) && !set(2, 0))        // first glyph row 1: x 1, 4
            #expect(set(0, 1) && set(1, 1) && !set(2, 1) && !set(3, 1))
            #expect(set(2, 2) && set(3, 2) && !set(0, 2))          // first glyph (5, 3), second (0, 3)
        }
    }

    @Test func malformedFontsAreTypedErrors() {
        func error(_ bytes: [UInt8]) -> PSF2Error? {
            do { _ = try PSF2Font(bytes: bytes); return nil } catch { return error }
        }
        let good = Self.blob()
        #expect(error(Array(good.prefix(20))) == .truncatedHeader(byteCount: 20))
        var magic = good; magic[0] = 0
        #expect(error(magic) == .badMagic)
        var size = good; size[20] = 5  // charsize 5 ≠ 4 × 1
        #expect(error(size) == .inconsistentGlyphSize(charSize: 5, expected: 4))
        var wide = good; wide[28] = 17
        #expect(error(wide) == .unsupportedGlyphSize(width: 17, height: 4))
        #expect(error(Array(good.prefix(36))) == .truncatedGlyphs(glyphCount: 2, availableBytes: 4))
        #expect(error(Array(good.prefix(good.count - 1))) == .badUnicodeTable(offset: good.count - 1))
        var utf = good; utf[good.count - 2] = 0x41  // C3 41: not a continuation byte
        #expect(error(utf) == .badUnicodeTable(offset: good.count - 2))
        var header = good; header[8] = 200
        #expect(error(header) == .badHeaderSize(200))
    }
}
