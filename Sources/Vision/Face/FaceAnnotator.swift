import ImageCore

/// Draws face boxes and landmark outlines onto an RGB888 or XRGB8888 image (in place): the box
/// in `boxColor`, each region as a polyline (closed paths closed), pupils as small crosses.
/// Lines are 1 px wide per 400 px of the image's long side (at least 1).
public enum FaceAnnotator {
    public static func draw(_ faces: [FaceObservation], on image: Image,
                            boxColor: (UInt8, UInt8, UInt8) = (255, 0, 0),
                            lineColor: (UInt8, UInt8, UInt8) = (255, 255, 255)) {
        precondition(image.format == .rgb888 || image.format == .xrgb8888, "annotation needs RGB888 or XRGB8888")
        let thickness = max(1, max(image.width, image.height) / 400)
        for face in faces {
            let b = face.box
            let corners = [Point2(b.x, b.y), Point2(b.x + b.width, b.y),
                           Point2(b.x + b.width, b.y + b.height), Point2(b.x, b.y + b.height)]
            polyline(corners, closed: true, on: image, color: boxColor, thickness: thickness)
            for name in FaceRegionName.allCases {
                guard let region = face.region(name) else { continue }
                if region.points.count == 1 {
                    let p = region.points[0]
                    let r = Float(max(3, thickness * 3))
                    line(Point2(p.x - r, p.y), Point2(p.x + r, p.y), on: image, color: lineColor, thickness: thickness)
                    line(Point2(p.x, p.y - r), Point2(p.x, p.y + r), on: image, color: lineColor, thickness: thickness)
                } else {
                    polyline(region.points, closed: region.isClosed, on: image, color: lineColor, thickness: thickness)
                }
            }
        }
    }

    static func polyline(_ points: [Point2], closed: Bool, on image: Image, color: (UInt8, UInt8, UInt8), thickness: Int) {
        guard points.count > 1 else { return }
        for i in 1..<points.count { line(points[i - 1], points[i], on: image, color: color, thickness: thickness) }
        if closed { line(points[points.count - 1], points[0], on: image, color: color, thickness: thickness) }
    }

    /// A line of square dots, one per pixel step along the longer axis.
    static func line(_ a: Point2, _ b: Point2, on image: Image, color: (UInt8, UInt8, UInt8), thickness: Int) {
        let steps = max(1, Int(max(abs(b.x - a.x), abs(b.y - a.y)).rounded(.up)))
        let plane = image.luma
        let half = thickness / 2
        for s in 0...steps {
            let t = Float(s) / Float(steps)
            let cx = Int((a.x + (b.x - a.x) * t).rounded(.down)), cy = Int((a.y + (b.y - a.y) * t).rounded(.down))
            for dy in -half..<(thickness - half) {
                let y = cy + dy
                guard y >= 0 && y < image.height else { continue }
                let row = plane.row(y)
                for dx in -half..<(thickness - half) {
                    let x = cx + dx
                    guard x >= 0 && x < image.width else { continue }
                    let p = row + x * plane.bytesPerPixel
                    if image.format == .rgb888 {
                        p[0] = color.0; p[1] = color.1; p[2] = color.2
                    } else {
                        p[0] = color.2; p[1] = color.1; p[2] = color.0
                    }
                }
            }
        }
    }
}
