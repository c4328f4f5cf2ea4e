import ImageCore

/// Matting refinement for stills: the colour guided filter (He, Sun and Tang), with its
/// coefficients computed at a working size and applied at full resolution (He and Sun's "fast
/// guided filter"), so hair and edges follow the full-resolution colours.
///
/// At working size, over (2r+1)² windows: `a = (Σ + εU)⁻¹ cov(I, p)` (a 3-vector per pixel, Σ the
/// 3×3 colour covariance), `b = mean(p) − a·mean(I)`; a and b are box-averaged, upsampled bilinearly
/// and `q = a·I + b` is evaluated for every full-resolution pixel. Float arithmetic (a still, not
/// the per-frame path); the planes are allocated per call and freed on return.
package enum ColorGuidedFilter {
    /// `mask` is the coarse mask at working size (Gray8); the output (`destination`, Gray8) and
    /// `frame` have the full size. `radius` is in working pixels, `epsilon` in [0,1]² units.
    package static func run(frame: Image, mask: Plane, destination: Plane, radius: Int, epsilon: Float) {
        let w = mask.width, h = mask.height, n = w * h
        precondition(destination.width == frame.width && destination.height == frame.height, "matting: destination size")
        let store = ScratchBuffer<Float>(count: n * 18)
        func plane(_ i: Int) -> UnsafeMutablePointer<Float> { store.pointer + i * n }
        let ir = plane(0), ig = plane(1), ib = plane(2), p = plane(3), temp = plane(4)
        // Working-size colour (area average of the frame) and mask, in [0, 1].
        let px = FramePixels(frame, fullRange: true)
        for y in 0..<h {
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
                ir[y * w + x] = r * s; ig[y * w + x] = g * s; ib[y * w + x] = b * s
                p[y * w + x] = Float(mrow[x]) / 255
            }
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
            let mR = mr[i], mG = mg[i], mB = mb[i], mP = mp[i]
            let c0 = rp[i] - mR * mP, c1 = gp[i] - mG * mP, c2 = bp[i] - mB * mP
            let s00 = rr[i] - mR * mR + epsilon, s01 = rg[i] - mR * mG, s02 = rb[i] - mR * mB
            let s11 = gg[i] - mG * mG + epsilon, s12 = gb[i] - mG * mB, s22 = bb[i] - mB * mB + epsilon
            // Inverse of the symmetric 3×3 by cofactors.
            let i00 = s11 * s22 - s12 * s12, i01 = s02 * s12 - s01 * s22, i02 = s01 * s12 - s02 * s11
            let i11 = s00 * s22 - s02 * s02, i12 = s01 * s02 - s00 * s12, i22 = s00 * s11 - s01 * s01
            let det = s00 * i00 + s01 * i01 + s02 * i02
            let inv = det != 0 ? 1 / det : 0
            let a0 = (i00 * c0 + i01 * c1 + i02 * c2) * inv
            let a1 = (i01 * c0 + i11 * c1 + i12 * c2) * inv
            let a2 = (i02 * c0 + i12 * c1 + i22 * c2) * inv
            rp[i] = a0; gp[i] = a1; bp[i] = a2
            mp[i] = mP - a0 * mR - a1 * mG - a2 * mB
        }
        let ar = plane(0), ag = plane(1), ab = plane(2), bm = plane(5)
        box(ar) { rp[$0] }; box(ag) { gp[$0] }; box(ab) { bp[$0] }; box(bm) { mp[$0] }
        // Apply at full resolution: coefficients bilinear from the working grid.
        let fw = frame.width, fh = frame.height
        let sxScale = Float(w) / Float(fw), syScale = Float(h) / Float(fh)
        for y in 0..<fh {
            let (y0, y1, wy) = FramePixels.taps((Float(y) + 0.5) * syScale, h)
            let out = destination.row(y)
            for x in 0..<fw {
                let (x0, x1, wx) = FramePixels.taps((Float(x) + 0.5) * sxScale, w)
                let i00 = y0 * w + x0, i01 = y0 * w + x1, i10 = y1 * w + x0, i11 = y1 * w + x1
                @inline(__always) func lerp(_ q: UnsafeMutablePointer<Float>) -> Float {
                    let top = q[i00] + (q[i01] - q[i00]) * wx
                    let bottom = q[i10] + (q[i11] - q[i10]) * wx
                    return top + (bottom - top) * wy
                }
                let c = px.rgb(Float(x) + 0.5, Float(y) + 0.5)
                let q = (lerp(ar) * c.0 + lerp(ag) * c.1 + lerp(ab) * c.2) / 255 + lerp(bm)
                out[x] = UInt8(truncatingIfNeeded: Int(min(max(q, 0), 1) * 255 + 0.5))
            }
        }
    }

    /// Mean of `f` over (2r+1)² windows clipped at the borders: a horizontal running sum into
    /// `temp`, then a vertical one into `dst` (Double accumulators).
    static func boxMean(_ w: Int, _ h: Int, _ r: Int, _ temp: UnsafeMutablePointer<Float>, _ dst: UnsafeMutablePointer<Float>,
                        _ f: (Int) -> Float) {
        for y in 0..<h {
            let base = y * w
            var s: Double = 0
            for x in 0..<min(r, w) { s += Double(f(base + x)) }
            for x in 0..<w {
                if x + r < w { s += Double(f(base + x + r)) }
                if x - r - 1 >= 0 { s -= Double(f(base + x - r - 1)) }
                let cnt = min(w - 1, x + r) - max(0, x - r) + 1
                temp[base + x] = Float(s / Double(cnt))
            }
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
