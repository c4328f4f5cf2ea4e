#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point in image pixels with depth: `z` uses the same pixel scale as `x` (MediaPipe's
/// weak-perspective convention), smaller is nearer the camera, 0 is roughly the face's centre plane.
public struct Point3: Sendable, Equatable, Hashable, Codable {
    public var x: Float
    public var y: Float
    public var z: Float
    public init(_ x: Float, _ y: Float, _ z: Float) { self.x = x; self.y = y; self.z = z }
    @inlinable public var xy: Point2 { Point2(x, y) }
}

/// A rectangle rotated about its centre, in image pixels: the region a model looks at.
///
/// `rotation` is in radians and turns the rectangle's x axis from the image's x axis towards its
/// y axis (clockwise on screen, since y points down). A point at normalised position (u, v) in
/// 0...1 inside the rectangle maps to `center + R(rotation) · ((u - 0.5)·width, (v - 0.5)·height)`.
public struct RotatedRect: Sendable, Equatable {
    public var center: Point2
    public var width: Float
    public var height: Float
    public var rotation: Float

    public init(center: Point2, width: Float, height: Float, rotation: Float = 0) {
        self.center = center
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    /// The image position of normalised point (u, v) of this rectangle.
    @inlinable public func imagePoint(u: Float, v: Float) -> Point2 {
        let c = cosf(rotation), s = sinf(rotation)
        let dx = (u - 0.5) * width, dy = (v - 0.5) * height
        return Point2(center.x + c * dx - s * dy, center.y + s * dx + c * dy)
    }

    /// MediaPipe's `RectTransformationCalculator` with no shift: scale both sides, then, with
    /// `squareLong`, make both sides the longer one.
    public func scaled(by scale: Float, squareLong: Bool = true) -> RotatedRect {
        var r = self
        r.width *= scale
        r.height *= scale
        if squareLong {
            let side = max(r.width, r.height)
            r.width = side
            r.height = side
        }
        return r
    }

    /// The axis-aligned box around the four corners.
    public var boundingBox: Rect {
        var minX = Float.greatestFiniteMagnitude, minY = Float.greatestFiniteMagnitude
        var maxX = -Float.greatestFiniteMagnitude, maxY = -Float.greatestFiniteMagnitude
        for corner in 0..<4 {
            let p = imagePoint(u: Float(corner & 1), v: Float(corner >> 1))
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// A region like MediaPipe's `DetectionsToRectsCalculator` makes from a box and two
    /// keypoints: centred on the box, rotated so that the vector `from → to` becomes horizontal.
    public static func aligned(box: Rect, from a: Point2, to b: Point2) -> RotatedRect {
        RotatedRect(center: box.center, width: box.width, height: box.height,
                    rotation: atan2f(b.y - a.y, b.x - a.x))
    }
}
