import ImageCore

/// The luma of a frame reduced to the size of `destination` (frame orientation) in one pass:
/// BT.601 weights in Q16 for RGB, the Y plane for YUV, each destination pixel the mean of the
/// source pixels it covers. (At equal size the segmenter uses the Y plane itself or ImageCore's
/// `RGBToGray`.) Allocates nothing.
package enum LumaSampler {
    package static func fill(_ destination: Plane, from frame: Image) {
        let dw = destination.width, dh = destination.height
        precondition(dw <= frame.width && dh <= frame.height && destination.bytesPerPixel == 1, "luma: destination larger than the frame")
        let src = frame.planes.0
        for dy in 0..<dh {
            let y0 = dy * frame.height / dh, y1 = max(y0 + 1, (dy + 1) * frame.height / dh)
            let out = destination.row(dy)
            for dx in 0..<dw {
                let x0 = dx * frame.width / dw, x1 = max(x0 + 1, (dx + 1) * frame.width / dw)
                var sum = 0
                for y in y0..<y1 {
                    let row = src.row(y)
                    for x in x0..<x1 { sum += luma(row, x, frame.format) }
                }
                let n = (y1 - y0) * (x1 - x0)
                out[dx] = UInt8(truncatingIfNeeded: (sum + n / 2) / n)
            }
        }
    }

    @inline(__always)
    static func luma(_ row: UnsafeMutablePointer<UInt8>, _ x: Int, _ format: PixelFormat) -> Int {
        switch format {
        case .gray8, .i420, .nv12: return Int(row[x])
        case .rgb888:
            return (19595 * Int(row[3 * x]) + 38470 * Int(row[3 * x + 1]) + 7471 * Int(row[3 * x + 2]) + 32768) >> 16
        case .xrgb8888:
            return (19595 * Int(row[4 * x + 2]) + 38470 * Int(row[4 * x + 1]) + 7471 * Int(row[4 * x]) + 32768) >> 16
        }
    }
}
