/// An integer pixel position (origin top-left, y down) for the drawing primitives.
public struct PixelPoint: Sendable, Equatable {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}
