/// The float kernels of MediaPipe's landmark transforms (see `LandmarksTransformParameters`),
/// with MediaPipe's arithmetic: float32 where its kernels use float, double where their literals
/// make C++ compute in double (the sampler's `1.0 - fraction` weights and the half-pixel shift).
/// NeuralCore has no C math library: the turn's cosine and sine come from the two landmarks'
/// difference and the target angle's own series (`FloatLandmarkTransforms.cosSin`), not atan2.
package enum FloatLandmarkTransforms {
    /// cos and sin of `target − atan2(dy, dx)`, in double, rounded to float once.
    package static func turn(target: Float, dx: Float, dy: Float) -> (cos: Float, sin: Float) {
        let h = (Double(dx) * Double(dx) + Double(dy) * Double(dy)).squareRoot()
        // atan2(0, 0) is 0; atan2(0, -0.0) is π, which a float difference never gives here.
        let (c, s) = h > 0 ? (Double(dx) / h, Double(dy) / h) : (1.0, 0.0)
        let (ct, st) = cosSin(Double(target))
        return (Float(ct * c + st * s), Float(st * c - ct * s))
    }

    /// cos x and sin x for finite x: x reduced to [−π, π], then the Taylor series to 1e-16.
    package static func cosSin(_ x: Double) -> (Double, Double) {
        let twoPi = 6.283_185_307_179_586
        var r = x - (x / twoPi).rounded(.toNearestOrEven) * twoPi
        if r > twoPi / 2 { r -= twoPi } else if r < -twoPi / 2 { r += twoPi }
        var c = 0.0, s = 0.0, term = 1.0
        for k in 0..<40 {
            // term = r^k / k!
            if k % 4 == 0 { c += term } else if k % 4 == 1 { s += term } else if k % 4 == 2 { c -= term } else { s -= term }
            term *= r / Double(k + 1)
        }
        return (c, s)
    }

    /// `Landmarks2TransformMatrix`: the row-major 4×4 matrix from landmarks [N, 3].
    package static func matrix(_ p: LandmarksTransformParameters, landmarks: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let lx = landmarks[p.left * 3], ly = landmarks[p.left * 3 + 1]
        let rx = landmarks[p.right * 3], ry = landmarks[p.right * 3 + 1]
        // The turn r = target − angle(left → right); the box is taken on the points turned by r.
        let (c, s) = turn(target: p.targetRotation, dx: rx - lx, dy: ry - ly)
        var minX = Float.infinity, minY = Float.infinity, maxX = -Float.infinity, maxY = -Float.infinity
        for i in p.subset {
            let x = landmarks[i * 3], y = landmarks[i * 3 + 1]
            let tx = c * x + (-s) * y, ty = s * x + c * y
            minX = min(minX, tx); maxX = max(maxX, tx)
            minY = min(minY, ty); maxY = max(maxY, ty)
        }
        let width = maxX - minX, height = maxY - minY
        let mx = (minX + maxX) / 2, my = (minY + maxY) / 2
        // The box's centre turned back by −r (cos −r = c, sin −r = −s).
        let cx = c * mx + s * my, cy = (-s) * mx + c * my
        // shift(centre) · turn(−r) · scale(box · scale / output size) · shift(−output size / 2).
        let sx = p.scaleX * width / Float(p.outputWidth), sy = p.scaleY * height / Float(p.outputHeight)
        let a = c * sx, b = s * sy, d = (-s) * sx, e = c * sy
        let hx = -Float(Double(p.outputWidth) / 2), hy = -Float(Double(p.outputHeight) / 2)
        let values: [Float] = [a, b, 0, a * hx + b * hy + cx,
                               d, e, 0, d * hx + e * hy + cy,
                               0, 0, 1, 0,
                               0, 0, 0, 1]
        for k in 0..<16 { output[k] = values[k] }
    }

    /// `TransformTensorBilinear`: out [OH, OW, C] sampled from x [H, W, C] at matrix · (ox + ½, oy + ½) − ½.
    package static func bilinear(_ s: [Int], out o: [Int], input: UnsafePointer<Float>, matrix m: UnsafePointer<Float>,
                         output: UnsafeMutablePointer<Float>) {
        let (h, w, ch) = (s[1], s[2], s[3])
        let (oh, ow) = (o[1], o[2])
        let x0 = m[0], x1 = m[1], x2 = m[2], y0 = m[4], y1 = m[5], y2 = m[6]
        let x3 = Float(Double(m[3]) + Double(m[0]) * 0.5 + Double(m[1]) * 0.5 - 0.5)
        let y3 = Float(Double(m[7]) + Double(m[4]) * 0.5 + Double(m[5]) * 0.5 - 0.5)
        for oy in 0..<oh {
            for ox in 0..<ow {
                let dst = output + (oy * ow + ox) * ch
                let fx = Float(ox), fy = Float(oy)
                let tx = x0 * fx + x1 * fy + x2 * 0 + x3
                let ty = y0 * fx + y1 * fy + y2 * 0 + y3
                guard tx >= 0, tx <= Float(w - 1), ty >= 0, ty <= Float(h - 1) else {
                    dst.update(repeating: 0, count: ch)
                    continue
                }
                let fx0 = tx.rounded(.down), fy0 = ty.rounded(.down)
                let ix = Int(fx0), iy = Int(fy0)
                let right = tx - fx0, lower = ty - fy0
                let wl = 1.0 - Double(right), wu = 1.0 - Double(lower)
                // Corners past the last row or column read 0 (they carry weight 0 inside the bounds).
                let hasX = ix + 1 < w, hasY = iy + 1 < h
                let r0 = input + (iy * w + ix) * ch
                let r1 = input + ((iy + 1) * w + ix) * ch
                for k in 0..<ch {
                    let q11 = r0[k], q21 = hasX ? r0[ch + k] : 0
                    let q12 = hasY ? r1[k] : 0, q22 = hasX && hasY ? r1[ch + k] : 0
                    let upper = Float(wl * Double(q11) + Double(right * q21))
                    let below = Float(wl * Double(q12) + Double(right * q22))
                    dst[k] = Float(Double(lower) * Double(below) + wu * Double(upper))
                }
            }
        }
    }

    /// `TransformLandmarks`: each point's x, y through the matrix's first two rows; z (dims 3) kept.
    package static func landmarks(count: Int, dimensions: Int, input: UnsafePointer<Float>, matrix m: UnsafePointer<Float>,
                          output: UnsafeMutablePointer<Float>) {
        for i in 0..<count {
            let p = i * dimensions
            let x = input[p], y = input[p + 1]
            output[p] = m[0] * x + m[1] * y + m[2] * 0 + m[3]
            output[p + 1] = m[4] * x + m[5] * y + m[6] * 0 + m[7]
            if dimensions == 3 { output[p + 2] = input[p + 2] }
        }
    }
}
