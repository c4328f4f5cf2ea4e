extension Image {
    /// The view of a sub-rectangle of every plane (no copy; see `Plane.cropped`). For YUV 4:2:0
    /// formats `x` and `y` must be even so the chroma planes stay aligned with the luma.
    @inlinable
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Image {
        precondition(x >= 0 && y >= 0 && w > 0 && h > 0 && x + w <= width && y + h <= height, "crop outside image")
        var result = self
        result.width = w
        result.height = h
        switch format {
        case .gray8, .xrgb8888, .rgb888:
            result.planes.0 = planes.0.cropped(x: x, y: y, width: w, height: h)
        case .i420, .nv12:
            precondition(x % 2 == 0 && y % 2 == 0, "YUV 4:2:0 crop must start on even coordinates")
            let cw = (w + 1) / 2, ch = (h + 1) / 2
            result.planes.0 = planes.0.cropped(x: x, y: y, width: w, height: h)
            result.planes.1 = planes.1.cropped(x: x / 2, y: y / 2, width: cw, height: ch)
            if format == .i420 {
                result.planes.2 = planes.2.cropped(x: x / 2, y: y / 2, width: cw, height: ch)
            }
        }
        return result
    }
}
