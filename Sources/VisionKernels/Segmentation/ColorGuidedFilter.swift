import ImageCore

/// Matting refinement for stills: the colour guided filter (He, Sun and Tang), with its
/// coefficients computed at a working size and applied at full resolution (He and Sun's "fast
/// guided filter"), so hair and edges follow the full-resolution colours.
///
/// At working size, over (2r+1)² windows: `a = (Σ + εU)⁻¹ cov(I, p)` (a 3-vector per pixel, Σ the
/// 3×3 colour covariance), `b = mean(p) − a·mean(I)`; a and b are box-averaged, upsampled bilinearly
/// and `q = a·I + b` is evaluated for every full-resolution pixel. Float arithmetic (a still, not
/// the per-frame path).
///
/// `run` streams the working image in rows (`RunningBoxMean`): it holds 2r + 2 rows of each of the
/// 17 box-filtered quantities, so its memory grows with the working width only
/// (`streamingByteCount`), where the whole-image form (`runWhole`, 18 float planes: 18 MiB for a
/// 512×512 still) grows with the area. The two give the same bytes (the same float operations in
/// the same order per pixel; `ColorGuidedFilterTests`).
package enum ColorGuidedFilter {
    /// Quantities box-filtered in the first pass: the colour (3), the mask, the 6 colour products
    /// and the 3 colour × mask products.
    static let meanChannels = 13
    /// Quantities box-filtered in the second pass: a (3) and b.
    static let coefficientChannels = 4

    /// `mask` is the coarse mask at working size (Gray8); the output (`destination`, Gray8) and
    /// `frame` have the full size. `radius` is in working pixels, `epsilon` in [0,1]² units.
    /// Streams the working image row by row (see the type's notes).
    package static func run(frame: Image, mask: Plane, destination: Plane, radius: Int, epsilon: Float) {
        let w = mask.width, h = mask.height
        precondition(destination.width == frame.width && destination.height == frame.height, "matting: destination size")
        let px = FramePixels(frame, fullRange: true)
        let means = RunningBoxMean(width: w, height: h, radius: radius, channels: meanChannels)
        let coefficients = RunningBoxMean(width: w, height: h, radius: radius, channels: coefficientChannels)
        // Rows handed to the box means: the 13 quantities of one working row, then a and b of one.
        let source = ScratchBuffer<Float>(count: meanChannels * w)
        func src(_ c: Int) -> UnsafeMutablePointer<Float> { source.pointer + c * w }
        // The last two rows of smoothed coefficients (ar, ag, ab, b), indexed by row parity.
        let final = ScratchBuffer<Float>(count: 2 * coefficientChannels * w)
        func finalRow(_ y: Int, _ c: Int) -> UnsafeMutablePointer<Float> { final.pointer + ((y & 1) * coefficientChannels + c) * w }

        // Quantities 4…12: rr, rg, rb, gg, gb, bb, rp, gp, bp as products of quantities 0…3 (r, g, b, p).
        let products = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2), (0, 3), (1, 3), (2, 3)]
        func pushMeanRow() {
            let y = means.rowsIn
            let ir = src(0), ig = src(1), ib = src(2), p = src(3)
            sampleRow(px, frame: frame, mask: mask, y: y, into: ir, ig, ib, p)
            for (k, (i, j)) in products.enumerated() {
                let a = src(i), b = src(j), d = src(4 + k)
                for x in 0..<w { d[x] = a[x] * b[x] }
            }
            means.push { src($0) }
        }
        func pushCoefficientRow() {
            let y = coefficients.rowsIn
            while means.rowsIn < min(h, y + radius + 1) { pushMeanRow() }
            means.pop()
            func m(_ c: Int) -> UnsafeMutablePointer<Float> { means.output(c) }
            let a0 = src(0), a1 = src(1), a2 = src(2), b = src(3)
            let mr = m(0), mg = m(1), mb = m(2), mp = m(3)
            let rr = m(4), rg = m(5), rb = m(6), gg = m(7), gb = m(8), bb = m(9), rp = m(10), gp = m(11), bp = m(12)
            for x in 0..<w {
                (a0[x], a1[x], a2[x], b[x]) = solve(mr[x], mg[x], mb[x], mp[x], rr[x], rg[x], rb[x], gg[x], gb[x], bb[x],
                                                    rp[x], gp[x], bp[x], epsilon: epsilon)
            }
            coefficients.push { src($0) }
        }
        // Smoothed coefficient rows are made in order, as the full-resolution rows reach them.
        var made = 0
        func makeFinalRows(through y: Int) {
            while made <= y {
                while coefficients.rowsIn < min(h, made + radius + 1) { pushCoefficientRow() }
                coefficients.pop()
                for c in 0..<coefficientChannels { finalRow(made, c).update(from: coefficients.output(c), count: w) }
                made += 1
            }
        }
        let syScale = Float(h) / Float(frame.height)
        for y in 0..<frame.height {
            let (y0, y1, wy) = FramePixels.taps((Float(y) + 0.5) * syScale, h)
            makeFinalRows(through: y1)
            applyRow(px, y: y, width: w, into: destination.row(y), wy: wy,
                     rows: (finalRow(y0, 0), finalRow(y1, 0)), (finalRow(y0, 1), finalRow(y1, 1)),
                     (finalRow(y0, 2), finalRow(y1, 2)), (finalRow(y0, 3), finalRow(y1, 3)))
        }
    }

    /// Bytes `run` allocates for a working mask of `width`×`height` at `radius`: the two running box
    /// means, one row of each quantity and two rows of smoothed coefficients (working width only,
    /// plus the window's rows).
    package static func streamingByteCount(width: Int, height: Int, radius: Int) -> Int {
        RunningBoxMean.byteCount(width: width, height: height, radius: radius, channels: meanChannels)
            + RunningBoxMean.byteCount(width: width, height: height, radius: radius, channels: coefficientChannels)
            + (meanChannels + 2 * coefficientChannels) * max(width, 1) * MemoryLayout<Float>.stride
    }

    /// The whole-image form of `run` (18 float planes of the working size, box means over whole
    /// planes): the reference `run` is tested against.
    package static func runWhole(frame: Image, mask: Plane, destination: Plane, radius: Int, epsilon: Float) {
        let w = mask.width, h = mask.height, n = w * h
        precondition(destination.width == frame.width && destination.height == frame.height, "matting: destination size")
        let store = ScratchBuffer<Float>(count: n * 18)
        func plane(_ i: Int) -> UnsafeMutablePointer<Float> { store.pointer + i * n }
        let ir = plane(0), ig = plane(1), ib = plane(2), p = plane(3), temp = plane(4)
        // Working-size colour (area average of the frame) and mask, in [0, 1].
        let px = FramePixels(frame, fullRange: true)
        for y in 0..<h {
            sampleRow(px, frame: frame, mask: mask, y: y, into: ir + y * w, ig + y * w, ib + y * w, p + y * w)
        }
        // Window means.
        let mr = plane(5), mg = plane(6), mb = plane(7), mp = plane(8)
        let rr = plane(9), rg = plane(10), rb = plane(11), gg = plane(12), gb = plane(13), bb = plane(14)
        let rp = plane(15), gp = plane(16), bp = plane(17)
        func box(_ dst: UnsafeMutablePointer<Float>, _ f: (Int) -> Float) {
            boxMean(w, h, radius, temp, dst, f)
        }
        box(mr) { ir[$0] }; box(mg) { ig[$0] }; box(mb) { ib[$0] }; box(mp) { p[$0] }
        box(rr) { ir[$0] * ir[$0] }; box(rg) { ir[$0] * ig[$0] }; box(rb) { ir[$0] * ib[$0] }
        box(gg) { ig[$0] * ig[$0] }; box(gb) { ig[$0] * ib[$0] }; box(bb) { ib[$0] * ib[$0] }
        box(rp) { ir[$0] * p[$0] }; box(gp) { ig[$0] * p[$0] }; box(bp) { ib[$0] * p[$0] }
        // Solve per pixel; a goes to (rp, gp, bp), b to mp.
        for i in 0..<n {
            (rp[i], gp[i], bp[i], mp[i]) = solve(mr[i], mg[i], mb[i], mp[i], rr[i], rg[i], rb[i], gg[i], gb[i], bb[i],
                                                 rp[i], gp[i], bp[i], epsilon: epsilon)
        }
        let ar = plane(0), ag = plane(1), ab = plane(2), bm = plane(5)
        box(ar) { rp[$0] }; box(ag) { gp[$0] }; box(ab) { bp[$0] }; box(bm) { mp[$0] }
        // Apply at full resolution: coefficients bilinear from the working grid.
        let syScale = Float(h) / Float(frame.height)
        for y in 0..<frame.height {
            let (y0, y1, wy) = FramePixels.taps((Float(y) + 0.5) * syScale, h)
            applyRow(px, y: y, width: w, into: destination.row(y), wy: wy,
                     rows: (ar + y0 * w, ar + y1 * w), (ag + y0 * w, ag + y1 * w), (ab + y0 * w, ab + y1 * w),
                     (bm + y0 * w, bm + y1 * w))
        }
    }

    /// Working row `y`: the area-averaged colour of the frame under it and the mask, in [0, 1].
    @inline(__always)
    static func sampleRow(_ px: FramePixels, frame: Image, mask: Plane, y: Int,
                          into ir: UnsafeMutablePointer<Float>, _ ig: UnsafeMutablePointer<Float>,
                          _ ib: UnsafeMutablePointer<Float>, _ p: UnsafeMutablePointer<Float>) {
        let w = mask.width, h = mask.height
        let y0 = y * frame.height / h, y1 = max(y0 + 1, (y + 1) * frame.height / h)
        let mrow = mask.row(y)
        for x in 0..<w {
            let x0 = x * frame.width / w, x1 = max(x0 + 1, (x + 1) * frame.width / w)
            var r: Float = 0, g: Float = 0, b: Float = 0
            let sy = max(1, (y1 - y0) / 4), sx = max(1, (x1 - x0) / 4)
            var k: Float = 0
            var yy = y0
            while yy < y1 {
                var xx = x0
                while xx < x1 {
                    let c = px.rgb(Float(xx) + 0.5, Float(yy) + 0.5)
                    r += c.0; g += c.1; b += c.2; k += 1
                    xx += sx
                }
                yy += sy
            }
            let s = 1 / (255 * k)
            ir[x] = r * s; ig[x] = g * s; ib[x] = b * s
            p[x] = Float(mrow[x]) / 255
        }
    }

    /// One pixel's coefficients from its window means (colour, mask, colour products, colour ×
    /// mask): a = (Σ + εU)⁻¹ cov(I, p) through the cofactor inverse, b = mean(p) − a·mean(I).
    @inline(__always)
    static func solve(_ mR: Float, _ mG: Float, _ mB: Float, _ mP: Float,
                      _ rr: Float, _ rg: Float, _ rb: Float, _ gg: Float, _ gb: Float, _ bb: Float,
                      _ rp: Float, _ gp: Float, _ bp: Float, epsilon: Float) -> (Float, Float, Float, Float) {
        let c0 = rp - mR * mP, c1 = gp - mG * mP, c2 = bp - mB * mP
        let s00 = rr - mR * mR + epsilon, s01 = rg - mR * mG, s02 = rb - mR * mB
        let s11 = gg - mG * mG + epsilon, s12 = gb - mG * mB, s22 = bb - mB * mB + epsilon
        // Inverse of the symmetric 3×3 by cofactors.
        let i00 = s11 * s22 - s12 * s12, i01 = s02 * s12 - s01 * s22, i02 = s01 * s12 - s02 * s11
        let i11 = s00 * s22 - s02 * s02, i12 = s01 * s02 - s00 * s12, i22 = s00 * s11 - s01 * s01
        let det = s00 * i00 + s01 * i01 + s02 * i02
        let inv = det != 0 ? 1 / det : 0
        let a0 = (i00 * c0 + i01 * c1 + i02 * c2) * inv
        let a1 = (i01 * c0 + i11 * c1 + i12 * c2) * inv
        let a2 = (i02 * c0 + i12 * c1 + i22 * c2) * inv
        return (a0, a1, a2, mP - a0 * mR - a1 * mG - a2 * mB)
    }

    /// Full-resolution row `y`: the smoothed coefficients read bilinearly from the working rows
    /// above and below (`rows`: (top, bottom) of ar, ag, ab, b; `wy` the bottom's weight) and
    /// `q = a·I + b` for every pixel.
    @inline(__always)
    static func applyRow(_ px: FramePixels, y: Int, width w: Int, into out: UnsafeMutablePointer<UInt8>, wy: Float,
                         rows ar: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
                         _ ag: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
                         _ ab: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
                         _ bm: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)) {
        let fw = px.width
        let sxScale = Float(w) / Float(fw)
        for x in 0..<fw {
            let (x0, x1, wx) = FramePixels.taps((Float(x) + 0.5) * sxScale, w)
            @inline(__always) func lerp(_ q: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)) -> Float {
                let top = q.0[x0] + (q.0[x1] - q.0[x0]) * wx
                let bottom = q.1[x0] + (q.1[x1] - q.1[x0]) * wx
                return top + (bottom - top) * wy
            }
            let c = px.rgb(Float(x) + 0.5, Float(y) + 0.5)
            let q = (lerp(ar) * c.0 + lerp(ag) * c.1 + lerp(ab) * c.2) / 255 + lerp(bm)
            out[x] = UInt8(truncatingIfNeeded: Int(min(max(q, 0), 1) * 255 + 0.5))
        }
    }

    /// Mean of `f` over (2r+1)² windows clipped at the borders: a horizontal running sum into
    /// `temp`, then a vertical one into `dst` (Double accumulators).
    static func boxMean(_ w: Int, _ h: Int, _ r: Int, _ temp: UnsafeMutablePointer<Float>, _ dst: UnsafeMutablePointer<Float>,
                        _ f: (Int) -> Float) {
        for y in 0..<h {
            let base = y * w
            RunningBoxMean.horizontal(w, r, into: temp + base) { f(base + $0) }
        }
        for x in 0..<w {
            var s: Double = 0
            for y in 0..<min(r, h) { s += Double(temp[y * w + x]) }
            for y in 0..<h {
                if y + r < h { s += Double(temp[(y + r) * w + x]) }
                if y - r - 1 >= 0 { s -= Double(temp[(y - r - 1) * w + x]) }
                let cnt = min(h - 1, y + r) - max(0, y - r) + 1
                dst[y * w + x] = Float(s / Double(cnt))
            }
        }
    }
}
