/// Alpha blend of a foreground over a background through an 8-bit mask (255 = foreground).
///
/// Per byte, with mask value m of the pixel: `out = (fg*m + bg*(255-m) + 127) / 255`, which is
/// the exact rounding of `(fg*m + bg*(255-m)) / 255` (the quotient is never a half, 255 being
/// odd). The SIMD variant computes it without division as `t = x + 128; (t + (t >> 8)) >> 8`,
/// equal to `(x + 127) / 255` for every x in 0...65025 (checked exhaustively by the tests).
/// m = 0 gives bg and m = 255 gives fg exactly. XRGB8888's X byte is blended like the others.
///
/// Contract: foreground, background and destination have the same single-plane format (Gray8,
/// RGB888, XRGB8888) and size; `mask` is a plane of 1-byte pixels of that size. The destination
/// may be the background or foreground (in place). Reads and writes only pixels. Allocates nothing.
public enum AlphaBlend {
    @inlinable
    public static func run(foreground: Image, background: Image, mask: Plane, destination: Image, variant: KernelVariant = .simd) {
        switch variant {
        case .scalar: scalar(foreground: foreground, background: background, mask: mask, destination: destination)
        case .simd: simd(foreground: foreground, background: background, mask: mask, destination: destination)
        }
    }

    public static func scalar(foreground: Image, background: Image, mask: Plane, destination: Image) {
        blend(foreground, background, mask, destination, vector: false)
    }

    /// 16 bytes per step in `SIMD16<UInt16>` lanes (see `rowSIMD`).
    public static func simd(foreground: Image, background: Image, mask: Plane, destination: Image) {
        blend(foreground, background, mask, destination, vector: true)
    }

    static func blend(_ fg: Image, _ bg: Image, _ mask: Plane, _ dst: Image, vector: Bool) {
        precondition(fg.format.planeCount == 1 && fg.format == bg.format && fg.format == dst.format, "blend: formats differ")
        precondition(fg.width == bg.width && fg.width == dst.width && fg.width == mask.width
                     && fg.height == bg.height && fg.height == dst.height && fg.height == mask.height
                     && mask.bytesPerPixel == 1, "blend: sizes differ")
        let bpp = fg.format.bytesPerPixel(plane: 0)
        let n = fg.width * bpp
        for y in 0..<fg.height {
            let f = UnsafePointer(fg.planes.0.row(y)), b = UnsafePointer(bg.planes.0.row(y))
            let m = UnsafePointer(mask.row(y)), d = dst.planes.0.row(y)
            var i = 0
            if vector {
                i = rowSIMD(f, b, m, d, bytes: n, bpp: bpp)
            }
            while i < n {
                let mm = Int(m[i / bpp])
                d[i] = UInt8(truncatingIfNeeded: (Int(f[i]) * mm + Int(b[i]) * (255 - mm) + 127) / 255)
                i += 1
            }
        }
    }

    /// 16 bytes: `(fg*m + bg*(255-m) + 127) / 255` as `t = x + 128; (t + (t >> 8)) >> 8`.
    @inline(__always)
    static func blend16(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ mask: SIMD16<UInt16>,
                        _ d: UnsafeMutablePointer<UInt8>) {
        let fv = SIMDLanes.widen16(SIMDLanes.load16(f)), bv = SIMDLanes.widen16(SIMDLanes.load16(b))
        let t = fv &* mask &+ bv &* (255 &- mask) &+ 128
        SIMDLanes.store(SIMDLanes.bytes((t &+ (t &>> 8)) &>> 8), d)
    }

    /// Whole vectors of a row (`bytes` long); returns the first byte not written. The mask is
    /// spread over each pixel's bytes with constant lane patterns: 16 pixels per step for Gray8,
    /// 4 for XRGB8888, 16 (three vectors) for RGB888.
    @inline(__always)
    static func rowSIMD(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ m: UnsafePointer<UInt8>,
                        _ d: UnsafeMutablePointer<UInt8>, bytes n: Int, bpp: Int) -> Int {
        var i = 0
        switch bpp {
        case 1:
            while i + 16 <= n {
                blend16(f + i, b + i, SIMDLanes.widen16(SIMDLanes.load16(m + i)), d + i)
                i += 16
            }
        case 4:
            while i + 16 <= n {
                let p = m + i / 4
                let m0 = UInt16(p[0]), m1 = UInt16(p[1]), m2 = UInt16(p[2]), m3 = UInt16(p[3])
                blend16(f + i, b + i, SIMD16(m0, m0, m0, m0, m1, m1, m1, m1, m2, m2, m2, m2, m3, m3, m3, m3), d + i)
                i += 16
            }
        case 3:
            while i + 48 <= n {
                let k = SIMDLanes.widen16(SIMDLanes.load16(m + i / 3))
                blend16(f + i, b + i, SIMD16(k[0], k[0], k[0], k[1], k[1], k[1], k[2], k[2],
                                             k[2], k[3], k[3], k[3], k[4], k[4], k[4], k[5]), d + i)
                blend16(f + i + 16, b + i + 16, SIMD16(k[5], k[5], k[6], k[6], k[6], k[7], k[7], k[7],
                                                       k[8], k[8], k[8], k[9], k[9], k[9], k[10], k[10]), d + i + 16)
                blend16(f + i + 32, b + i + 32, SIMD16(k[10], k[11], k[11], k[11], k[12], k[12], k[12], k[13],
                                                       k[13], k[13], k[14], k[14], k[14], k[15], k[15], k[15]), d + i + 32)
                i += 48
            }
        default:
            break
        }
        return i
    }
}
