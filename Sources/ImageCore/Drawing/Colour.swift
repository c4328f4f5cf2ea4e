/// An opaque sRGB colour for drawing.
public struct Colour: Sendable, Equatable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { self.r = r; self.g = g; self.b = b }

    public static let white = Colour(255, 255, 255)
    public static let black = Colour(0, 0, 0)
    public static let red = Colour(230, 40, 40)
    public static let green = Colour(40, 200, 70)
    public static let amber = Colour(250, 190, 40)
    public static let grey = Colour(128, 128, 128)

    /// The pixel value in DRM's XRGB8888 (bytes B, G, R, X in memory).
    @inlinable public var xrgb: UInt32 { 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }
}
