/// Float convolution kernels (NHWC activations), generic over how they multiply and add
/// (`FloatMultiplyAdd`: fused for the float engine — `fmla` by element on aarch64, `vfmadd` on
/// x86-64 haswell/native, the same bits on both; a baseline x86-64 build, BOOTH_TARGET_CPU=
/// empty, gets them through per-lane libm `fmaf` calls, many times slower — or separately
/// rounded for the integer calibration). The scalar references use the same arithmetic on the
/// same products in the same order, so they equal the SIMD variants bit for bit.
/// Each has a plain scalar reference and a SIMD8
/// variant over output channels; tests run both on the same data.
///
/// Packed weight layout used by both: [KH][KW][IC][OCp] with OCp = OC rounded up to 8 (zero filled),
/// bias [OCp]; packing happens once at load (`packConvWeights`).
enum FloatConvolution {
    /// Dimensions of one convolution call.
    struct Dims {
        var batch: Int
        var inH: Int, inW: Int, inC: Int
        var outH: Int, outW: Int, outC: Int
        var kH: Int, kW: Int
        var g: ConvGeometry

        /// Output channels rounded up to the SIMD width.
        var outCPadded: Int { (outC + 7) & ~7 }
    }

    /// Repacks OHWI weights into [KH][KW][IC][OCp] and the bias into [OCp].
    static func packConvWeights(ohwi: ArraySlice<Float>, bias: ArraySlice<Float>?, outC: Int, kH: Int, kW: Int, inC: Int,
                                into packed: inout [Float], bias packedBias: inout [Float]) {
        let ocp = (outC + 7) & ~7
        packed = [Float](repeating: 0, count: kH * kW * inC * ocp)
        packedBias = [Float](repeating: 0, count: ocp)
        packed.withUnsafeMutableBufferPointer { w in
            packedBias.withUnsafeMutableBufferPointer { b in
                packConvWeights(ohwi: ohwi, bias: bias, outC: outC, kH: kH, kW: kW, inC: inC, weightsAt: w.baseAddress!, biasAt: b.baseAddress!)
            }
        }
    }

    /// `packConvWeights` into memory the caller owns (zeroed beforehand: the padding lanes are
    /// left as they are): `kH·kW·inC·outCPadded` weights at `packed`, `outCPadded` biases at `packedBias`.
    static func packConvWeights<Values: RandomAccessCollection<Float>>(
        ohwi: Values, bias: Values?, outC: Int, kH: Int, kW: Int, inC: Int,
        weightsAt packed: UnsafeMutablePointer<Float>, biasAt packedBias: UnsafeMutablePointer<Float>) where Values.Index == Int {
        let ocp = (outC + 7) & ~7
        let base = ohwi.startIndex
        for o in 0..<outC {
            for ky in 0..<kH {
                for kx in 0..<kW {
                    for i in 0..<inC {
                        packed[((ky * kW + kx) * inC + i) * ocp + o] = ohwi[base + ((o * kH + ky) * kW + kx) * inC + i]
                    }
                }
            }
            if let bias { packedBias[o] = bias[bias.startIndex + o] }
        }
    }

    /// A depthwise filter (multiplier 1) packed for the depthwise kernels, into memory the caller
    /// owns (zeroed beforehand): `[1,KH,KW,OC]` is already `[KH][KW][OC]`, so each of the `taps`
    /// rows of `outC` values moves to a row of `outCPadded`; the bias to `outCPadded` values.
    static func packDepthwiseWeights<Values: RandomAccessCollection<Float>>(
        _ filter: Values, bias: Values?, taps: Int, outC: Int,
        weightsAt packed: UnsafeMutablePointer<Float>, biasAt packedBias: UnsafeMutablePointer<Float>) where Values.Index == Int {
        let ocp = (outC + 7) & ~7
        let base = filter.startIndex
        for tap in 0..<taps {
            for o in 0..<outC { packed[tap * ocp + o] = filter[base + tap * outC + o] }
        }
        if let bias { for o in 0..<outC { packedBias[o] = bias[bias.startIndex + o] } }
    }

    // MARK: Regular convolution

    /// Scalar reference: out[n,y,x,o] = act(bias[o] + Σ in[n, y·s−pad+ky·d, x·s−pad+kx·d, i] · w[ky,kx,i,o]).
    static func convScalar<M: FloatMultiplyAdd>(_: M.Type, _ d: Dims, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                           output: UnsafeMutablePointer<Float>) {
        let ocp = d.outCPadded
        let (lo, hi) = d.g.activation.bounds
        for n in 0..<d.batch {
            for oy in 0..<d.outH {
                for ox in 0..<d.outW {
                    let out = output + ((n * d.outH + oy) * d.outW + ox) * d.outC
                    for o in 0..<d.outC {
                        var acc = bias[o]
                        for ky in 0..<d.kH {
                            let iy = oy * d.g.strideH - d.g.padTop + ky * d.g.dilationH
                            if iy < 0 || iy >= d.inH { continue }
                            for kx in 0..<d.kW {
                                let ix = ox * d.g.strideW - d.g.padLeft + kx * d.g.dilationW
                                if ix < 0 || ix >= d.inW { continue }
                                let src = input + ((n * d.inH + iy) * d.inW + ix) * d.inC
                                let w = weights + (ky * d.kW + kx) * d.inC * ocp + o
                                for i in 0..<d.inC { acc = M.madd(acc, src[i], w[i * ocp]) }
                            }
                        }
                        out[o] = min(max(acc, lo), hi)
                    }
                }
            }
        }
    }

    /// SIMD variant: per output pixel, 8 output channels at a time; a 1×1 stride-1 convolution
    /// goes to `pointwise`, which also tiles 4 pixels so each weight load feeds 4 FMAs.
    static func conv<M: FloatMultiplyAdd>(_: M.Type, _ d: Dims, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                     output: UnsafeMutablePointer<Float>) {
        if d.kH == 1 && d.kW == 1 && d.g.strideH == 1 && d.g.strideW == 1 && d.g.padTop == 0 && d.g.padLeft == 0 {
            pointwise(M.self, pixels: d.batch * d.inH * d.inW, inC: d.inC, outC: d.outC, activation: d.g.activation,
                      input: input, weights: weights, bias: bias, output: output)
            return
        }
        let ocp = d.outCPadded
        let (lo, hi) = d.g.activation.bounds
        let vlo = SIMD8<Float>(repeating: lo), vhi = SIMD8<Float>(repeating: hi)
        let sx = d.g.strideW, dx = d.g.dilationW
        // Output columns whose whole window lies inside the input horizontally.
        let interiorStart = min(d.outW, max(0, (d.g.padLeft + sx - 1) / sx))
        let spanW = (d.kW - 1) * dx + 1
        let interiorEnd = max(interiorStart, min(d.outW, d.inW + d.g.padLeft - spanW >= 0 ? (d.inW + d.g.padLeft - spanW) / sx + 1 : 0))
        for n in 0..<d.batch {
            for oy in 0..<d.outH {
                let y0 = oy * d.g.strideH - d.g.padTop
                var ox = 0
                while ox < d.outW {
                    if ox >= interiorStart && ox + 4 <= interiorEnd {
                        // Four interior pixels at once: each weight vector feeds four accumulators.
                        let x0 = ox * sx - d.g.padLeft
                        let out = output + ((n * d.outH + oy) * d.outW + ox) * d.outC
                        var o = 0
                        while o < ocp {
                            var a0 = load8(bias + o)
                            var a1 = a0, a2 = a0, a3 = a0
                            for ky in 0..<d.kH {
                                let iy = y0 + ky * d.g.dilationH
                                if iy < 0 || iy >= d.inH { continue }
                                let row = input + (n * d.inH + iy) * d.inW * d.inC
                                for kx in 0..<d.kW {
                                    let p0 = row + (x0 + kx * dx) * d.inC
                                    let p1 = p0 + sx * d.inC, p2 = p1 + sx * d.inC, p3 = p2 + sx * d.inC
                                    var w = weights + (ky * d.kW + kx) * d.inC * ocp + o
                                    for i in 0..<d.inC {
                                        let wv = load8(w)
                                        a0 = M.madd(a0, SIMD8(repeating: p0[i]), wv)
                                        a1 = M.madd(a1, SIMD8(repeating: p1[i]), wv)
                                        a2 = M.madd(a2, SIMD8(repeating: p2[i]), wv)
                                        a3 = M.madd(a3, SIMD8(repeating: p3[i]), wv)
                                        w += ocp
                                    }
                                }
                            }
                            let rest = d.outC - o
                            store(clamp8(a0, vlo, vhi), out + o, count: rest)
                            store(clamp8(a1, vlo, vhi), out + d.outC + o, count: rest)
                            store(clamp8(a2, vlo, vhi), out + 2 * d.outC + o, count: rest)
                            store(clamp8(a3, vlo, vhi), out + 3 * d.outC + o, count: rest)
                            o += 8
                        }
                        ox += 4
                        continue
                    }
                    let x0 = ox * sx - d.g.padLeft
                    let out = output + ((n * d.outH + oy) * d.outW + ox) * d.outC
                    var o = 0
                    while o < ocp {
                        var acc = load8(bias + o)
                        for ky in 0..<d.kH {
                            let iy = y0 + ky * d.g.dilationH
                            if iy < 0 || iy >= d.inH { continue }
                            for kx in 0..<d.kW {
                                let ix = x0 + kx * dx
                                if ix < 0 || ix >= d.inW { continue }
                                let src = input + ((n * d.inH + iy) * d.inW + ix) * d.inC
                                var w = weights + (ky * d.kW + kx) * d.inC * ocp + o
                                for i in 0..<d.inC {
                                    acc = M.madd(acc, SIMD8(repeating: src[i]), load8(w))
                                    w += ocp
                                }
                            }
                        }
                        store(clamp8(acc, vlo, vhi), out + o, count: d.outC - o)
                        o += 8
                    }
                    ox += 1
                }
            }
        }
    }

    /// 1×1 convolution over `pixels` contiguous pixels: a [pixels × inC] · [inC × outC] product.
    static func pointwise<M: FloatMultiplyAdd>(_: M.Type, pixels: Int, inC: Int, outC: Int, activation: Activation, input: UnsafePointer<Float>,
                          weights: UnsafePointer<Float>, bias: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let ocp = (outC + 7) & ~7
        let (lo, hi) = activation.bounds
        let vlo = SIMD8<Float>(repeating: lo), vhi = SIMD8<Float>(repeating: hi)
        var p = 0
        // 4 pixels × 8 channels: 8 SSE / 4 NEON accumulator registers, so nothing spills on x86-64.
        while p + 4 <= pixels {
            let s0 = input + p * inC, s1 = s0 + inC, s2 = s1 + inC, s3 = s2 + inC
            var o = 0
            while o < ocp {
                let b0 = load8(bias + o)
                var a0 = b0, a1 = b0, a2 = b0, a3 = b0
                var w = weights + o
                var i = 0
                // Four input channels per step: one vector load per pixel, then each product by
                // lane (`fmla v.4s, w.4s, x.s[l]`): the same products in the same order.
                while i + 4 <= inC {
                    let x0 = load4(s0 + i), x1 = load4(s1 + i), x2 = load4(s2 + i), x3 = load4(s3 + i)
                    for l in 0..<4 {
                        accumulate4(M.self, &a0, &a1, &a2, &a3, x0[l], x1[l], x2[l], x3[l], load8(w))
                        w += ocp
                    }
                    i += 4
                }
                while i < inC {
                    accumulate4(M.self, &a0, &a1, &a2, &a3, s0[i], s1[i], s2[i], s3[i], load8(w))
                    w += ocp
                    i += 1
                }
                let out = output + p * outC + o
                let rest = outC - o
                store(clamp8(a0, vlo, vhi), out, count: rest)
                store(clamp8(a1, vlo, vhi), out + outC, count: rest)
                store(clamp8(a2, vlo, vhi), out + 2 * outC, count: rest)
                store(clamp8(a3, vlo, vhi), out + 3 * outC, count: rest)
                o += 8
            }
            p += 4
        }
        while p < pixels {
            let s = input + p * inC
            var o = 0
            while o < ocp {
                var a = load8(bias + o)
                var w = weights + o
                for i in 0..<inC {
                    a = M.madd(a, SIMD8(repeating: s[i]), load8(w))
                    w += ocp
                }
                store(clamp8(a, vlo, vhi), output + p * outC + o, count: outC - o)
                o += 8
            }
            p += 1
        }
    }

    /// One input channel of a 4-pixel tile: each pixel's accumulator takes its value times the
    /// channel's 8 weights.
    @inline(__always)
    static func accumulate4<M: FloatMultiplyAdd>(_: M.Type, _ a0: inout SIMD8<Float>, _ a1: inout SIMD8<Float>,
                                                 _ a2: inout SIMD8<Float>, _ a3: inout SIMD8<Float>, _ x0: Float, _ x1: Float,
                                                 _ x2: Float, _ x3: Float, _ w: SIMD8<Float>) {
        a0 = M.madd(a0, SIMD8(repeating: x0), w)
        a1 = M.madd(a1, SIMD8(repeating: x1), w)
        a2 = M.madd(a2, SIMD8(repeating: x2), w)
        a3 = M.madd(a3, SIMD8(repeating: x3), w)
    }

    // MARK: Depthwise convolution (weights packed [KH][KW][OCp], bias [OCp])

    static func depthwiseScalar<M: FloatMultiplyAdd>(_: M.Type, _ d: Dims, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                                output: UnsafeMutablePointer<Float>) {
        let ocp = d.outCPadded
        let m = d.g.depthMultiplier
        let (lo, hi) = d.g.activation.bounds
        for n in 0..<d.batch {
            for oy in 0..<d.outH {
                for ox in 0..<d.outW {
                    let out = output + ((n * d.outH + oy) * d.outW + ox) * d.outC
                    for o in 0..<d.outC {
                        var acc = bias[o]
                        for ky in 0..<d.kH {
                            let iy = oy * d.g.strideH - d.g.padTop + ky * d.g.dilationH
                            if iy < 0 || iy >= d.inH { continue }
                            for kx in 0..<d.kW {
                                let ix = ox * d.g.strideW - d.g.padLeft + kx * d.g.dilationW
                                if ix < 0 || ix >= d.inW { continue }
                                acc = M.madd(acc, input[((n * d.inH + iy) * d.inW + ix) * d.inC + o / m], weights[(ky * d.kW + kx) * ocp + o])
                            }
                        }
                        out[o] = min(max(acc, lo), hi)
                    }
                }
            }
        }
    }

    static func depthwise<M: FloatMultiplyAdd>(_: M.Type, _ d: Dims, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                          output: UnsafeMutablePointer<Float>) {
        guard d.g.depthMultiplier == 1 else {
            depthwiseScalar(M.self, d, input: input, weights: weights, bias: bias, output: output)
            return
        }
        let c = d.outC
        let ocp = d.outCPadded
        let (lo, hi) = d.g.activation.bounds
        let vlo = SIMD8<Float>(repeating: lo), vhi = SIMD8<Float>(repeating: hi)
        let sx = d.g.strideW
        let step = sx * c
        let interiorStart = min(d.outW, max(0, (d.g.padLeft + sx - 1) / sx))
        let spanW = (d.kW - 1) * d.g.dilationW + 1
        let interiorEnd = max(interiorStart, min(d.outW, d.inW + d.g.padLeft - spanW >= 0 ? (d.inW + d.g.padLeft - spanW) / sx + 1 : 0))
        for n in 0..<d.batch {
            for oy in 0..<d.outH {
                let y0 = oy * d.g.strideH - d.g.padTop
                let kyLo = max(0, (-y0 + d.g.dilationH - 1) / d.g.dilationH)
                let kyHi = min(d.kH, (d.inH - y0 + d.g.dilationH - 1) / d.g.dilationH)
                var ox = 0
                while ox < d.outW {
                    if ox >= interiorStart && ox + 4 <= interiorEnd && kyLo < kyHi {
                        // Four interior pixels: each weight vector feeds four accumulators.
                        let x0 = ox * sx - d.g.padLeft
                        let out = output + ((n * d.outH + oy) * d.outW + ox) * c
                        var o = 0
                        while o + 8 <= c {
                            var a0 = load8(bias + o)
                            var a1 = a0, a2 = a0, a3 = a0
                            for ky in kyLo..<kyHi {
                                let row = input + ((n * d.inH + y0 + ky * d.g.dilationH) * d.inW + x0) * c + o
                                let wrow = weights + ky * d.kW * ocp + o
                                for kx in 0..<d.kW {
                                    let wv = load8(wrow + kx * ocp)
                                    let p = row + kx * d.g.dilationW * c
                                    a0 = M.madd(a0, load8(p), wv)
                                    a1 = M.madd(a1, load8(p + step), wv)
                                    a2 = M.madd(a2, load8(p + 2 * step), wv)
                                    a3 = M.madd(a3, load8(p + 3 * step), wv)
                                }
                            }
                            store8(clamp8(a0, vlo, vhi), out + o)
                            store8(clamp8(a1, vlo, vhi), out + c + o)
                            store8(clamp8(a2, vlo, vhi), out + 2 * c + o)
                            store8(clamp8(a3, vlo, vhi), out + 3 * c + o)
                            o += 8
                        }
                        if o < c {
                            for q in 0..<4 {
                                depthwisePixelTail(M.self, d, n: n, oy: oy, ox: ox + q, from: o, kyLo: kyLo, kyHi: kyHi,
                                                   input: input, weights: weights, bias: bias, output: output)
                            }
                        }
                        ox += 4
                        continue
                    }
                    let x0 = ox * d.g.strideW - d.g.padLeft
                    let kxLo = max(0, (-x0 + d.g.dilationW - 1) / d.g.dilationW)
                    let kxHi = min(d.kW, (d.inW - x0 + d.g.dilationW - 1) / d.g.dilationW)
                    let out = output + ((n * d.outH + oy) * d.outW + ox) * c
                    var o = 0
                    // Full vectors read only inside the channel count; the tail is scalar.
                    while o + 8 <= c {
                        var acc = load8(bias + o)
                        if kyLo < kyHi && kxLo < kxHi {
                            for ky in kyLo..<kyHi {
                                let row = input + ((n * d.inH + y0 + ky * d.g.dilationH) * d.inW) * c + o
                                let wrow = weights + ky * d.kW * ocp + o
                                for kx in kxLo..<kxHi {
                                    acc = M.madd(acc, load8(row + (x0 + kx * d.g.dilationW) * c), load8(wrow + kx * ocp))
                                }
                            }
                        }
                        store8(clamp8(acc, vlo, vhi), out + o)
                        o += 8
                    }
                    while o < c {
                        var acc = bias[o]
                        if kyLo < kyHi && kxLo < kxHi {
                            for ky in kyLo..<kyHi {
                                let row = input + ((n * d.inH + y0 + ky * d.g.dilationH) * d.inW) * c + o
                                for kx in kxLo..<kxHi {
                                    acc = M.madd(acc, row[(x0 + kx * d.g.dilationW) * c], weights[(ky * d.kW + kx) * ocp + o])
                                }
                            }
                        }
                        out[o] = min(max(acc, lo), hi)
                        o += 1
                    }
                    ox += 1
                }
            }
        }
    }

    /// Channels `from..<C` of one output pixel of a depthwise convolution (multiplier 1) whose
    /// window lies inside the input horizontally.
    @inline(__always)
    static func depthwisePixelTail<M: FloatMultiplyAdd>(_: M.Type, _ d: Dims, n: Int, oy: Int, ox: Int, from: Int, kyLo: Int, kyHi: Int, input: UnsafePointer<Float>,
                                   weights: UnsafePointer<Float>, bias: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let c = d.outC, ocp = d.outCPadded
        let (lo, hi) = d.g.activation.bounds
        let y0 = oy * d.g.strideH - d.g.padTop
        let x0 = ox * d.g.strideW - d.g.padLeft
        let out = output + ((n * d.outH + oy) * d.outW + ox) * c
        for o in from..<c {
            var acc = bias[o]
            for ky in kyLo..<kyHi {
                let row = input + ((n * d.inH + y0 + ky * d.g.dilationH) * d.inW) * c + o
                for kx in 0..<d.kW {
                    acc = M.madd(acc, row[(x0 + kx * d.g.dilationW) * c], weights[(ky * d.kW + kx) * ocp + o])
                }
            }
            out[o] = min(max(acc, lo), hi)
        }
    }

    // MARK: Transposed convolution (MediaPipe Convolution2DTransposeBias; weights packed like conv)

    /// Scalar reference: every input pixel scatters input · weights into the output window it
    /// touches; the output starts as the bias.
    static func transposeScalar<M: FloatMultiplyAdd>(_: M.Type, _ d: Dims, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                                output: UnsafeMutablePointer<Float>) {
        let ocp = d.outCPadded
        for n in 0..<d.batch {
            for p in 0..<(d.outH * d.outW) {
                for o in 0..<d.outC { output[(n * d.outH * d.outW + p) * d.outC + o] = bias[o] }
            }
            for iy in 0..<d.inH {
                for ix in 0..<d.inW {
                    let src = input + ((n * d.inH + iy) * d.inW + ix) * d.inC
                    for ky in 0..<d.kH {
                        let oy = iy * d.g.strideH - d.g.padTop + ky
                        if oy < 0 || oy >= d.outH { continue }
                        for kx in 0..<d.kW {
                            let ox = ix * d.g.strideW - d.g.padLeft + kx
                            if ox < 0 || ox >= d.outW { continue }
                            let out = output + ((n * d.outH + oy) * d.outW + ox) * d.outC
                            let w = weights + (ky * d.kW + kx) * d.inC * ocp
                            for o in 0..<d.outC {
                                var acc: Float = 0
                                for i in 0..<d.inC { acc = M.madd(acc, src[i], w[i * ocp + o]) }
                                out[o] += acc
                            }
                        }
                    }
                }
            }
        }
    }

    static func transpose<M: FloatMultiplyAdd>(_: M.Type, _ d: Dims, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                          output: UnsafeMutablePointer<Float>) {
        let ocp = d.outCPadded
        for n in 0..<d.batch {
            for p in 0..<(d.outH * d.outW) {
                for o in 0..<d.outC { output[(n * d.outH * d.outW + p) * d.outC + o] = bias[o] }
            }
            for iy in 0..<d.inH {
                for ix in 0..<d.inW {
                    let src = input + ((n * d.inH + iy) * d.inW + ix) * d.inC
                    for ky in 0..<d.kH {
                        let oy = iy * d.g.strideH - d.g.padTop + ky
                        if oy < 0 || oy >= d.outH { continue }
                        for kx in 0..<d.kW {
                            let ox = ix * d.g.strideW - d.g.padLeft + kx
                            if ox < 0 || ox >= d.outW { continue }
                            let out = output + ((n * d.outH + oy) * d.outW + ox) * d.outC
                            let wTap = weights + (ky * d.kW + kx) * d.inC * ocp
                            var o = 0
                            while o < ocp {
                                var acc = SIMD8<Float>()
                                var w = wTap + o
                                for i in 0..<d.inC {
                                    acc = M.madd(acc, SIMD8(repeating: src[i]), load8(w))
                                    w += ocp
                                }
                                let rest = d.outC - o
                                if rest >= 8 {
                                    store8(load8(out + o) + acc, out + o)
                                } else {
                                    for l in 0..<rest { out[o + l] += acc[l] }
                                }
                                o += 8
                            }
                        }
                    }
                }
            }
        }
    }
}

// MARK: SIMD helpers

/// Lane-wise clamp, written out so it inlines (the generic `clamped` becomes a call per vector).
/// Infinite bounds (no fused activation) leave values unchanged, NaN included.
@inline(__always)
func clamp8(_ v: SIMD8<Float>, _ lo: SIMD8<Float>, _ hi: SIMD8<Float>) -> SIMD8<Float> {
    var r = v
    if lo[0] != -Float.infinity {
        for l in 0..<8 where r[l] < lo[l] { r[l] = lo[l] }
    }
    if hi[0] != Float.infinity {
        for l in 0..<8 where r[l] > hi[l] { r[l] = hi[l] }
    }
    return r
}

@inline(__always)
func load4(_ p: UnsafePointer<Float>) -> SIMD4<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
}

@inline(__always)
func load8(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always)
func load8(_ p: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always)
func store8(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
}

/// Stores the first `count` lanes of `v` (all 8 when `count` ≥ 8; none when ≤ 0).
@inline(__always)
func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>, count: Int) {
    if count >= 8 {
        store8(v, p)
    } else if count > 0 {
        for l in 0..<count { p[l] = v[l] }
    }
}
