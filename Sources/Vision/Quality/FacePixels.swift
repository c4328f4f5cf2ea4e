import ImageCore

/// Reads single pixels of any Booth image format as BT.601 full-range Y, U, V (0...255), and
/// samples face-aligned regions on a coarse grid. For measurements on a few hundred points per
/// region (`ExaminerEstimator`); allocates nothing.
struct FacePixels {
    let image: Image

    /// One colour sample.
    struct YUV {
        var y: Float, u: Float, v: Float
        /// Chroma magnitude: distance from grey.
        var saturation: Float { abs(u - 128) + abs(v - 128) }
    }

    /// The column and row of the pixel nearest to (x, y), clamped to the image.
    @inline(__always) func nearest(_ x: Float, _ y: Float) -> (Int, Int) {
        (max(0, min(image.width - 1, Int(x.rounded()))), max(0, min(image.height - 1, Int(y.rounded()))))
    }

    /// The pixel nearest to (x, y), clamped to the image.
    func sample(_ x: Float, _ y: Float) -> YUV {
        let (xi, yi) = nearest(x, y)
        switch image.format {
        case .rgb888, .xrgb8888:
            let row = image.planes.0.row(yi)
            let r: Float, g: Float, b: Float
            if image.format == .rgb888 {
                r = Float(row[3 * xi]); g = Float(row[3 * xi + 1]); b = Float(row[3 * xi + 2])
            } else {
                b = Float(row[4 * xi]); g = Float(row[4 * xi + 1]); r = Float(row[4 * xi + 2])
            }
            return YUV(y: 0.299 * r + 0.587 * g + 0.114 * b,
                       u: 128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
                       v: 128 + 0.5 * r - 0.418688 * g - 0.081312 * b)
        case .i420:
            let cx = xi / 2, cy = yi / 2
            return YUV(y: Float(image.planes.0.row(yi)[xi]), u: Float(image.planes.1.row(cy)[cx]), v: Float(image.planes.2.row(cy)[cx]))
        case .nv12:
            let cx = xi / 2, cy = yi / 2
            let uv = image.planes.1.row(cy)
            return YUV(y: Float(image.planes.0.row(yi)[xi]), u: Float(uv[2 * cx]), v: Float(uv[2 * cx + 1]))
        case .gray8:
            return YUV(y: Float(image.planes.0.row(yi)[xi]), u: 128, v: 128)
        }
    }

    /// The luma of the pixel nearest to (x, y), clamped to the image: `sample(x, y).y` with the
    /// same arithmetic, without the chroma (for measures that read luma only on live frames).
    func luma(_ x: Float, _ y: Float) -> Float {
        let (xi, yi) = nearest(x, y)
        let row = image.planes.0.row(yi)
        switch image.format {
        case .rgb888:
            let r = Float(row[3 * xi]), g = Float(row[3 * xi + 1]), b = Float(row[3 * xi + 2])
            return 0.299 * r + 0.587 * g + 0.114 * b
        case .xrgb8888:
            let b = Float(row[4 * xi]), g = Float(row[4 * xi + 1]), r = Float(row[4 * xi + 2])
            return 0.299 * r + 0.587 * g + 0.114 * b
        case .i420, .nv12, .gray8:
            return Float(row[xi])
        }
    }

    /// A face-aligned frame: `u` along the eye line (person's right eye → left eye), `v` down the
    /// face, both unit vectors in image pixels.
    struct Axes {
        var ux: Float, uy: Float
        var vx: Float { -uy }
        var vy: Float { ux }
        func point(_ c: Point2, _ a: Float, _ b: Float) -> Point2 { Point2(c.x + a * ux + b * vx, c.y + a * uy + b * vy) }
    }

    /// Calls `body` for a `columns`×`rows` grid over the face-aligned box centred at `c`
    /// (half-extents `halfU`, `halfV`), row by row; `body` gets the row index, the point and the sample.
    func grid(_ c: Point2, _ axes: Axes, halfU: Float, halfV: Float, columns: Int, rows: Int, _ body: (Int, Point2, YUV) -> Void) {
        for j in 0..<rows {
            let b = rows == 1 ? 0 : -halfV + 2 * halfV * Float(j) / Float(rows - 1)
            for i in 0..<columns {
                let a = columns == 1 ? 0 : -halfU + 2 * halfU * Float(i) / Float(columns - 1)
                let p = axes.point(c, a, b)
                body(j, p, sample(p.x, p.y))
            }
        }
    }

    /// Mean colour of the face-aligned box (12×12 samples).
    func mean(_ c: Point2, _ axes: Axes, halfU: Float, halfV: Float) -> YUV {
        var s = YUV(y: 0, u: 0, v: 0)
        grid(c, axes, halfU: halfU, halfV: halfV, columns: 12, rows: 12) { _, _, p in s.y += p.y; s.u += p.u; s.v += p.v }
        return YUV(y: s.y / 144, u: s.u / 144, v: s.v / 144)
    }

    /// Calls `body` for the pixels inside the polygon through mesh vertices `indices` (image
    /// coordinates), on a grid of at most about 32×32 samples over its bounding box.
    func polygon(_ points: [Point3], _ indices: [Int], _ body: (Point2, YUV) -> Void) {
        polygon(MeshOutline(points, indices), body)
    }

    /// `polygon(_:_:_:)` for an outline already made.
    func polygon(_ outline: MeshOutline, _ body: (Point2, YUV) -> Void) {
        let step = max(1, max(outline.maxX - outline.minX, outline.maxY - outline.minY) / 32)
        var y = outline.minY + step / 2
        while y < outline.maxY {
            var x = outline.minX + step / 2
            while x < outline.maxX {
                if outline.contains(x, y) { body(Point2(x, y), sample(x, y)) }
                x += step
            }
            y += step
        }
    }

    /// Luma spread inside the polygon through mesh vertices `indices`: its 90th minus its 10th
    /// percentile (whole luma levels; 0 when fewer than 5 samples fall inside). The histogram
    /// lives on the stack.
    func spread(_ points: [Point3], _ indices: [Int]) -> Float {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 256) { histogram -> Float in
            histogram.initialize(repeating: 0)
            var n: Int32 = 0
            polygon(points, indices) { _, s in
                histogram[Int(max(0, min(255, s.y)))] += 1
                n += 1
            }
            guard n >= 5 else { return 0 }
            func percentile(_ q: Float) -> Int {
                let rank = Int32((q * Float(n)).rounded(.down))
                var seen: Int32 = 0
                for level in 0..<256 {
                    seen += histogram[level]
                    if seen > rank { return level }
                }
                return 255
            }
            return Float(percentile(0.9) - percentile(0.1))
        }
    }
}
