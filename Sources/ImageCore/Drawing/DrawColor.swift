/// An opaque colour for the overlay, turned into the bytes of the canvas's pixel format.
public struct DrawColor: Sendable, Equatable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let black = DrawColor(red: 0, green: 0, blue: 0)
    public static let white = DrawColor(red: 255, green: 255, blue: 255)
    public static let red = DrawColor(red: 230, green: 40, blue: 40)
    public static let green = DrawColor(red: 40, green: 200, blue: 70)

    /// The pixel as `Fill` takes it (bytes in memory order, lowest first): XRGB8888 B,G,R,255;
    /// RGB888 R,G,B; Gray8 the BT.601 luma (as `RGBToGray`).
    @inlinable public func pixelValue(for format: PixelFormat) -> UInt32 {
        let r = UInt32(red), g = UInt32(green), b = UInt32(blue)
        switch format {
        case .xrgb8888: return 0xFF00_0000 | r << 16 | g << 8 | b
        case .rgb888: return b << 16 | g << 8 | r
        case .gray8: return (77 * r + 150 * g + 29 * b + 128) >> 8
        case .i420, .nv12: preconditionFailure("draw on a single-plane RGB or gray image")
        }
    }
}
