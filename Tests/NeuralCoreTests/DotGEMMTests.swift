import NeuralCore
import Testing
import TestSupport

/// The int16 GEMM through `sdot` (`booth_gemm_s16_dot`, neural_dot.c) against `gemmScalar`, byte
/// for byte: int16 activations split into a high byte and a low byte − 128, the 128·Σw term in the
/// accumulators' start, wrapping int32. On x86 (and aarch64 without `asimddp`, where it is skipped
/// by `gemmNEONDotRepacked` returning false) this checks the portable C version of the same
/// arithmetic; the NEON kernel is held to the same reference under qemu cortex-a76 by the
/// conformance kernels nn.gemm16.* and nn.gemm.* (the `neon-dot` sets) in `scripts/arm/test`.
@Suite struct DotGEMMTests {
    enum Kind: CaseIterable { case int8, int16, int32 }

    /// One GEMM of `rows` × `n` × `k`; `fill` sets activation (row, d) and filter (channel, d).
    func check(rows: Int, n: Int, k: Int, kind: Kind, seed: UInt64,
               activation: (inout SeededGenerator, Int, Int) -> Int16,
               weight: (inout SeededGenerator, Int, Int) -> Int8) -> Bool {
        var g = SeededGenerator(seed: seed)
        var w = [Int8](repeating: 0, count: n * k)
        for c in 0..<n { for d in 0..<k { w[c * k + d] = weight(&g, c, d) } }
        let packed = PackedGEMMWeights(weights: w, outputChannels: n, depth: k)
        let stride = packed.depthStride
        var a = [Int16](repeating: 0, count: rows * stride)
        for r in 0..<rows { for d in 0..<k { a[r * stride + d] = activation(&g, r, d) } }
        var multipliers: [FixedMultiplier] = [], bias: [Int32] = []
        for _ in 0..<n {
            // Scales small enough that outputs are not all clamped, some with left shifts.
            multipliers.append(FixedMultiplier(Double.random(in: 0.000_000_5...2.5, using: &g)))
            bias.append(Int32.random(in: -1_000_000...1_000_000, using: &g))
        }
        let wide = kind == .int16
        let stage = OutputStage(bias: bias, multipliers: multipliers, outputZeroPoint: Int32.random(in: -9...9, using: &g),
                                minimum: wide ? -32768 : -128, maximum: wide ? Int32.random(in: 100...32767, using: &g) : 127)
        let count = rows * n
        var expected = [Int32](repeating: 0x5A5A, count: count), got = expected
        func run(_ out: UnsafeMutablePointer<Int32>, _ body: (GEMMOutput) -> Void) {
            switch kind {
            case .int32: body(.int32(out, rowStride: n))
            case .int8: out.withMemoryRebound(to: Int8.self, capacity: count * 4) { body(.int8($0, rowStride: n, stage: stage)) }
            case .int16: out.withMemoryRebound(to: Int16.self, capacity: count * 2) { body(.int16($0, rowStride: n, stage: stage)) }
            }
        }
        var ran = false
        a.withUnsafeBufferPointer { ap in
            expected.withUnsafeMutableBufferPointer { e in run(e.baseAddress!) { gemmScalar(ap.baseAddress!, rows, packed, $0) } }
            got.withUnsafeMutableBufferPointer { o in
                run(o.baseAddress!) { ran = gemmNEONDotRepacked(ap.baseAddress!, rows, packed, $0) }
            }
        }
        if ran { #expect(got == expected, "rows \(rows) n \(n) k \(k) \(kind)") }
        return ran
    }

    @Test func matchesTheScalarGEMMOverTheInt16Range() {
        var ran = 0, seed: UInt64 = 1
        let extremes: [Int16] = [-32768, 32767, -1, 0, 1, 127, 128, 255, 256, -256, -129]
        for rows in [1, 2, 3, 5] {
            for n in [1, 7, 8, 9, 16, 17, 24, 33] {
                for k in [1, 3, 15, 16, 17, 40, 147] {
                    for kind in Kind.allCases {
                        seed += 1
                        if check(rows: rows, n: n, k: k, kind: kind, seed: seed,
                                 activation: { g, _, _ in
                                     Bool.random(using: &g) ? extremes.randomElement(using: &g)! : Int16.random(in: .min ... .max, using: &g)
                                 },
                                 weight: { g, _, _ in Int8.random(in: -127...127, using: &g) }) { ran += 1 }
                    }
                }
            }
        }
#if !arch(arm64)
        #expect(ran == 4 * 8 * 7 * 3)
#endif
    }

    /// The int32 corners: every activation −32768 and every filter −127 (or +127) over the deepest
    /// depth the kernel takes (4096: Σ = ±2^15 · 127 · 4096, far outside int32, wraps the same way),
    /// and 32767 · 127; depths above 4096 are refused, not computed.
    @Test func wrapsAtTheInt32CornersAndRefusesDeeperRows() {
        for (x, wv) in [(Int16.min, Int8(-127)), (Int16.min, Int8(127)), (Int16.max, Int8(127)), (Int16(-1), Int8(-127))] {
            for k in [4095, 4096] {
                for kind in Kind.allCases {
                    _ = check(rows: 3, n: 17, k: k, kind: kind, seed: 7, activation: { _, _, _ in x },
                              weight: { _, _, _ in wv })
                }
            }
        }
        #expect(!check(rows: 1, n: 3, k: 4097, kind: .int32, seed: 9, activation: { _, _, _ in 1 },
                       weight: { _, _, _ in 1 }))
    }
}
