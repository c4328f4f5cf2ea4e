import CNeuralKernels

/// The float kernels other than convolutions: pooling, elementwise with broadcasting, activations,
/// padding, mean, concatenation and bilinear resize. Shapes are the 4-D forms of the graph.
enum FloatKernels {
    // MARK: Pooling

    /// Max over the window (taps outside the input are ignored), then the fused activation.
    static func maxPool(_ s: [Int], out o: [Int], _ g: PoolGeometry, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let (n, h, w, c) = (s[0], s[1], s[2], s[3])
        let (oh, ow) = (o[1], o[2])
        let (lo, hi) = g.activation.bounds
        for b in 0..<n {
            for oy in 0..<oh {
                let y0 = oy * g.strideH - g.padTop
                let yLo = max(0, y0), yHi = min(h, y0 + g.filterH)
                for ox in 0..<ow {
                    let x0 = ox * g.strideW - g.padLeft
                    let xLo = max(0, x0), xHi = min(w, x0 + g.filterW)
                    let dst = output + ((b * oh + oy) * ow + ox) * c
                    // Channels innermost (contiguous reads), the running maximum kept in the output.
                    dst.update(repeating: -Float.greatestFiniteMagnitude, count: c)
                    for y in yLo..<max(yLo, yHi) {
                        for x in xLo..<max(xLo, xHi) {
                            let src = input + ((b * h + y) * w + x) * c
                            for ch in 0..<c { dst[ch] = max(dst[ch], src[ch]) }
                        }
                    }
                    for ch in 0..<c { dst[ch] = min(max(dst[ch], lo), hi) }
                }
            }
        }
    }

    /// Average over the taps inside the input (TFLite's count), then the fused activation.
    ///
    /// The sum is kept in Double and rounded once (within 0.5 ulp): the segmentation models'
    /// squeeze-and-excitation blocks pool whole 128×128 maps, where a float32 running sum (TFLite's
    /// reference kernel) is off by up to 440 ulp of the mean, 2e-6 of the map's scale, three times
    /// what XNNPACK's blocked sums lose; the oracle should not (FloatReductionTests).
    static func averagePool(_ s: [Int], out o: [Int], _ g: PoolGeometry, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let (n, h, w, c) = (s[0], s[1], s[2], s[3])
        let (oh, ow) = (o[1], o[2])
        let (lo, hi) = g.activation.bounds
        for b in 0..<n {
            for oy in 0..<oh {
                let y0 = oy * g.strideH - g.padTop
                let yLo = max(0, y0), yHi = min(h, y0 + g.filterH)
                for ox in 0..<ow {
                    let x0 = ox * g.strideW - g.padLeft
                    let xLo = max(0, x0), xHi = min(w, x0 + g.filterW)
                    let dst = output + ((b * oh + oy) * ow + ox) * c
                    let count = max(0, yHi - yLo) * max(0, xHi - xLo)
                    for ch in 0..<c {
                        var sum: Double = 0
                        if count > 0 {
                            for y in yLo..<yHi {
                                let row = input + ((b * h + y) * w) * c + ch
                                for x in xLo..<xHi { sum += Double(row[x * c]) }
                            }
                        }
                        let v = count > 0 ? Float(sum / Double(count)) : 0
                        dst[ch] = min(max(v, lo), hi)
                    }
                }
            }
        }
    }

    // MARK: Elementwise with broadcasting

    enum Binary { case add, mul, prelu }

    /// out = a ⊕ b with NumPy broadcasting over 4-D shapes `sa`, `sb` → `so`. On aarch64 (unless
    /// `neon` is false) each run of rows along the third dimension is one `booth_binary_f32_rows`
    /// call (C NEON, the same bits as the Swift rows below, broadcast rows included); on x86-64
    /// built with AVX2 one `booth_x86_binary_f32_rows` call (the same rows eight lanes at a time).
    static func binary(_ op: Binary, _ sa: [Int], _ sb: [Int], out so: [Int], activation: Activation,
                       a: UnsafePointer<Float>, b: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                       neon: Bool = cRows()) {
        let (lo, hi) = activation.bounds
        let cop: Int32 = op == .add ? Int32(BOOTH_FBINARY_ADD) : op == .mul ? Int32(BOOTH_FBINARY_MUL) : Int32(BOOTH_FBINARY_PRELU)
        // Strides of a and b in the output's index space (0 along broadcast dimensions).
        var strideA = SIMD4<Int>(), strideB = SIMD4<Int>()
        var ra = 1, rb = 1
        for d in stride(from: 3, through: 0, by: -1) {
            strideA[d] = sa[d] == 1 ? 0 : ra
            strideB[d] = sb[d] == 1 ? 0 : rb
            ra *= sa[d]
            rb *= sb[d]
        }
        let inner = so[3]
        let ia = strideA[3], ib = strideB[3]
        var dst = output
        for d0 in 0..<so[0] {
            for d1 in 0..<so[1] {
                if neon {
                    // The whole d2 loop in one C call (contiguous and broadcast rows alike).
                    let pa = a + d0 * strideA[0] + d1 * strideA[1]
                    let pb = b + d0 * strideB[0] + d1 * strideB[1]
#if arch(x86_64)
                    _ = booth_x86_binary_f32_rows(cop, pa, strideA[2], ia, pb, strideB[2], ib, so[2], inner, lo, hi, dst)
#else
                    booth_binary_f32_rows(cop, pa, strideA[2], ia, pb, strideB[2], ib, so[2], inner, lo, hi, dst)
#endif
                    dst += so[2] * inner
                    continue
                }
                for d2 in 0..<so[2] {
                    let pa = a + d0 * strideA[0] + d1 * strideA[1] + d2 * strideA[2]
                    let pb = b + d0 * strideB[0] + d1 * strideB[1] + d2 * strideB[2]
                    if ia == 1 && ib == 1 {
                        var k = 0
                        let vlo = SIMD8<Float>(repeating: lo), vhi = SIMD8<Float>(repeating: hi)
                        while k + 8 <= inner {
                            let x = load8(pa + k), y = load8(pb + k)
                            var r: SIMD8<Float>
                            switch op {
                            case .add: r = x + y
                            case .mul: r = x * y
                            case .prelu: r = x.replacing(with: x * y, where: x .< 0)
                            }
                            store8(clamp8(r, vlo, vhi), dst + k)
                            k += 8
                        }
                        while k < inner {
                            dst[k] = apply(op, pa[k], pb[k], lo, hi)
                            k += 1
                        }
                    } else {
                        for k in 0..<inner { dst[k] = apply(op, pa[k * ia], pb[k * ib], lo, hi) }
                    }
                    dst += inner
                }
            }
        }
    }

    /// Whether `binary` has C rows on this build: NEON on aarch64, AVX2 on x86-64.
    static func cRows() -> Bool {
#if arch(x86_64)
        return booth_x86_available() != 0
#else
        return booth_neon_available() != 0
#endif
    }

    @inline(__always)
    static func apply(_ op: Binary, _ x: Float, _ y: Float, _ lo: Float, _ hi: Float) -> Float {
        let r: Float
        switch op {
        case .add: r = x + y
        case .mul: r = x * y
        case .prelu: r = x < 0 ? x * y : x
        }
        return min(max(r, lo), hi)
    }

    // MARK: Unary

    enum Unary { case relu, logistic, hardSwish, copy }

    static func unary(_ op: Unary, count: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        switch op {
        case .relu: for i in 0..<count { output[i] = max(input[i], 0) }
        case .logistic: for i in 0..<count { output[i] = FloatMath.logistic(input[i]) }
        case .hardSwish: for i in 0..<count { output[i] = FloatMath.hardSwish(input[i]) }
        case .copy: output.update(from: input, count: count)
        }
    }

    /// Applies a fused activation in place.
    static func clamp(_ activation: Activation, count: Int, _ data: UnsafeMutablePointer<Float>) {
        if activation == .none { return }
        let (lo, hi) = activation.bounds
        for i in 0..<count { data[i] = min(max(data[i], lo), hi) }
    }

    // MARK: Layout

    /// Zero padding of a 4-D tensor.
    static func pad(_ s: [Int], out o: [Int], before: [Int], input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        var total = 1
        for d in 0..<4 { total *= o[d] }
        output.update(repeating: 0, count: total)
        for b in 0..<s[0] {
            for y in 0..<s[1] {
                for x in 0..<s[2] {
                    let src = input + ((b * s[1] + y) * s[2] + x) * s[3]
                    let dst = output + (((b + before[0]) * o[1] + y + before[1]) * o[2] + x + before[2]) * o[3] + before[3]
                    dst.update(from: src, count: s[3])
                }
            }
        }
    }

    /// Mean over the flagged dimensions of a 4-D tensor, summed in Double and rounded once (see
    /// `averagePool`).
    static func mean(_ s: [Int], reduced: [Bool], input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        // Input strides; kept dimensions index the output, reduced ones are summed over.
        var step = SIMD4<Int>()
        var r = 1
        for d in stride(from: 3, through: 0, by: -1) {
            step[d] = r
            r *= s[d]
        }
        var outer = SIMD4<Int>(repeating: 1), inner = SIMD4<Int>(repeating: 1)
        var count = 1
        for d in 0..<4 {
            if reduced[d] { inner[d] = s[d]; count *= s[d] } else { outer[d] = s[d] }
        }
        let divisor = Double(max(count, 1))
        var dst = output
        for a0 in 0..<outer[0] {
            for a1 in 0..<outer[1] {
                for a2 in 0..<outer[2] {
                    for a3 in 0..<outer[3] {
                        let base = input + a0 * step[0] + a1 * step[1] + a2 * step[2] + a3 * step[3]
                        var sum: Double = 0
                        for r0 in 0..<inner[0] {
                            for r1 in 0..<inner[1] {
                                for r2 in 0..<inner[2] {
                                    let p = base + r0 * step[0] + r1 * step[1] + r2 * step[2]
                                    for r3 in 0..<inner[3] { sum += Double(p[r3 * step[3]]) }
                                }
                            }
                        }
                        dst.pointee = Float(sum / divisor)
                        dst += 1
                    }
                }
            }
        }
    }

    /// Copies one input of a concatenation into its slot of the output along `axis` (4-D form).
    static func concatenatePart(_ s: [Int], axis: Int, outAxisSize: Int, axisOffset: Int,
                                input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        var outer = 1
        for d in 0..<axis { outer *= s[d] }
        var inner = 1
        for d in (axis + 1)..<4 { inner *= s[d] }
        let chunk = s[axis] * inner
        for k in 0..<outer {
            (output + (k * outAxisSize + axisOffset) * inner).update(from: input + k * chunk, count: chunk)
        }
    }

    // MARK: Bilinear resize (TFLite's reference formula)

    static func resizeBilinear(_ s: [Int], out o: [Int], alignCorners: Bool, halfPixelCenters: Bool,
                               input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let (n, h, w, c) = (s[0], s[1], s[2], s[3])
        let (oh, ow) = (o[1], o[2])
        func scale(_ inSize: Int, _ outSize: Int) -> Float {
            alignCorners && outSize > 1 ? Float(inSize - 1) / Float(outSize - 1) : Float(inSize) / Float(outSize)
        }
        let sy = scale(h, oh), sx = scale(w, ow)
        func source(_ v: Int, _ scale: Float, _ size: Int) -> (Float, Int, Int) {
            let f = halfPixelCenters ? (Float(v) + 0.5) * scale - 0.5 : Float(v) * scale
            let fl = f.rounded(.down)
            let lower = max(Int(fl), 0)
            let upper = min(Int(f.rounded(.up)), size - 1)
            return (f, lower, upper)
        }
        for b in 0..<n {
            for y in 0..<oh {
                let (fy, y0, y1) = source(y, sy, h)
                let dy = fy - Float(y0)
                for x in 0..<ow {
                    let (fx, x0, x1) = source(x, sx, w)
                    let dx = fx - Float(x0)
                    let p00 = input + ((b * h + y0) * w + x0) * c
                    let p01 = input + ((b * h + y0) * w + x1) * c
                    let p10 = input + ((b * h + y1) * w + x0) * c
                    let p11 = input + ((b * h + y1) * w + x1) * c
                    let dst = output + ((b * oh + y) * ow + x) * c
                    let w00 = (1 - dy) * (1 - dx), w01 = (1 - dy) * dx, w10 = dy * (1 - dx), w11 = dy * dx
                    for ch in 0..<c {
                        dst[ch] = p00[ch] * w00 + p10[ch] * w10 + p01[ch] * w01 + p11[ch] * w11
                    }
                }
            }
        }
    }
}
