/// RGB888 or XRGB8888 → Gray8 with the BT.601 luma weights in Q8:
/// `Y = (77 R + 150 G + 29 B + 128) >> 8` (weights sum to 256, so white stays 255; the largest
/// intermediate, 65 408, fits a UInt16 lane).
///
/// Contract: same size; reads only the source rows, writes only the destination rows. No allocation.
public enum RGBToGray {
    @inlinable
    public static func run(_ source: Image, _ destination: Image) {
        switch KernelDispatch.variant {
        case .scalar: scalar(source, destination)
        case .simd: simd(source, destination)
        }
    }

    public static func scalar(_ source: Image, _ destination: Image) { convert(source, destination, vector: false) }

    /// 16 pixels per step in `SIMD16<UInt16>` lanes.
    public static func simd(_ source: Image, _ destination: Image) { convert(source, destination, vector: true) }

    static func convert(_ source: Image, _ destination: Image, vector: Bool) {
        precondition(destination.format == .gray8, "RGBToGray: destination must be gray8")
        precondition(source.width == destination.width && source.height == destination.height, "RGBToGray: size mismatch")
        let layout = RGBLayout(source.format)
        let bpp = layout.bytesPerPixel
        for y in 0..<source.height {
            let src = UnsafePointer(source.planes.0.row(y))
            let dst = destination.planes.0.row(y)
            var x = 0
            if vector {
                while x + 16 <= source.width {
                    var r = SIMD16<UInt16>(), g = SIMD16<UInt16>(), b = SIMD16<UInt16>()
                    let p = src + x * bpp
                    if bpp == 4 {
                        let w = UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt32>.self)
                        r = SIMD16<UInt16>(truncatingIfNeeded: (w &>> UInt32(8 * layout.red)) & 0xFF)
                        g = SIMD16<UInt16>(truncatingIfNeeded: (w &>> UInt32(8 * layout.green)) & 0xFF)
                        b = SIMD16<UInt16>(truncatingIfNeeded: (w &>> UInt32(8 * layout.blue)) & 0xFF)
                    } else {
                        for i in 0..<16 {
                            r[i] = UInt16(p[3 * i + layout.red])
                            g[i] = UInt16(p[3 * i + layout.green])
                            b[i] = UInt16(p[3 * i + layout.blue])
                        }
                    }
                    let luma = (r &* 77 &+ g &* 150 &+ b &* 29 &+ 128) &>> 8
                    SIMDLanes.store(SIMD16<UInt8>(truncatingIfNeeded: luma), dst + x)
                    x += 16
                }
            }
            while x < source.width {
                let p = src + x * bpp
                let luma = (77 * Int(p[layout.red]) + 150 * Int(p[layout.green]) + 29 * Int(p[layout.blue]) + 128) >> 8
                dst[x] = UInt8(truncatingIfNeeded: luma)
                x += 1
            }
        }
    }
}
