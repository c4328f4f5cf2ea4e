/// Drawing onto a single-plane image (XRGB8888, RGB888 or Gray8) for the overlay: rectangles,
/// lines, ellipses, polylines, discs and bitmap text. Every primitive clips to the image, so
/// any coordinates are safe; nothing allocates. Spans go through the `Fill` kernel.
public struct Canvas: @unchecked Sendable {
    public let image: Image

    public init(_ image: Image) {
        precondition(image.format == .xrgb8888 || image.format == .rgb888 || image.format == .gray8,
                     "Canvas draws on XRGB8888, RGB888 or Gray8")
        self.image = image
    }

    @inlinable public var width: Int { image.width }
    @inlinable public var height: Int { image.height }

    /// Fills pixels `x0 ..< x1` of row `y`, clipped.
    @inlinable
    public func span(y: Int, from x0: Int, to x1: Int, _ value: UInt32) {
        guard y >= 0 && y < height else { return }
        let a = max(x0, 0), b = min(x1, width)
        guard a < b else { return }
        Fill.run(image.planes.0.cropped(x: a, y: y, width: b - a, height: 1), value: value)
    }

    /// Sets one pixel, clipped.
    @inlinable
    public func setPixel(x: Int, y: Int, _ value: UInt32) {
        guard x >= 0 && x < width && y >= 0 && y < height else { return }
        let bpp = image.planes.0.bytesPerPixel
        let p = image.planes.0.row(y) + x * bpp
        for c in 0..<bpp { p[c] = UInt8(truncatingIfNeeded: value >> UInt32(8 * c)) }
    }

    /// Fills the rectangle `x ..< x+w`, `y ..< y+h`, clipped.
    public func fillRect(x: Int, y: Int, width w: Int, height h: Int, color: DrawColor) {
        let x0 = max(x, 0), y0 = max(y, 0), x1 = min(x + w, width), y1 = min(y + h, height)
        guard x0 < x1 && y0 < y1 else { return }
        Fill.run(image.planes.0.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0),
                 value: color.pixelValue(for: image.format))
    }

    /// The outline of the rectangle `x ..< x+w`, `y ..< y+h`, `thickness` pixels drawn inward.
    public func strokeRect(x: Int, y: Int, width w: Int, height h: Int, thickness: Int, color: DrawColor) {
        guard w > 0 && h > 0 && thickness > 0 else { return }
        let t = min(thickness, (min(w, h) + 1) / 2)
        fillRect(x: x, y: y, width: w, height: t, color: color)
        fillRect(x: x, y: y + h - t, width: w, height: t, color: color)
        fillRect(x: x, y: y + t, width: t, height: h - 2 * t, color: color)
        fillRect(x: x + w - t, y: y + t, width: t, height: h - 2 * t, color: color)
    }
}
