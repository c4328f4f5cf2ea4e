/// A PC Screen Font version 2 (the Linux console's `.psf` format), parsed from bytes.
///
/// Layout (all integers little-endian UInt32): magic `72 B5 4A 86`, version (0), header size,
/// flags (bit 0: a unicode table follows the glyphs), glyph count, bytes per glyph, height,
/// width; then the glyphs (`GlyphBitmap` layout); then, if flagged, one entry per glyph: UTF-8
/// characters, optional `FE`-introduced sequences (skipped), ended by `FF`. Without a table,
/// code point N is glyph N. Parsing allocates; drawing with the result does not.
public struct PSF2Font: Sendable {
    public let width: Int
    public let height: Int
    public let glyphCount: Int
    let bytesPerGlyph: Int
    let glyphs: [UInt8]
    /// (code point, glyph index) sorted by code point; empty without a unicode table.
    let unicode: [(UInt32, Int)]

    public init(bytes: [UInt8]) throws(PSF2Error) {
        guard bytes.count >= 32 else { throw .truncatedHeader(byteCount: bytes.count) }
        func word(_ i: Int) -> UInt32 {
            UInt32(bytes[4 * i]) | UInt32(bytes[4 * i + 1]) << 8 | UInt32(bytes[4 * i + 2]) << 16 | UInt32(bytes[4 * i + 3]) << 24
        }
        guard word(0) == 0x864A_B572 else { throw .badMagic }
        guard word(1) == 0 else { throw .unsupportedVersion(word(1)) }
        let headerSize = word(2), flags = word(3), count = word(4), charSize = word(5), h = word(6), w = word(7)
        guard headerSize >= 32 && Int(headerSize) <= bytes.count else { throw .badHeaderSize(headerSize) }
        guard w >= 1 && w <= 16 && h >= 1 && h <= 256 else { throw .unsupportedGlyphSize(width: w, height: h) }
        let expected = h * ((w + 7) / 8)
        guard charSize == expected else { throw .inconsistentGlyphSize(charSize: charSize, expected: expected) }
        let start = Int(headerSize)
        let available = bytes.count - start
        guard count >= 1 && count <= 65_536 && Int(count) * Int(charSize) <= available else {
            throw .truncatedGlyphs(glyphCount: count, availableBytes: available)
        }
        width = Int(w)
        height = Int(h)
        glyphCount = Int(count)
        bytesPerGlyph = Int(charSize)
        let end = start + glyphCount * bytesPerGlyph
        glyphs = Array(bytes[start..<end])
        unicode = flags & 1 != 0 ? try PSF2Font.parseUnicode(bytes, from: end, glyphCount: glyphCount) : []
    }

    static func parseUnicode(_ bytes: [UInt8], from start: Int, glyphCount: Int) throws(PSF2Error) -> [(UInt32, Int)] {
        var map: [(UInt32, Int)] = []
        var i = start
        for glyph in 0..<glyphCount {
            var inSequence = false
            while true {
                guard i < bytes.count else { throw .badUnicodeTable(offset: i) }
                let b = bytes[i]
                if b == 0xFF { i += 1; break }
                if b == 0xFE { inSequence = true; i += 1; continue }
                let length = b < 0x80 ? 1 : b >= 0xF0 && b < 0xF8 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0
                guard length > 0 && i + length <= bytes.count else { throw .badUnicodeTable(offset: i) }
                var scalar = length == 1 ? UInt32(b) : UInt32(b) & (0xFF >> UInt32(length + 1))
                for k in 1..<max(length, 1) {
                    let c = bytes[i + k]
                    guard c & 0xC0 == 0x80 else { throw .badUnicodeTable(offset: i + k) }
                    scalar = scalar << 6 | UInt32(c & 0x3F)
                }
                if !inSequence { map.append((scalar, glyph)) }
                i += length
            }
        }
        map.sort { $0.0 < $1.0 }
        return map
    }

    /// The glyph for `scalar`: through the unicode table when there is one, else glyph N for
    /// code point N; nil when the font has none.
    public func glyphIndex(for scalar: Unicode.Scalar) -> Int? {
        let code = scalar.value
        if unicode.isEmpty { return Int(code) < glyphCount ? Int(code) : nil }
        var low = 0, high = unicode.count
        while low < high {
            let mid = (low + high) / 2
            if unicode[mid].0 < code { low = mid + 1 } else { high = mid }
        }
        return low < unicode.count && unicode[low].0 == code ? unicode[low].1 : nil
    }

    /// Glyph `index` (0 ..< glyphCount).
    public func glyph(_ index: Int) -> GlyphBitmap {
        precondition(index >= 0 && index < glyphCount, "glyph index out of range")
        let start = index * bytesPerGlyph
        return GlyphBitmap(width: width, height: height, rows: glyphs[start..<(start + bytesPerGlyph)])
    }
}
