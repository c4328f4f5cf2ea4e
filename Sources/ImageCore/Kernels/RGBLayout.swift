/// Where the red, green and blue bytes of one pixel sit in an interleaved RGB format, and the
/// pixel size. `xrgb8888` is B, G, R, X in memory; `rgb888` is R, G, B.
@usableFromInline
struct RGBLayout: Sendable {
    @usableFromInline let bytesPerPixel: Int
    @usableFromInline let red: Int
    @usableFromInline let green: Int
    @usableFromInline let blue: Int
    /// Offset of the padding byte written as 255, or -1 when the format has none.
    @usableFromInline let filler: Int

    @usableFromInline init(_ format: PixelFormat) {
        switch format {
        case .rgb888: self.init(bytesPerPixel: 3, red: 0, green: 1, blue: 2, filler: -1)
        case .xrgb8888: self.init(bytesPerPixel: 4, red: 2, green: 1, blue: 0, filler: 3)
        default: preconditionFailure("not an interleaved RGB format")
        }
    }

    @usableFromInline init(bytesPerPixel: Int, red: Int, green: Int, blue: Int, filler: Int) {
        self.bytesPerPixel = bytesPerPixel
        self.red = red
        self.green = green
        self.blue = blue
        self.filler = filler
    }

    /// Stores one pixel at `p`.
    @inlinable @inline(__always)
    func store(_ p: UnsafeMutablePointer<UInt8>, r: UInt8, g: UInt8, b: UInt8) {
        p[red] = r
        p[green] = g
        p[blue] = b
        if filler >= 0 { p[filler] = 255 }
    }
}
