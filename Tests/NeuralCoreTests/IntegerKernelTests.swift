import NeuralCore
import Testing
import TestSupport

/// Every SIMD variant equals the scalar reference byte for byte (seeded random data, sizes
/// below/at/above the vector widths of 8 and 16, odd channel counts), and the scalar reference
/// matches a float computation of the same quantised operands within 1 LSB.
@Suite struct IntegerKernelTests {
    static let channelCounts = [1, 3, 7, 8, 9, 15, 16, 17, 24, 33]

    // MARK: Fixed point

    @Test func quantizeMultiplierRoundTrips() {
        var g = SeededGenerator(seed: 1)
        for _ in 0..<2000 {
            let real = Double.random(in: 1e-6...300, using: &g) * (Bool.random(using: &g) ? 1 : -1)
            let m = FixedMultiplier(real)
            #expect(abs(m.multiplier) >= 1 << 30 || m.multiplier == 0)
            #expect(abs(m.real - real) <= abs(real) * 1e-9)
        }
    }

    @Test func multiplyByQuantizedMultiplierMatchesRealArithmetic() {
        var g = SeededGenerator(seed: 2)
        for _ in 0..<5000 {
            let real = Double.random(in: 1e-5...4, using: &g)
            let m = FixedMultiplier(real)
            let x = Int32.random(in: -1_000_000...1_000_000, using: &g)
            let got = multiplyByQuantizedMultiplier(x, m)
            // Two roundings (TFLite semantics): within 0.5 + 0.5 / 2^rightShift.
            #expect(abs(Double(got) - Double(x) * m.real) <= 0.5 + 0.5 / Double(1 << m.rightShift) + 1e-6)
        }
    }

    @Test func requantizeVariantsAgree() {
        var g = SeededGenerator(seed: 3)
        for count in [0, 1, 7, 8, 9, 16, 31, 100] {
            for _ in 0..<20 {
                let pin = IntTest.random(scale: &g)
                let pout = IntTest.random(scale: &g)
                let input = IntTest.int8s(count, &g)
                let p = RequantizeParams(input: pin, output: pout)
                let outs = IntTest.eachVariant(count) { set, out in set.requantize(input, count, p, out) }
                #expect(outs[0] == outs[1])
                let want = input.map { IntTest.expected(Double(pin.dequantize($0)), pout) }
                #expect(IntTest.maxDiff(outs[0], want) <= 1)
            }
        }
    }

    // MARK: GEMM and convolution

    /// Every GEMM this machine runs: each set's, plus on x86-64 the C kernels directly (a native
    /// AVX-512 build's `avx512` set runs `gemmSIMD`, so `gemmX86VNNI` is only reached from here;
    /// where the CPU lacks AVX2 or VNNI they fall back to `gemmSIMD`).
    static var gemmKernels: [(name: String, kernel: GEMMKernel)] {
        var kernels = IntegerKernels.all.map { (name: "\($0.name)", kernel: $0.gemm) }
#if arch(x86_64)
        kernels.append((name: "gemmX86", kernel: gemmX86))
        kernels.append((name: "gemmX86VNNI", kernel: gemmX86VNNI))
#endif
        return kernels
    }

    @Test(arguments: [1, 2, 3, 4, 5, 8, 9, 12, 17, 25, 64])
    func gemmVariantsAgree(rows: Int) {
        var g = SeededGenerator(seed: 10 + UInt64(rows))
        for n in Self.channelCounts {
            for k in [1, 2, 3, 16, 17, 40] {
                let w = ChannelWeights(quantizing: IntTest.floats(n * k, &g, -1...1), channels: n, axis: .outermost)
                let packed = PackedGEMMWeights(weights: w.values, outputChannels: n, depth: k)
                var a = [Int16](repeating: 0, count: rows * packed.depthStride)
                for r in 0..<rows { for d in 0..<k { a[r * packed.depthStride + d] = Int16.random(in: -255...255, using: &g) } }
                let outParams = QuantParams(scale: 0.5, zeroPoint: 3)
                let stage = OutputStage(
                    bias: (0..<n).map { _ in Int32.random(in: -5000...5000, using: &g) },
                    multipliers: w.multipliers(inputScale: 0.02, output: outParams),
                    outputZeroPoint: 3, minimum: -120, maximum: 125)
                var outs: [[Int8]] = [], raw: [[Int32]] = []
                for (name, gemm) in Self.gemmKernels {
                    var o8 = [Int8](repeating: 0x55, count: rows * n)
                    var o = [Int32](repeating: 0, count: rows * n)
                    a.withUnsafeBufferPointer { ap in
                        o8.withUnsafeMutableBufferPointer { gemm(ap.baseAddress!, rows, packed, .int8($0.baseAddress!, rowStride: n, stage: stage)) }
                        o.withUnsafeMutableBufferPointer { gemm(ap.baseAddress!, rows, packed, .int32($0.baseAddress!, rowStride: n)) }
                    }
                    if let first = outs.first {
                        #expect(o8 == first, "\(name): rows \(rows) n \(n) k \(k)")
                        #expect(o == raw[0], "\(name) int32: rows \(rows) n \(n) k \(k)")
                    }
                    outs.append(o8)
                    raw.append(o)
                }
                // The scalar reference is the exact integer dot product.
                for r in 0..<rows {
                    for c in 0..<n {
                        var s: Int32 = 0
                        for d in 0..<k { s += Int32(a[r * packed.depthStride + d]) * Int32(w.values[c * k + d]) }
                        #expect(raw[0][r * n + c] == s)
                    }
                }
            }
        }
    }

    /// The GEMM's output stage against the scalar `MultiplyByQuantizedMultiplier` on extreme
    /// operands: accumulators over the whole int32 range (a random bias), multipliers of both
    /// signs with every shift `FixedMultiplier(real)` can give (right shifts 0...31, left shifts
    /// 0...30) plus left shifts past 31 (the 8-lane fallback; right shifts past 31 are left out:
    /// there the reference's smart `>>` and the vector `&>>` already differ, and no
    /// `FixedMultiplier(real)` has one), random zero points (folded or not) and bounds, for int8
    /// and int16 outputs, full and partial channel blocks.
    @Test(arguments: [1, 7, 16, 23, 40])
    func gemmOutputStageMatchesReferenceOnExtremes(n: Int) {
        var g = SeededGenerator(seed: 900 + UInt64(n))
        let k = 3
        for trial in 0..<60 {
            let rows = [1, 5, 8, 13][trial % 4]
            let w = (0..<(n * k)).map { _ in Int8.random(in: -127...127, using: &g) }
            let packed = PackedGEMMWeights(weights: w, outputChannels: n, depth: k)
            var a = [Int16](repeating: 0, count: rows * packed.depthStride)
            for r in 0..<rows { for d in 0..<k { a[r * packed.depthStride + d] = Int16.random(in: -32768...32767, using: &g) } }
            let wide = trial % 3 == 0
            let multipliers = (0..<n).map { _ -> FixedMultiplier in
                let m = Int32.random(in: (1 << 30)...Int32.max, using: &g)
                let shift: Int32 = wide ? Int32.random(in: -31...40, using: &g) : Int32.random(in: -31...30, using: &g)
                return FixedMultiplier(multiplier: Bool.random(using: &g) ? m : -m, shift: shift)
            }
            let bias = (0..<n).map { _ in Int32.random(in: Int32.min...Int32.max, using: &g) }
            for sixteen in [false, true] {
                let (lo, hi): (Int32, Int32) = sixteen ? (-32768, 32767) : (-128, 127)
                let zp = Int32.random(in: lo...hi, using: &g)
                let minimum = Int32.random(in: lo...zp, using: &g), maximum = Int32.random(in: zp...hi, using: &g)
                let stage = OutputStage(bias: bias, multipliers: multipliers, outputZeroPoint: zp,
                                        minimum: minimum, maximum: maximum)
                var outs: [[Int32]] = []
                for (_, kernel) in [(name: "scalar", kernel: gemmScalar as GEMMKernel)] + Self.gemmKernels {
                    a.withUnsafeBufferPointer { ap in
                        if sixteen {
                            var o = [Int16](repeating: 0x5555, count: rows * n)
                            o.withUnsafeMutableBufferPointer { kernel(ap.baseAddress!, rows, packed, .int16($0.baseAddress!, rowStride: n, stage: stage)) }
                            outs.append(o.map { Int32($0) })
                        } else {
                            var o = [Int8](repeating: 0x55, count: rows * n)
                            o.withUnsafeMutableBufferPointer { kernel(ap.baseAddress!, rows, packed, .int8($0.baseAddress!, rowStride: n, stage: stage)) }
                            outs.append(o.map { Int32($0) })
                        }
                    }
                }
                for (i, o) in outs.enumerated() {
                    #expect(o == outs[0], "\(i == 0 ? "scalar" : Self.gemmKernels[i - 1].name): trial \(trial) n \(n) int16 \(sixteen)")
                }
                // The scalar reference is MultiplyByQuantizedMultiplier of the exact accumulator.
                for r in 0..<rows {
                    for c in 0..<n {
                        var acc: Int32 = 0
                        for d in 0..<k { acc &+= Int32(a[r * packed.depthStride + d]) &* Int32(w[c * k + d]) }
                        let v = multiplyByQuantizedMultiplier(acc &+ bias[c], multipliers[c]) &+ zp
                        #expect(outs[0][r * n + c] == min(max(v, minimum), maximum))
                    }
                }
            }
        }
    }

    /// Float reference of CONV_2D on the dequantised operands.
    static func floatConv(_ input: [Int8], _ pin: QuantParams, _ geo: WindowGeometry, _ w: ChannelWeights,
                          _ bias: [Int32], outChannels: Int) -> [Double] {
        var out = [Double](repeating: 0, count: geo.outputPixels * outChannels)
        let c = geo.channels
        for oy in 0..<geo.outputHeight {
            for ox in 0..<geo.outputWidth {
                for o in 0..<outChannels {
                    var s = Double(bias[o]) * Double(pin.scale) * Double(w.scales[o])
                    for ky in 0..<geo.kernelHeight {
                        for kx in 0..<geo.kernelWidth {
                            let iy = oy * geo.strideY - geo.padTop + ky
                            let ix = ox * geo.strideX - geo.padLeft + kx
                            if iy < 0 || ix < 0 || iy >= geo.inputHeight || ix >= geo.inputWidth { continue }
                            for i in 0..<c {
                                let x = Double(pin.dequantize(input[(iy * geo.inputWidth + ix) * c + i]))
                                let wi = ((o * geo.kernelHeight + ky) * geo.kernelWidth + kx) * c + i
                                s += x * Double(w.values[wi]) * Double(w.scales[o])
                            }
                        }
                    }
                    out[(oy * geo.outputWidth + ox) * outChannels + o] = s
                }
            }
        }
        return out
    }

    @Test(arguments: [(1, 1, true), (3, 1, true), (3, 2, true), (5, 2, false), (3, 2, false)])
    func conv2DMatchesFloat(kernel: Int, stride: Int, same: Bool) {
        var g = SeededGenerator(seed: 20 + UInt64(kernel * 10 + stride))
        for (h, w, c, oc) in [(7, 9, 3, 8), (8, 8, 16, 17), (5, 11, 9, 33), (12, 6, 24, 1)] {
            let geo = WindowGeometry(inputHeight: h, inputWidth: w, channels: c, kernelHeight: kernel,
                                     kernelWidth: kernel, strideY: stride, strideX: stride, same: same)
            let pin = IntTest.random(scale: &g)
            let input = IntTest.int8s(h * w * c, &g)
            let cw = ChannelWeights(quantizing: IntTest.floats(oc * kernel * kernel * c, &g, -0.5...0.5),
                                    channels: oc, axis: .outermost)
            let bias = cw.quantizedBias(IntTest.floats(oc, &g, -1...1), inputScale: pin.scale)
            let real = Self.floatConv(input, pin, geo, cw, bias, outChannels: oc)
            var maxAbs = 1e-3
            for v in real { maxAbs = max(maxAbs, abs(v)) }
            let pout = QuantParams(min: Float(-maxAbs), max: Float(maxAbs) * 0.8)
            let (lo, hi) = FusedActivation.relu6.bounds(pout)
            let stage = OutputStage(bias: bias, multipliers: cw.multipliers(inputScale: pin.scale, output: pout),
                                    outputZeroPoint: pout.zeroPoint, minimum: lo, maximum: hi)
            let packed = PackedGEMMWeights(weights: cw.values, outputChannels: oc, depth: kernel * kernel * c)
            let rows = 5
            var scratch = [Int16](repeating: 0, count: conv2DScratchCount(weights: packed, rows: rows))
            let outs = IntTest.eachVariant(geo.outputPixels * oc) { set, out in
                input.withUnsafeBufferPointer { ip in
                    scratch.withUnsafeMutableBufferPointer { sp in
                        conv2D(ip.baseAddress!, geo, inputZeroPoint: pin.zeroPoint, weights: packed, stage: stage,
                               output: out, scratch: sp.baseAddress!, scratchRows: rows, kernel: set.gemm)
                    }
                }
            }
            #expect(outs[0] == outs[1])
            let want = real.map { IntTest.expected($0, pout, lo: lo, hi: hi) }
            #expect(IntTest.maxDiff(outs[0], want) <= 1, "conv \(kernel)x\(kernel)/\(stride) \(h)x\(w)x\(c)→\(oc)")
        }
    }

    @Test(arguments: [(3, 1, true), (3, 2, true), (5, 1, true), (5, 2, true), (3, 1, false), (5, 2, false)])
    func depthwiseMatchesFloatAndVariantsAgree(kernel: Int, stride: Int, same: Bool) {
        var g = SeededGenerator(seed: 40 + UInt64(kernel * 10 + stride))
        for c in Self.channelCounts {
            for (h, w) in [(6, 7), (9, 5)] {
                let geo = WindowGeometry(inputHeight: h, inputWidth: w, channels: c, kernelHeight: kernel,
                                         kernelWidth: kernel, strideY: stride, strideX: stride, same: same)
                let pin = IntTest.random(scale: &g)
                let input = IntTest.int8s(h * w * c, &g)
                let cw = ChannelWeights(quantizing: IntTest.floats(kernel * kernel * c, &g, -1...1),
                                        channels: c, axis: .innermost)
                let bias = cw.quantizedBias(IntTest.floats(c, &g, -0.5...0.5), inputScale: pin.scale)
                var real = [Double](repeating: 0, count: geo.outputPixels * c)
                for oy in 0..<geo.outputHeight {
                    for ox in 0..<geo.outputWidth {
                        for ch in 0..<c {
                            var s = Double(bias[ch]) * Double(pin.scale) * Double(cw.scales[ch])
                            for ky in 0..<kernel {
                                for kx in 0..<kernel {
                                    let iy = oy * stride - geo.padTop + ky, ix = ox * stride - geo.padLeft + kx
                                    if iy < 0 || ix < 0 || iy >= h || ix >= w { continue }
                                    s += Double(pin.dequantize(input[(iy * w + ix) * c + ch]))
                                        * Double(cw.values[(ky * kernel + kx) * c + ch]) * Double(cw.scales[ch])
                                }
                            }
                            real[(oy * geo.outputWidth + ox) * c + ch] = s
                        }
                    }
                }
                var maxAbs = 1e-3
                for v in real { maxAbs = max(maxAbs, abs(v)) }
                let pout = QuantParams(min: Float(-maxAbs), max: Float(maxAbs))
                let stage = OutputStage(bias: bias, multipliers: cw.multipliers(inputScale: pin.scale, output: pout),
                                        outputZeroPoint: pout.zeroPoint)
                let packed = PackedDepthwiseWeights(weights: cw.values, kernelHeight: kernel, kernelWidth: kernel, channels: c)
                let outs = IntTest.eachVariant(geo.outputPixels * c) { set, out in
                    input.withUnsafeBufferPointer { set.depthwise($0.baseAddress!, geo, pin.zeroPoint, packed, stage, out) }
                }
                #expect(outs[0] == outs[1], "dw \(kernel)/\(stride) c \(c)")
                #expect(IntTest.maxDiff(outs[0], real.map { IntTest.expected($0, pout) }) <= 1)
            }
        }
    }

    /// Geometries for the depthwise bit-exactness tests: SAME and explicit (also asymmetric)
    /// padding, images with and without interior pixels, strides 1 and 2.
    static func depthwiseGeometries(kernel k: Int, channels c: Int) -> [WindowGeometry] {
        var out: [WindowGeometry] = []
        for (h, w, s) in [(1, 1, 1), (2, 3, 1), (12, 13, 1), (17, 9, 2), (10, 16, 2)] {
            out.append(WindowGeometry(inputHeight: h, inputWidth: w, channels: c, kernelHeight: k, kernelWidth: k,
                                      strideY: s, strideX: s, same: true))
        }
        // (h, w, stride, padTop, padLeft, padBottom, padRight)
        for (h, w, s, pt, pl, pb, pr) in [(11, 14, 1, 0, 0, 0, 0), (9, 12, 2, 0, 1, 2, 0), (13, 13, 1, 2, 1, 0, 2),
                                          (7, 20, 2, 1, 2, 1, 1), (k, k, 1, 0, 0, 0, 0)] {
            let oh = (h + pt + pb - k) / s + 1, ow = (w + pl + pr - k) / s + 1
            if h + pt + pb < k || w + pl + pr < k { continue }
            out.append(WindowGeometry(inputHeight: h, inputWidth: w, channels: c, kernelHeight: k, kernelWidth: k,
                                      strideY: s, strideX: s, padTop: pt, padLeft: pl, outputHeight: oh, outputWidth: ow))
        }
        return out
    }

    /// The SIMD depthwise kernel equals the scalar reference byte for byte where its code paths
    /// differ: interior pixels (unrolled 3×3 / 5×5 bodies, the zero point folded into the
    /// accumulator), border pixels (the per-tap form), channel counts that are not multiples of
    /// 16 (an overlapping last group) or below 16; extreme zero points and filters, output
    /// multipliers above one (left shifts) and clamps. Nothing is written past the output.
    @Test(arguments: [3, 5, 4])
    func depthwiseSIMDEqualsScalarOnInteriorAndBorders(kernel k: Int) {
        var g = SeededGenerator(seed: 60 + UInt64(k))
        for c in [1, 5, 8, 15, 16, 17, 24, 28, 33, 42, 64] {
            for geo in Self.depthwiseGeometries(kernel: k, channels: c) {
                let zp = [Int32(-128), 127, Int32.random(in: -128...127, using: &g)][Int.random(in: 0...2, using: &g)]
                var input = IntTest.int8s(geo.inputHeight * geo.inputWidth * c, &g)
                if Bool.random(using: &g) { for i in 0..<input.count where i % 3 == 0 { input[i] = zp > 0 ? -128 : 127 } }
                var filters = IntTest.int8s(k * k * c, &g, range: -127...127)
                for i in 0..<filters.count where i % 5 == 0 { filters[i] = Bool.random(using: &g) ? 127 : -127 }
                let bias = (0..<c).map { _ in Int32.random(in: -200_000...200_000, using: &g) }
                let multipliers = (0..<c).map { _ in FixedMultiplier(Double.random(in: 1e-4...3, using: &g)) }
                let lo = Int32.random(in: -128...(-60), using: &g), hi = Int32.random(in: 60...127, using: &g)
                let stage = OutputStage(bias: bias, multipliers: multipliers,
                                        outputZeroPoint: Int32.random(in: -20...20, using: &g), minimum: lo, maximum: hi)
                let packed = PackedDepthwiseWeights(weights: filters, kernelHeight: k, kernelWidth: k, channels: c)
                let count = geo.outputPixels * c
                let outs = IntTest.eachVariant(count + 64) { set, out in
                    input.withUnsafeBufferPointer { set.depthwise($0.baseAddress!, geo, zp, packed, stage, out) }
                }
                for (v, out) in outs.enumerated().dropFirst() {
                    // Every variant (the AVX2 set's C layer kernel and its border pixels too), not only SIMD.
                    #expect(out == outs[0], "dw \(k)x\(k)/\(geo.strideX) \(geo.inputHeight)x\(geo.inputWidth)x\(c) pad \(geo.padTop),\(geo.padLeft) zp \(zp) \(IntegerKernels.all[v].name)")
                    #expect(out[count...].allSatisfy { $0 == 0x55 }, "dw wrote past its output")
                }
            }
        }
    }

    // MARK: Elementwise

    @Test(arguments: [ElementwiseParams.Operation.add, .mul])
    func elementwiseMatchesFloatAndVariantsAgree(op: ElementwiseParams.Operation) {
        var g = SeededGenerator(seed: op == .add ? 50 : 51)
        for c in Self.channelCounts {
            for pixels in [1, 3] {
                let count = pixels * c
                for period in [count, c, 1] {
                    let p1 = IntTest.random(scale: &g), p2 = IntTest.random(scale: &g)
                    let a = IntTest.int8s(count, &g), b = IntTest.int8s(period, &g)
                    var real = [Double](repeating: 0, count: count)
                    for i in 0..<count {
                        let x = Double(p1.dequantize(a[i])), y = Double(p2.dequantize(b[i % period]))
                        real[i] = op == .add ? x + y : x * y
                    }
                    var lo = 0.0, hi = 0.0
                    for v in real { lo = min(lo, v); hi = max(hi, v) }
                    let pout = QuantParams(min: Float(lo), max: Float(hi) * 0.9)
                    let params = ElementwiseParams(op, p1, p2, output: pout)
                    let outs = IntTest.eachVariant(count) { set, out in set.elementwise(a, b, count, period, params, out) }
                    #expect(outs[0] == outs[1])
                    #expect(IntTest.maxDiff(outs[0], real.map { IntTest.expected($0, pout) }) <= 1)
                }
            }
        }
    }

    // MARK: Pooling and mean

    @Test(arguments: [PoolParams.Kind.max, .average])
    func poolingMatchesFloatAndVariantsAgree(kind: PoolParams.Kind) {
        var g = SeededGenerator(seed: kind == .max ? 60 : 61)
        for c in Self.channelCounts {
            for (k, s, same) in [(2, 2, false), (3, 2, true), (3, 1, true)] {
                let geo = WindowGeometry(inputHeight: 7, inputWidth: 6, channels: c, kernelHeight: k, kernelWidth: k,
                                         strideY: s, strideX: s, same: same)
                let input = IntTest.int8s(7 * 6 * c, &g)
                let params = PoolParams(kind, minimum: -100, maximum: 127)
                let outs = IntTest.eachVariant(geo.outputPixels * c) { set, out in set.pool(input, geo, params, out) }
                #expect(outs[0] == outs[1])
                let want = IntTest.referencePool(input.map(Double.init), height: 7, width: 6, channels: c, geo, kind,
                                                 lo: -100, hi: 127)
                #expect(IntTest.maxDiff(outs[0], want) == 0)
            }
        }
    }

    @Test func meanMatchesFloatAndVariantsAgree() {
        var g = SeededGenerator(seed: 70)
        for c in Self.channelCounts {
            for pixels in [1, 4, 49, 256] {
                let pin = IntTest.random(scale: &g)
                let input = IntTest.int8s(pixels * c, &g)
                var real = [Double](repeating: 0, count: c)
                for p in 0..<pixels { for ch in 0..<c { real[ch] += Double(pin.dequantize(input[p * c + ch])) / Double(pixels) } }
                let pout = QuantParams(scale: pin.scale * 0.7, zeroPoint: 5)
                let params = MeanParams(input: pin, output: pout, pixels: pixels)
                let outs = IntTest.eachVariant(c) { set, out in set.mean(input, pixels, c, params, out) }
                #expect(outs[0] == outs[1])
                #expect(IntTest.maxDiff(outs[0], real.map { IntTest.expected($0, pout) }) <= 1)
            }
        }
    }

    // MARK: Activations

    @Test func lookupTablesMatchTheirFunctionsAndVariantsAgree() {
        var g = SeededGenerator(seed: 80)
        let functions: [(Float) -> Float] = [LookupTable.relu, LookupTable.relu6, LookupTable.hardSwish, LookupTable.logistic]
        for f in functions {
            let pin = QuantParams(min: -8, max: 7)
            let pout = QuantParams(min: -0.5, max: 6)
            let table = LookupTable(input: pin, output: pout, f)
            for count in [1, 8, 13, 64] {
                let input = IntTest.int8s(count, &g)
                let outs = IntTest.eachVariant(count) { set, out in set.lookup(input, count, table, out) }
                #expect(outs[0] == outs[1])
                #expect(IntTest.maxDiff(outs[0], input.map { IntTest.expected(Double(f(pin.dequantize($0))), pout) }) == 0)
            }
        }
        #expect(abs(LookupTable.logistic(0) - 0.5) < 1e-7)
        #expect(abs(exponential(1) - 2.7182817) < 1e-6)
        #expect(abs(exponential(-5.5) - 0.00408677) < 1e-8)
    }

    @Test func preluMatchesFloatAndVariantsAgree() {
        var g = SeededGenerator(seed: 90)
        for c in Self.channelCounts {
            let pin = IntTest.random(scale: &g)
            let alpha = IntTest.floats(c, &g, -0.5...1.5)
            let pixels = 5
            let input = IntTest.int8s(pixels * c, &g)
            var real = [Double](repeating: 0, count: pixels * c)
            for i in 0..<real.count {
                let x = Double(pin.dequantize(input[i]))
                real[i] = x >= 0 ? x : x * Double(alpha[i % c])
            }
            var lo = 0.0, hi = 0.0
            for v in real { lo = min(lo, v); hi = max(hi, v) }
            let pout = QuantParams(min: Float(lo), max: Float(hi))
            let params = PReLUParams(input: pin, output: pout, alpha: alpha)
            let outs = IntTest.eachVariant(pixels * c) { set, out in set.prelu(input, pixels, params, out) }
            #expect(outs[0] == outs[1])
            #expect(IntTest.maxDiff(outs[0], real.map { IntTest.expected($0, pout) }) <= 1)
        }
    }

    /// Writing over the first operand gives the same values as writing elsewhere (the SIMD
    /// variant recomputes overlapping groups only when nothing aliases).
    @Test func elementwiseInPlaceEqualsOutOfPlace() {
        var g = SeededGenerator(seed: 52)
        for c in [16, 24, 33] {
            let count = 4 * c
            let p1 = IntTest.random(scale: &g), p2 = IntTest.random(scale: &g)
            let a = IntTest.int8s(count, &g), b = IntTest.int8s(c, &g)
            let pout = QuantParams(min: -3, max: 3)
            for op in [ElementwiseParams.Operation.add, .mul] {
                let params = ElementwiseParams(op, p1, p2, output: pout)
                for set in IntegerKernels.all {
                    var out = [Int8](repeating: 0, count: count)
                    out.withUnsafeMutableBufferPointer { set.elementwise(a, b, count, c, params, $0.baseAddress!) }
                    var inPlace = a
                    inPlace.withUnsafeMutableBufferPointer {
                        set.elementwise($0.baseAddress!, b, count, c, params, $0.baseAddress!)
                    }
                    #expect(inPlace == out, "\(set.name) \(op) c \(c)")
                }
            }
        }
    }

    /// Every int8 input in every channel, with slopes and scales from tiny to large multipliers
    /// (negative, zero and tiny slopes included): the variants agree bit for bit, and every
    /// output is within one step of the real PReLU.
    @Test(arguments: [(0.02, 0.02), (0.05, 0.01), (0.25, 0.01), (0.9, 0.008), (0.003, 0.05), (2.0, 0.0001)])
    func preluVariantsAgreeOnEveryInput(inputScale: Double, outputScale: Double) {
        var g = SeededGenerator(seed: 91)
        for c in [1, 5, 16, 19, 32, 48] {
            let pin = QuantParams(scale: Float(inputScale), zeroPoint: Int32.random(in: -20...20, using: &g))
            let pout = QuantParams(scale: Float(outputScale), zeroPoint: Int32.random(in: -20...20, using: &g))
            var alpha = IntTest.floats(c, &g, -2...2)
            alpha[0] = 0
            if c > 2 { alpha[1] = 1e-6; alpha[2] = -0.25 }
            let params = PReLUParams(input: pin, output: pout, alpha: alpha)
            let pixels = 256 + 3
            var input = [Int8](repeating: 0, count: pixels * c)
            for p in 0..<pixels { for ch in 0..<c { input[p * c + ch] = Int8(truncatingIfNeeded: p + 7 * ch) } }
            let outs = IntTest.eachVariant(pixels * c) { set, out in set.prelu(input, pixels, params, out) }
            let first = outs[0].indices.first { outs[0][$0] != outs[1][$0] }
            #expect(first == nil, "c \(c), scales \(inputScale) / \(outputScale): first difference at \(first ?? -1)")
            let real = input.indices.map { i -> Int32 in
                let x = Double(pin.dequantize(input[i]))
                return IntTest.expected(x >= 0 ? x : x * Double(alpha[i % c]), pout)
            }
            #expect(IntTest.maxDiff(outs[0], real) <= 1, "c \(c), scales \(inputScale) / \(outputScale)")
        }
    }

    // MARK: Resize, pad, concatenation, transpose convolution

    /// The float-output transpose convolution (a model's last layer): the direct paths (row
    /// GEMMs when the kernel equals the stride, dot products otherwise) give the same floats as
    /// the GEMM path, for int8 and int16 inputs.
    @Test(arguments: [(2, 2, 0), (3, 2, 0), (2, 1, 0)])
    func transposeConvFloatOutputDirectEqualsGEMM(kernel: Int, stride: Int, pad: Int) {
        var g = SeededGenerator(seed: 140 + UInt64(kernel * 10 + stride))
        for (h, w, ic, oc) in [(4, 5, 16, 1), (3, 3, 7, 2), (2, 4, 21, 3)] {
            let oh = (h - 1) * stride + kernel, ow = (w - 1) * stride + kernel
            let values = (0..<(oc * kernel * kernel * ic)).map { _ in Int8.random(in: -127...127, using: &g) }
            let plan = TransposeConvPlan(filter: values, outputChannels: oc, kernelHeight: kernel, kernelWidth: kernel,
                                         inputHeight: h, inputWidth: w, inputChannels: ic, outputHeight: oh,
                                         outputWidth: ow, stride: stride, padTop: pad, padLeft: pad)
            let scale = IntTest.floats(oc, &g, 0.001...0.01), bias = IntTest.floats(oc, &g, -1...1)
            var scratch = [Int16](repeating: 0, count: plan.scratchCount)
            var acc = [Int32](repeating: 0, count: (ow + 1) * oc)
            func run<E: QuantizedActivation>(_ input: [E], zeroPoint: Int32, direct: Bool) -> [Float] {
                plan.direct = direct
                var out = [Float](repeating: .nan, count: oh * ow * oc)
                out.withUnsafeMutableBufferPointer { o in
                    scratch.withUnsafeMutableBufferPointer { sp in
                        acc.withUnsafeMutableBufferPointer { ap in
                            plan.run(input, inputZeroPoint: zeroPoint, scale: scale, bias: bias, lower: -5, upper: 5,
                                     output: o.baseAddress!, scratch: sp.baseAddress!, accumulators: ap.baseAddress!,
                                     kernel: gemmSIMD)
                        }
                    }
                }
                return out
            }
            let input8 = IntTest.int8s(h * w * ic, &g)
            #expect(run(input8, zeroPoint: 3, direct: true) == run(input8, zeroPoint: 3, direct: false),
                    "int8 k\(kernel) s\(stride) \(h)x\(w)x\(ic)→\(oc)")
            let input16 = (0..<(h * w * ic)).map { _ in Int16.random(in: -32768...32767, using: &g) }
            #expect(run(input16, zeroPoint: 0, direct: true) == run(input16, zeroPoint: 0, direct: false),
                    "int16 k\(kernel) s\(stride) \(h)x\(w)x\(ic)→\(oc)")
        }
    }

    @Test(arguments: [(false, false), (true, false), (false, true)])
    func resizeBilinearMatchesFloatAndVariantsAgree(alignCorners: Bool, halfPixel: Bool) {
        var g = SeededGenerator(seed: 100)
        for c in Self.channelCounts {
            for (ih, iw, oh, ow) in [(4, 5, 8, 10), (3, 3, 7, 5), (6, 8, 3, 4)] {
                let input = IntTest.int8s(ih * iw * c, &g)
                let p = ResizeParams(inputHeight: ih, inputWidth: iw, channels: c, outputHeight: oh, outputWidth: ow,
                                     alignCorners: alignCorners, halfPixelCenters: halfPixel)
                let outs = IntTest.eachVariant(oh * ow * c) { set, out in set.resize(input, p, out) }
                #expect(outs[0] == outs[1])
                // Float bilinear with TFLite's coordinate rules.
                func src(_ o: Int, _ n: Int, _ m: Int) -> (Int, Int, Double) {
                    var s: Double
                    if alignCorners && m > 1 { s = Double(o) * Double(n - 1) / Double(m - 1) }
                    else if halfPixel { s = (Double(o) + 0.5) * Double(n) / Double(m) - 0.5 }
                    else { s = Double(o) * Double(n) / Double(m) }
                    s = max(0, s)
                    let i0 = min(Int(s), n - 1)
                    return (i0, min(i0 + 1, n - 1), i0 == n - 1 ? 0 : s - Double(i0))
                }
                var want = [Int32]()
                for oy in 0..<oh {
                    let (y0, y1, fy) = src(oy, ih, oh)
                    for ox in 0..<ow {
                        let (x0, x1, fx) = src(ox, iw, ow)
                        for ch in 0..<c {
                            func at(_ y: Int, _ x: Int) -> Double { Double(input[(y * iw + x) * c + ch]) }
                            let v = (at(y0, x0) * (1 - fx) + at(y0, x1) * fx) * (1 - fy) + (at(y1, x0) * (1 - fx) + at(y1, x1) * fx) * fy
                            want.append(Int32(v.rounded()))
                        }
                    }
                }
                #expect(IntTest.maxDiff(outs[0], want) <= 1)
            }
        }
    }

    @Test func padFillsWithTheZeroPoint() {
        var g = SeededGenerator(seed: 110)
        let (h, w, c) = (3, 4, 5)
        let input = IntTest.int8s(h * w * c, &g)
        var out = [Int8](repeating: 0, count: (h + 3) * (w + 3) * c)
        out.withUnsafeMutableBufferPointer {
            padSpatial(input, height: h, width: w, channels: c, top: 1, bottom: 2, left: 2, right: 1, zeroPoint: -7,
                       output: $0.baseAddress!)
        }
        for y in 0..<(h + 3) {
            for x in 0..<(w + 3) {
                for ch in 0..<c {
                    let inside = y >= 1 && y < 1 + h && x >= 2 && x < 2 + w
                    let want = inside ? input[((y - 1) * w + x - 2) * c + ch] : -7
                    #expect(out[(y * (w + 3) + x) * c + ch] == want)
                }
            }
        }
    }

    @Test func concatenationRequantisesEachInput() {
        var g = SeededGenerator(seed: 120)
        let outer = 6
        let inner = [3, 8, 1, 17]
        let params = inner.map { _ in IntTest.random(scale: &g) }
        let pout = params[1]
        let inputs = inner.map { IntTest.int8s(outer * $0, &g) }
        let total = inner.reduce(0, +)
        let rq = params.map { RequantizeParams(input: $0, output: pout) }
        let outs = IntTest.eachVariant(outer * total) { set, out in
            let ptrs = inputs.map { arr in arr.withUnsafeBufferPointer { UnsafePointer($0.baseAddress!) } }
            ptrs.withUnsafeBufferPointer { pp in
                inner.withUnsafeBufferPointer { ip in
                    rq.withUnsafeBufferPointer { concatenate(pp, inner: ip, params: $0, outer: outer, output: out, kernel: set.requantize) }
                }
            }
        }
        #expect(outs[0] == outs[1])
        var want = [Int32]()
        for o in 0..<outer {
            for j in 0..<inner.count {
                for i in 0..<inner[j] {
                    want.append(IntTest.expected(Double(params[j].dequantize(inputs[j][o * inner[j] + i])), pout))
                }
            }
        }
        #expect(IntTest.maxDiff(outs[0], want) <= 1)
    }

    @Test(arguments: [(2, 2, 0), (4, 2, 1), (3, 2, 0), (3, 1, 1)])
    func transposeConvMatchesFloatScatter(kernel: Int, stride: Int, pad: Int) {
        var g = SeededGenerator(seed: 130 + UInt64(kernel * 10 + stride))
        for (h, w, ic, oc) in [(3, 4, 5, 7), (4, 4, 16, 17), (2, 5, 1, 2), (4, 3, 16, 1), (3, 3, 21, 3)] {
            let oh = h * stride, ow = w * stride
            let pin = IntTest.random(scale: &g)
            let input = IntTest.int8s(h * w * ic, &g)
            let cw = ChannelWeights(quantizing: IntTest.floats(oc * kernel * kernel * ic, &g, -1...1), channels: oc,
                                    axis: .outermost)
            let bias = cw.quantizedBias(IntTest.floats(oc, &g, -1...1), inputScale: pin.scale)
            var real = [Double](repeating: 0, count: oh * ow * oc)
            for i in 0..<(oh * ow) { for o in 0..<oc { real[i * oc + o] = Double(bias[o]) * Double(pin.scale) * Double(cw.scales[o]) } }
            for iy in 0..<h {
                for ix in 0..<w {
                    for ky in 0..<kernel {
                        for kx in 0..<kernel {
                            let oy = iy * stride + ky - pad, ox = ix * stride + kx - pad
                            if oy < 0 || ox < 0 || oy >= oh || ox >= ow { continue }
                            for o in 0..<oc {
                                var s = 0.0
                                for i in 0..<ic {
                                    s += Double(pin.dequantize(input[(iy * w + ix) * ic + i]))
                                        * Double(cw.values[((o * kernel + ky) * kernel + kx) * ic + i]) * Double(cw.scales[o])
                                }
                                real[(oy * ow + ox) * oc + o] += s
                            }
                        }
                    }
                }
            }
            var maxAbs = 1e-3
            for v in real { maxAbs = max(maxAbs, abs(v)) }
            let pout = QuantParams(min: Float(-maxAbs), max: Float(maxAbs))
            let stage = OutputStage(bias: bias, multipliers: cw.multipliers(inputScale: pin.scale, output: pout),
                                    outputZeroPoint: pout.zeroPoint)
            let plan = TransposeConvPlan(filter: cw.values, outputChannels: oc, kernelHeight: kernel, kernelWidth: kernel,
                                         inputHeight: h, inputWidth: w, inputChannels: ic, outputHeight: oh,
                                         outputWidth: ow, stride: stride, padTop: pad, padLeft: pad)
            var scratch = [Int16](repeating: 0, count: plan.scratchCount)
            plan.direct = false
            let outs = IntTest.eachVariant(oh * ow * oc) { set, out in
                scratch.withUnsafeMutableBufferPointer { sp in
                    input.withUnsafeBufferPointer {
                        plan.run($0.baseAddress!, inputZeroPoint: pin.zeroPoint, stage: stage, output: out,
                                 scratch: sp.baseAddress!, kernel: set.gemm)
                    }
                }
            }
            #expect(outs[0] == outs[1])
            // The direct path (dot products, no GEMM) gives the same integers.
            plan.direct = true
            var direct = [Int8](repeating: 0x55, count: outs[0].count)
            direct.withUnsafeMutableBufferPointer { out in
                scratch.withUnsafeMutableBufferPointer { sp in
                    input.withUnsafeBufferPointer {
                        plan.run($0.baseAddress!, inputZeroPoint: pin.zeroPoint, stage: stage, output: out.baseAddress!,
                                 scratch: sp.baseAddress!, kernel: gemmScalar)
                    }
                }
            }
            #expect(direct == outs[0], "direct k\(kernel) s\(stride) p\(pad) \(h)x\(w)x\(ic)→\(oc)")
            #expect(IntTest.maxDiff(outs[0], real.map { IntTest.expected($0, pout) }) <= 1,
                    "tconv k\(kernel) s\(stride) p\(pad) \(h)x\(w)x\(ic)→\(oc)")
        }
    }
}
