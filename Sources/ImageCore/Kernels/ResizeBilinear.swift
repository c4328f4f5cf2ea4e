/// Bilinear resize in fixed point, for planes of 1 to 4 interleaved byte channels (Gray8,
/// NV12 chroma, RGB888, XRGB8888) and, plane by plane, for whole images (I420, NV12).
///
/// Positions and weights: `BilinearAxis` (pixel centres aligned, Q8 weights). Per channel:
/// `top = p00*(256-wx) + p01*wx`, `bottom = p10*(256-wx) + p11*wx`,
/// `out = (top*(256-wy) + bottom*wy + 32768) >> 16` (exact integers, so the SIMD variant
/// equals the reference).
///
/// Contract: source and destination planes have the same bytes per pixel; reads only source
/// pixels inside the plane, writes only destination rows. Allocates nothing.
public enum ResizeBilinear {
    @inlinable
    public static func run(_ source: Image, _ destination: Image) {
        switch KernelDispatch.variant {
        case .scalar: scalar(source, destination)
        case .simd: simd(source, destination)
        }
    }

    /// Every plane of `source` into the matching plane of `destination` (same format).
    public static func scalar(_ source: Image, _ destination: Image) { image(source, destination, vector: false) }
    public static func simd(_ source: Image, _ destination: Image) { image(source, destination, vector: true) }

    public static func scalar(_ source: Plane, _ destination: Plane) { plane(source, destination, vector: false) }
    /// 16 destination pixels per step in `SIMD16<Int32>` lanes (taps gathered, arithmetic in vectors).
    public static func simd(_ source: Plane, _ destination: Plane) { plane(source, destination, vector: true) }

    static func image(_ source: Image, _ destination: Image, vector: Bool) {
        precondition(source.format == destination.format, "resize: formats differ")
        for i in 0..<source.format.planeCount {
            plane(source.plane(i), destination.plane(i), vector: vector)
        }
    }

    static func plane(_ source: Plane, _ destination: Plane, vector: Bool) {
        precondition(source.bytesPerPixel == destination.bytesPerPixel, "resize: pixel sizes differ")
        precondition(source.bytesPerPixel >= 1 && source.bytesPerPixel <= 4, "resize: 1 to 4 channels")
        let channels = source.bytesPerPixel
        for dy in 0..<destination.height {
            let (y0, y1, wy) = BilinearAxis.taps(dy, source: source.height, destination: destination.height)
            let row0 = UnsafePointer(source.row(y0)), row1 = UnsafePointer(source.row(y1))
            let out = destination.row(dy)
            var axis = BilinearAxis(source: source.width, destination: destination.width)
            var dx = 0
            if vector {
                dx = rowSIMD(row0, row1, Int32(wy), out, width: destination.width, channels: channels, axis: &axis)
            }
            while dx < destination.width {
                let (x0, x1, wx) = axis.next()
                for c in 0..<channels {
                    let p00 = Int(row0[x0 * channels + c]), p01 = Int(row0[x1 * channels + c])
                    let p10 = Int(row1[x0 * channels + c]), p11 = Int(row1[x1 * channels + c])
                    let top = p00 * (256 - wx) + p01 * wx
                    let bottom = p10 * (256 - wx) + p11 * wx
                    out[dx * channels + c] = UInt8(truncatingIfNeeded: (top * (256 - wy) + bottom * wy + 32768) >> 16)
                }
                dx += 1
            }
        }
    }

    /// Whole groups of 16 destination pixels; returns the first pixel not written.
    @inline(__always)
    static func rowSIMD(_ row0: UnsafePointer<UInt8>, _ row1: UnsafePointer<UInt8>, _ wy: Int32,
                        _ out: UnsafeMutablePointer<UInt8>, width: Int, channels: Int, axis: inout BilinearAxis) -> Int {
        var dx = 0
        while dx + 16 <= width {
            var o0 = SIMD16<Int32>(), o1 = SIMD16<Int32>(), wx = SIMD16<Int32>()
            for i in 0..<16 {
                let t = axis.next()
                o0[i] = Int32(truncatingIfNeeded: t.i0 * channels)
                o1[i] = Int32(truncatingIfNeeded: t.i1 * channels)
                wx[i] = Int32(truncatingIfNeeded: t.weight)
            }
            let wx0 = 256 &- wx
            for c in 0..<channels {
                var p00 = SIMD16<Int32>(), p01 = SIMD16<Int32>(), p10 = SIMD16<Int32>(), p11 = SIMD16<Int32>()
                for i in 0..<16 {
                    let a = Int(o0[i]) + c, b = Int(o1[i]) + c
                    p00[i] = Int32(row0[a]); p01[i] = Int32(row0[b])
                    p10[i] = Int32(row1[a]); p11[i] = Int32(row1[b])
                }
                let top = p00 &* wx0 &+ p01 &* wx
                let bottom = p10 &* wx0 &+ p11 &* wx
                let v = SIMDLanes.bytes((top &* (256 &- wy) &+ bottom &* wy &+ 32768) &>> 16)
                if channels == 1 {
                    SIMDLanes.store(v, out + dx)
                } else {
                    for i in 0..<16 { out[(dx + i) * channels + c] = v[i] }
                }
            }
            dx += 16
        }
        return dx
    }
}
