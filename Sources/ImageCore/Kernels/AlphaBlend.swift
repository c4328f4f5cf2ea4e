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
    public static func run(foreground: Image, background: Image, mask: Plane, destination: Image) {
        switch KernelDispatch.variant {
        case .scalar: scalar(foreground: foreground, background: background, mask: mask, destination: destination)
        case .simd: simd(foreground: foreground, background: background, mask: mask, destination: destination)
        }
    }

    public static func scalar(foreground: Image, background: Image, mask: Plane, destination: Image) {
        blend(foreground, background, mask, destination, vector: false)
    }

    /// 16 bytes per step in `SIMD16<UInt16>` lanes.
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
                while i + 16 <= n {
                    let fv = SIMDLanes.widen16(SIMDLanes.load16(f + i))
                    let bv = SIMDLanes.widen16(SIMDLanes.load16(b + i))
                    let mv: SIMD16<UInt16>
                    if bpp == 1 {
                        mv = SIMDLanes.widen16(SIMDLanes.load16(m + i))
                    } else {
                        // Each mask byte repeated for its pixel's bytes, gathered through the scratch.
                        mv = LaneScratch.with { raw in
                            let lanes = raw.assumingMemoryBound(to: UInt16.self)
                            for l in 0..<16 { lanes[l] = UInt16(m[(i + l) / bpp]) }
                            return raw.loadUnaligned(as: SIMD16<UInt16>.self)
                        }
                    }
                    let t = fv &* mv &+ bv &* (255 &- mv) &+ 128
                    SIMDLanes.store(SIMDLanes.bytes((t &+ (t &>> 8)) &>> 8), d + i)
                    i += 16
                }
            }
            while i < n {
                let mm = Int(m[i / bpp])
                d[i] = UInt8(truncatingIfNeeded: (Int(f[i]) * mm + Int(b[i]) * (255 - mm) + 127) / 255)
                i += 1
            }
        }
    }
}
