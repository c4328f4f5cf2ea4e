import ImageCore

/// Fills a model's float NHWC input (RGB in [0, 1]) from a frame through a `MaskMapping`:
/// rotation, region crop and stretch/letterbox in one pass, bilinear taps on the frame, zero
/// outside `content` (MediaPipe's BORDER_ZERO). It also writes the input's luma (0…255, one byte
/// per model pixel), which temporal stabilisation uses to see motion.
///
/// `taps` bilinear samples per axis are averaged per model pixel (1 = plain bilinear as
/// MediaPipe's CPU path; more anti-alias a strong downscale, e.g. a 12 MP still).
/// Frame formats: RGB888, XRGB8888, Gray8, I420, NV12 (`yuvFullRange` picks JPEG full range or
/// BT.601 limited range). Allocates nothing.
public enum ModelInputSampler {
    public static func fill(_ input: UnsafeMutableBufferPointer<Float>, luma: UnsafeMutablePointer<UInt8>?,
                            from frame: Image, mapping: MaskMapping, taps: Int = 1, yuvFullRange: Bool = true) {
        precondition(frame.width == mapping.frameWidth && frame.height == mapping.frameHeight, "sampler: frame size differs from mapping")
        precondition(input.count >= mapping.modelWidth * mapping.modelHeight * 3, "sampler: input tensor too small")
        let mw = mapping.modelWidth, mh = mapping.modelHeight
        let c = mapping.content
        let t = max(1, taps)
        let inv = 1 / Float(t)
        let src = FramePixels(frame, fullRange: yuvFullRange)
        let out = input.baseAddress!
        for my in 0..<mh {
            for mx in 0..<mw {
                let cx = Float(mx) + 0.5, cy = Float(my) + 0.5
                var r: Float = 0, g: Float = 0, b: Float = 0
                if cx >= c.x && cx < c.x + c.width && cy >= c.y && cy < c.y + c.height {
                    for sy in 0..<t {
                        for sx in 0..<t {
                            let px = Float(mx) + (Float(sx) + 0.5) * inv
                            let py = Float(my) + (Float(sy) + 0.5) * inv
                            let f = mapping.frame(fromModel: px, py)
                            let s = src.rgb(f.x, f.y)
                            r += s.0; g += s.1; b += s.2
                        }
                    }
                    let k = inv * inv / 255
                    r *= k; g *= k; b *= k
                }
                store(r, g, b, at: my * mw + mx, out, luma)
            }
        }
    }

    /// Writes one model pixel's RGB (and its luma byte, when asked) at pixel index `i`.
    @inline(always)
    static func store(_ r: Float, _ g: Float, _ b: Float, at i: Int, _ out: UnsafeMutablePointer<Float>,
                      _ luma: UnsafeMutablePointer<UInt8>?) {
        out[3 * i] = r; out[3 * i + 1] = g; out[3 * i + 2] = b
        if let luma {
            let y = (0.299 * r + 0.587 * g + 0.114 * b) * 255 + 0.5
            luma[i] = UInt8(min(max(y, 0), 255))
        }
    }

    /// `fill` through precomputed tables (`ModelInputTables`) for I420 and NV12 frames, bit for bit
    /// the same result; other formats, and mappings or taps beyond the tables, go through `fill`.
    /// The live segmenter's path: per model pixel only table reads, the plane reads and the
    /// interpolation (1.2 ms of a 640×480 frame per-read arithmetic before).
    public static func fillTabled(_ input: UnsafeMutableBufferPointer<Float>, luma: UnsafeMutablePointer<UInt8>?,
                                  from frame: Image, mapping: MaskMapping, taps: Int = 1, yuvFullRange: Bool = true,
                                  tables: ModelInputTables) {
        let t = max(1, taps)
        guard frame.format == .i420 || frame.format == .nv12, tables.fits(mapping, taps: t) else {
            fill(input, luma: luma, from: frame, mapping: mapping, taps: taps, yuvFullRange: yuvFullRange)
            return
        }
        precondition(frame.width == mapping.frameWidth && frame.height == mapping.frameHeight, "sampler: frame size differs from mapping")
        precondition(input.count >= mapping.modelWidth * mapping.modelHeight * 3, "sampler: input tensor too small")
        guard let out = input.baseAddress else { return }
        let p0 = frame.planes.0, p1 = frame.planes.1, p2 = frame.planes.2
        let nv12 = frame.format == .nv12
        tables.build(mapping, taps: t, lumaWidth: p0.width, lumaHeight: p0.height, chromaWidth: p1.width, chromaHeight: p1.height)
        let swap = mapping.rotation.swapsAxes
        let mw = mapping.modelWidth, mh = mapping.modelHeight
        let inv = 1 / Float(t)
        let k = inv * inv / 255
        // Chroma bytes: I420 U and V planes one byte per sample; NV12 one UV plane, two bytes.
        let cStep = nv12 ? 2 : 1
        let vPlane = nv12 ? p1 : p2, vOffset = nv12 ? 1 : 0
        @inline(__always) func lerp(_ r0: UnsafeMutablePointer<UInt8>, _ r1: UnsafeMutablePointer<UInt8>,
                                    _ x0: Int, _ x1: Int, _ fx: Float, _ fy: Float) -> Float {
            let a = Float(r0[x0]), b = Float(r0[x1]), c = Float(r1[x0]), d = Float(r1[x1])
            let top = a + (b - a) * fx, bottom = c + (d - c) * fx
            return top + (bottom - top) * fy
        }
        // The tables along frame x and frame y: columns give frame x unless the rotation swaps axes.
        let xl0 = (swap ? tables.rowLuma0 : tables.colLuma0).pointer, xl1 = (swap ? tables.rowLuma1 : tables.colLuma1).pointer
        let xlf = (swap ? tables.rowLumaF : tables.colLumaF).pointer
        let yl0 = (swap ? tables.colLuma0 : tables.rowLuma0).pointer, yl1 = (swap ? tables.colLuma1 : tables.rowLuma1).pointer
        let ylf = (swap ? tables.colLumaF : tables.rowLumaF).pointer
        let xc0 = (swap ? tables.rowChroma0 : tables.colChroma0).pointer, xc1 = (swap ? tables.rowChroma1 : tables.colChroma1).pointer
        let xcf = (swap ? tables.rowChromaF : tables.colChromaF).pointer
        let yc0 = (swap ? tables.colChroma0 : tables.rowChroma0).pointer, yc1 = (swap ? tables.colChroma1 : tables.rowChroma1).pointer
        let ycf = (swap ? tables.colChromaF : tables.rowChromaF).pointer
        let colIn = tables.colInside.pointer, rowInside = tables.rowInside.pointer
        // Tap `(row entry ry, column entry cx)`: luma and chroma indices and fractions, frame x first.
        @inline(always) func tap(_ ry: Int, _ cx: Int)
            -> (lx0: Int, lx1: Int, lfx: Float, ly0: Int, ly1: Int, lfy: Float, cx0: Int, cx1: Int, cfx: Float, cy0: Int, cy1: Int, cfy: Float) {
            let x = swap ? ry : cx, y = swap ? cx : ry
            return (Int(xl0[x]), Int(xl1[x]), xlf[x], Int(yl0[y]), Int(yl1[y]), ylf[y],
                    Int(xc0[x]), Int(xc1[x]), xcf[x], Int(yc0[y]), Int(yc1[y]), ycf[y])
        }
        /// One model pixel, as `fill` computes it.
        @inline(always) func pixel(_ mx: Int, _ my: Int, inside: Bool) {
            var r: Float = 0, g: Float = 0, b: Float = 0
            if inside {
                for sy in 0..<t {
                    for sx in 0..<t {
                        let q = tap(my * t + sy, mx * t + sx)
                        let yy = lerp(p0.row(q.ly0), p0.row(q.ly1), q.lx0, q.lx1, q.lfx, q.lfy)
                        let cu = lerp(p1.row(q.cy0), p1.row(q.cy1), q.cx0 * cStep, q.cx1 * cStep, q.cfx, q.cfy)
                        let cv = lerp(vPlane.row(q.cy0) + vOffset, vPlane.row(q.cy1) + vOffset, q.cx0 * cStep, q.cx1 * cStep, q.cfx, q.cfy)
                        let s = FramePixels.yuvToRGB(yy, cu - 128, cv - 128, fullRange: yuvFullRange)
                        r += s.0; g += s.1; b += s.2
                    }
                }
                r *= k; g *= k; b *= k
            }
            store(r, g, b, at: my * mw + mx, out, luma)
        }
        // yuvToRGB's constants, for the lanes.
        let kc: Float = yuvFullRange ? 1 : 255 / 224, lq: Float = 255 / 219
        let rv = 1.402 * kc, gu = 0.344136 * kc, gv = 0.714136 * kc, bu = 1.772 * kc
        @inline(always) func clamp8(_ v: SIMD8<Float>) -> SIMD8<Float> {
            let low = v.replacing(with: 0, where: v .< 0)
            return low.replacing(with: 255, where: low .> 255)
        }
        @inline(always) func lerp8(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>, _ d: SIMD8<Float>,
                                   _ fx: SIMD8<Float>, _ fy: SIMD8<Float>) -> SIMD8<Float> {
            let top = a + (b - a) * fx, bottom = c + (d - c) * fx
            return top + (bottom - top) * fy
        }
        // Eight columns' two reads from a line of byte pairs (first and second read of each column,
        // interleaved), as floats: the pairs as 16-bit lanes, the low and the high bytes split by a
        // mask and a shift, then one widening and conversion each (a byte shuffle of the even and
        // odd bytes compiled to scalar code and SSE4a `insertq` on x86-64: slower than byte reads).
        @inline(always) func pairFloats(_ p: UnsafeMutablePointer<UInt8>) -> (SIMD8<Float>, SIMD8<Float>) {
            let v = UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt16>.self)
            let lo = v & 0xFF, hi = v &>> 8
            return (SIMD8(Float(lo[0]), Float(lo[1]), Float(lo[2]), Float(lo[3]), Float(lo[4]), Float(lo[5]), Float(lo[6]), Float(lo[7])),
                    SIMD8(Float(hi[0]), Float(hi[1]), Float(hi[2]), Float(hi[3]), Float(hi[4]), Float(hi[5]), Float(hi[6]), Float(hi[7])))
        }
        // The live path (one tap, axes not swapped): per model row, the plane reads of every model
        // column into lines of byte pairs first (a column's two reads along frame x are neighbours
        // in the plane, so one 16-bit load and store: half the memory operations of byte reads),
        // then eight pixels per step in lanes from those lines, every operation of `pixel` in the
        // same order (so the same bits).
        if !swap && t == 1 {
            let g = tables.gathered.pointer, n2 = 2 * tables.maxSide
            let gl0 = g, gl1 = g + n2, gu0 = g + 2 * n2, gu1 = g + 3 * n2, gv0 = g + 4 * n2, gv1 = g + 5 * n2
            // Whether every column's two reads are neighbours (all but a clamped edge column).
            var lumaPairs = true, chromaPairs = !nv12
            for mx in 0..<mw {
                if xl1[mx] != xl0[mx] + 1 { lumaPairs = false }
                if xc1[mx] != xc0[mx] + 1 { chromaPairs = false }
            }
            for my in 0..<mh {
                let rowIn = rowInside[my] != 0
                guard rowIn else {
                    for mx in 0..<mw { pixel(mx, my, inside: false) }
                    continue
                }
                let y0 = p0.row(Int(yl0[my])), y1 = p0.row(Int(yl1[my]))
                let u0 = p1.row(Int(yc0[my])), u1 = p1.row(Int(yc1[my]))
                let v0 = vPlane.row(Int(yc0[my])) + vOffset, v1 = vPlane.row(Int(yc1[my])) + vOffset
                gatherPairs(y0, y1, xl0, xl1, step: 1, count: mw, neighbours: lumaPairs, into: gl0, gl1)
                gatherPairs(u0, u1, xc0, xc1, step: cStep, count: mw, neighbours: chromaPairs, into: gu0, gu1)
                gatherPairs(v0, v1, xc0, xc1, step: cStep, count: mw, neighbours: chromaPairs, into: gv0, gv1)
                let lfy = SIMD8<Float>(repeating: ylf[my]), cfy = SIMD8<Float>(repeating: ycf[my])
                var mx = 0
                while mx + 8 <= mw {
                    var allInside = true
                    for j in 0..<8 where colIn[mx + j] == 0 { allInside = false }
                    guard allInside else {
                        for j in 0..<8 { pixel(mx + j, my, inside: colIn[mx + j] != 0) }
                        mx += 8
                        continue
                    }
                    let lfx = UnsafeRawPointer(xlf + mx).loadUnaligned(as: SIMD8<Float>.self)
                    let cfx = UnsafeRawPointer(xcf + mx).loadUnaligned(as: SIMD8<Float>.self)
                    let la = pairFloats(gl0 + 2 * mx), lc = pairFloats(gl1 + 2 * mx)
                    let ua = pairFloats(gu0 + 2 * mx), uc = pairFloats(gu1 + 2 * mx)
                    let va = pairFloats(gv0 + 2 * mx), vc = pairFloats(gv1 + 2 * mx)
                    let yv = lerp8(la.0, la.1, lc.0, lc.1, lfx, lfy)
                    let u = lerp8(ua.0, ua.1, uc.0, uc.1, cfx, cfy) - 128
                    let v = lerp8(va.0, va.1, vc.0, vc.1, cfx, cfy) - 128
                    let yy = yuvFullRange ? yv : (yv - 16) * lq
                    var r8 = SIMD8<Float>(), g8 = SIMD8<Float>(), b8 = SIMD8<Float>()
                    r8 += clamp8(yy + rv * v)
                    g8 += clamp8(yy - gu * u - gv * v)
                    b8 += clamp8(yy + bu * u)
                    r8 *= k; g8 *= k; b8 *= k
                    // RGB interleaved by constant-index lane constructors (vector shuffles), three stores.
                    let o = UnsafeMutableRawPointer(out + (my * mw + mx) * 3)
                    o.storeBytes(of: SIMD8(r8[0], g8[0], b8[0], r8[1], g8[1], b8[1], r8[2], g8[2]), as: SIMD8<Float>.self)
                    o.storeBytes(of: SIMD8(b8[2], r8[3], g8[3], b8[3], r8[4], g8[4], b8[4], r8[5]), toByteOffset: 32, as: SIMD8<Float>.self)
                    o.storeBytes(of: SIMD8(g8[5], b8[5], r8[6], g8[6], b8[6], r8[7], g8[7], b8[7]), toByteOffset: 64, as: SIMD8<Float>.self)
                    if let luma {
                        // UInt8(min(max(l, 0), 255)) in lanes: clamp, truncate, low bytes.
                        let l = clamp8((0.299 * r8 + 0.587 * g8 + 0.114 * b8) * 255 + 0.5)
                        let b = SIMD8<UInt8>(UInt8(truncatingIfNeeded: Int32(l[0])), UInt8(truncatingIfNeeded: Int32(l[1])),
                                             UInt8(truncatingIfNeeded: Int32(l[2])), UInt8(truncatingIfNeeded: Int32(l[3])),
                                             UInt8(truncatingIfNeeded: Int32(l[4])), UInt8(truncatingIfNeeded: Int32(l[5])),
                                             UInt8(truncatingIfNeeded: Int32(l[6])), UInt8(truncatingIfNeeded: Int32(l[7])))
                        UnsafeMutableRawPointer(luma + my * mw + mx).storeBytes(of: b, as: SIMD8<UInt8>.self)
                    }
                    mx += 8
                }
                while mx < mw {
                    pixel(mx, my, inside: colIn[mx] != 0)
                    mx += 1
                }
            }
            return
        }
        for my in 0..<mh {
            let rowIn = rowInside[my] != 0
            var mx = 0
            // Eight model pixels per step, all inside the content: the plane reads gathered lane by
            // lane, every operation of `pixel` in lanes in the same order (so the same bits).
            while mx + 8 <= mw {
                var allInside = rowIn
                for j in 0..<8 where colIn[mx + j] == 0 { allInside = false }
                guard allInside else {
                    for j in 0..<8 { pixel(mx + j, my, inside: rowIn && colIn[mx + j] != 0) }
                    mx += 8
                    continue
                }
                var r8 = SIMD8<Float>(), g8 = SIMD8<Float>(), b8 = SIMD8<Float>()
                for sy in 0..<t {
                    for sx in 0..<t {
                        var la = SIMD8<Float>(), lb = la, lc = la, ld = la, lfx = la, lfy = la
                        var ua = la, ub = la, uc = la, ud = la, va = la, vb = la, vc = la, vd = la, cfx = la, cfy = la
                        if !swap {
                            // One frame row pair per model row: the row taps and row pointers once.
                            let ry = my * t + sy
                            let y0 = p0.row(Int(yl0[ry])), y1 = p0.row(Int(yl1[ry]))
                            let u0 = p1.row(Int(yc0[ry])), u1 = p1.row(Int(yc1[ry]))
                            let v0 = vPlane.row(Int(yc0[ry])) + vOffset, v1 = vPlane.row(Int(yc1[ry])) + vOffset
                            lfy = SIMD8(repeating: ylf[ry]); cfy = SIMD8(repeating: ycf[ry])
                            for j in 0..<8 {
                                let cx = (mx + j) * t + sx
                                let a0 = Int(xl0[cx]), a1 = Int(xl1[cx])
                                la[j] = Float(y0[a0]); lb[j] = Float(y0[a1]); lc[j] = Float(y1[a0]); ld[j] = Float(y1[a1])
                                lfx[j] = xlf[cx]
                                let c0 = Int(xc0[cx]) * cStep, c1 = Int(xc1[cx]) * cStep
                                ua[j] = Float(u0[c0]); ub[j] = Float(u0[c1]); uc[j] = Float(u1[c0]); ud[j] = Float(u1[c1])
                                va[j] = Float(v0[c0]); vb[j] = Float(v0[c1]); vc[j] = Float(v1[c0]); vd[j] = Float(v1[c1])
                                cfx[j] = xcf[cx]
                            }
                        } else {
                            for j in 0..<8 {
                                let q = tap(my * t + sy, (mx + j) * t + sx)
                                let y0 = p0.row(q.ly0), y1 = p0.row(q.ly1)
                                la[j] = Float(y0[q.lx0]); lb[j] = Float(y0[q.lx1]); lc[j] = Float(y1[q.lx0]); ld[j] = Float(y1[q.lx1])
                                lfx[j] = q.lfx; lfy[j] = q.lfy
                                let c0 = q.cx0 * cStep, c1 = q.cx1 * cStep
                                let u0 = p1.row(q.cy0), u1 = p1.row(q.cy1)
                                ua[j] = Float(u0[c0]); ub[j] = Float(u0[c1]); uc[j] = Float(u1[c0]); ud[j] = Float(u1[c1])
                                let v0 = vPlane.row(q.cy0) + vOffset, v1 = vPlane.row(q.cy1) + vOffset
                                va[j] = Float(v0[c0]); vb[j] = Float(v0[c1]); vc[j] = Float(v1[c0]); vd[j] = Float(v1[c1])
                                cfx[j] = q.cfx; cfy[j] = q.cfy
                            }
                        }
                        let yv = lerp8(la, lb, lc, ld, lfx, lfy)
                        let u = lerp8(ua, ub, uc, ud, cfx, cfy) - 128
                        let v = lerp8(va, vb, vc, vd, cfx, cfy) - 128
                        let yy = yuvFullRange ? yv : (yv - 16) * lq
                        r8 += clamp8(yy + rv * v)
                        g8 += clamp8(yy - gu * u - gv * v)
                        b8 += clamp8(yy + bu * u)
                    }
                }
                r8 *= k; g8 *= k; b8 *= k
                let lum = (0.299 * r8 + 0.587 * g8 + 0.114 * b8) * 255 + 0.5
                for j in 0..<8 {
                    let o = (my * mw + mx + j) * 3
                    out[o] = r8[j]; out[o + 1] = g8[j]; out[o + 2] = b8[j]
                    if let luma { luma[my * mw + mx + j] = UInt8(min(max(lum[j], 0), 255)) }
                }
                mx += 8
            }
            while mx < mw {
                pixel(mx, my, inside: rowIn && colIn[mx] != 0)
                mx += 1
            }
        }
    }

    /// One model row's reads of one plane for `fillTabled`'s live path: for each of `count`
    /// columns, bytes `i0·step` and `i1·step` of rows `r0` and `r1` as little-endian pairs into
    /// lines `l0` and `l1` (two bytes a column). `neighbours`: every `i1` is `i0 + 1` and `step`
    /// is 1, so a pair is one 16-bit load and store (half the memory operations of byte reads).
    /// Inlined (the aarch64 NEON check allows no call in a kernel's loops); `neighbours` is
    /// chosen once per frame, so each row runs one branch-free loop.
    @inline(__always)
    static func gatherPairs(_ r0: UnsafeMutablePointer<UInt8>, _ r1: UnsafeMutablePointer<UInt8>,
                            _ i0: UnsafeMutablePointer<Int32>, _ i1: UnsafeMutablePointer<Int32>, step: Int, count: Int,
                            neighbours: Bool, into l0: UnsafeMutablePointer<UInt8>, _ l1: UnsafeMutablePointer<UInt8>) {
        let o0 = UnsafeMutableRawPointer(l0), o1 = UnsafeMutableRawPointer(l1)
        if neighbours {
            let s0 = UnsafeRawPointer(r0), s1 = UnsafeRawPointer(r1)
            for x in 0..<count {
                let a = Int(i0[x])
                o0.storeBytes(of: s0.loadUnaligned(fromByteOffset: a, as: UInt16.self), toByteOffset: 2 * x, as: UInt16.self)
                o1.storeBytes(of: s1.loadUnaligned(fromByteOffset: a, as: UInt16.self), toByteOffset: 2 * x, as: UInt16.self)
            }
        } else {
            for x in 0..<count {
                let a = Int(i0[x]) * step, b = Int(i1[x]) * step
                o0.storeBytes(of: r0[a], toByteOffset: 2 * x, as: UInt8.self); o0.storeBytes(of: r0[b], toByteOffset: 2 * x + 1, as: UInt8.self)
                o1.storeBytes(of: r1[a], toByteOffset: 2 * x, as: UInt8.self); o1.storeBytes(of: r1[b], toByteOffset: 2 * x + 1, as: UInt8.self)
            }
        }
    }
}

/// Bilinear RGB reads (0…255 floats) at continuous frame coordinates, edges clamped.
struct FramePixels {
    let format: PixelFormat
    let p0: Plane, p1: Plane, p2: Plane
    let width: Int, height: Int
    let fullRange: Bool

    init(_ image: Image, fullRange: Bool) {
        precondition(image.format != .nv12 || image.planes.1.width > 0, "NV12 without chroma plane")
        format = image.format
        p0 = image.planes.0; p1 = image.planes.1; p2 = image.planes.2
        width = image.width; height = image.height
        self.fullRange = fullRange
    }

    @inline(__always)
    static func taps(_ c: Float, _ n: Int) -> (Int, Int, Float) {
        let p = min(max(c - 0.5, 0), Float(n - 1))
        let i0 = Int(p)
        return (i0, min(i0 + 1, n - 1), p - Float(i0))
    }

    /// Bilinear read of byte `channel` of a plane with `bpp` bytes per pixel.
    @inline(__always)
    static func read(_ p: Plane, _ x: Float, _ y: Float, bpp: Int, channel: Int) -> Float {
        let (x0, x1, fx) = taps(x, p.width)
        let (y0, y1, fy) = taps(y, p.height)
        let r0 = p.row(y0), r1 = p.row(y1)
        let a = Float(r0[x0 * bpp + channel]), b = Float(r0[x1 * bpp + channel])
        let c = Float(r1[x0 * bpp + channel]), d = Float(r1[x1 * bpp + channel])
        let top = a + (b - a) * fx, bottom = c + (d - c) * fx
        return top + (bottom - top) * fy
    }

    @inline(__always)
    func rgb(_ x: Float, _ y: Float) -> (Float, Float, Float) {
        switch format {
        case .rgb888:
            return (FramePixels.read(p0, x, y, bpp: 3, channel: 0), FramePixels.read(p0, x, y, bpp: 3, channel: 1),
                    FramePixels.read(p0, x, y, bpp: 3, channel: 2))
        case .xrgb8888:
            return (FramePixels.read(p0, x, y, bpp: 4, channel: 2), FramePixels.read(p0, x, y, bpp: 4, channel: 1),
                    FramePixels.read(p0, x, y, bpp: 4, channel: 0))
        case .gray8:
            let v = FramePixels.read(p0, x, y, bpp: 1, channel: 0)
            return (v, v, v)
        case .i420, .nv12:
            let yy = FramePixels.read(p0, x, y, bpp: 1, channel: 0)
            let cu: Float, cv: Float
            if format == .i420 {
                cu = FramePixels.read(p1, x / 2, y / 2, bpp: 1, channel: 0)
                cv = FramePixels.read(p2, x / 2, y / 2, bpp: 1, channel: 0)
            } else {
                cu = FramePixels.read(p1, x / 2, y / 2, bpp: 2, channel: 0)
                cv = FramePixels.read(p1, x / 2, y / 2, bpp: 2, channel: 1)
            }
            return FramePixels.yuvToRGB(yy, cu - 128, cv - 128, fullRange: fullRange)
        }
    }

    /// BT.601 YCbCr → RGB (JPEG full range, or limited range 16…235 / 16…240), clamped to 0…255.
    @inline(__always)
    static func yuvToRGB(_ y: Float, _ u: Float, _ v: Float, fullRange: Bool) -> (Float, Float, Float) {
        let yy = fullRange ? y : (y - 16) * (255 / 219)
        let k: Float = fullRange ? 1 : 255 / 224
        let r = yy + 1.402 * k * v
        let g = yy - 0.344136 * k * u - 0.714136 * k * v
        let b = yy + 1.772 * k * u
        return (min(max(r, 0), 255), min(max(g, 0), 255), min(max(b, 0), 255))
    }
}
