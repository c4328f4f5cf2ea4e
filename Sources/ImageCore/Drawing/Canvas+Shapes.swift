extension Canvas {
    /// Integer square root (floor) of a non-negative value.
    @usableFromInline static func squareRoot(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        var x = Int(Double(n).squareRoot())
        while x * x > n { x -= 1 }
        while (x + 1) * (x + 1) <= n { x += 1 }
        return x
    }

    /// A filled disc of `radius` around (cx, cy): pixels whose centre is within the radius
    /// (`dx² + dy² ≤ r² + r`, the usual midpoint rounding), clipped.
    public func fillCircle(centerX cx: Int, centerY cy: Int, radius r: Int, color: DrawColor) {
        guard r >= 0 else { return }
        let value = color.pixelValue(for: image.format)
        for dy in -r...r where cy + dy >= 0 && cy + dy < height {
            let half = Canvas.squareRoot(r * r + r - dy * dy)
            span(y: cy + dy, from: cx - half, to: cx + half + 1, value)
        }
    }

    /// The outline of the axis-aligned ellipse with semi-axes `rx`, `ry` around (cx, cy), a band
    /// `thickness` pixels wide centred on the ellipse (the oval layout guide), clipped.
    ///
    /// Row by row, the band is the outer ellipse's span minus the inner ellipse's span, with
    /// semi-axes `r ± thickness/2`; half-widths are `a·√(b² − dy²)/b` in integers.
    public func strokeEllipse(centerX cx: Int, centerY cy: Int, radiusX rx: Int, radiusY ry: Int,
                              thickness: Int, color: DrawColor) {
        guard rx > 0 && ry > 0 && thickness > 0 else { return }
        let value = color.pixelValue(for: image.format)
        let outerX = rx + thickness / 2, outerY = ry + thickness / 2
        let innerX = outerX - thickness, innerY = outerY - thickness
        for dy in -outerY...outerY where cy + dy >= 0 && cy + dy < height {
            let outer = Canvas.halfWidth(dy, outerX, outerY)
            if innerX > 0 && innerY > 0 && abs(dy) < innerY {
                let inner = Canvas.halfWidth(dy, innerX, innerY)
                span(y: cy + dy, from: cx - outer, to: cx - inner, value)
                span(y: cy + dy, from: cx + inner + 1, to: cx + outer + 1, value)
            } else {
                span(y: cy + dy, from: cx - outer, to: cx + outer + 1, value)
            }
        }
    }

    /// Half-width at row offset `dy` of the ellipse with semi-axes `a`, `b`.
    @usableFromInline static func halfWidth(_ dy: Int, _ a: Int, _ b: Int) -> Int {
        let inside = b * b - dy * dy
        guard inside > 0 else { return 0 }
        return squareRoot(a * a * inside) / b
    }

    /// A straight line from `a` to `b`. Thickness 1: Bresenham's line, both ends included.
    /// Thicker: every pixel whose centre lies within `thickness/2` of the segment (round caps).
    /// Clipped; cost grows with the line's length (thin) or bounding box (thick).
    public func line(from a: PixelPoint, to b: PixelPoint, thickness: Int = 1, color: DrawColor) {
        guard thickness > 0 else { return }
        // Nothing to draw when the thickened segment's bounding box misses the canvas.
        let pad = thickness / 2 + 1
        guard max(a.x, b.x) + pad >= 0 && min(a.x, b.x) - pad < width
              && max(a.y, b.y) + pad >= 0 && min(a.y, b.y) - pad < height else { return }
        let value = color.pixelValue(for: image.format)
        if thickness == 1 {
            bresenham(a, b, value)
            return
        }
        // Distances in half-pixels so a radius of thickness/2 stays an integer: (2·d)² ≤ t².
        let r = (thickness + 1) / 2
        let minX = max(min(a.x, b.x) - r, 0), maxX = min(max(a.x, b.x) + r, width - 1)
        let minY = max(min(a.y, b.y) - r, 0), maxY = min(max(a.y, b.y) + r, height - 1)
        guard minX <= maxX && minY <= maxY else { return }
        let dx = b.x - a.x, dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        let limit = thickness * thickness
        for y in minY...maxY {
            var runStart = -1
            for x in minX...(maxX + 1) {
                var inside = false
                if x <= maxX {
                    let px = x - a.x, py = y - a.y
                    let along = px * dx + py * dy
                    let d2: Int  // 4·distance², exact in integers
                    if length2 == 0 || along <= 0 {
                        d2 = 4 * (px * px + py * py)
                    } else if along >= length2 {
                        let qx = x - b.x, qy = y - b.y
                        d2 = 4 * (qx * qx + qy * qy)
                    } else {
                        let cross = px * dy - py * dx
                        d2 = 4 * cross * cross / length2
                    }
                    inside = d2 <= limit
                }
                if inside && runStart < 0 { runStart = x }
                if !inside && runStart >= 0 {
                    span(y: y, from: runStart, to: x, value)
                    runStart = -1
                }
            }
        }
    }

    func bresenham(_ a: PixelPoint, _ b: PixelPoint, _ value: UInt32) {
        var x = a.x, y = a.y
        let dx = abs(b.x - a.x), dy = -abs(b.y - a.y)
        let sx = a.x < b.x ? 1 : -1, sy = a.y < b.y ? 1 : -1
        var error = dx + dy
        while true {
            setPixel(x: x, y: y, value)
            if x == b.x && y == b.y { return }
            let e2 = 2 * error
            if e2 >= dy { error += dy; x += sx }
            if e2 <= dx { error += dx; y += sy }
        }
    }

    /// Lines through `points` in order; `closed` joins the last point back to the first.
    public func polyline(_ points: [PixelPoint], closed: Bool, thickness: Int = 1, color: DrawColor) {
        guard let first = points.first else { return }
        if points.count == 1 {
            line(from: first, to: first, thickness: thickness, color: color)
            return
        }
        for i in 1..<points.count {
            line(from: points[i - 1], to: points[i], thickness: thickness, color: color)
        }
        if closed && points.count > 2 {
            line(from: points[points.count - 1], to: first, thickness: thickness, color: color)
        }
    }
}
