import NeuralCore
import Testing
import TestSupport

/// The int16-activation kernels (`IntegerKernels.all16`): every SIMD variant equals the scalar
/// reference bit for bit (seeded data over the whole int16 range, sizes below/at/above the vector
/// widths, odd channel counts), and the scalar reference matches a float computation of the same
/// quantised operands within 1 LSB.
@Suite struct IntegerKernel16Tests {
    static let channelCounts = [1, 3, 7, 8, 9, 15, 16, 17, 24, 33]

    static func int16s(_ n: Int, _ g: inout SeededGenerator, range: ClosedRange<Int16> = -32768...32767) -> [Int16] {
        (0..<n).map { _ in Int16.random(in: range, using: &g) }
    }

    /// Symmetric int16 parameters of a random scale.
    static func random(_ g: inout SeededGenerator) -> QuantParams {
        QuantParams(symmetric16: 0, max: Float.random(in: 0.5...20, using: &g))
    }

    static func expected(_ real: Double, _ q: QuantParams, lo: Int32 = -32768, hi: Int32 = 32767) -> Int32 {
        let v = (real / Double(q.scale)).rounded() + Double(q.zeroPoint)
        return Int32(max(Double(lo), min(Double(hi), v)))
    }

    static func maxDiff(_ a: [Int16], _ b: [Int32]) -> Int32 {
        var m: Int32 = 0
        for i in 0..<a.count { m = max(m, abs(Int32(a[i]) - b[i])) }
        return m
    }

    static func eachVariant(_ count: Int, _ body: (IntegerKernelSetOf<Int16>, UnsafeMutablePointer<Int16>) -> Void) -> [[Int16]] {
        IntegerKernels.all16.map { set in
            var out = [Int16](repeating: 0x5555, count: count)
            out.withUnsafeMutableBufferPointer { body(set, $0.baseAddress!) }
            return out
        }
    }

    @Test func quantisationIsSymmetric() {
        let q = QuantParams(symmetric16: -3, max: 1.5)
        #expect(q.zeroPoint == 0)
        #expect(q.quantize(3, as: Int16.self) == 32767)
        #expect(q.quantize(-3, as: Int16.self) == -32767)
        #expect(q.quantize(100, as: Int16.self) == 32767)
        #expect(abs(q.dequantize(Int16(16384)) - 1.5) < 1e-3)
        let (lo, hi) = FusedActivation.relu6.bounds(q, as: Int16.self)
        #expect(lo == 0 && hi == 32767)
    }

    @Test func requantizeVariantsAgree() {
        var g = SeededGenerator(seed: 1003)
        for count in [0, 1, 7, 8, 9, 16, 31, 100] {
            let pin = Self.random(&g), pout = Self.random(&g)
            let input = Self.int16s(count, &g)
            let p = RequantizeParams(input: pin, output: pout)
            let outs = Self.eachVariant(count) { set, out in set.requantize(input, count, p, out) }
            #expect(outs[0] == outs[1])
            #expect(Self.maxDiff(outs[0], input.map { Self.expected(Double(pin.dequantize($0)), pout) }) <= 1)
        }
    }

    @Test(arguments: [(1, 1, true), (3, 2, true), (3, 1, false)])
    func conv2DMatchesFloatAndVariantsAgree(kernel: Int, stride: Int, same: Bool) {
        var g = SeededGenerator(seed: 1020 + UInt64(kernel * 10 + stride))
        for (h, w, c, oc) in [(7, 9, 3, 8), (8, 8, 16, 17), (5, 11, 9, 33)] {
            let geo = WindowGeometry(inputHeight: h, inputWidth: w, channels: c, kernelHeight: kernel,
                                     kernelWidth: kernel, strideY: stride, strideX: stride, same: same)
            let pin = Self.random(&g)
            let input = Self.int16s(h * w * c, &g)
            let cw = ChannelWeights(quantizing: IntTest.floats(oc * kernel * kernel * c, &g, -0.5...0.5),
                                    channels: oc, axis: .outermost)
            let bias = cw.quantizedBias(IntTest.floats(oc, &g, -1...1), inputScale: pin.scale)
            var real = [Double](repeating: 0, count: geo.outputPixels * oc)
            for oy in 0..<geo.outputHeight {
                for ox in 0..<geo.outputWidth {
                    for o in 0..<oc {
                        var s = Double(bias[o]) * Double(pin.scale) * Double(cw.scales[o])
                        for ky in 0..<kernel {
                            for kx in 0..<kernel {
                                let iy = oy * stride - geo.padTop + ky, ix = ox * stride - geo.padLeft + kx
                                if iy < 0 || ix < 0 || iy >= h || ix >= w { continue }
                                for i in 0..<c {
                                    s += Double(pin.dequantize(input[(iy * w + ix) * c + i]))
                                        * Double(cw.values[((o * kernel + ky) * kernel + kx) * c + i]) * Double(cw.scales[o])
                                }
                            }
                        }
                        real[(oy * geo.outputWidth + ox) * oc + o] = s
                    }
                }
            }
            var maxAbs = 1e-3
            for v in real { maxAbs = max(maxAbs, abs(v)) }
            let pout = QuantParams(symmetric16: 0, max: Float(maxAbs) * 0.8)
            let (lo, hi) = FusedActivation.relu.bounds(pout, as: Int16.self)
            let stage = OutputStage(bias: bias, multipliers: cw.multipliers(inputScale: pin.scale, output: pout),
                                    outputZeroPoint: 0, minimum: lo, maximum: hi)
            let packed = PackedGEMMWeights(weights: cw.values, outputChannels: oc, depth: kernel * kernel * c)
            let rows = 5
            var scratch = [Int16](repeating: 0, count: conv2DScratchCount(weights: packed, rows: rows))
            let outs = Self.eachVariant(geo.outputPixels * oc) { set, out in
                input.withUnsafeBufferPointer { ip in
                    scratch.withUnsafeMutableBufferPointer { sp in
                        conv2D(ip.baseAddress!, geo, inputZeroPoint: 0, weights: packed, stage: stage,
                               output: out, scratch: sp.baseAddress!, scratchRows: rows, kernel: set.gemm)
                    }
                }
            }
            #expect(outs[0] == outs[1])
            #expect(Self.maxDiff(outs[0], real.map { Self.expected($0, pout, lo: lo, hi: hi) }) <= 1,
                    "conv \(kernel)x\(kernel)/\(stride) \(h)x\(w)x\(c)→\(oc)")
        }
    }

    @Test(arguments: [(3, 1, true), (3, 2, true), (5, 1, true), (5, 2, false)])
    func depthwiseMatchesFloatAndVariantsAgree(kernel: Int, stride: Int, same: Bool) {
        var g = SeededGenerator(seed: 1040 + UInt64(kernel * 10 + stride))
        for c in Self.channelCounts {
            let (h, w) = (6, 7)
            let geo = WindowGeometry(inputHeight: h, inputWidth: w, channels: c, kernelHeight: kernel,
                                     kernelWidth: kernel, strideY: stride, strideX: stride, same: same)
            let pin = Self.random(&g)
            let input = Self.int16s(h * w * c, &g)
            let cw = ChannelWeights(quantizing: IntTest.floats(kernel * kernel * c, &g, -1...1), channels: c, axis: .innermost)
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
            let pout = QuantParams(symmetric16: 0, max: Float(maxAbs))
            let stage = OutputStage(bias: bias, multipliers: cw.multipliers(inputScale: pin.scale, output: pout),
                                    outputZeroPoint: 0, minimum: -32768, maximum: 32767)
            let packed = PackedDepthwiseWeights(weights: cw.values, kernelHeight: kernel, kernelWidth: kernel, channels: c)
            let outs = Self.eachVariant(geo.outputPixels * c) { set, out in
                input.withUnsafeBufferPointer { set.depthwise($0.baseAddress!, geo, 0, packed, stage, out) }
            }
            #expect(outs[0] == outs[1], "dw \(kernel)/\(stride) c \(c)")
            #expect(Self.maxDiff(outs[0], real.map { Self.expected($0, pout) }) <= 1)
        }
    }

    /// The int16 SIMD depthwise kernel equals the scalar reference byte for byte on interior and
    /// border pixels (see the int8 test), full-range int16 activations against ±127 filters.
    @Test(arguments: [3, 5])
    func depthwiseSIMDEqualsScalarOnInteriorAndBorders(kernel k: Int) {
        var g = SeededGenerator(seed: 1060 + UInt64(k))
        for c in [1, 8, 15, 16, 17, 28, 42, 64] {
            for geo in IntegerKernelTests.depthwiseGeometries(kernel: k, channels: c) {
                var input = Self.int16s(geo.inputHeight * geo.inputWidth * c, &g)
                if Bool.random(using: &g) { for i in 0..<input.count where i % 3 == 0 { input[i] = -32768 } }
                var filters = IntTest.int8s(k * k * c, &g, range: -127...127)
                for i in 0..<filters.count where i % 4 == 0 { filters[i] = 127 }
                let bias = (0..<c).map { _ in Int32.random(in: -2_000_000...2_000_000, using: &g) }
                let multipliers = (0..<c).map { _ in FixedMultiplier(Double.random(in: 1e-5...0.5, using: &g)) }
                let stage = OutputStage(bias: bias, multipliers: multipliers, outputZeroPoint: 0,
                                        minimum: -32768, maximum: 32767)
                let packed = PackedDepthwiseWeights(weights: filters, kernelHeight: k, kernelWidth: k, channels: c)
                let count = geo.outputPixels * c
                let outs = Self.eachVariant(count + 64) { set, out in
                    input.withUnsafeBufferPointer { set.depthwise($0.baseAddress!, geo, 0, packed, stage, out) }
                }
                for (v, out) in outs.enumerated().dropFirst() {
                    // Every variant (the AVX2 set's C layer kernel and its border pixels too), not only SIMD.
                    #expect(out == outs[0], "dw \(k)x\(k)/\(geo.strideX) \(geo.inputHeight)x\(geo.inputWidth)x\(c) pad \(geo.padTop),\(geo.padLeft) \(IntegerKernels.all16[v].name)")
                    #expect(out[count...].allSatisfy { $0 == 0x5555 }, "dw wrote past its output")
                }
            }
        }
    }

    @Test(arguments: [ElementwiseParams.Operation.add, .mul])
    func elementwiseMatchesFloatAndVariantsAgree(op: ElementwiseParams.Operation) {
        var g = SeededGenerator(seed: op == .add ? 1050 : 1051)
        for c in Self.channelCounts {
            for pixels in [1, 3] {
                let count = pixels * c
                for period in [count, c, 1] {
                    let p1 = Self.random(&g), p2 = Self.random(&g)
                    let a = Self.int16s(count, &g), b = Self.int16s(period, &g)
                    var real = [Double](repeating: 0, count: count)
                    for i in 0..<count {
                        let x = Double(p1.dequantize(a[i])), y = Double(p2.dequantize(b[i % period]))
                        real[i] = op == .add ? x + y : x * y
                    }
                    var lo = 0.0, hi = 0.0
                    for v in real { lo = min(lo, v); hi = max(hi, v) }
                    let pout = QuantParams(symmetric16: Float(lo), max: Float(hi) * 0.9)
                    let params = ElementwiseParams(op, p1, p2, output: pout, as: Int16.self)
                    let outs = Self.eachVariant(count) { set, out in set.elementwise(a, b, count, period, params, out) }
                    #expect(outs[0] == outs[1])
                    // int16 ADD rescales with 15-bit multipliers (see ElementwiseParams): ≤ 3 steps.
                    #expect(Self.maxDiff(outs[0], real.map { Self.expected($0, pout) }) <= (op == .add ? 3 : 1))
                }
            }
        }
    }

    @Test(arguments: [PoolParams.Kind.max, .average])
    func poolingVariantsAgree(kind: PoolParams.Kind) {
        var g = SeededGenerator(seed: kind == .max ? 1060 : 1061)
        for c in Self.channelCounts {
            for (k, s, same) in [(2, 2, false), (3, 2, true), (7, 1, false)] {
                let geo = WindowGeometry(inputHeight: 7, inputWidth: 7, channels: c, kernelHeight: k, kernelWidth: k,
                                         strideY: s, strideX: s, same: same)
                let input = Self.int16s(7 * 7 * c, &g)
                let params = PoolParams(kind, minimum: -30000, maximum: 32767)
                let outs = Self.eachVariant(geo.outputPixels * c) { set, out in set.pool(input, geo, params, out) }
                #expect(outs[0] == outs[1])
                let want = IntTest.referencePool(input.map(Double.init), height: 7, width: 7, channels: c, geo, kind,
                                                 lo: -30000, hi: 32767)
                #expect(Self.maxDiff(outs[0], want) == 0)
            }
        }
    }

    @Test func meanMatchesFloatAndVariantsAgree() {
        var g = SeededGenerator(seed: 1070)
        for c in Self.channelCounts {
            for pixels in [1, 4, 49, 4096] {
                let pin = Self.random(&g)
                let input = Self.int16s(pixels * c, &g)
                var real = [Double](repeating: 0, count: c)
                for p in 0..<pixels { for ch in 0..<c { real[ch] += Double(pin.dequantize(input[p * c + ch])) / Double(pixels) } }
                let pout = QuantParams(scale: pin.scale * 0.7, zeroPoint: 0)
                let params = MeanParams(input: pin, output: pout, pixels: pixels)
                let outs = Self.eachVariant(c) { set, out in set.mean(input, pixels, c, params, out) }
                #expect(outs[0] == outs[1])
                #expect(Self.maxDiff(outs[0], real.map { Self.expected($0, pout) }) <= 1)
            }
        }
    }

    /// HARD_SWISH tables are computed in float vectors by the SIMD and AVX2 variants: each must
    /// give the table's entry for every int16 and every int8 input, whatever the scales and zero
    /// points.
    @Test(arguments: [(8 as Float, 7 as Float, 0 as Int32), (0.3, 6, 0), (40, 0.01, 0), (3, 3, 17), (0.05, 900, -5)])
    func hardSwishVectorEqualsTableOnEveryInput(inputMax: Float, outputMax: Float, int8ZeroPoint: Int32) {
        let pin = QuantParams(symmetric16: -inputMax, max: inputMax)
        let pout = QuantParams(symmetric16: -outputMax, max: outputMax)
        let table = LookupTable.hardSwish(input: pin, output: pout, as: Int16.self)
        #expect(table.hardSwishParameters != nil)
        let input = (0..<65536 + 5).map { Int16(truncatingIfNeeded: $0 &* 7919) }
        let outs = Self.eachVariant(input.count) { set, out in set.lookup(input, input.count, table, out) }
        for v in 1..<outs.count {
            let first = outs[0].indices.first { outs[0][$0] != outs[v][$0] }
            #expect(first == nil, "int16 variant \(v), first difference at input \(first.map { input[$0] } ?? 0)")
        }

        let pin8 = QuantParams(scale: inputMax / 100, zeroPoint: int8ZeroPoint)
        let pout8 = QuantParams(scale: outputMax / 100, zeroPoint: -int8ZeroPoint)
        let table8 = LookupTable.hardSwish(input: pin8, output: pout8, as: Int8.self)
        let input8 = (0..<256 + 19).map { Int8(truncatingIfNeeded: $0) }
        let outs8 = IntTest.eachVariant(input8.count) { set, out in set.lookup(input8, input8.count, table8, out) }
        for v in 1..<outs8.count {
            let first8 = outs8[0].indices.first { outs8[0][$0] != outs8[v][$0] }
            #expect(first8 == nil, "int8 variant \(v), first difference at input \(first8.map { input8[$0] } ?? 0)")
        }
    }

    /// An unstored HARD_SWISH table (`stored: false`, as integer programs make their int16 ones
    /// off aarch64) gives, in every variant and at every int16 and int8 input and every tail
    /// length, the stored table's scalar lookup, bit for bit; it holds no entries.
    @Test(arguments: [(8 as Float, 7 as Float, 0 as Int32), (0.3, 6, 0), (40, 0.01, 0), (0.05, 900, -5)])
    func unstoredHardSwishTableEqualsTheStoredOne(inputMax: Float, outputMax: Float, int8ZeroPoint: Int32) {
        let pin = QuantParams(symmetric16: -inputMax, max: inputMax)
        let pout = QuantParams(symmetric16: -outputMax, max: outputMax)
        let stored = LookupTable.hardSwish(input: pin, output: pout, as: Int16.self)
        let computed = LookupTable.hardSwish(input: pin, output: pout, as: Int16.self, stored: false)
        #expect(stored.isStored && !computed.isStored)
        // One record of the quantisations serves both views: the stored table is no computed
        // one, the unstored one is a computed HARD_SWISH, and both give back their parameters.
        #expect(stored.computed == nil && computed.computed?.function == .hardSwish)
        for t in [stored, computed] {
            #expect(t.hardSwishParameters?.input == pin && t.hardSwishParameters?.output == pout)
        }
        #expect(computed.computed?.input == pin && computed.computed?.output == pout)
        for count in [65536 + 5, 15, 1] {
            let input = (0..<count).map { Int16(truncatingIfNeeded: $0 &* 7919 &+ 32768) }
            let expected = Self.eachVariant(count) { set, out in set.lookup(input, count, stored, out) }[0]
            let outs = Self.eachVariant(count) { set, out in set.lookup(input, count, computed, out) }
            for (v, out) in outs.enumerated() {
                let first = out.indices.first { out[$0] != expected[$0] }
                #expect(first == nil, "int16 variant \(v), \(count) values: first difference at input \(first.map { input[$0] } ?? 0)")
            }
        }
        let pin8 = QuantParams(scale: inputMax / 100, zeroPoint: int8ZeroPoint)
        let pout8 = QuantParams(scale: outputMax / 100, zeroPoint: -int8ZeroPoint)
        let stored8 = LookupTable.hardSwish(input: pin8, output: pout8, as: Int8.self)
        let computed8 = LookupTable.hardSwish(input: pin8, output: pout8, as: Int8.self, stored: false)
        let input8 = (0..<256 + 19).map { Int8(truncatingIfNeeded: $0) }
        let expected8 = IntTest.eachVariant(input8.count) { set, out in set.lookup(input8, input8.count, stored8, out) }[0]
        let outs8 = IntTest.eachVariant(input8.count) { set, out in set.lookup(input8, input8.count, computed8, out) }
        for (v, out) in outs8.enumerated() { #expect(out == expected8, "int8 variant \(v)") }
    }

    /// An unstored LOGISTIC table (integer programs' int16 ones over small tensors) gives the
    /// stored table's values in every variant, at every int16 input.
    @Test(arguments: [(8 as Float, 1 as Float), (0.3, 0.9), (40, 1)])
    func unstoredLogisticTableEqualsTheStoredOne(inputMax: Float, outputMax: Float) {
        let pin = QuantParams(symmetric16: -inputMax, max: inputMax)
        let pout = QuantParams(symmetric16: -outputMax, max: outputMax)
        let stored = LookupTable.logistic(input: pin, output: pout, as: Int16.self)
        let computed = LookupTable.logistic(input: pin, output: pout, as: Int16.self, stored: false)
        #expect(stored.isStored && !computed.isStored && computed.hardSwishParameters == nil)
        #expect(stored.computed == nil && stored.hardSwishParameters == nil && computed.computed?.function == .logistic)
        let input = (0..<65536 + 3).map { Int16(truncatingIfNeeded: $0 &* 7919 &+ 32768) }
        let expected = Self.eachVariant(input.count) { set, out in set.lookup(input, input.count, stored, out) }[0]
        let outs = Self.eachVariant(input.count) { set, out in set.lookup(input, input.count, computed, out) }
        for (v, out) in outs.enumerated() {
            let first = out.indices.first { out[$0] != expected[$0] }
            #expect(first == nil, "variant \(v): first difference at input \(first.map { input[$0] } ?? 0)")
        }
    }

    @Test func lookupTablesMatchTheirFunctionsAndVariantsAgree() {
        var g = SeededGenerator(seed: 1080)
        let functions: [(Float) -> Float] = [LookupTable.relu, LookupTable.hardSwish, LookupTable.logistic]
        for f in functions {
            let pin = QuantParams(symmetric16: -8, max: 7)
            let pout = QuantParams(symmetric16: -0.5, max: 7)
            let table = LookupTable(input: pin, output: pout, as: Int16.self, f)
            for count in [1, 8, 13, 64] {
                let input = Self.int16s(count, &g)
                let outs = Self.eachVariant(count) { set, out in set.lookup(input, count, table, out) }
                #expect(outs[0] == outs[1])
                // ≤ 1: the table rounds in Float, the expectation in Double.
                #expect(Self.maxDiff(outs[0], input.map { Self.expected(Double(f(pin.dequantize($0))), pout) }) <= 1)
            }
        }
    }

    @Test(arguments: [(false, false), (true, false), (false, true)])
    func resizeBilinearMatchesFloatAndVariantsAgree(alignCorners: Bool, halfPixel: Bool) {
        var g = SeededGenerator(seed: 1100)
        for c in Self.channelCounts {
            for (ih, iw, oh, ow) in [(4, 5, 8, 10), (3, 3, 7, 5), (6, 8, 3, 4)] {
                let input = Self.int16s(ih * iw * c, &g)
                let p = ResizeParams(inputHeight: ih, inputWidth: iw, channels: c, outputHeight: oh, outputWidth: ow,
                                     alignCorners: alignCorners, halfPixelCenters: halfPixel)
                let outs = Self.eachVariant(oh * ow * c) { set, out in set.resize(input, p, out) }
                #expect(outs[0] == outs[1])
                // TFLite's source coordinates, truncated to Q7 as the int16 kernels document.
                func src(_ o: Int, _ n: Int, _ m: Int) -> (Int, Int, Double) {
                    var q: Int
                    if alignCorners && m > 1 { q = o * (n - 1) * 128 / (m - 1) }
                    else if halfPixel { q = (2 * o + 1) * n * 128 / (2 * m) - 64 }
                    else { q = o * n * 128 / m }
                    let s = Double(max(0, q)) / 128
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
                #expect(Self.maxDiff(outs[0], want) <= 1)
            }
        }
    }

    @Test func transposeConvVariantsAgree() {
        var g = SeededGenerator(seed: 1130)
        for (h, w, ic, oc) in [(3, 4, 5, 7), (4, 4, 16, 17), (2, 5, 1, 2), (4, 3, 16, 1), (3, 3, 21, 3)] {
            let (kernel, stride) = (2, 2)
            let pin = Self.random(&g)
            let input = Self.int16s(h * w * ic, &g)
            let cw = ChannelWeights(quantizing: IntTest.floats(oc * kernel * kernel * ic, &g, -1...1), channels: oc,
                                    axis: .outermost)
            let bias = cw.quantizedBias(IntTest.floats(oc, &g, -1...1), inputScale: pin.scale)
            let pout = QuantParams(symmetric16: 0, max: pin.scale * 32767 * Float(ic) * 0.5)
            let stage = OutputStage(bias: bias, multipliers: cw.multipliers(inputScale: pin.scale, output: pout),
                                    outputZeroPoint: 0, minimum: -32768, maximum: 32767)
            let plan = TransposeConvPlan(filter: cw.values, outputChannels: oc, kernelHeight: kernel, kernelWidth: kernel,
                                         inputHeight: h, inputWidth: w, inputChannels: ic, outputHeight: h * stride,
                                         outputWidth: w * stride, stride: stride, padTop: 0, padLeft: 0)
            var scratch = [Int16](repeating: 0, count: plan.scratchCount)
            var real = [Double](repeating: 0, count: h * stride * w * stride * oc)
            for iy in 0..<h {
                for ix in 0..<w {
                    for ky in 0..<kernel {
                        for kx in 0..<kernel {
                            let oy = iy * stride + ky, ox = ix * stride + kx
                            for o in 0..<oc {
                                var s = Double(bias[o]) * Double(pin.scale) * Double(cw.scales[o])
                                for i in 0..<ic {
                                    s += Double(pin.dequantize(input[(iy * w + ix) * ic + i]))
                                        * Double(cw.values[((o * kernel + ky) * kernel + kx) * ic + i]) * Double(cw.scales[o])
                                }
                                real[(oy * w * stride + ox) * oc + o] = s
                            }
                        }
                    }
                }
            }
            plan.direct = false
            let outs = Self.eachVariant(h * stride * w * stride * oc) { set, out in
                scratch.withUnsafeMutableBufferPointer { sp in
                    input.withUnsafeBufferPointer {
                        plan.run($0.baseAddress!, inputZeroPoint: 0, stage: stage, output: out,
                                 scratch: sp.baseAddress!, kernel: set.gemm)
                    }
                }
            }
            #expect(outs[0] == outs[1])
            // The direct path (dot products, no GEMM) gives the same integers.
            plan.direct = true
            var direct = [Int16](repeating: 0x55, count: outs[0].count)
            direct.withUnsafeMutableBufferPointer { out in
                scratch.withUnsafeMutableBufferPointer { sp in
                    input.withUnsafeBufferPointer {
                        plan.run($0.baseAddress!, inputZeroPoint: 0, stage: stage, output: out.baseAddress!,
                                 scratch: sp.baseAddress!, kernel: gemmScalar)
                    }
                }
            }
            #expect(direct == outs[0], "direct \(h)x\(w)x\(ic)→\(oc)")
            #expect(Self.maxDiff(outs[0], real.map { Self.expected($0, pout) }) <= 1)
        }
    }

    @Test func padFillsWithZero() {
        var g = SeededGenerator(seed: 1110)
        let (h, w, c) = (3, 4, 5)
        let input = Self.int16s(h * w * c, &g)
        var out = [Int16](repeating: 7, count: (h + 3) * (w + 3) * c)
        out.withUnsafeMutableBufferPointer {
            padSpatial(input, height: h, width: w, channels: c, top: 1, bottom: 2, left: 2, right: 1, zeroPoint: 0,
                       output: $0.baseAddress!)
        }
        for y in 0..<(h + 3) {
            for x in 0..<(w + 3) {
                for ch in 0..<c {
                    let inside = y >= 1 && y < 1 + h && x >= 2 && x < 2 + w
                    #expect(out[(y * (w + 3) + x) * c + ch] == (inside ? input[((y - 1) * w + x - 2) * c + ch] : 0))
                }
            }
        }
    }

    /// PAD along the channels (`padChannels`, C): every output value is the input's where the
    /// pixel and channel fall inside, else the zero point, for int8 and int16, channel counts
    /// around the 16-byte copies, and zero points whose two bytes differ.
    @Test func padAlongChannels() {
        var g = SeededGenerator(seed: 1111)
        for c in [1, 3, 7, 8, 9, 15, 16, 17, 24, 33] {
            for (top, left, front, extraH, extraW, extraC) in [(0, 0, 0, 0, 0, 5), (1, 2, 3, 2, 3, 4), (0, 0, 7, 1, 0, 0)] {
                let (h, w) = (3, 5)
                let (oh, ow, oc) = (h + top + extraH, w + left + extraW, c + front + extraC)
                func expected<E: FixedWidthInteger>(_ input: [E], _ z: E, _ y: Int, _ x: Int, _ ch: Int) -> E {
                    let (iy, ix, ic) = (y - top, x - left, ch - front)
                    guard iy >= 0 && iy < h && ix >= 0 && ix < w && ic >= 0 && ic < c else { return z }
                    return input[(iy * w + ix) * c + ic]
                }
                let in16 = Self.int16s(h * w * c, &g)
                var out16 = [Int16](repeating: 99, count: oh * ow * oc)
                out16.withUnsafeMutableBufferPointer {
                    padChannels(in16, height: h, width: w, channels: c, top: top, left: left, front: front,
                                outputHeight: oh, outputWidth: ow, outputChannels: oc, zeroPoint: 0x0102, output: $0.baseAddress!)
                }
                let in8 = Self.int16s(h * w * c, &g).map { Int8(truncatingIfNeeded: $0) }
                var out8 = [Int8](repeating: 99, count: oh * ow * oc)
                out8.withUnsafeMutableBufferPointer {
                    padChannels(in8, height: h, width: w, channels: c, top: top, left: left, front: front,
                                outputHeight: oh, outputWidth: ow, outputChannels: oc, zeroPoint: -5, output: $0.baseAddress!)
                }
                var wrong16 = 0, wrong8 = 0
                for y in 0..<oh {
                    for x in 0..<ow {
                        for ch in 0..<oc {
                            let i = (y * ow + x) * oc + ch
                            if out16[i] != expected(in16, 0x0102, y, x, ch) { wrong16 += 1 }
                            if out8[i] != expected(in8, -5, y, x, ch) { wrong8 += 1 }
                        }
                    }
                }
                #expect(wrong16 == 0, "int16, \(c) channels, front \(front)")
                #expect(wrong8 == 0, "int8, \(c) channels, front \(front)")
            }
        }
    }

    /// `im2col8` (C) equals its Swift reference byte for byte: kernels 1-5, strides 1-2, SAME and
    /// VALID, channel counts around the copy pieces, tiles that start mid-row, a row stride past
    /// the depth, and zero points whose bytes differ from 0.
    @Test func im2col8MatchesItsReference() {
        var g = SeededGenerator(seed: 1112)
        var cases = 0
        for c in [1, 3, 4, 8, 9, 16, 17, 33] {
            for (k, stride) in [(1, 1), (2, 2), (3, 1), (3, 2), (5, 1), (5, 2)] {
                for same in [true, false] {
                    let (h, w) = (7, 9)
                    let geo = WindowGeometry(inputHeight: h, inputWidth: w, channels: c, kernelHeight: k,
                                             kernelWidth: k, strideY: stride, strideX: stride, same: same)
                    let input = Self.int16s(h * w * c, &g).map { Int8(truncatingIfNeeded: $0) }
                    let depth = k * k * c
                    let rowStride = (depth + 15) / 16 * 16 + 16
                    for (first, count) in [(0, geo.outputPixels), (geo.outputPixels / 3, max(1, geo.outputPixels / 2))] {
                        guard first + count <= geo.outputPixels else { continue }
                        var got = [Int8](repeating: 77, count: count * rowStride)
                        var want = [Int8](repeating: 77, count: count * rowStride)
                        got.withUnsafeMutableBufferPointer {
                            im2col8(input, geo, zeroPoint: -3, firstPixel: first, count: count, rowStride: rowStride,
                                    into: $0.baseAddress!)
                        }
                        want.withUnsafeMutableBufferPointer {
                            im2col8Reference(input, geo, zeroPoint: -3, firstPixel: first, count: count,
                                             rowStride: rowStride, into: $0.baseAddress!)
                        }
                        #expect(got == want, "\(c) channels, kernel \(k), stride \(stride), same \(same), first \(first)")
                        cases += 1
                    }
                }
            }
        }
        #expect(cases > 150)
    }
    /// `im2col` (C: `booth_im2col_s16`, `booth_im2col_s8_s16`) writes the same int16 rows as
    /// `im2colReference` and nothing past them: both input widths, kernels 1–5 (square and not),
    /// strides 1–2, SAME/VALID, 1–33 channels (the scalar, 4-, 8- and overlapping-8 spans), the
    /// pointwise run, tiles from mid-row, zero points 0 and not.
    @Test func im2colMatchesItsReference() {
        var g = SeededGenerator(seed: 1512)
        var cases = 0
        func check<E: QuantizedActivation>(_ input: [E], _ geo: WindowGeometry, zp: Int32, _ label: String) {
            let depth = geo.kernelHeight * geo.kernelWidth * geo.channels
            let depthStride = (depth + 1) / 2 * 2
            for (first, count) in [(0, geo.outputPixels), (geo.outputPixels / 3, max(1, geo.outputPixels / 2))] {
                guard first + count <= geo.outputPixels else { continue }
                var got = [Int16](repeating: 0x5A5A, count: count * depthStride + 24)
                var want = got
                input.withUnsafeBufferPointer { src in
                    got.withUnsafeMutableBufferPointer {
                        im2col(src.baseAddress!, geo, zeroPoint: zp, firstPixel: first, count: count,
                               depthStride: depthStride, into: $0.baseAddress!)
                    }
                    want.withUnsafeMutableBufferPointer {
                        im2colReference(src.baseAddress!, geo, zeroPoint: zp, firstPixel: first, count: count,
                                        depthStride: depthStride, into: $0.baseAddress!)
                    }
                }
                #expect(got == want, "\(label), first \(first)")
                cases += 1
            }
        }
        for c in [1, 2, 3, 4, 5, 8, 9, 16, 17, 33] {
            for (kh, kw, stride) in [(1, 1, 1), (1, 1, 2), (2, 2, 2), (3, 3, 1), (3, 3, 2), (1, 3, 1), (5, 5, 1), (5, 5, 2)] {
                for same in [true, false] {
                    let (h, w) = (7, 9)
                    let geo = WindowGeometry(inputHeight: h, inputWidth: w, channels: c, kernelHeight: kh,
                                             kernelWidth: kw, strideY: stride, strideX: stride, same: same)
                    let wide = Self.int16s(h * w * c, &g)
                    let label = "\(c) channels, kernel \(kh)x\(kw), stride \(stride), same \(same)"
                    check(wide, geo, zp: 0, "int16 " + label)
                    check(wide, geo, zp: 1234, "int16 zp 1234 " + label)
                    check(wide.map { Int8(truncatingIfNeeded: $0) }, geo, zp: -3, "int8 " + label)
                }
            }
        }
        #expect(cases > 900)
    }
}
