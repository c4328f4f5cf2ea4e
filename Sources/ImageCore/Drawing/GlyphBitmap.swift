/// One glyph in the PSF2 layout: `height` rows of `bytesPerRow = ceil(width / 8)` bytes, the
/// leftmost pixel in the most significant bit. Width at most 16.
public struct GlyphBitmap: Sendable {
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    /// `height * bytesPerRow` bytes (a slice: no copy).
    public let rows: ArraySlice<UInt8>

    public init(width: Int, height: Int, rows: ArraySlice<UInt8>) {
        precondition(width > 0 && width <= 16 && height > 0, "glyph width must be 1...16")
        self.width = width
        self.height = height
        bytesPerRow = (width + 7) / 8
        precondition(rows.count >= bytesPerRow * height, "glyph bitmap too short")
        self.rows = rows
    }

    /// Whether pixel (x, y) is set.
    @inlinable public func isSet(x: Int, y: Int) -> Bool {
        let byte = rows[rows.startIndex + y * bytesPerRow + x / 8]
        return byte & (0x80 >> UInt8(x % 8)) != 0
    }
}
