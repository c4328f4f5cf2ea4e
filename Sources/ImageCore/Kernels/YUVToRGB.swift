/// YUV 4:2:0 (I420 or NV12) → RGB888 or XRGB8888 with a `YUVMatrix` (BT.601 limited/full,
/// BT.709 limited). Each chroma sample covers a 2×2 block of luma (nearest, no interpolation).
/// `mirrored` flips each row as it converts (destination pixel x is source pixel width−1−x): the
/// selfie preview's mirror costs no pass of its own.
///
/// Contract: `source` is `.i420` or `.nv12`, `destination` is `.rgb888` or `.xrgb8888` of the
/// same size. Reads only pixels inside the planes (no over-read); writes only the destination's
/// rows (`width * bpp` bytes each). XRGB8888's X byte is written as 255. Allocates nothing.
public enum YUVToRGB {
    /// Converts with `variant` (the SIMD twin unless the scalar reference is asked for).
    @inlinable
    public static func run(_ source: Image, _ destination: Image, matrix: YUVMatrix, mirrored: Bool = false, variant: KernelVariant = .simd) {
        switch variant {
        case .scalar: scalar(source, destination, matrix: matrix, mirrored: mirrored)
        case .simd: simd(source, destination, matrix: matrix, mirrored: mirrored)
        }
    }

    /// The reference: one pixel at a time.
    public static func scalar(_ source: Image, _ destination: Image, matrix: YUVMatrix, mirrored: Bool = false) {
        convert(source, destination, matrix: matrix, mirrored: mirrored, vector: false)
    }

    /// 16 pixels per step in `SIMD16<Int32>` lanes; the row tail goes through the reference.
    /// Mirrored, a group reads its 16 source pixels (and 8 chroma pairs) reversed in lanes; an
    /// odd width (chroma pairs then straddle the groups) goes through the reference.
    public static func simd(_ source: Image, _ destination: Image, matrix: YUVMatrix, mirrored: Bool = false) {
        convert(source, destination, matrix: matrix, mirrored: mirrored, vector: true)
    }

    static func convert(_ source: Image, _ destination: Image, matrix m: YUVMatrix, mirrored: Bool, vector: Bool) {
        precondition(source.format == .i420 || source.format == .nv12, "YUVToRGB: source must be YUV 4:2:0")
        precondition(source.width == destination.width && source.height == destination.height, "YUVToRGB: size mismatch")
        let layout = RGBLayout(destination.format)
        let nv12 = source.format == .nv12
        let luma = source.planes.0, cb = source.planes.1, cr = source.planes.2
        let out = destination.planes.0
        for y in 0..<source.height {
            let u = UnsafePointer(cb.row(y / 2))
            let v = nv12 ? u + 1 : UnsafePointer(cr.row(y / 2))
            let yRow = UnsafePointer(luma.row(y))
            let dst = out.row(y)
            var x = 0
            if mirrored {
                if vector && source.width & 1 == 0 {
                    x = rowSIMDMirrored(yRow, u, v, nv12: nv12, dst, count: source.width, layout, m)
                }
                rowScalarMirrored(yRow, u, v, step: nv12 ? 2 : 1, dst, from: x, to: source.width, layout, m)
                continue
            }
            if vector {
                x = rowSIMD(yRow, u, v, nv12: nv12, dst, count: source.width, layout, m)
            }
            rowScalar(yRow, u, v, step: nv12 ? 2 : 1, dst, from: x, to: source.width, layout, m)
        }
    }

    @inline(__always)
    static func rowScalar(_ yRow: UnsafePointer<UInt8>, _ u: UnsafePointer<UInt8>, _ v: UnsafePointer<UInt8>, step: Int,
                          _ dst: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int, _ layout: RGBLayout, _ m: YUVMatrix) {
        var x = start
        while x < end {
            pixel(yRow, u, v, at: x, step: step, dst + x * layout.bytesPerPixel, layout, m)
            x += 1
        }
    }

    /// Destination pixels `start..<end` of a mirrored row: pixel x from source pixel end−1−x.
    @inline(__always)
    static func rowScalarMirrored(_ yRow: UnsafePointer<UInt8>, _ u: UnsafePointer<UInt8>, _ v: UnsafePointer<UInt8>, step: Int,
                                  _ dst: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int, _ layout: RGBLayout,
                                  _ m: YUVMatrix) {
        var x = start
        while x < end {
            pixel(yRow, u, v, at: end - 1 - x, step: step, dst + x * layout.bytesPerPixel, layout, m)
            x += 1
        }
    }

    /// Source pixel `x` of a row (chroma sample `x / 2`, `step` bytes apart) converted and stored at `dst`.
    @inline(__always)
    static func pixel(_ yRow: UnsafePointer<UInt8>, _ u: UnsafePointer<UInt8>, _ v: UnsafePointer<UInt8>, at x: Int, step: Int,
                      _ dst: UnsafeMutablePointer<UInt8>, _ layout: RGBLayout, _ m: YUVMatrix) {
        let c = (x / 2) * step
        let uu = Int32(u[c]) - 128, vv = Int32(v[c]) - 128
        let yy = (Int32(yRow[x]) - m.yOffset) * m.yGain + 8192
        let r = clamp((yy + m.rV * vv) >> 14)
        let g = clamp((yy - m.gU * uu - m.gV * vv) >> 14)
        let b = clamp((yy + m.bU * uu) >> 14)
        layout.store(dst, r: r, g: g, b: b)
    }

    /// `v` clamped to 0...255, branch-free (camera noise makes a branching clamp mispredict).
    @inline(__always)
    static func clamp(_ v: Int32) -> UInt8 {
        let a = v & ~(v >> 31)
        let over = (255 - a) >> 31
        return UInt8(truncatingIfNeeded: (a & ~over) | (over & 255))
    }

    /// Converts whole 16-pixel groups; returns the first pixel not converted.
    @inline(__always)
    static func rowSIMD(_ yRow: UnsafePointer<UInt8>, _ u: UnsafePointer<UInt8>, _ v: UnsafePointer<UInt8>, nv12: Bool,
                        _ dst: UnsafeMutablePointer<UInt8>, count: Int, _ layout: RGBLayout, _ m: YUVMatrix) -> Int {
        var x = 0
        while x + 16 <= count {
            let y16 = SIMDLanes.load16(yRow + x)
            if nv12 {
                let uv = SIMDLanes.load16(u + x)  // 8 interleaved U,V pairs for these 16 pixels
                group(y16, uv.evenHalf, uv.oddHalf, dst + x * layout.bytesPerPixel, layout, m)
            } else {
                group(y16, SIMDLanes.load8(u + x / 2), SIMDLanes.load8(v + x / 2), dst + x * layout.bytesPerPixel, layout, m)
            }
            x += 16
        }
        return x
    }

    /// Whole 16-pixel groups of a mirrored row of even `count`: destination pixels x..<x+16 are
    /// source pixels count−16−x..<count−x reversed (an even start, so 8 whole chroma pairs);
    /// returns the first pixel not converted.
    @inline(__always)
    static func rowSIMDMirrored(_ yRow: UnsafePointer<UInt8>, _ u: UnsafePointer<UInt8>, _ v: UnsafePointer<UInt8>, nv12: Bool,
                                _ dst: UnsafeMutablePointer<UInt8>, count: Int, _ layout: RGBLayout, _ m: YUVMatrix) -> Int {
        var x = 0
        while x + 16 <= count {
            let s = count - 16 - x
            let y16 = SIMDLanes.reversed(SIMDLanes.load16(yRow + s))
            if nv12 {
                let vu = SIMDLanes.reversed(SIMDLanes.load16(u + s))  // V,U pairs, last pair first
                group(y16, vu.oddHalf, vu.evenHalf, dst + x * layout.bytesPerPixel, layout, m)
            } else {
                group(y16, SIMDLanes.reversed(SIMDLanes.load8(u + s / 2)), SIMDLanes.reversed(SIMDLanes.load8(v + s / 2)),
                      dst + x * layout.bytesPerPixel, layout, m)
            }
            x += 16
        }
        return x
    }

    /// 16 pixels (each chroma pair covering two) converted in `SIMD16<Int32>` lanes and stored at `dst`.
    @inline(__always)
    static func group(_ luma: SIMD16<UInt8>, _ cb: SIMD8<UInt8>, _ cr: SIMD8<UInt8>, _ dst: UnsafeMutablePointer<UInt8>,
                      _ layout: RGBLayout, _ m: YUVMatrix) {
        let y16 = SIMDLanes.widen(luma)
        let u8 = SIMDLanes.widen(cb) &- 128, v8 = SIMDLanes.widen(cr) &- 128
        let rc = SIMDLanes.duplicate(v8 &* m.rV)
        let gc = SIMDLanes.duplicate(u8 &* m.gU &+ v8 &* m.gV)
        let bc = SIMDLanes.duplicate(u8 &* m.bU)
        let yy = (y16 &- m.yOffset) &* m.yGain &+ 8192
        let r = SIMDLanes.clampToByte((yy &+ rc) &>> 14)
        let g = SIMDLanes.clampToByte((yy &- gc) &>> 14)
        let b = SIMDLanes.clampToByte((yy &+ bc) &>> 14)
        SIMDLanes.storeRGB(r, g, b, dst, layout)
    }
}
