/// Drawing on an XRGB8888 or RGB888 image: filled and outlined shapes, clipped to the image, for
/// the kiosk overlay and annotated photos. Integer arithmetic; nothing is allocated.
public struct Canvas {
    public let image: Image

    public init(_ image: Image) {
        precondition(image.format == .xrgb8888 || image.format == .rgb888, "Canvas draws on xrgb8888 or rgb888")
        self.image = image
    }

    @inlinable var width: Int { image.width }
    @inlinable var height: Int { image.height }

    /// Sets one pixel, if inside.
    @inlinable public func set(_ x: Int, _ y: Int, _ c: Colour) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let p = image.luma.row(y)
        if image.format == .xrgb8888 {
            p[4 * x] = c.b; p[4 * x + 1] = c.g; p[4 * x + 2] = c.r; p[4 * x + 3] = 0xFF
        } else {
            p[3 * x] = c.r; p[3 * x + 1] = c.g; p[3 * x + 2] = c.b
        }
    }

    /// A horizontal run from x0 to x1 inclusive on row y, clipped.
    @inlinable public func span(_ x0: Int, _ x1: Int, _ y: Int, _ c: Colour) {
        guard y >= 0, y < height else { return }
        let a = max(0, min(x0, x1)), b = min(width - 1, max(x0, x1))
        guard a <= b else { return }
        let p = image.luma.row(y)
        if image.format == .xrgb8888 {
            let v = c.xrgb
            let row = UnsafeMutableRawPointer(p)
            for x in a...b { row.storeBytes(of: v.littleEndian, toByteOffset: 4 * x, as: UInt32.self) }
        } else {
            for x in a...b { p[3 * x] = c.r; p[3 * x + 1] = c.g; p[3 * x + 2] = c.b }
        }
    }

    /// A filled rectangle, clipped (one wholly outside the image draws nothing).
    public func fill(x: Int, y: Int, width w: Int, height h: Int, _ c: Colour) {
        let y0 = max(0, y), y1 = min(height, y + h)
        guard w > 0, h > 0, y0 < y1 else { return }
        for yy in y0..<y1 { span(x, x + w - 1, yy, c) }
    }

    /// Darkens (or tints) a rectangle: out = (pixel·(256−alpha) + colour·alpha) >> 8. For text banners.
    public func shade(x: Int, y: Int, width w: Int, height h: Int, _ c: Colour, alpha: Int) {
        let a = UInt32(max(0, min(256, alpha))), na = 256 - a
        let x0 = max(0, x), x1 = min(width, x + w)
        guard x0 < x1 else { return }
        let bpp = image.format == .xrgb8888 ? 4 : 3
        let (c0, c1, c2) = bpp == 4 ? (c.b, c.g, c.r) : (c.r, c.g, c.b)
        for yy in max(0, y)..<min(height, y + h) {
            let p = image.luma.row(yy)
            for xx in x0..<x1 {
                let o = bpp * xx
                p[o] = UInt8((UInt32(p[o]) * na + UInt32(c0) * a) >> 8)
                p[o + 1] = UInt8((UInt32(p[o + 1]) * na + UInt32(c1) * a) >> 8)
                p[o + 2] = UInt8((UInt32(p[o + 2]) * na + UInt32(c2) * a) >> 8)
            }
        }
    }

    /// A rectangle outline `thickness` pixels wide, drawn inside the rectangle.
    public func strokeRect(x: Int, y: Int, width w: Int, height h: Int, thickness t: Int, _ c: Colour) {
        guard w > 0, h > 0, t > 0 else { return }
        let t = min(t, (min(w, h) + 1) / 2)
        fill(x: x, y: y, width: w, height: t, c)
        fill(x: x, y: y + h - t, width: w, height: t, c)
        fill(x: x, y: y + t, width: t, height: h - 2 * t, c)
        fill(x: x + w - t, y: y + t, width: t, height: h - 2 * t, c)
    }

    /// A filled disc of radius r (pixels within r + 0.5 of the centre).
    public func fillCircle(cx: Int, cy: Int, radius r: Int, _ c: Colour) {
        guard r >= 0 else { return }
        let rr = r * r + r
        for dy in -r...r {
            var dx = 0
            while (dx + 1) * (dx + 1) + dy * dy <= rr { dx += 1 }
            span(cx - dx, cx + dx, cy + dy, c)
        }
    }

    /// A line from (x0, y0) to (x1, y1), `thickness` pixels wide (round ends).
    public func line(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, thickness t: Int = 1, _ c: Colour) {
        let r = max(0, (t - 1) / 2)
        // Bresenham over the centre line; a disc (or a pixel) at each step.
        var x = x0, y = y0
        let dx = abs(x1 - x0), dy = -abs(y1 - y0)
        let sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1
        var err = dx + dy
        // Skip work entirely outside the image.
        if max(x0, x1) + r < 0 || min(x0, x1) - r >= width || max(y0, y1) + r < 0 || min(y0, y1) - r >= height { return }
        while true {
            if r == 0 { set(x, y, c) } else { fillCircle(cx: x, cy: y, radius: r, c) }
            if x == x1 && y == y1 { break }
            let e2 = 2 * err
            if e2 >= dy { err += dy; x += sx }
            if e2 <= dx { err += dx; y += sy }
        }
    }

    /// A polyline through `points` (x, y pairs); `closed` joins the last point to the first.
    public func polyline(_ points: UnsafeBufferPointer<(Float, Float)>, closed: Bool, thickness: Int = 1, _ c: Colour) {
        guard points.count > 1 else { return }
        let n = closed ? points.count : points.count - 1
        for i in 0..<n {
            let a = points[i], b = points[(i + 1) % points.count]
            line(Int(a.0.rounded()), Int(a.1.rounded()), Int(b.0.rounded()), Int(b.1.rounded()), thickness: thickness, c)
        }
    }

    /// An axis-aligned ellipse outline centred at (cx, cy) with radii (rx, ry), `thickness` pixels
    /// wide inward: each row fills the span between the outer and the inner ellipse.
    public func strokeEllipse(cx: Int, cy: Int, rx: Int, ry: Int, thickness t: Int, _ c: Colour) {
        guard rx > 0, ry > 0, t > 0 else { return }
        let irx = max(0, rx - t), iry = max(0, ry - t)
        for dy in -ry...ry {
            let ox = Self.halfWidth(rx, ry, dy)
            let ix = (iry > 0 && abs(dy) < iry) ? Self.halfWidth(irx, iry, dy) : -1
            if ix < 0 {
                span(cx - ox, cx + ox, cy + dy, c)
            } else {
                span(cx - ox, cx - ix - 1, cy + dy, c)
                span(cx + ix + 1, cx + ox, cy + dy, c)
            }
        }
    }

    /// Half the width of an ellipse's row `dy` from its centre: the largest x with
    /// (x/rx)² + (dy/ry)² ≤ 1, in integers.
    @inlinable static func halfWidth(_ rx: Int, _ ry: Int, _ dy: Int) -> Int {
        // x² · ry² ≤ rx² · (ry² − dy²)
        let rhs = rx * rx * (ry * ry - dy * dy)
        if rhs < 0 { return -1 }
        var x = Int(Double(rhs).squareRoot() / Double(ry))
        while (x + 1) * (x + 1) * ry * ry <= rhs { x += 1 }
        while x > 0 && x * x * ry * ry > rhs { x -= 1 }
        return x
    }
}
