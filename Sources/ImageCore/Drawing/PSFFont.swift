/// Why a PSF font could not be read.
public enum PSFError: Error, Sendable, Equatable {
    case notPSF
    case truncated
    case badHeader(String)
}

/// A bitmap console font in PC Screen Font format — PSF2 (Debian's console-setup fonts, e.g.
/// Terminus) and PSF1 — with its Unicode table. Glyph rows are bit-packed, most significant bit
/// first. Parsing is bounds-checked; a malformed file is a typed error.
public struct PSFFont: Sendable {
    public let width: Int
    public let height: Int
    public let glyphCount: Int
    @usableFromInline let bytesPerRow: Int
    @usableFromInline let bytesPerGlyph: Int
    @usableFromInline let glyphs: [UInt8]
    /// Unicode scalar → glyph index (from the font's table; identity for ASCII when absent).
    let map: [UInt32: Int]

    public init(bytes b: [UInt8]) throws(PSFError) {
        func u32(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 | Int(b[o + 2]) << 16 | Int(b[o + 3]) << 24 }
        var tableStart: Int
        var hasTable: Bool
        var psf2 = false
        if b.count >= 32, b[0] == 0x72, b[1] == 0xB5, b[2] == 0x4A, b[3] == 0x86 {
            psf2 = true
            let headerSize = u32(8), flags = u32(12)
            glyphCount = u32(16)
            bytesPerGlyph = u32(20)
            height = u32(24)
            width = u32(28)
            guard headerSize >= 32, headerSize <= b.count else { throw .badHeader("header size \(headerSize)") }
            guard width > 0, width <= 64, height > 0, height <= 128, glyphCount > 0, glyphCount <= 65536 else {
                throw .badHeader("glyphs \(glyphCount) of \(width)x\(height)")
            }
            bytesPerRow = (width + 7) / 8
            guard bytesPerGlyph == bytesPerRow * height else { throw .badHeader("bytes per glyph \(bytesPerGlyph)") }
            let end = headerSize + glyphCount * bytesPerGlyph
            guard end <= b.count else { throw .truncated }
            glyphs = Array(b[headerSize..<end])
            tableStart = end
            hasTable = flags & 1 != 0
        } else if b.count >= 4, b[0] == 0x36, b[1] == 0x04 {
            let mode = Int(b[2])
            glyphCount = mode & 1 != 0 ? 512 : 256
            height = Int(b[3])
            width = 8
            bytesPerRow = 1
            bytesPerGlyph = height
            guard height > 0 else { throw .badHeader("height 0") }
            let end = 4 + glyphCount * height
            guard end <= b.count else { throw .truncated }
            glyphs = Array(b[4..<end])
            tableStart = end
            hasTable = mode & 2 != 0
        } else {
            throw .notPSF
        }
        var map: [UInt32: Int] = [:]
        if hasTable {
            var i = tableStart, glyph = 0
            while i < b.count && glyph < glyphCount {
                if psf2 {
                    // UTF-8 sequences, 0xFE starts a combining sequence (skipped), 0xFF ends a glyph.
                    var inSequence = false
                    while i < b.count && b[i] != 0xFF {
                        if b[i] == 0xFE { inSequence = true; i += 1; continue }
                        let lead = b[i]
                        let n = lead < 0x80 ? 1 : lead >> 5 == 0x6 ? 2 : lead >> 4 == 0xE ? 3 : lead >> 3 == 0x1E ? 4 : 1
                        guard i + n <= b.count else { throw .truncated }
                        var scalar = n == 1 ? UInt32(lead) : UInt32(lead) & (0x7F >> UInt32(n))
                        for k in 1..<max(n, 1) where n > 1 { scalar = scalar << 6 | UInt32(b[i + k] & 0x3F) }
                        if !inSequence && map[scalar] == nil { map[scalar] = glyph }
                        i += n
                    }
                    i += 1
                } else {
                    // UCS-2 little endian, 0xFFFE sequence start, 0xFFFF terminator.
                    var inSequence = false
                    while i + 1 < b.count {
                        let v = UInt32(b[i]) | UInt32(b[i + 1]) << 8
                        i += 2
                        if v == 0xFFFF { break }
                        if v == 0xFFFE { inSequence = true; continue }
                        if !inSequence && map[v] == nil { map[v] = glyph }
                    }
                }
                glyph += 1
            }
        }
        if map.isEmpty { for c in 0..<min(128, glyphCount) { map[UInt32(c)] = c } }
        self.map = map
    }

    /// The glyph index of `scalar`: the font's, or '?' when the font has none.
    public func glyph(for scalar: Unicode.Scalar) -> Int {
        map[scalar.value] ?? map[0x3F] ?? 0
    }

    /// Whether pixel (x, y) of glyph `g` is set.
    @inlinable public func isSet(glyph g: Int, x: Int, y: Int) -> Bool {
        let byte = glyphs[g * bytesPerGlyph + y * bytesPerRow + x >> 3]
        return byte & (0x80 >> UInt8(x & 7)) != 0
    }

    /// Size of `text` drawn at `scale`.
    public func size(of text: String, scale: Int = 1) -> (width: Int, height: Int) {
        (text.unicodeScalars.count * width * scale, height * scale)
    }
}

extension Canvas {
    /// Draws `text` with its top-left corner at (x, y), each font pixel `scale`×`scale`.
    public func text(_ text: String, x: Int, y: Int, font: PSFFont, scale: Int = 1, _ c: Colour) {
        var pen = x
        for s in text.unicodeScalars {
            let g = font.glyph(for: s)
            if pen >= width { break }
            if pen + font.width * scale > 0 {
                for gy in 0..<font.height {
                    let py = y + gy * scale
                    if py >= height { break }
                    if py + scale <= 0 { continue }
                    var gx = 0
                    while gx < font.width {
                        guard font.isSet(glyph: g, x: gx, y: gy) else { gx += 1; continue }
                        var run = 1                                  // draw runs of set pixels as spans
                        while gx + run < font.width && font.isSet(glyph: g, x: gx + run, y: gy) { run += 1 }
                        for sy in 0..<scale { span(pen + gx * scale, pen + (gx + run) * scale - 1, py + sy, c) }
                        gx += run
                    }
                }
            }
            pen += font.width * scale
        }
    }
}
