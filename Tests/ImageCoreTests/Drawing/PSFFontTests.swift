import ImageCore
import Testing

@Suite struct PSFFontTests {
    /// A PSF2 font of 3 glyphs, 8×4: glyph 0 blank, 1 a vertical bar in column 0, 2 a full row 0;
    /// Unicode table: glyph 1 = "A", glyph 2 = "é" (U+00E9, two UTF-8 bytes) and "B".
    static let font: [UInt8] = {
        func le(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        var b: [UInt8] = [0x72, 0xB5, 0x4A, 0x86] + le(0) + le(32) + le(1) + le(3) + le(4) + le(4) + le(8)
        b += [0, 0, 0, 0]
        b += [0x80, 0x80, 0x80, 0x80]
        b += [0xFF, 0, 0, 0]
        b += [0xFF]
        b += [0x41, 0xFF]
        b += [0xC3, 0xA9, 0x42, 0xFF]
        return b
    }()

    @Test func parsesGlyphsAndTheUnicodeTable() throws {
        let f = try PSFFont(bytes: Self.font)
        #expect(f.width == 8 && f.height == 4 && f.glyphCount == 3)
        #expect(f.glyph(for: "A") == 1 && f.glyph(for: "é") == 2 && f.glyph(for: "B") == 2)
        #expect(f.isSet(glyph: 1, x: 0, y: 3) && !f.isSet(glyph: 1, x: 1, y: 3))
        #expect(f.isSet(glyph: 2, x: 7, y: 0) && !f.isSet(glyph: 2, x: 7, y: 1))
    }

    @Test func drawsScaledText() throws {
        let f = try PSFFont(bytes: Self.font)
        let buf = ImageBuffer(format: .xrgb8888, width: 40, height: 12)
        buf.withImage { bufImage in
            Canvas(bufImage).text("AB", x: 1, y: 2, font: f, scale: 2, .white)
            let img = bufImage
            func on(_ x: Int, _ y: Int) -> Bool { img.luma.row(y)[4 * x] == 255 }
            #expect(on(1, 2) && on(2, 9) && !on(3, 2))                   // "A": 2-pixel-wide bar, 8 tall
            #expect(on(17, 2) && on(32, 3) && !on(17, 4))                // "B" at x = 1 + 16: 16×2 top row
            #expect(f.size(of: "AB", scale: 2) == (32, 8))
        }
    }

    @Test func malformedFontsAreTypedErrors() {
        #expect(throws: PSFError.notPSF) { _ = try PSFFont(bytes: [1, 2, 3]) }
        #expect(throws: PSFError.truncated) { _ = try PSFFont(bytes: Array(Self.font.prefix(40))) }
        var bad = Self.font
        bad[20] = 7                                                   // bytes per glyph ≠ height × row bytes
        #expect(throws: PSFError.self) { _ = try PSFFont(bytes: bad) }
        for n in 0..<Self.font.count { _ = try? PSFFont(bytes: Array(Self.font.prefix(n))) }   // never traps
    }
}
