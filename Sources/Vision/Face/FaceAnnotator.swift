import ImageCore

/// Draws face boxes and landmark outlines onto an RGB888 or XRGB8888 image (in place) with
/// ImageCore's `Canvas`: the box in `boxColour`, each region as a polyline (closed paths
/// closed), pupils as small crosses. Lines are 1 px wide per 400 px of the image's long side.
public enum FaceAnnotator {
    public static func draw(_ faces: [FaceObservation], on image: Image,
                            boxColour: Colour = Colour(255, 0, 0), lineColour: Colour = .white) {
        precondition(image.format == .rgb888 || image.format == .xrgb8888, "annotation needs RGB888 or XRGB8888")
        let canvas = Canvas(image)
        let thickness = max(1, max(image.width, image.height) / 400)
        for face in faces {
            let b = face.box
            canvas.strokeRect(x: Int(b.x.rounded()), y: Int(b.y.rounded()), width: Int(b.width.rounded()),
                              height: Int(b.height.rounded()), thickness: thickness, boxColour)
            for name in FaceRegionName.allCases {
                guard let region = face.region(name), !region.points.isEmpty else { continue }
                if region.points.count == 1 {
                    let x = Int(region.points[0].x.rounded()), y = Int(region.points[0].y.rounded())
                    let r = max(3, thickness * 3)
                    canvas.line(x - r, y, x + r, y, thickness: thickness, lineColour)
                    canvas.line(x, y - r, x, y + r, thickness: thickness, lineColour)
                } else {
                    let pairs = region.points.map { ($0.x, $0.y) }
                    pairs.withUnsafeBufferPointer {
                        canvas.polyline($0, closed: region.isClosed, thickness: thickness, lineColour)
                    }
                }
            }
        }
    }
}
