/// RGB888 or XRGB8888 → I420 in full-range BT.601 (JFIF, what JPEG encoders expect), Q8:
/// ```
/// Y  = (77 R + 150 G + 29 B + 128) >> 8
/// Cb = clamp(((-43 R̄ - 85 Ḡ + 128 B̄ + 128) >> 8) + 128)
/// Cr = clamp(((128 R̄ - 107 Ḡ - 21 B̄ + 128) >> 8) + 128)
/// ```
/// where R̄ Ḡ B̄ are the 2×2 block means `(sum + 2) >> 2` (an odd last column or row repeats its
/// edge pixel), `>>` floors, clamp is to 0...255.
///
/// Contract: same size; writes only the planes' rows. The SIMD variant reads RGB888 as 32-bit
/// words, so it may read one byte past a row's last pixel (row slack or `Plane.requiredPadding`).
/// No allocation.
public enum RGBToI420 {
    @inlinable
    public static func run(_ source: Image, _ destination: Image, variant: KernelVariant = .simd) {
        switch variant {
        case .scalar: scalar(source, destination)
        case .simd: simd(source, destination)
        }
    }

    public static func scalar(_ source: Image, _ destination: Image) { convert(source, destination, vector: false) }

    /// 16 pixels of two rows per step (`SIMD16<Int32>` lanes; chroma in `SIMD8<Int32>`).
    public static func simd(_ source: Image, _ destination: Image) { convert(source, destination, vector: true) }

    static func convert(_ source: Image, _ destination: Image, vector: Bool) {
        precondition(destination.format == .i420, "RGBToI420: destination must be i420")
        precondition(source.width == destination.width && source.height == destination.height, "RGBToI420: size mismatch")
        let layout = RGBLayout(source.format)
        let width = source.width
        var y = 0
        while y < source.height {
            let top = UnsafePointer(source.planes.0.row(y))
            let hasSecond = y + 1 < source.height
            let bottom = hasSecond ? UnsafePointer(source.planes.0.row(y + 1)) : top
            let yTop = destination.planes.0.row(y)
            let yBottom = hasSecond ? destination.planes.0.row(y + 1) : nil
            let u = destination.planes.1.row(y / 2)
            let v = destination.planes.2.row(y / 2)
            var x = 0
            if vector {
                x = pairSIMD(top, bottom, yTop, yBottom, u, v, width: width, layout)
            }
            pairScalar(top, bottom, yTop, yBottom, u, v, from: x, width: width, layout)
            y += 2
        }
    }

    @inline(__always)
    static func luma(_ r: Int32, _ g: Int32, _ b: Int32) -> Int32 { (77 * r + 150 * g + 29 * b + 128) >> 8 }

    @inline(__always)
    static func chroma(_ r: Int32, _ g: Int32, _ b: Int32) -> (UInt8, UInt8) {
        let cb = ((-43 * r - 85 * g + 128 * b + 128) >> 8) + 128
        let cr = ((128 * r - 107 * g - 21 * b + 128) >> 8) + 128
        return (YUVToRGB.clamp(cb), YUVToRGB.clamp(cr))
    }

    /// Two source rows (`bottom` == `top` on an odd last row) from pixel `start` (even) to the end.
    @inline(__always)
    static func pairScalar(_ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>,
                           _ yTop: UnsafeMutablePointer<UInt8>, _ yBottom: UnsafeMutablePointer<UInt8>?,
                           _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>,
                           from start: Int, width: Int, _ layout: RGBLayout) {
        let bpp = layout.bytesPerPixel
        var x = start
        while x < width {
            var sr: Int32 = 0, sg: Int32 = 0, sb: Int32 = 0
            for dx in 0..<2 {
                let xx = min(x + dx, width - 1)
                for pass in 0..<2 {
                    let p = (pass == 0 ? top : bottom) + xx * bpp
                    let r = Int32(p[layout.red]), g = Int32(p[layout.green]), b = Int32(p[layout.blue])
                    sr += r; sg += g; sb += b
                    if let out = pass == 0 ? yTop : yBottom, x + dx < width {
                        out[x + dx] = UInt8(truncatingIfNeeded: luma(r, g, b))
                    }
                }
            }
            let (cb, cr) = chroma((sr + 2) >> 2, (sg + 2) >> 2, (sb + 2) >> 2)
            u[x / 2] = cb
            v[x / 2] = cr
            x += 2
        }
    }

    /// Whole 16-pixel groups of a row pair; returns the first pixel not converted.
    @inline(__always)
    static func pairSIMD(_ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>,
                         _ yTop: UnsafeMutablePointer<UInt8>, _ yBottom: UnsafeMutablePointer<UInt8>?,
                         _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>,
                         width: Int, _ layout: RGBLayout) -> Int {
        let bpp = layout.bytesPerPixel
        var x = 0
        while x + 16 <= width {
            let (r0, g0, b0) = SIMDLanes.loadRGB(top + x * bpp, layout)
            let (r1, g1, b1) = SIMDLanes.loadRGB(bottom + x * bpp, layout)
            SIMDLanes.store(SIMDLanes.bytes((r0 &* 77 &+ g0 &* 150 &+ b0 &* 29 &+ 128) &>> 8), yTop + x)
            if let yBottom {
                SIMDLanes.store(SIMDLanes.bytes((r1 &* 77 &+ g1 &* 150 &+ b1 &* 29 &+ 128) &>> 8), yBottom + x)
            }
            let rs = r0 &+ r1, gs = g0 &+ g1, bs = b0 &+ b1
            let r = (rs.evenHalf &+ rs.oddHalf &+ 2) &>> 2
            let g = (gs.evenHalf &+ gs.oddHalf &+ 2) &>> 2
            let b = (bs.evenHalf &+ bs.oddHalf &+ 2) &>> 2
            let cb = SIMDLanes.clampToByte(((r &* -43 &- g &* 85 &+ b &* 128 &+ 128) &>> 8) &+ 128)
            let cr = SIMDLanes.clampToByte(((r &* 128 &- g &* 107 &- b &* 21 &+ 128) &>> 8) &+ 128)
            SIMDLanes.store(SIMDLanes.bytes(cb), u + x / 2)
            SIMDLanes.store(SIMDLanes.bytes(cr), v + x / 2)
            x += 16
        }
        return x
    }
}
