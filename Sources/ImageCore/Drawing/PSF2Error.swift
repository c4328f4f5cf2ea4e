/// Why bytes are not a usable PSF2 font.
public enum PSF2Error: Error, Sendable, Equatable {
    /// Fewer than the 32 header bytes.
    case truncatedHeader(byteCount: Int)
    /// The file does not start with 72 B5 4A 86.
    case badMagic
    /// A version other than 0.
    case unsupportedVersion(UInt32)
    /// Header size below 32 or past the end of the data.
    case badHeaderSize(UInt32)
    /// Glyph width 0 or above 16 (the blitter's limit), or height 0.
    case unsupportedGlyphSize(width: UInt32, height: UInt32)
    /// `charsize` is not `height * ceil(width / 8)`.
    case inconsistentGlyphSize(charSize: UInt32, expected: UInt32)
    /// No glyphs, or fewer glyph bytes than `length * charsize`.
    case truncatedGlyphs(glyphCount: UInt32, availableBytes: Int)
    /// The unicode table is cut short or holds invalid UTF-8 at `offset`.
    case badUnicodeTable(offset: Int)
}
