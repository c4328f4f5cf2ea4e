import NeuralCore
import Testing
import TestSupport

/// The C pooling and MEAN of neural_glue.c behind `poolNEON` / `meanNEON` (the `neon` and
/// `neon16` sets' entries) against `poolScalar` / `meanScalar`, int8 and int16, byte for byte.
/// On x86 this runs the file's portable loops (the shapes, windows, taps and clamps); the NEON
/// lanes are held to the same references by the conformance kernels nn.pool.*, nn.pool16.*,
/// nn.mean and nn.mean16 under qemu (`scripts/arm/test`).
@Suite struct GlueKernelTests {
    /// (input height, width, kernel height, width, stride, SAME): small windows with partial
    /// borders, the models' 2×2 stride 2 and global windows (selfie's average pools).
    static let windows: [(ih: Int, iw: Int, kh: Int, kw: Int, s: Int, same: Bool)] = [
        (7, 6, 2, 2, 2, false), (7, 6, 3, 3, 2, true), (7, 6, 3, 3, 1, true), (8, 8, 2, 2, 2, false),
        (9, 5, 4, 4, 3, true), (5, 9, 1, 1, 1, false), (6, 8, 6, 8, 1, false), (16, 16, 16, 16, 1, false),
        (3, 3, 4, 4, 2, true),
    ]
    static let channelCounts = [1, 3, 7, 8, 9, 15, 16, 17, 24, 28, 33, 42]

    func check<E: QuantizedActivation>(_: E.Type, kind: PoolParams.Kind, seed: UInt64) {
        var g = SeededGenerator(seed: seed)
        let eMin = Int32(E.min), eMax = Int32(E.max)
        // Bounds within E, the type's ends, beyond them (clamped into E by the wrapper) and an
        // inverted pair (kept on the Swift kernel poolSIMD).
        let bounds: [(Int32, Int32)] = [(eMin, eMax), (eMin + 20, eMax - 20), (eMin - 1000, eMax + 1000), (0, eMax),
                                        (5, -5)]
        for w in Self.windows {
            for c in Self.channelCounts {
                let geo = WindowGeometry(inputHeight: w.ih, inputWidth: w.iw, channels: c, kernelHeight: w.kh,
                                         kernelWidth: w.kw, strideY: w.s, strideX: w.s, same: w.same)
                let input = (0..<(w.ih * w.iw * c)).map { _ in E.random(in: E.min...E.max, using: &g) }
                let (lo, hi) = bounds[Int.random(in: 0..<bounds.count, using: &g)]
                let params = PoolParams(kind, minimum: lo, maximum: hi)
                var want = [E](repeating: 0, count: geo.outputPixels * c), got = want
                // An inverted pair keeps poolSIMD (whose vector clamp gives `maximum` there, where
                // poolScalar gives `minimum` below it): the wrapper must give poolSIMD's bytes.
                if lo > hi { poolSIMD(input, geo, params, &want) } else { poolScalar(input, geo, params, &want) }
                got.withUnsafeMutableBufferPointer { poolNEON(input, geo, params, $0.baseAddress!) }
                #expect(got == want, "\(E.self) \(kind) \(w) c\(c) bounds \(lo)...\(hi)")
            }
        }
    }

    @Test func poolInt8MatchesTheReference() {
        check(Int8.self, kind: .max, seed: 2101)
        check(Int8.self, kind: .average, seed: 2102)
    }

    @Test func poolInt16MatchesTheReference() {
        check(Int16.self, kind: .max, seed: 2103)
        check(Int16.self, kind: .average, seed: 2104)
    }

    func checkMean<E: QuantizedActivation>(_: E.Type, seed: UInt64) {
        var g = SeededGenerator(seed: seed)
        for c in Self.channelCounts + [96, 128] {
            for pixels in [1, 4, 49, 144, 576] {
                let symmetric = E.bitWidth == 16
                let pin = QuantParams(scale: Float.random(in: 0.001...0.1, using: &g),
                                      zeroPoint: symmetric ? 0 : Int32.random(in: -100...100, using: &g))
                let pout = QuantParams(scale: pin.scale * Float.random(in: 0.3...4, using: &g),
                                       zeroPoint: Int32.random(in: -20...20, using: &g))
                let params = MeanParams(input: pin, output: pout, pixels: pixels)
                let input = (0..<(pixels * c)).map { _ in E.random(in: E.min...E.max, using: &g) }
                var want = [E](repeating: 0, count: c), got = want
                meanScalar(input, pixels, c, params, &want)
                got.withUnsafeMutableBufferPointer { meanNEON(input, pixels, c, params, $0.baseAddress!) }
                #expect(got == want, "\(E.self) c\(c) pixels \(pixels)")
            }
        }
    }

    @Test func meanMatchesTheReference() {
        checkMean(Int8.self, seed: 2111)
        checkMean(Int16.self, seed: 2112)
    }

    /// A float island's PRELU fused with its int8 edges (`IslandPReLUKernel.c`, the `neon` set's
    /// `islandPReLU`) against the island's separate passes: `dequantizeScalar`, the float path's
    /// PRELU (`x < 0 ? x · alpha : x`) and `quantizeScalar`, byte for byte; and the Swift
    /// `IslandPReLUKernel.reference` likewise. Channel counts around 8 and 16, output zero points
    /// inside and outside int8 (the C kernel's scalar route), scales that saturate both ends.
    @Test func islandPReLUMatchesTheSeparatePasses() {
        var g = SeededGenerator(seed: 2121)
        for c in Self.channelCounts + [32, 64, 128] {
            for pixels in [1, 3, 16] {
                let pin = QuantParams(scale: Float.random(in: 0.01...0.2, using: &g), zeroPoint: Int32.random(in: -128...127, using: &g))
                let wide = pixels == 3
                let pout = QuantParams(scale: pin.scale * Float.random(in: wide ? 0.2...0.6 : 0.8...3, using: &g),
                                       zeroPoint: c == 33 ? 200 : Int32.random(in: -128...127, using: &g))
                let alpha = (0..<c).map { i in i % 5 == 0 ? 0 : Float.random(in: -2...3, using: &g) }
                let n = pixels * c
                let q = (0..<n).map { _ in Int8.random(in: .min ... .max, using: &g) }
                var x = [Float](repeating: 0, count: n), y = x
                dequantizeScalar(q, n, pin, &x)
                for i in 0..<n { y[i] = x[i] < 0 ? x[i] * alpha[i % c] : x[i] }
                var want = [Int8](repeating: 0, count: n)
                quantizeScalar(y, n, pout, &want)
                for kernel in [IslandPReLUKernel.c, .reference] {
                    var got = [Int8](repeating: 1, count: n), gotFloat = got
                    got.withUnsafeMutableBufferPointer { kernel.quantized(q, pin, alpha, pixels, c, pout, $0.baseAddress!) }
                    gotFloat.withUnsafeMutableBufferPointer { kernel.float(x, alpha, pixels, c, pout, $0.baseAddress!) }
                    #expect(got == want, "int8 input c\(c) pixels \(pixels) \(pin) \(pout)")
                    #expect(gotFloat == want, "float input c\(c) pixels \(pixels) \(pout)")
                }
                // In place (the island's input and output may share a slot).
                var inPlace = q
                inPlace.withUnsafeMutableBufferPointer { IslandPReLUKernel.c.quantized(UnsafePointer($0.baseAddress!), pin, alpha, pixels, c, pout, $0.baseAddress!) }
                #expect(inPlace == want, "in place c\(c) pixels \(pixels)")
            }
        }
    }
}
