/// Bilinear resize in fixed point, for planes of 1 to 4 interleaved byte channels (Gray8,
/// NV12 chroma, RGB888, XRGB8888) and, plane by plane, for whole images (I420, NV12).
///
/// Positions and weights: `BilinearAxis` (pixel centres aligned, Q8 weights). Per channel:
/// `top = p00*(256-wx) + p01*wx`, `bottom = p10*(256-wx) + p11*wx`,
/// `out = (top*(256-wy) + bottom*wy + 32768) >> 16` (exact integers, so the SIMD variant
/// equals the reference).
///
/// Contract: source and destination planes have the same bytes per pixel; writes only
/// destination rows. The SIMD variant reads 3- and 4-byte pixels as 32-bit words, so for RGB888
/// it may read one byte past a row's last pixel (row slack or `Plane.requiredPadding`); otherwise
/// only pixels inside the plane are read. Allocates nothing.
public enum ResizeBilinear {
    @inlinable
    public static func run(_ source: Image, _ destination: Image, variant: KernelVariant = .simd) {
        switch variant {
        case .scalar: scalar(source, destination)
        case .simd: simd(source, destination)
        }
    }

    /// Every plane of `source` into the matching plane of `destination` (same format).
    public static func scalar(_ source: Image, _ destination: Image) { image(source, destination, vector: false) }
    public static func simd(_ source: Image, _ destination: Image) { image(source, destination, vector: true) }

    public static func scalar(_ source: Plane, _ destination: Plane) { plane(source, destination, vector: false) }
    /// 16 destination pixels per step: taps and pixels gathered through `LaneScratch`, the
    /// interpolation in `SIMD16<Int32>` lanes.
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

    /// Whole groups of 16 destination pixels; returns the first pixel not written. Taps and
    /// gathered pixels go through `LaneScratch` (lanes 0-47 taps, 48-111 pixels).
    @inline(__always)
    static func rowSIMD(_ row0: UnsafePointer<UInt8>, _ row1: UnsafePointer<UInt8>, _ wy: Int32,
                        _ out: UnsafeMutablePointer<UInt8>, width: Int, channels: Int, axis: inout BilinearAxis) -> Int {
        LaneScratch.with { raw in
            let lanes = raw.assumingMemoryBound(to: Int32.self)
            @inline(__always) func vector(_ offset: Int) -> SIMD16<Int32> {
                raw.loadUnaligned(fromByteOffset: 4 * offset, as: SIMD16<Int32>.self)
            }
            var dx = 0
            if channels == 1 {
                // Gray8 and the planes of I420: each lane's four source bytes are loaded as soon as
                // its taps are known (no index round trip through the scratch), 16 lanes written
                // out so the group has no inner loop.
                @inline(__always) func gather(_ i: Int) {
                    let t = axis.next()
                    lanes[32 + i] = Int32(truncatingIfNeeded: t.weight)
                    lanes[48 + i] = Int32(row0[t.i0])
                    lanes[64 + i] = Int32(row0[t.i1])
                    lanes[80 + i] = Int32(row1[t.i0])
                    lanes[96 + i] = Int32(row1[t.i1])
                }
                while dx + 16 <= width {
                    gather(0); gather(1); gather(2); gather(3); gather(4); gather(5); gather(6); gather(7)
                    gather(8); gather(9); gather(10); gather(11); gather(12); gather(13); gather(14); gather(15)
                    let wx = vector(32)
                    let wx0 = 256 &- wx
                    let top = vector(48) &* wx0 &+ vector(64) &* wx
                    let bottom = vector(80) &* wx0 &+ vector(96) &* wx
                    let v = (top &* (256 &- wy) &+ bottom &* wy &+ 32768) &>> 16
                    SIMDLanes.store(SIMDLanes.bytes(v), out + dx)
                    dx += 16
                }
                return dx
            }
            while dx + 16 <= width {
                for i in 0..<16 {
                    let t = axis.next()
                    lanes[i] = Int32(truncatingIfNeeded: t.i0 * channels)
                    lanes[16 + i] = Int32(truncatingIfNeeded: t.i1 * channels)
                    lanes[32 + i] = Int32(truncatingIfNeeded: t.weight)
                }
                let wx = vector(32)
                let wx0 = 256 &- wx
                if channels >= 3 {
                    // Whole pixels as 32-bit words (RGB888: one byte over-read, see the contract).
                    for i in 0..<16 {
                        let a = Int(lanes[i]), b = Int(lanes[16 + i])
                        lanes[48 + i] = UnsafeRawPointer(row0 + a).loadUnaligned(as: Int32.self)
                        lanes[64 + i] = UnsafeRawPointer(row0 + b).loadUnaligned(as: Int32.self)
                        lanes[80 + i] = UnsafeRawPointer(row1 + a).loadUnaligned(as: Int32.self)
                        lanes[96 + i] = UnsafeRawPointer(row1 + b).loadUnaligned(as: Int32.self)
                    }
                    let w00 = vector(48), w01 = vector(64), w10 = vector(80), w11 = vector(96)
                    var word = SIMD16<Int32>()
                    for c in 0..<channels {
                        let shift = Int32(8 * c)
                        let top = ((w00 &>> shift) & 0xFF) &* wx0 &+ ((w01 &>> shift) & 0xFF) &* wx
                        let bottom = ((w10 &>> shift) & 0xFF) &* wx0 &+ ((w11 &>> shift) & 0xFF) &* wx
                        word |= ((top &* (256 &- wy) &+ bottom &* wy &+ 32768) &>> 16) &<< shift
                    }
                    if channels == 4 {
                        SIMDLanes.store(word, out + dx * 4)
                    } else {
                        SIMDLanes.storePixels3(word, out + dx * 3)
                    }
                    dx += 16
                    continue
                }
                for c in 0..<channels {
                    for i in 0..<16 {
                        let a = Int(lanes[i]) + c, b = Int(lanes[16 + i]) + c
                        lanes[48 + i] = Int32(row0[a])
                        lanes[64 + i] = Int32(row0[b])
                        lanes[80 + i] = Int32(row1[a])
                        lanes[96 + i] = Int32(row1[b])
                    }
                    let top = vector(48) &* wx0 &+ vector(64) &* wx
                    let bottom = vector(80) &* wx0 &+ vector(96) &* wx
                    let v = (top &* (256 &- wy) &+ bottom &* wy &+ 32768) &>> 16
                    if channels == 1 {
                        SIMDLanes.store(SIMDLanes.bytes(v), out + dx)
                    } else {
                        for i in 0..<16 { out[(dx + i) * channels + c] = UInt8(truncatingIfNeeded: v[i]) }
                    }
                }
                dx += 16
            }
            return dx
        }
    }
}
