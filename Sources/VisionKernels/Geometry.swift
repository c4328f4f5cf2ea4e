// Points and rectangles in image pixels (Codable in Vision: `Geometry+Codable.swift`).

/// A point in image pixels, origin top-left, x right, y down.
public struct Point2: Sendable, Equatable, Hashable {
    public var x: Float
    public var y: Float
    public init(_ x: Float, _ y: Float) { self.x = x; self.y = y }
}

/// An axis-aligned rectangle in image pixels, origin top-left.
public struct Rect: Sendable, Equatable, Hashable {
    public var x: Float
    public var y: Float
    public var width: Float
    public var height: Float

    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var area: Float { max(0, width) * max(0, height) }
    public var center: Point2 { Point2(x + width / 2, y + height / 2) }

    /// The area this and `other` share (0 when they do not overlap).
    public func intersectionArea(_ other: Rect) -> Float {
        let ix = max(0, min(x + width, other.x + other.width) - max(x, other.x))
        let iy = max(0, min(y + height, other.y + other.height) - max(y, other.y))
        return ix * iy
    }

    /// Intersection over union with `other` (0 when either is empty).
    public func iou(_ other: Rect) -> Float {
        let inter = intersectionArea(other)
        let union = area + other.area - inter
        return union > 0 ? inter / union : 0
    }
}
