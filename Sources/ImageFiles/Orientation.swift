import ImageCore

/// EXIF orientation (TIFF tag 0x0112): how the stored pixels must be transformed to be shown
/// upright. Raw values 1...8 as in the EXIF specification.
public enum Orientation: UInt16, Sendable, CaseIterable {
    case up = 1            // as stored
    case upMirrored = 2    // flip horizontally
    case down = 3          // rotate 180
    case downMirrored = 4  // flip vertically
    case leftMirrored = 5  // transpose (flip about the main diagonal)
    case right = 6         // rotate 90 clockwise
    case rightMirrored = 7 // transverse
    case left = 8          // rotate 90 counter-clockwise

    /// Whether width and height swap.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// Source pixel (sx, sy) in a `w`×`h` stored plane for destination pixel (dx, dy).
    @inline(__always)
    func source(dx: Int, dy: Int, w: Int, h: Int) -> (Int, Int) {
        switch self {
        case .up: return (dx, dy)
        case .upMirrored: return (w - 1 - dx, dy)
        case .down: return (w - 1 - dx, h - 1 - dy)
        case .downMirrored: return (dx, h - 1 - dy)
        case .leftMirrored: return (dy, dx)
        case .right: return (dy, h - 1 - dx)
        case .rightMirrored: return (w - 1 - dy, h - 1 - dx)
        case .left: return (w - 1 - dy, dx)
        }
    }

    /// A new buffer holding `buffer` shown upright. Returns `buffer` itself for `.up`.
    public func apply(to buffer: ImageBuffer) -> ImageBuffer {
        if self == .up { return buffer }
        let (w, h) = swapsAxes ? (buffer.height, buffer.width) : (buffer.width, buffer.height)
        let out = ImageBuffer(format: buffer.format, width: w, height: h)
        buffer.withImage { src in out.withImage { dst in transform(src, into: dst) } }
        return out
    }

    /// Copies every plane of `src` into `dst` (sized for the orientation) shown upright.
    private func transform(_ src: Image, into dst: Image) {
        for i in 0..<src.format.planeCount {
            let sp = src.plane(i), dp = dst.plane(i)
            let bpp = sp.bytesPerPixel
            for dy in 0..<dp.height {
                let drow = dp.row(dy)
                for dx in 0..<dp.width {
                    let (sx, sy) = source(dx: dx, dy: dy, w: sp.width, h: sp.height)
                    let s = sp.row(sy) + sx * bpp
                    for c in 0..<bpp { drow[dx * bpp + c] = s[c] }
                }
            }
        }
    }
}
