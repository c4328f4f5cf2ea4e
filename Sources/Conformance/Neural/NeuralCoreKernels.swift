import ImageCore
import NeuralCore

/// Adapters from NeuralCore's integer kernel table (`IntegerKernels.all`: one `IntegerKernelSet`
/// per variant, the scalar reference first) to conformance kernels: every operation of the set,
/// every variant of the table, seeded operands and parameters, sizes below/at/above the vector
/// widths (8 and 16 lanes) and odd channel counts.
///
/// Parameters derived through floating point (multipliers, lookup tables) are computed on each
/// architecture, so the golden checksums also hold the two builds to the same float results.
public enum NeuralCoreKernels {
    public static var conformance: [ConformanceKernel] {
        [requantize, elementwise(.add), elementwise(.mul), elementwise16(.add), elementwise16(.mul), gemm(int32: false), gemm(int32: true), gemm8, transposeRows, depthwise,
         pool(.max), pool(.average), mean, lookup, prelu, resize, resize16, logistic,
         floatConvolution(.conv), floatConvolution(.depthwise), floatConvolution(.transpose), floatBinary,
         quantize(int16: false), quantize(int16: true), dequantize(int16: false), dequantize(int16: true),
         convert(widen: true), convert(widen: false), depthwiseExtremes,
         pool16(.max), pool16(.average), mean16, gemm16, depthwise16, depthwiseLayer8, addPReLU]
    }

    /// Channel counts around the vector widths.
    static let channelCounts = [1, 3, 7, 8, 9, 15, 16, 17, 24, 33]

    /// The table's variants other than the reference, as `(name, set)`.
    static var sets: [IntegerKernelSet] { IntegerKernels.all }

    static func name(_ s: IntegerKernelSet) -> String { name(s.name) }

    static func name(_ s: StaticString) -> String {
        String(decoding: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount), as: UTF8.self)
    }

    static var variantNames: [String] { sets.map { name($0) } }

    /// The name of the kernel set an interpreter on this CPU uses (`InterpreterKernels.native`).
    public static var activeSetName: String { name(InterpreterKernels.native.name) }

    /// Reference and variants from one closure over the kernel set.
    static func variants(
        _ body: @escaping (IntegerKernelSet, [Plane], [Plane]) -> Void
    ) -> (ConformanceVariant, [ConformanceVariant]) {
        let all = sets.map { set in ConformanceVariant(name: name(set)) { i, o in body(set, i, o) } }
        return (all[0], Array(all.dropFirst()))
    }

    static func int8(_ p: Plane) -> UnsafeMutablePointer<Int8> { p.base.assumingMemoryBound(to: Int8.self) }
    static func int16(_ p: Plane) -> UnsafeMutablePointer<Int16> { p.base.assumingMemoryBound(to: Int16.self) }
    static func int32(_ p: Plane) -> UnsafeMutablePointer<Int32> { p.base.assumingMemoryBound(to: Int32.self) }
    static func float(_ p: Plane) -> UnsafeMutablePointer<Float> { p.base.assumingMemoryBound(to: Float.self) }

    static func int8Output(_ count: Int) -> PlaneShape { PlaneShape(width: count, height: 1, bytesPerPixel: 1) }

    static func randomQuant(_ r: inout ConformanceRandom) -> QuantParams {
        QuantParams(scale: Float.random(in: 0.005...0.1, using: &r), zeroPoint: Int32.random(in: -100...100, using: &r))
    }

    static func randomInt8s(_ n: Int, in range: ClosedRange<Int8>, _ r: inout ConformanceRandom) -> [Int8] {
        var v: [Int8] = []
        v.reserveCapacity(n)
        for _ in 0..<n { v.append(Int8.random(in: range, using: &r)) }
        return v
    }

    static func randomFloats(_ n: Int, in range: ClosedRange<Float>, _ r: inout ConformanceRandom) -> [Float] {
        var v: [Float] = []
        v.reserveCapacity(n)
        for _ in 0..<n { v.append(Float.random(in: range, using: &r)) }
        return v
    }

    static func randomActivation(_ r: inout ConformanceRandom) -> FusedActivation {
        switch r.next() % 3 {
        case 0: return .none
        case 1: return .relu
        default: return .relu6
        }
    }

    // MARK: Requantize

    static var requantize: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for n in [1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100] { cases.append(ConformanceCase(label: "n\(n)", width: n)) }
        return ConformanceKernel(name: "nn.requantize", cases: cases, benchCase: ConformanceCase(label: "n4096", width: 4096),
                                 variantNames: variantNames) { c, r in
            let n = c.width
            let params = RequantizeParams(input: randomQuant(&r), output: randomQuant(&r))
            let input = TestPlane(count: n, elementSize: 1, random: &r)
            let (ref, vars) = variants { set, i, o in set.requantize(int8(i[0]), n, params, int8(o[0])) }
            return ConformanceInstance(inputs: [input], outputs: [int8Output(n)], reference: ref, variants: vars)
        }
    }

    // MARK: Elementwise ADD / MUL (with broadcast periods)

    static func elementwise(_ op: ElementwiseParams.Operation) -> ConformanceKernel {
        var cases: [ConformanceCase] = []
        for ch in channelCounts {
            for pixels in [1, 3] {
                for (pi, period) in ["full", "channel", "scalar"].enumerated() {
                    cases.append(ConformanceCase(label: "c\(ch)p\(pixels)\(period)", width: ch, height: pixels, extra: pi))
                }
            }
        }
        return ConformanceKernel(name: op == .add ? "nn.add" : "nn.mul", cases: cases,
                                 benchCase: ConformanceCase(label: "c64p64full", width: 64, height: 64),
                                 variantNames: variantNames) { c, r in
            let count = c.width * c.height
            let period = c.extra == 0 ? count : (c.extra == 1 ? c.width : 1)
            let p1 = randomQuant(&r), p2 = randomQuant(&r)
            let outScale = op == .add
                ? max(p1.scale, p2.scale) * Float.random(in: 1...2.5, using: &r)
                : p1.scale * p2.scale * Float.random(in: 32...160, using: &r)
            let pout = QuantParams(scale: outScale, zeroPoint: Int32.random(in: -20...20, using: &r))
            let params = ElementwiseParams(op, p1, p2, output: pout, activation: randomActivation(&r))
            let a = TestPlane(count: count, elementSize: 1, random: &r)
            let b = TestPlane(count: period, elementSize: 1, random: &r)
            let (ref, vars) = variants { set, i, o in set.elementwise(int8(i[0]), int8(i[1]), count, period, params, int8(o[0])) }
            return ConformanceInstance(inputs: [a, b], outputs: [int8Output(count)], reference: ref, variants: vars)
        }
    }

    // MARK: GEMM (requantised int8 and raw int32 outputs)

    /// Seeded GEMM operands: int8 filters (−127...127, packed), then each channel's multiplier
    /// and bias, drawn in that order.
    static func randomGEMM(outputChannels n: Int, depth k: Int, _ r: inout ConformanceRandom)
        -> (PackedGEMMWeights, [FixedMultiplier], [Int32]) {
        let packed = PackedGEMMWeights(weights: randomInt8s(n * k, in: -127...127, &r), outputChannels: n, depth: k)
        var multipliers: [FixedMultiplier] = []
        var bias: [Int32] = []
        for _ in 0..<n {
            multipliers.append(FixedMultiplier(Double.random(in: 0.00002...0.004, using: &r)))
            bias.append(Int32.random(in: -5000...5000, using: &r))
        }
        return (packed, multipliers, bias)
    }


    static func gemm(int32 raw: Bool) -> ConformanceKernel {
        var cases: [ConformanceCase] = []
        for n in channelCounts {
            for (rows, k) in [(1, 1), (2, 16), (3, 17), (5, 40), (9, 3)] {
                cases.append(ConformanceCase(label: "n\(n)r\(rows)k\(k)", width: n, height: rows, extra: k))
            }
        }
        return ConformanceKernel(name: raw ? "nn.gemm.int32" : "nn.gemm.int8", cases: cases,
                                 benchCase: ConformanceCase(label: "n32r64k64", width: 32, height: 64, extra: 64),
                                 variantNames: variantNames) { c, r in
            let n = c.width, rows = c.height, k = c.extra
            let (packed, multipliers, bias) = randomGEMM(outputChannels: n, depth: k, &r)
            let lo = Int32.random(in: -128...(-100), using: &r), hi = Int32.random(in: 100...127, using: &r)
            let stage = OutputStage(bias: bias, multipliers: multipliers, outputZeroPoint: Int32.random(in: -10...10, using: &r),
                                    minimum: lo, maximum: hi)
            // A: activations minus the zero point (−255...255), the padding column zero.
            let a = TestPlane(count: rows * packed.depthStride, elementSize: 2, random: &r)
            let ap = a.elements(as: Int16.self)
            for row in 0..<rows {
                for d in 0..<packed.depthStride {
                    ap[row * packed.depthStride + d] = d < k ? Int16.random(in: -255...255, using: &r) : 0
                }
            }
            let (ref, vars) = variants { set, i, o in
                let output: GEMMOutput = raw ? .int32(int32(o[0]), rowStride: n) : .int8(int8(o[0]), rowStride: n, stage: stage)
                set.gemm(UnsafePointer(int16(i[0])), rows, packed, output)
            }
            let out = PlaneShape(width: rows * n, height: 1, bytesPerPixel: raw ? 4 : 1)
            return ConformanceInstance(inputs: [a], outputs: [out], reference: ref, variants: vars)
        }
    }

    // MARK: GEMM on int16 activations (the int16 sets' `gemm`: NEON `smlal`, and `sdot` by byte halves)

    /// Rows and depths of `nn.gemm16`: below, at and above the 2-row `sdot` tile and the 16-value
    /// chunk, the models' 3×3 depths, a depth of 4096 (the deepest `booth_gemm_s16_dot` takes,
    /// where Σ x·w leaves int32 and wraps) and 4100 (refused there: `gemmNEON` runs it).
    static let gemm16Shapes: [(rows: Int, k: Int)] = [(1, 1), (2, 16), (3, 17), (4, 40), (5, 147), (2, 576), (3, 4096), (1, 4100)]
    /// Added after the first cases (so their seeds stay): depths ending three quads into a 16-value
    /// chunk (`sdot` runs the chunk's first three lanes only), odd and even row counts.
    static let gemm16TailShapes: [(rows: Int, k: Int)] = [(3, 12), (2, 28), (5, 44)]
    /// Added after those: int16 or int8 outputs with no fused activation (the bounds the output
    /// type's own) and output zero point 0, where the `sdot` tiles leave the clamp to the
    /// saturating narrows; whole 16-value chunks (direct), a tail, odd and even row counts.
    static let gemm16FullShapes: [(rows: Int, k: Int)] = [(2, 16), (4, 32), (5, 44), (3, 147)]

    /// The int16 table's GEMM (`IntegerKernels.all16`: `neon16` runs `booth_gemm_s16`, `neon-dot16`
    /// `booth_gemm_s16_dot`) on every int16 activation value (a quarter of them −32768, 32767, −1,
    /// 0, 255 or 256: the byte split's edges) with filters −127...127 (a quarter ±127), outputs
    /// cycling through int8, int16 and raw int32 (then the `full` cases: `slack` 3 int16, 4 int8).
    static var gemm16: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for (ci, n) in channelCounts.enumerated() {
            for (si, s) in gemm16Shapes.enumerated() {
                let kind = (ci + si) % 3
                cases.append(ConformanceCase(label: "n\(n)r\(s.rows)k\(s.k)\(["int8", "int16", "int32"][kind])",
                                             width: n, height: s.rows, slack: kind, extra: s.k))
            }
        }
        for (ci, n) in channelCounts.enumerated() {
            for (si, s) in gemm16TailShapes.enumerated() {
                let kind = (ci + si + 1) % 3
                cases.append(ConformanceCase(label: "n\(n)r\(s.rows)k\(s.k)\(["int8", "int16", "int32"][kind])",
                                             width: n, height: s.rows, slack: kind, extra: s.k))
            }
        }
        for (ci, n) in [8, 16, 17, 33].enumerated() {
            for (si, s) in gemm16FullShapes.enumerated() {
                let full = 3 + (ci + si) % 2
                cases.append(ConformanceCase(label: "n\(n)r\(s.rows)k\(s.k)\(full == 3 ? "int16" : "int8")full",
                                             width: n, height: s.rows, slack: full, extra: s.k))
            }
        }
        return ConformanceKernel(name: "nn.gemm16", cases: cases,
                                 benchCase: ConformanceCase(label: "n32r64k64int16", width: 32, height: 64, slack: 1, extra: 64),
                                 variantNames: IntegerKernels.all16.map { name($0.name) }) { c, r in
            let full = c.slack >= 3
            let n = c.width, rows = c.height, k = c.extra, kind = full ? (c.slack == 3 ? 1 : 0) : c.slack
            var w = randomInt8s(n * k, in: -127...127, &r)
            for i in w.indices where Int.random(in: 0..<4, using: &r) == 0 { w[i] = Bool.random(using: &r) ? 127 : -127 }
            let packed = PackedGEMMWeights(weights: w, outputChannels: n, depth: k)
            var multipliers: [FixedMultiplier] = []
            var bias: [Int32] = []
            for _ in 0..<n {
                multipliers.append(FixedMultiplier(Double.random(in: 0.000_000_5...0.5, using: &r)))
                bias.append(Int32.random(in: -1_000_000...1_000_000, using: &r))
            }
            let (lo, hi) = kind == 1
                ? (Int32.random(in: -32768...(-20000), using: &r), Int32.random(in: 20000...32767, using: &r))
                : (Int32.random(in: -128...(-100), using: &r), Int32.random(in: 100...127, using: &r))
            let zp = Int32.random(in: -10...10, using: &r)
            let stage = full
                ? OutputStage(bias: bias, multipliers: multipliers, outputZeroPoint: 0,
                              minimum: kind == 1 ? -32768 : -128, maximum: kind == 1 ? 32767 : 127)
                : OutputStage(bias: bias, multipliers: multipliers, outputZeroPoint: zp, minimum: lo, maximum: hi)
            let edges: [Int16] = [-32768, 32767, -1, 0, 255, 256]
            let a = TestPlane(count: rows * packed.depthStride, elementSize: 2, random: &r)
            let ap = a.elements(as: Int16.self)
            for row in 0..<rows {
                for d in 0..<packed.depthStride {
                    let i = row * packed.depthStride + d
                    if d >= k { ap[i] = 0 } else if Int.random(in: 0..<4, using: &r) == 0 { ap[i] = edges[Int.random(in: 0..<6, using: &r)] }
                }
            }
            func output(_ o: Plane) -> GEMMOutput {
                switch kind {
                case 0: return .int8(int8(o), rowStride: n, stage: stage)
                case 1: return .int16(int16(o), rowStride: n, stage: stage)
                default: return .int32(int32(o), rowStride: n)
                }
            }
            let all = IntegerKernels.all16.map { set in
                ConformanceVariant(name: name(set.name)) { i, o in set.gemm(UnsafePointer(int16(i[0])), rows, packed, output(o[0])) }
            }
            return ConformanceInstance(inputs: [a], outputs: [PlaneShape(width: rows * n, height: 1, bytesPerPixel: [1, 2, 4][kind])],
                                       reference: all[0], variants: Array(all.dropFirst()))
        }
    }

    // MARK: GEMM on int8 activations as they are (the sets' `gemm8`: NEON `smlal`, `sdot`)

    /// Row counts and depths of the int8-activation GEMM cases: below, at and above the 2-row
    /// `smlal` and 4-row `sdot` tiles, depths below, at and above the 16-byte step.
    static let gemm8Shapes: [(rows: Int, k: Int)] = [(1, 1), (2, 16), (3, 17), (4, 40), (5, 33), (8, 64), (9, 3)]
    /// Added after the first cases (so their seeds stay): depths ending three quads into a 16-byte
    /// step (`booth_gemm_s8_dot` runs only the quads that reach the depth), 4-row tiles and 1-3 rows left.
    static let gemm8TailShapes: [(rows: Int, k: Int)] = [(4, 12), (7, 28), (6, 44)]

    /// Every set with a `gemm8` (aarch64: `neon`'s `gemm8MLAL`, `neon-dot`'s `gemm8Dot`) against
    /// the scalar `gemmScalar` on `A − zeroPoint`, which `GEMM8Kernel` promises to equal bit for
    /// bit; outputs cycle through int8, int16 and raw int32. Rows are an odd number of bytes apart
    /// and hold seeded bytes past the depth (the kernels read to `depth16`; zero filters meet them).
    /// On a CPU whose sets have no `gemm8` (x86) only the reference runs, and its checksums are
    /// the golden ones the aarch64 sets are held to.
    static var gemm8: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for (ci, n) in channelCounts.enumerated() {
            for (si, s) in gemm8Shapes.enumerated() {
                let kind = (ci + si) % 3
                cases.append(ConformanceCase(label: "n\(n)r\(s.rows)k\(s.k)\(["int8", "int16", "int32"][kind])",
                                             width: n, height: s.rows, slack: kind, extra: s.k))
            }
        }
        for (ci, n) in channelCounts.enumerated() {
            for (si, s) in gemm8TailShapes.enumerated() {
                let kind = (ci + si + 1) % 3
                cases.append(ConformanceCase(label: "n\(n)r\(s.rows)k\(s.k)\(["int8", "int16", "int32"][kind])",
                                             width: n, height: s.rows, slack: kind, extra: s.k))
            }
        }
        let names = [name(IntegerKernels.scalar)] + sets.filter { $0.gemm8 != nil }.map { name($0) }
        return ConformanceKernel(name: "nn.gemm8", cases: cases,
                                 benchCase: ConformanceCase(label: "n32r64k64int8", width: 32, height: 64, extra: 64),
                                 variantNames: names) { c, r in
            let n = c.width, rows = c.height, k = c.extra, kind = c.slack
            let (packed, multipliers, bias) = randomGEMM(outputChannels: n, depth: k, &r)
            let (lo, hi) = kind == 1
                ? (Int32.random(in: -32768...(-20000), using: &r), Int32.random(in: 20000...32767, using: &r))
                : (Int32.random(in: -128...(-100), using: &r), Int32.random(in: 100...127, using: &r))
            let stage = OutputStage(bias: bias, multipliers: multipliers, outputZeroPoint: Int32.random(in: -10...10, using: &r),
                                    minimum: lo, maximum: hi)
            let zeroPoint = Int32.random(in: -128...127, using: &r)
            let rowStride = (k + 15) / 16 * 16 + 3
            let a = TestPlane(count: rows * rowStride, elementSize: 1, random: &r)
            let a8 = UnsafePointer(a.elements(as: Int8.self))
            // The reference's operand: A − zeroPoint over the depth, zero in the padding.
            var shifted = [Int16](repeating: 0, count: rows * packed.depthStride)
            for row in 0..<rows {
                for d in 0..<k { shifted[row * packed.depthStride + d] = Int16(a8[row * rowStride + d]) - Int16(zeroPoint) }
            }
            let a16 = shifted
            let esize = [1, 2, 4][kind]
            func output(_ o: Plane) -> GEMMOutput {
                switch kind {
                case 0: return .int8(int8(o), rowStride: n, stage: stage)
                case 1: return .int16(int16(o), rowStride: n, stage: stage)
                default: return .int32(int32(o), rowStride: n)
                }
            }
            let reference = ConformanceVariant(name: name(IntegerKernels.scalar)) { _, o in
                a16.withUnsafeBufferPointer { gemmScalar($0.baseAddress!, rows, packed, output(o[0])) }
            }
            // A set whose gemm8 cannot take the call leaves the output as it was: a difference.
            let variants = sets.compactMap { set -> ConformanceVariant? in
                guard let kernel = set.gemm8 else { return nil }
                return ConformanceVariant(name: name(set)) { i, o in
                    let out = output(o[0])
                    guard gemm8Applies(packed, out) else { return }
                    kernel(UnsafePointer(int8(i[0])), rows, rowStride, zeroPoint, packed, out)
                }
            }
            return ConformanceInstance(inputs: [a], outputs: [PlaneShape(width: rows * n, height: 1, bytesPerPixel: esize)],
                                       reference: reference, variants: variants)
        }
    }

    // MARK: Transposed convolution rows (float output)

    /// `(pixels, stride, outputChannels, inputChannels)` of `nn.transpose.rows`: landscape's and
    /// selfie's segmentation heads (2×2 stride 2, 16 → 1: 2 lanes of depth 16) on full and short
    /// 4-pixel groups, then odd depths (padded row stride), 4, 6, 16 and 1 lanes.
    static let transposeRowsShapes: [(pixels: Int, s: Int, oc: Int, ic: Int)] =
        [(64, 2, 1, 16), (13, 2, 1, 16), (3, 2, 1, 16), (1, 2, 1, 16), (9, 2, 2, 16), (7, 2, 1, 7),
         (10, 2, 3, 33), (5, 4, 4, 8), (6, 1, 1, 17), (4, 2, 2, 1)]

    /// One output row of `TransposeConvPlan.runRows`: the portable path (`gemmScalar` to int32,
    /// then the Swift float stage) against, on aarch64, `booth_transpose_rows_s16_f32` (the
    /// variant `neon`), which must equal it bit for bit. Activations cover the int16 range, rows
    /// hold seeded values past the depth (the kernels must not read them into the sums: the
    /// reference does not), and the clamp is none, ReLU6-like or ±1. Off aarch64 only the
    /// reference runs; its checksums are the golden ones.
    static var transposeRows: ConformanceKernel {
        let bounds: [(Float, Float)] = [(-.infinity, .infinity), (0, 6), (-1, 1)]
        var cases: [ConformanceCase] = []
        for (i, t) in transposeRowsShapes.enumerated() {
            cases.append(ConformanceCase(label: "p\(t.pixels)s\(t.s)o\(t.oc)i\(t.ic)c\(i % 3)",
                                         width: t.pixels, height: t.oc, slack: t.s * 4 + i % 3, extra: t.ic))
        }
#if arch(arm64)
        let names = [name(IntegerKernels.scalar), "neon"]
#else
        let names = [name(IntegerKernels.scalar)]
#endif
        return ConformanceKernel(name: "nn.transpose.rows", cases: cases,
                                 benchCase: ConformanceCase(label: "p128s2o1i16c0", width: 128, height: 1, slack: 8, extra: 16),
                                 variantNames: names) { c, r in
            let pixels = c.width, oc = c.height, s = c.slack / 4, ic = c.extra
            let (lower, upper) = bounds[c.slack % 4]
            let channels = s * oc
            let filters = randomInt8s(channels * ic, in: -127...127, &r)
            let packed = PackedGEMMWeights(weights: filters, outputChannels: channels, depth: ic)
            let scale = randomFloats(oc, in: 1e-5...2e-3, &r)
            let bias = randomFloats(oc, in: -3...3, &r)
            let k2 = packed.depthStride
            let a = TestPlane(count: pixels * k2, elementSize: 2, random: &r)
            let ap = a.elements(as: Int16.self)
            for p in 0..<pixels {
                for d in 0..<ic { ap[p * k2 + d] = Int16.random(in: .min ... .max, using: &r) }
            }
            let reference = ConformanceVariant(name: name(IntegerKernels.scalar)) { i, o in
                TransposeRowsKernels.reference(UnsafePointer(int16(i[0])), pixels: pixels, weights: packed, outputChannels: oc,
                                               scale: scale, bias: bias, lower: lower, upper: upper, output: float(o[0]))
            }
            var variants: [ConformanceVariant] = []
#if arch(arm64)
            // A shape the C kernel does not take leaves the output as it was: a difference.
            variants.append(ConformanceVariant(name: "neon") { i, o in
                _ = TransposeRowsKernels.neon(UnsafePointer(int16(i[0])), pixels: pixels, weights: packed, outputChannels: oc,
                                              scale: scale, bias: bias, lower: lower, upper: upper, output: float(o[0]))
            })
#endif
            return ConformanceInstance(inputs: [a], outputs: [PlaneShape(width: pixels * channels, height: 1, bytesPerPixel: 4)],
                                       reference: reference, variants: variants)
        }
    }

    // MARK: Depthwise convolution

    static let windowConfigs: [(kernel: Int, stride: Int, same: Bool)] =
        [(3, 1, true), (3, 2, true), (5, 1, true), (5, 2, true), (3, 1, false), (5, 2, false)]

    static var depthwise: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for ch in channelCounts {
            for (i, w) in windowConfigs.enumerated() {
                let size = i % 2 == 0 ? (6, 7) : (9, 5)
                cases.append(ConformanceCase(label: "c\(ch)k\(w.kernel)s\(w.stride)\(w.same ? "same" : "valid")\(size.0)x\(size.1)",
                                             width: size.1, height: size.0, slack: ch, extra: i))
            }
        }
        return ConformanceKernel(name: "nn.depthwise", cases: cases,
                                 benchCase: ConformanceCase(label: "c32k3s1same32x32", width: 32, height: 32, slack: 32, extra: 0),
                                 variantNames: variantNames) { c, r in
            let ch = c.slack, w = windowConfigs[c.extra]
            let geo = WindowGeometry(inputHeight: c.height, inputWidth: c.width, channels: ch, kernelHeight: w.kernel,
                                     kernelWidth: w.kernel, strideY: w.stride, strideX: w.stride, same: w.same)
            let pin = randomQuant(&r)
            let packed = PackedDepthwiseWeights(weights: randomInt8s(w.kernel * w.kernel * ch, in: -127...127, &r),
                                                kernelHeight: w.kernel, kernelWidth: w.kernel, channels: ch)
            var multipliers: [FixedMultiplier] = []
            var bias: [Int32] = []
            for _ in 0..<ch {
                multipliers.append(FixedMultiplier(Double.random(in: 0.0005...0.02, using: &r)))
                bias.append(Int32.random(in: -3000...3000, using: &r))
            }
            let stage = OutputStage(bias: bias, multipliers: multipliers, outputZeroPoint: Int32.random(in: -10...10, using: &r))
            let input = TestPlane(count: c.height * c.width * ch, elementSize: 1, random: &r)
            let (ref, vars) = variants { set, i, o in set.depthwise(UnsafePointer(int8(i[0])), geo, pin.zeroPoint, packed, stage, int8(o[0])) }
            return ConformanceInstance(inputs: [input], outputs: [int8Output(geo.outputPixels * ch)], reference: ref, variants: vars)
        }
    }

    /// `depthwise16`'s geometries: (input h, w, kernel, stride, pad top, left, bottom, right);
    /// negative pads mean SAME. The SAME shapes of the segmentation models' 5×5 layers (9×16 at
    /// stride 1, 18×32 at stride 2), fewer than four output columns, odd explicit pads.
    static let depthwise16Geometries: [(h: Int, w: Int, k: Int, s: Int, pt: Int, pl: Int, pb: Int, pr: Int)] = [
        (9, 16, 5, 1, -1, 0, 0, 0), (18, 32, 5, 2, -1, 0, 0, 0), (6, 7, 3, 1, -1, 0, 0, 0), (9, 5, 3, 2, -1, 0, 0, 0),
        (6, 7, 5, 1, -1, 0, 0, 0), (9, 5, 5, 2, -1, 0, 0, 0), (2, 3, 5, 1, -1, 0, 0, 0), (13, 13, 3, 1, 2, 1, 0, 2),
        (7, 20, 5, 2, 1, 2, 1, 1), (11, 14, 5, 1, 0, 0, 0, 0), (10, 6, 3, 2, 0, 1, 2, 0),
    ]

    /// The int16 table's depthwise (`IntegerKernels.all16`: `neon16` runs
    /// `booth_depthwise_layer_s16` for 3×3 / 5×5 at stride 1 or 2, else the row and border
    /// kernels): symmetric int16 input (zero point 0, any int16 value), ±127 filters, biases and
    /// multipliers wide enough to reach the int16 clamp.
    static var depthwise16: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for ch in [1, 8, 9, 16, 17, 24, 33] {
            for (i, g) in depthwise16Geometries.enumerated() {
                cases.append(ConformanceCase(label: "c\(ch)k\(g.k)s\(g.s)_\(g.h)x\(g.w)\(g.pt < 0 ? "same" : "p\(g.pt)\(g.pl)\(g.pb)\(g.pr)")",
                                             width: g.w, height: g.h, slack: ch, extra: i))
            }
        }
        return ConformanceKernel(name: "nn.depthwise16", cases: cases,
                                 benchCase: ConformanceCase(label: "c96k5s1same9x16", width: 16, height: 9, slack: 96, extra: 0),
                                 variantNames: IntegerKernels.all16.map { name($0.name) }) { c, r in
            let ch = c.slack, d = depthwise16Geometries[c.extra]
            let geo: WindowGeometry
            if d.pt < 0 {
                geo = WindowGeometry(inputHeight: d.h, inputWidth: d.w, channels: ch, kernelHeight: d.k, kernelWidth: d.k,
                                     strideY: d.s, strideX: d.s, same: true)
            } else {
                geo = WindowGeometry(inputHeight: d.h, inputWidth: d.w, channels: ch, kernelHeight: d.k, kernelWidth: d.k,
                                     strideY: d.s, strideX: d.s, padTop: d.pt, padLeft: d.pl,
                                     outputHeight: (d.h + d.pt + d.pb - d.k) / d.s + 1,
                                     outputWidth: (d.w + d.pl + d.pr - d.k) / d.s + 1)
            }
            let packed = PackedDepthwiseWeights(weights: randomInt8s(d.k * d.k * ch, in: -127...127, &r),
                                                kernelHeight: d.k, kernelWidth: d.k, channels: ch)
            var multipliers: [FixedMultiplier] = []
            var bias: [Int32] = []
            for _ in 0..<ch {
                multipliers.append(FixedMultiplier(Double.random(in: 1e-5...0.5, using: &r)))
                bias.append(Int32.random(in: -2_000_000...2_000_000, using: &r))
            }
            let stage = OutputStage(bias: bias, multipliers: multipliers, outputZeroPoint: 0, minimum: -32768, maximum: 32767)
            let input = TestPlane(count: d.h * d.w * ch, elementSize: 2, random: &r)
            let all = IntegerKernels.all16.map { set in
                ConformanceVariant(name: name(set.name)) { i, o in
                    set.depthwise(UnsafePointer(int16(i[0])), geo, 0, packed, stage, int16(o[0]))
                }
            }
            return ConformanceInstance(inputs: [input], outputs: [PlaneShape(width: geo.outputPixels * ch, height: 1, bytesPerPixel: 2)],
                                       reference: all[0], variants: Array(all.dropFirst()))
        }
    }

    // MARK: Pooling and mean

    static let poolConfigs: [(kernel: Int, stride: Int, same: Bool)] = [(2, 2, false), (3, 2, true), (3, 1, true)]

    static func pool(_ kind: PoolParams.Kind) -> ConformanceKernel {
        var cases: [ConformanceCase] = []
        for ch in channelCounts {
            for (i, p) in poolConfigs.enumerated() {
                cases.append(ConformanceCase(label: "c\(ch)k\(p.kernel)s\(p.stride)\(p.same ? "same" : "valid")7x6",
                                             width: 6, height: 7, slack: ch, extra: i))
            }
        }
        return ConformanceKernel(name: kind == .max ? "nn.pool.max" : "nn.pool.average", cases: cases,
                                 benchCase: ConformanceCase(label: "c32k2s2valid32x32", width: 32, height: 32, slack: 32, extra: 0),
                                 variantNames: variantNames) { c, r in
            let ch = c.slack, p = poolConfigs[c.extra]
            let geo = WindowGeometry(inputHeight: c.height, inputWidth: c.width, channels: ch, kernelHeight: p.kernel,
                                     kernelWidth: p.kernel, strideY: p.stride, strideX: p.stride, same: p.same)
            let params = PoolParams(kind, minimum: Int32.random(in: -128...(-90), using: &r), maximum: Int32.random(in: 90...127, using: &r))
            let input = TestPlane(count: c.height * c.width * ch, elementSize: 1, random: &r)
            let (ref, vars) = variants { set, i, o in set.pool(UnsafePointer(int8(i[0])), geo, params, int8(o[0])) }
            return ConformanceInstance(inputs: [input], outputs: [int8Output(geo.outputPixels * ch)], reference: ref, variants: vars)
        }
    }

    static var mean: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for ch in channelCounts {
            for pixels in [1, 4, 49, 256] { cases.append(ConformanceCase(label: "c\(ch)p\(pixels)", width: ch, height: pixels)) }
        }
        return ConformanceKernel(name: "nn.mean", cases: cases, benchCase: ConformanceCase(label: "c64p256", width: 64, height: 256),
                                 variantNames: variantNames) { c, r in
            let ch = c.width, pixels = c.height
            let pin = randomQuant(&r)
            let pout = QuantParams(scale: pin.scale * Float.random(in: 0.5...1, using: &r), zeroPoint: Int32.random(in: -10...10, using: &r))
            let params = MeanParams(input: pin, output: pout, pixels: pixels)
            let input = TestPlane(count: pixels * ch, elementSize: 1, random: &r)
            let (ref, vars) = variants { set, i, o in set.mean(UnsafePointer(int8(i[0])), pixels, ch, params, int8(o[0])) }
            return ConformanceInstance(inputs: [input], outputs: [int8Output(ch)], reference: ref, variants: vars)
        }
    }

    /// The int16 table's MAX/AVERAGE_POOL_2D (`IntegerKernels.all16`: `neon16` runs
    /// `booth_pool_s16`, neural_glue.c): the int8 kernel's windows, plus 2×2 stride 2 VALID on an
    /// even input (the detector's form) and a global window (selfie's average pools), every
    /// int16 value, bounds near the type's ends.
    static let pool16Configs: [(kernel: Int, stride: Int, same: Bool)] = poolConfigs + [(2, 2, false), (0, 1, false)]

    static func pool16(_ kind: PoolParams.Kind) -> ConformanceKernel {
        var cases: [ConformanceCase] = []
        for ch in channelCounts + [28, 42] {
            for (i, p) in pool16Configs.enumerated() {
                let (w, h) = i == 3 ? (8, 6) : (6, 7)
                let k = p.kernel == 0 ? "global" : "k\(p.kernel)s\(p.stride)\(p.same ? "same" : "valid")"
                cases.append(ConformanceCase(label: "c\(ch)\(k)\(h)x\(w)", width: w, height: h, slack: ch, extra: i))
            }
        }
        return ConformanceKernel(name: kind == .max ? "nn.pool16.max" : "nn.pool16.average", cases: cases,
                                 benchCase: ConformanceCase(label: "c32k2s2valid32x32", width: 32, height: 32, slack: 32, extra: 0),
                                 variantNames: IntegerKernels.all16.map { name($0.name) }) { c, r in
            let ch = c.slack, p = pool16Configs[c.extra]
            let kh = p.kernel == 0 ? c.height : p.kernel, kw = p.kernel == 0 ? c.width : p.kernel
            let geo = WindowGeometry(inputHeight: c.height, inputWidth: c.width, channels: ch, kernelHeight: kh,
                                     kernelWidth: kw, strideY: p.stride, strideX: p.stride, same: p.same)
            let params = PoolParams(kind, minimum: Int32.random(in: -32768...(-20000), using: &r),
                                    maximum: Int32.random(in: 20000...32767, using: &r))
            let input = TestPlane(count: c.height * c.width * ch, elementSize: 2, random: &r)
            let all = IntegerKernels.all16.map { set in
                ConformanceVariant(name: name(set.name)) { i, o in set.pool(UnsafePointer(int16(i[0])), geo, params, int16(o[0])) }
            }
            return ConformanceInstance(inputs: [input], outputs: [PlaneShape(width: geo.outputPixels * ch, height: 1, bytesPerPixel: 2)],
                                       reference: all[0], variants: Array(all.dropFirst()))
        }
    }

    /// The int16 table's MEAN (`neon16` runs `booth_mean_s16`): symmetric int16 input (zero point
    /// 0, every int16 value), an output zero point of 0 or not, saturation included.
    static var mean16: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for ch in channelCounts + [96, 128] {
            for pixels in [1, 4, 49, 144, 576] { cases.append(ConformanceCase(label: "c\(ch)p\(pixels)", width: ch, height: pixels)) }
        }
        return ConformanceKernel(name: "nn.mean16", cases: cases, benchCase: ConformanceCase(label: "c64p256", width: 64, height: 256),
                                 variantNames: IntegerKernels.all16.map { name($0.name) }) { c, r in
            let ch = c.width, pixels = c.height
            let pin = QuantParams(scale: Float.random(in: 0.0001...0.01, using: &r), zeroPoint: 0)
            let pout = QuantParams(scale: pin.scale * Float.random(in: 0.5...4, using: &r),
                                   zeroPoint: ch % 2 == 0 ? 0 : Int32.random(in: -20...20, using: &r))
            let params = MeanParams(input: pin, output: pout, pixels: pixels)
            let input = TestPlane(count: pixels * ch, elementSize: 2, random: &r)
            let all = IntegerKernels.all16.map { set in
                ConformanceVariant(name: name(set.name)) { i, o in set.mean(UnsafePointer(int16(i[0])), pixels, ch, params, int16(o[0])) }
            }
            return ConformanceInstance(inputs: [input], outputs: [PlaneShape(width: ch, height: 1, bytesPerPixel: 2)],
                                       reference: all[0], variants: Array(all.dropFirst()))
        }
    }

    // MARK: Activations

    static let lookupFunctions: [(name: String, f: @Sendable (Float) -> Float)] = [
        ("relu", LookupTable.relu), ("relu6", LookupTable.relu6), ("hardswish", LookupTable.hardSwish),
        ("logistic", LookupTable.logistic),
    ]

    static var lookup: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for (fi, f) in lookupFunctions.enumerated() {
            for n in [1, 8, 13, 64, 100] { cases.append(ConformanceCase(label: "\(f.name)n\(n)", width: n, extra: fi)) }
        }
        return ConformanceKernel(name: "nn.lookup", cases: cases, benchCase: ConformanceCase(label: "logisticn4096", width: 4096, extra: 3),
                                 variantNames: variantNames) { c, r in
            let n = c.width
            let lo = -Float.random(in: 1...8, using: &r)
            let pin = QuantParams(min: lo, max: Float.random(in: 1...8, using: &r))
            let pout = QuantParams(min: -Float.random(in: 0.1...1, using: &r), max: Float.random(in: 1...6.5, using: &r))
            let table = LookupTable(input: pin, output: pout, lookupFunctions[c.extra].f)
            let input = TestPlane(count: n, elementSize: 1, random: &r)
            let (ref, vars) = variants { set, i, o in set.lookup(UnsafePointer(int8(i[0])), n, table, int8(o[0])) }
            return ConformanceInstance(inputs: [input], outputs: [int8Output(n)], reference: ref, variants: vars)
        }
    }

    // MARK: Float convolutions (the float path's kernels, fused arithmetic)

    /// One float convolution case: input size, output channels, window, stride, dilation, padding,
    /// activation (0 none, 1 relu, 2 relu6, 3 reluN1To1).
    struct FloatConvShape {
        var label: String
        var inH: Int, inW: Int, inC: Int, outC: Int, k: Int, stride: Int, dilation: Int, pad: Int, activation: Int
    }

    /// Pixel counts around the 8- and 4-pixel tiles, channel counts around the 8- and 4-lane
    /// blocks, 1×1, k×k with borders, stride 2, dilation 2, overlapping transposed windows and
    /// windows that tile the output (stride = kernel).
    static func floatConvShapes(_ kind: FloatConvolutionVariants.Kind) -> [FloatConvShape] {
        switch kind {
        case .conv:
            return [FloatConvShape(label: "pw5x7c17o19", inH: 5, inW: 7, inC: 17, outC: 19, k: 1, stride: 1, dilation: 1, pad: 0, activation: 2),
                    FloatConvShape(label: "pw3x3c4o8", inH: 3, inW: 3, inC: 4, outC: 8, k: 1, stride: 1, dilation: 1, pad: 0, activation: 0),
                    FloatConvShape(label: "k5s2c3o24", inH: 11, inW: 13, inC: 3, outC: 24, k: 5, stride: 2, dilation: 1, pad: 2, activation: 1),
                    FloatConvShape(label: "k3c16o12", inH: 9, inW: 10, inC: 16, outC: 12, k: 3, stride: 1, dilation: 1, pad: 1, activation: 0),
                    FloatConvShape(label: "k3d2c5o9", inH: 9, inW: 9, inC: 5, outC: 9, k: 3, stride: 1, dilation: 2, pad: 2, activation: 1),
                    FloatConvShape(label: "k3valid", inH: 6, inW: 20, inC: 8, outC: 8, k: 3, stride: 1, dilation: 1, pad: 0, activation: 3)]
        case .depthwise:
            return [FloatConvShape(label: "k3c16", inH: 9, inW: 10, inC: 16, outC: 16, k: 3, stride: 1, dilation: 1, pad: 1, activation: 1),
                    FloatConvShape(label: "k5s2c19", inH: 12, inW: 21, inC: 19, outC: 19, k: 5, stride: 2, dilation: 1, pad: 2, activation: 0),
                    FloatConvShape(label: "k3s2c4", inH: 7, inW: 9, inC: 4, outC: 4, k: 3, stride: 2, dilation: 1, pad: 1, activation: 2),
                    FloatConvShape(label: "k3d2c13", inH: 8, inW: 8, inC: 13, outC: 13, k: 3, stride: 1, dilation: 2, pad: 2, activation: 3)]
        case .transpose:
            return [FloatConvShape(label: "k2s2c16o1", inH: 8, inW: 9, inC: 16, outC: 1, k: 2, stride: 2, dilation: 1, pad: 0, activation: 0),
                    FloatConvShape(label: "k3s2c8o6", inH: 5, inW: 6, inC: 8, outC: 6, k: 3, stride: 2, dilation: 1, pad: 1, activation: 0),
                    FloatConvShape(label: "k4s2c3o17", inH: 4, inW: 13, inC: 3, outC: 17, k: 4, stride: 2, dilation: 1, pad: 1, activation: 0),
                    FloatConvShape(label: "k2s2c5o6", inH: 3, inW: 13, inC: 5, outC: 6, k: 2, stride: 2, dilation: 1, pad: 0, activation: 0),
                    FloatConvShape(label: "k3s3c4o2", inH: 2, inW: 5, inC: 4, outC: 2, k: 3, stride: 3, dilation: 1, pad: 0, activation: 0)]
        }
    }

    /// CONV_2D, DEPTHWISE_CONV_2D and the transposed convolution of the float path: the scalar
    /// reference, the Swift SIMD kernels and (aarch64) the C NEON kernels on seeded inputs,
    /// weights and biases (a few exact zeros and −0 among them).
    static func floatConvolution(_ kind: FloatConvolutionVariants.Kind) -> ConformanceKernel {
        let shapes = floatConvShapes(kind)
        let name = kind == .conv ? "nn.fconv" : kind == .depthwise ? "nn.fdepthwise" : "nn.ftranspose"
        var cases: [ConformanceCase] = []
        for (i, s) in shapes.enumerated() { cases.append(ConformanceCase(label: s.label, width: s.inW, height: s.inH, extra: i)) }
        return ConformanceKernel(name: name, cases: cases, benchCase: cases[0], variantNames: FloatConvolutionVariants.names(kind)) { c, r in
            let s = shapes[c.extra]
            let span = (s.k - 1) * s.dilation + 1
            let outH = kind == .transpose ? s.inH * s.stride : (s.inH + 2 * s.pad - span) / s.stride + 1
            let outW = kind == .transpose ? s.inW * s.stride : (s.inW + 2 * s.pad - span) / s.stride + 1
            func values(_ n: Int, _ r: inout ConformanceRandom) -> [Float] {
                var v: [Float] = []
                for i in 0..<n { v.append(i % 11 == 5 ? 0 : i % 13 == 7 ? -0.0 : Float.random(in: -1...1, using: &r)) }
                return v
            }
            let weightCount = kind == .depthwise ? s.k * s.k * s.outC : s.outC * s.k * s.k * s.inC
            let activations: [Activation] = [.none, .relu, .relu6, .reluN1To1]
            let setup = FloatConvolutionVariants.Setup(
                kind, inH: s.inH, inW: s.inW, inC: s.inC, outH: outH, outW: outW, outC: s.outC, kH: s.k, kW: s.k,
                strideH: s.stride, strideW: s.stride, dilationH: s.dilation, dilationW: s.dilation, padTop: s.pad, padLeft: s.pad,
                activation: activations[s.activation], weights: values(weightCount, &r), bias: values(s.outC, &r))
            let n = s.inH * s.inW * s.inC
            let input = TestPlane(count: n, elementSize: 4, random: &r)
            let x = float(input.plane)
            let xs = values(n, &r)
            for i in 0..<n { x[i] = xs[i] * 3 }
            let all = FloatConvolutionVariants.names(kind).enumerated().map { (index, variant) in
                ConformanceVariant(name: variant) { i, o in setup.run(variant: index, input: UnsafePointer(float(i[0])), output: float(o[0])) }
            }
            return ConformanceInstance(inputs: [input], outputs: [PlaneShape(width: outH * outW * s.outC, height: 1, bytesPerPixel: 4)],
                                       reference: all[0], variants: Array(all.dropFirst()))
        }
    }

    // MARK: Float elementwise (the float path's ADD / MUL / PRELU with broadcasting)

    /// Shapes (a, b, out): contiguous rows with and without a tail below 8, a per-channel vector
    /// (squeeze-and-excitation), one value per pixel on either side, one row for every row.
    static let floatBinaryShapes: [(label: String, a: [Int], b: [Int], out: [Int])] = [
        ("c16", [1, 2, 5, 16], [1, 2, 5, 16], [1, 2, 5, 16]),
        ("c13", [1, 2, 4, 13], [1, 2, 4, 13], [1, 2, 4, 13]),
        ("se24", [1, 3, 5, 24], [1, 1, 1, 24], [1, 3, 5, 24]),
        ("bpix11", [1, 3, 5, 11], [1, 3, 5, 1], [1, 3, 5, 11]),
        ("apix10", [1, 3, 5, 1], [1, 3, 5, 10], [1, 3, 5, 10]),
        ("brow9", [1, 3, 7, 9], [1, 3, 1, 9], [1, 3, 7, 9]),
    ]
    /// (operation 0 ADD, 1 MUL, 2 PRELU; activation) pairs run on every shape.
    static let floatBinaryOps: [(label: String, op: Int, activation: Activation)] = [
        ("add-relu", 0, .relu), ("mul", 1, .none), ("mul-relu6", 1, .relu6), ("prelu", 2, .none),
    ]

    /// FloatKernels.binary's Swift rows against its C NEON rows (aarch64), on values with exact
    /// zeros, −0 and NaN among them (−0 at a relu's bound tells the two clamps apart).
    static var floatBinary: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for (si, s) in floatBinaryShapes.enumerated() {
            for (oi, o) in floatBinaryOps.enumerated() {
                cases.append(ConformanceCase(label: "\(s.label)-\(o.label)", width: s.out[3], height: s.out[1] * s.out[2],
                                             extra: si * floatBinaryOps.count + oi))
            }
        }
        return ConformanceKernel(name: "nn.fbinary", cases: cases, benchCase: cases[0], variantNames: FloatBinaryVariants.names) { c, r in
            let s = floatBinaryShapes[c.extra / floatBinaryOps.count], o = floatBinaryOps[c.extra % floatBinaryOps.count]
            // NaN only in a and no infinities (inf · 0 and inf − inf give different NaNs on x86 and
            // aarch64; a NaN operand comes through unchanged on both).
            func plane(_ shape: [Int], _ special: [Float], _ r: inout ConformanceRandom) -> TestPlane {
                let n = shape.reduce(1, *)
                let p = TestPlane(count: n, elementSize: 4, random: &r)
                let x = float(p.plane)
                for i in 0..<n { x[i] = i % 5 == 3 ? special[(i / 5) % special.count] : Float.random(in: -8...8, using: &r) }
                return p
            }
            let a = plane(s.a, [0, -0.0, .nan, 6, -6, -0.0], &r), b = plane(s.b, [0, -0.0, 6, -6], &r)
            let all = FloatBinaryVariants.names.enumerated().map { (index, variant) in
                ConformanceVariant(name: variant) { i, out in
                    FloatBinaryVariants.run(variant: index, op: o.op, activation: o.activation, a: UnsafePointer(float(i[0])), shape: s.a,
                                            b: UnsafePointer(float(i[1])), shape: s.b, out: s.out, output: float(out[0]))
                }
            }
            return ConformanceInstance(inputs: [a, b], outputs: [PlaneShape(width: s.out.reduce(1, *), height: 1, bytesPerPixel: 4)],
                                       reference: all[0], variants: Array(all.dropFirst()))
        }
    }

    // MARK: LOGISTIC with a float output

    /// Values across `FloatMath.exp`'s clamp (−87.3...88.7) and beyond, every fourth one special
    /// (NaN, ±∞, ±0, the clamp bounds, tiny and large values), in counts around the 4-lane step.
    static var logistic: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for n in [1, 3, 4, 5, 8, 17, 100] { cases.append(ConformanceCase(label: "n\(n)", width: n)) }
        return ConformanceKernel(name: "nn.logistic", cases: cases, benchCase: ConformanceCase(label: "n4096", width: 4096),
                                 variantNames: variantNames) { c, r in
            let n = c.width
            let special: [Float] = [.nan, .infinity, -.infinity, 0, -0.0, 88.7, -87.3, 1e-30, -150, 150]
            let input = TestPlane(count: n, elementSize: 4, random: &r)
            let x = float(input.plane)
            for i in 0..<n {
                x[i] = i % 4 == 3 ? special[(i / 4) % special.count] : Float.random(in: -100...100, using: &r)
            }
            let (ref, vars) = variants { set, i, o in set.logistic(UnsafePointer(float(i[0])), n, float(o[0])) }
            return ConformanceInstance(inputs: [input], outputs: [PlaneShape(width: n, height: 1, bytesPerPixel: 4)],
                                       reference: ref, variants: vars)
        }
    }

    // MARK: QUANTIZE / DEQUANTIZE at the float boundaries

    static let boundaryCounts = [1, 7, 8, 9, 15, 16, 17, 31, 33, 100]

    /// float32 → int8 / int16 (`quantize`): values far past both clamp bounds, ties (scales of
    /// 2^-k, so x · (1 / scale) lands on .5), ±0 and ±∞ (not NaN: the reference traps on it);
    /// random zero points, and for int16 a zero point of 0 in every other case (the NEON kernel
    /// has a loop for each).
    static func quantize(int16 wide: Bool) -> ConformanceKernel {
        let cases = boundaryCounts.map { ConformanceCase(label: "n\($0)", width: $0) }
        let names = wide ? IntegerKernels.all16.map { name($0.name) } : variantNames
        return ConformanceKernel(name: wide ? "nn.quantize16" : "nn.quantize", cases: cases,
                                 benchCase: ConformanceCase(label: "n4096", width: 4096), variantNames: names) { c, r in
            let n = c.width
            let tie = r.next() % 2 == 0
            let scale = tie ? Float(1) / Float(1 << (r.next() % 8)) : (wide ? Float.random(in: 0.0001...0.01, using: &r)
                                                                            : Float.random(in: 0.005...0.1, using: &r))
            let zp: Int32 = wide ? (n % 2 == 1 ? 0 : Int32.random(in: -300...300, using: &r)) : Int32.random(in: -128...127, using: &r)
            let p = QuantParams(scale: scale, zeroPoint: zp)
            let limit = scale * (wide ? 40000 : 200)
            let special: [Float] = [.infinity, -.infinity, 0, -0.0, 1e30, -1e30, 3e9 * scale, -3e9 * scale]
            let input = TestPlane(count: n, elementSize: 4, random: &r)
            let x = float(input.plane)
            for i in 0..<n {
                if i % 5 == 4 { x[i] = special[(i / 5) % special.count]; continue }
                x[i] = tie ? Float(Int.random(in: -2000...2000, using: &r)) * scale / 2 : Float.random(in: -limit...limit, using: &r)
            }
            let output = PlaneShape(width: n, height: 1, bytesPerPixel: wide ? 2 : 1)
            if wide {
                let all = IntegerKernels.all16.map { set in
                    ConformanceVariant(name: name(set.name)) { i, o in set.quantize(UnsafePointer(float(i[0])), n, p, int16(o[0])) }
                }
                return ConformanceInstance(inputs: [input], outputs: [output], reference: all[0], variants: Array(all.dropFirst()))
            }
            let (ref, vars) = variants { set, i, o in set.quantize(UnsafePointer(float(i[0])), n, p, int8(o[0])) }
            return ConformanceInstance(inputs: [input], outputs: [output], reference: ref, variants: vars)
        }
    }

    /// int8 / int16 → float32 (`dequantize`): every value of the type, random scales and zero
    /// points (for int16 0 in every other case).
    static func dequantize(int16 wide: Bool) -> ConformanceKernel {
        let cases = boundaryCounts.map { ConformanceCase(label: "n\($0)", width: $0) }
        let names = wide ? IntegerKernels.all16.map { name($0.name) } : variantNames
        return ConformanceKernel(name: wide ? "nn.dequantize16" : "nn.dequantize", cases: cases,
                                 benchCase: ConformanceCase(label: "n4096", width: 4096), variantNames: names) { c, r in
            let n = c.width
            let scale = Float.random(in: 0.0001...0.1, using: &r)
            let zp: Int32 = wide ? (n % 2 == 1 ? 0 : Int32.random(in: -300...300, using: &r)) : Int32.random(in: -128...127, using: &r)
            let p = QuantParams(scale: scale, zeroPoint: zp)
            let input = TestPlane(count: n, elementSize: wide ? 2 : 1, random: &r)
            let output = PlaneShape(width: n, height: 1, bytesPerPixel: 4)
            if wide {
                let all = IntegerKernels.all16.map { set in
                    ConformanceVariant(name: name(set.name)) { i, o in set.dequantize(UnsafePointer(int16(i[0])), n, p, float(o[0])) }
                }
                return ConformanceInstance(inputs: [input], outputs: [output], reference: all[0], variants: Array(all.dropFirst()))
            }
            let (ref, vars) = variants { set, i, o in set.dequantize(UnsafePointer(int8(i[0])), n, p, float(o[0])) }
            return ConformanceInstance(inputs: [input], outputs: [output], reference: ref, variants: vars)
        }
    }

    static var prelu: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for ch in channelCounts {
            for pixels in [1, 5] { cases.append(ConformanceCase(label: "c\(ch)p\(pixels)", width: ch, height: pixels)) }
        }
        return ConformanceKernel(name: "nn.prelu", cases: cases, benchCase: ConformanceCase(label: "c32p128", width: 32, height: 128),
                                 variantNames: variantNames) { c, r in
            let ch = c.width, pixels = c.height
            let pin = randomQuant(&r)
            let pout = QuantParams(scale: pin.scale * Float.random(in: 0.7...1.5, using: &r), zeroPoint: Int32.random(in: -30...30, using: &r))
            let params = PReLUParams(input: pin, output: pout, alpha: randomFloats(ch, in: -0.5...1.5, &r))
            let input = TestPlane(count: pixels * ch, elementSize: 1, random: &r)
            let (ref, vars) = variants { set, i, o in set.prelu(UnsafePointer(int8(i[0])), pixels, params, int8(o[0])) }
            return ConformanceInstance(inputs: [input], outputs: [int8Output(pixels * ch)], reference: ref, variants: vars)
        }
    }

    /// An int8 ADD (no broadcast, any fused activation) and a PRELU of its output in one pass
    /// (`addThenPReLU`: `booth_add_prelu_s8` on aarch64, `booth_x86_add_prelu_s8` with AVX2),
    /// against the scalar formulas; the PRELU's input parameters are the ADD's output ones, as in
    /// the lowering.
    static var addPReLU: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for ch in channelCounts {
            for pixels in [1, 3] { cases.append(ConformanceCase(label: "c\(ch)p\(pixels)", width: ch, height: pixels)) }
        }
        return ConformanceKernel(name: "nn.addPrelu", cases: cases, benchCase: ConformanceCase(label: "c32p128", width: 32, height: 128),
                                 variantNames: variantNames) { c, r in
            let ch = c.width, pixels = c.height, count = ch * pixels
            let p1 = randomQuant(&r), p2 = randomQuant(&r)
            let sum = QuantParams(scale: max(p1.scale, p2.scale) * Float.random(in: 1...2.5, using: &r),
                                  zeroPoint: Int32.random(in: -20...20, using: &r))
            let add = ElementwiseParams(.add, p1, p2, output: sum, activation: randomActivation(&r))
            let pout = QuantParams(scale: sum.scale * Float.random(in: 0.7...1.5, using: &r), zeroPoint: Int32.random(in: -30...30, using: &r))
            let prelu = PReLUParams(input: sum, output: pout, alpha: randomFloats(ch, in: -0.5...1.5, &r))
            let a = TestPlane(count: count, elementSize: 1, random: &r)
            let b = TestPlane(count: count, elementSize: 1, random: &r)
            let (ref, vars) = variants { set, i, o in
                set.addThenPReLU(UnsafePointer(int8(i[0])), UnsafePointer(int8(i[1])), count, add, prelu, int8(o[0]))
            }
            return ConformanceInstance(inputs: [a, b], outputs: [int8Output(count)], reference: ref, variants: vars)
        }
    }

    // MARK: Bilinear resize

    static let resizeSizes: [(ih: Int, iw: Int, oh: Int, ow: Int)] = [(4, 5, 8, 10), (3, 3, 7, 5), (6, 8, 3, 4)]

    /// The int16 table's ADD / MUL (`IntegerKernels.all16`: `neon16` runs `booth_elementwise_s16`),
    /// symmetric int16 operands (zero points 0, any int16 value) and an output zero point of 0 or
    /// not, every period. The `…none` cases (appended, so the others keep their seeds) have no
    /// fused activation and an output zero point of 0: the forms that leave the clamp to the
    /// saturating narrow.
    static func elementwise16(_ op: ElementwiseParams.Operation) -> ConformanceKernel {
        var cases: [ConformanceCase] = []
        for ch in channelCounts {
            for (pi, period) in ["full", "channel", "scalar"].enumerated() {
                cases.append(ConformanceCase(label: "c\(ch)p3\(period)", width: ch, height: 3, extra: pi))
            }
        }
        for ch in [8, 17, 24, 33] {
            for (pi, period) in ["full", "channel", "scalar"].enumerated() {
                cases.append(ConformanceCase(label: "c\(ch)p3\(period)none", width: ch, height: 3, extra: 3 + pi))
            }
        }
        return ConformanceKernel(name: op == .add ? "nn.add16" : "nn.mul16", cases: cases,
                                 benchCase: ConformanceCase(label: "c64p64full", width: 64, height: 64),
                                 variantNames: IntegerKernels.all16.map { name($0.name) }) { c, r in
            let count = c.width * c.height
            let plain = c.extra >= 3
            let mode = plain ? c.extra - 3 : c.extra
            let period = mode == 0 ? count : (mode == 1 ? c.width : 1)
            let p1 = QuantParams(scale: Float.random(in: 0.0001...0.01, using: &r), zeroPoint: 0)
            let p2 = QuantParams(scale: Float.random(in: 0.0001...0.01, using: &r), zeroPoint: 0)
            let outScale = op == .add
                ? max(p1.scale, p2.scale) * Float.random(in: 1...2.5, using: &r)
                : p1.scale * p2.scale * Float.random(in: 4000...30000, using: &r)
            let pout = QuantParams(scale: outScale, zeroPoint: c.width % 2 == 0 || plain ? 0 : Int32.random(in: -20...20, using: &r))
            let params = ElementwiseParams(op, p1, p2, output: pout, activation: plain ? .none : randomActivation(&r), as: Int16.self)
            let a = TestPlane(count: count, elementSize: 2, random: &r)
            let b = TestPlane(count: period, elementSize: 2, random: &r)
            let all = IntegerKernels.all16.map { set in
                ConformanceVariant(name: name(set.name)) { i, o in
                    set.elementwise(int16(i[0]), int16(i[1]), count, period, params, int16(o[0]))
                }
            }
            return ConformanceInstance(inputs: [a, b], outputs: [PlaneShape(width: count, height: 1, bytesPerPixel: 2)],
                                       reference: all[0], variants: Array(all.dropFirst()))
        }
    }

    static var resize: ConformanceKernel { resize(int16: false) }

    /// The int16 table's resize (`IntegerKernels.all16`: `neon16` runs `booth_resize_rows_s16`).
    static var resize16: ConformanceKernel { resize(int16: true) }

    static func resize(int16 wide: Bool) -> ConformanceKernel {
        var cases: [ConformanceCase] = []
        let modes = ["plain", "align", "half"]
        for ch in channelCounts {
            for (si, s) in resizeSizes.enumerated() {
                let mode = (ch + si) % 3
                cases.append(ConformanceCase(label: "c\(ch)_\(s.ih)x\(s.iw)to\(s.oh)x\(s.ow)_\(modes[mode])",
                                             width: ch, height: si, extra: mode))
            }
        }
        let names = wide ? IntegerKernels.all16.map { name($0.name) } : variantNames
        return ConformanceKernel(name: wide ? "nn.resize16" : "nn.resize", cases: cases,
                                 benchCase: ConformanceCase(label: "c16bench", width: 16, height: 3, extra: 2),
                                 variantNames: names) { c, r in
            let ch = c.width
            let s = c.height < resizeSizes.count ? resizeSizes[c.height] : (ih: 32, iw: 32, oh: 64, ow: 64)
            let p = ResizeParams(inputHeight: s.ih, inputWidth: s.iw, channels: ch, outputHeight: s.oh, outputWidth: s.ow,
                                 alignCorners: c.extra == 1, halfPixelCenters: c.extra == 2)
            let size = wide ? 2 : 1
            let input = TestPlane(count: s.ih * s.iw * ch, elementSize: size, random: &r)
            let output = PlaneShape(width: s.oh * s.ow * ch, height: 1, bytesPerPixel: size)
            if wide {
                let all = IntegerKernels.all16.map { set in
                    ConformanceVariant(name: name(set.name)) { i, o in set.resize(UnsafePointer(int16(i[0])), p, int16(o[0])) }
                }
                return ConformanceInstance(inputs: [input], outputs: [output], reference: all[0], variants: Array(all.dropFirst()))
            }
            let (ref, vars) = variants { set, i, o in set.resize(UnsafePointer(int8(i[0])), p, int8(o[0])) }
            return ConformanceInstance(inputs: [input], outputs: [output], reference: ref, variants: vars)
        }
    }

    // MARK: Width conversion (mixed-width programs)

    /// int8 → int16 (`widen`) or int16 → int8 by each int8 set's `widthConversion` (`neon` runs
    /// `booth_convert_s8_s16` / `_s16_s8`): lengths below, at and above 16 lanes, random int8
    /// parameters against symmetric int16 ones (scale ratios 50–400, so left shifts and
    /// saturation in `widen`, right shifts and saturation in `narrow`), every int16 value.
    static func convert(widen: Bool) -> ConformanceKernel {
        var cases: [ConformanceCase] = []
        for n in [1, 7, 15, 16, 17, 31, 33, 100] { cases.append(ConformanceCase(label: "n\(n)", width: n)) }
        return ConformanceKernel(name: widen ? "nn.convert.widen" : "nn.convert.narrow", cases: cases,
                                 benchCase: ConformanceCase(label: "n4096", width: 4096),
                                 variantNames: variantNames) { c, r in
            let n = c.width
            let p8 = randomQuant(&r)
            let p16 = QuantParams(scale: p8.scale / Float.random(in: 50...400, using: &r), zeroPoint: 0)
            let params = widen ? RequantizeParams(input: p8, output: p16) : RequantizeParams(input: p16, output: p8)
            let input = TestPlane(count: n, elementSize: widen ? 1 : 2, random: &r)
            let (ref, vars) = variants { set, i, o in
                if widen { WidthConversion.widen(set.widthConversion, int8(i[0]), n, params, int16(o[0])) }
                else { WidthConversion.narrow(set.widthConversion, int16(i[0]), n, params, int8(o[0])) }
            }
            return ConformanceInstance(inputs: [input],
                                       outputs: [PlaneShape(width: n, height: 1, bytesPerPixel: widen ? 2 : 1)],
                                       reference: ref, variants: vars)
        }
    }

    /// `depthwiseLayer8`'s geometries: (input h, w, stride, pad top, left, bottom, right); negative
    /// pads mean SAME. Odd and even output heights (the `sdot` layer computes two rows at a time at
    /// stride 1 and the last odd row again), one output row, four columns and a last partial
    /// block of four, VALID, odd explicit pads.
    static let depthwiseLayer8Geometries: [(h: Int, w: Int, s: Int, pt: Int, pl: Int, pb: Int, pr: Int)] = [
        (7, 9, 1, -1, 0, 0, 0), (8, 4, 1, -1, 0, 0, 0), (1, 6, 1, -1, 0, 0, 0), (5, 11, 1, 0, 0, 0, 0),
        (10, 13, 2, -1, 0, 0, 0), (9, 9, 2, 1, 1, 1, 1), (12, 10, 1, 2, 1, 0, 2), (3, 20, 1, 1, 1, 1, 1),
        (2, 8, 2, 0, 0, 1, 1),
    ]

    /// The int8 3×3 depthwise layers that `booth_depthwise_layer_s8_pairs` (`neon`) and
    /// `booth_depthwise_layer_s8_dot` (`neon-dot`) run whole: pair-safe filters (−127...127), at
    /// least sixteen channels, the geometries above; per case one of four output stages: small
    /// multipliers (every channel shifts right) with output zero point 0 or another; left shifts
    /// (multipliers 1...1.5, filters −2...2); every other channel without right shift (multipliers
    /// 0.5...1, no left shift either, filters −2...2; the others 0.05...0.2). The output stages'
    /// fast path (no `sshl`, the fix-up as one `ssra`) runs only where every channel shifts right.
    static var depthwiseLayer8: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for ch in [16, 17, 24, 40] {
            for (i, d) in depthwiseLayer8Geometries.enumerated() {
                let stageKind = (ch + i) % 4
                cases.append(ConformanceCase(label: "c\(ch)s\(d.s)_\(d.h)x\(d.w)\(d.pt < 0 ? "same" : "p\(d.pt)\(d.pl)\(d.pb)\(d.pr)")"
                                                 + ["", "shift", "zp", "noright"][stageKind],
                                             width: d.w, height: d.h, slack: ch, extra: i * 4 + stageKind))
            }
        }
        return ConformanceKernel(name: "nn.depthwise.layer8", cases: cases,
                                 benchCase: ConformanceCase(label: "c32s1_32x32same", width: 32, height: 32, slack: 32,
                                                            extra: 4 * depthwiseLayer8Geometries.count),
                                 variantNames: variantNames) { c, r in
            let ch = c.slack, stageKind = c.extra % 4
            // The bench case: SAME at stride 1 over the case's width and height.
            let d = c.extra / 4 < depthwiseLayer8Geometries.count ? depthwiseLayer8Geometries[c.extra / 4]
                : (h: c.height, w: c.width, s: 1, pt: -1, pl: 0, pb: 0, pr: 0)
            let geo: WindowGeometry
            if d.pt < 0 {
                geo = WindowGeometry(inputHeight: d.h, inputWidth: d.w, channels: ch, kernelHeight: 3, kernelWidth: 3,
                                     strideY: d.s, strideX: d.s, same: true)
            } else {
                geo = WindowGeometry(inputHeight: d.h, inputWidth: d.w, channels: ch, kernelHeight: 3, kernelWidth: 3,
                                     strideY: d.s, strideX: d.s, padTop: d.pt, padLeft: d.pl,
                                     outputHeight: (d.h + d.pt + d.pb - 3) / d.s + 1,
                                     outputWidth: (d.w + d.pl + d.pr - 3) / d.s + 1)
            }
            let pin = randomQuant(&r)
            // With multipliers near 1 (a left shift of 1, or no right shift), filters −2...2 keep a
            // part of the outputs inside the clamp.
            let large = stageKind == 1 || stageKind == 3
            let packed = PackedDepthwiseWeights(weights: randomInt8s(9 * ch, in: large ? -2...2 : -127...127, &r),
                                                kernelHeight: 3, kernelWidth: 3, channels: ch)
            var multipliers: [FixedMultiplier] = []
            var bias: [Int32] = []
            for j in 0..<ch {
                let m = stageKind == 1 ? Double.random(in: 1.0...1.5, using: &r)
                    : stageKind == 3 ? (j % 2 == 0 ? Double.random(in: 0.5...0.99, using: &r) : Double.random(in: 0.05...0.2, using: &r))
                    : Double.random(in: 0.0005...0.02, using: &r)
                multipliers.append(FixedMultiplier(m))
                bias.append(Int32.random(in: large ? -100...100 : -3000...3000, using: &r))
            }
            let zp = stageKind == 0 ? 0 : Int32.random(in: -10...10, using: &r)
            let stage = OutputStage(bias: bias, multipliers: multipliers, outputZeroPoint: zp)
            let input = TestPlane(count: d.h * d.w * ch, elementSize: 1, random: &r)
            let (ref, vars) = variants { set, i, o in set.depthwise(UnsafePointer(int8(i[0])), geo, pin.zeroPoint, packed, stage, int8(o[0])) }
            return ConformanceInstance(inputs: [input], outputs: [int8Output(geo.outputPixels * ch)], reference: ref, variants: vars)
        }
    }

    /// Depthwise at the int8 extremes: activations −128 or 127 only, filters ±127 (`pairs`: the
    /// largest sums of two int8 products `booth_depthwise_s8_pairs` keeps in int16) or drawn from
    /// −128...127 with some −128 (`full`: the packing then keeps the int16-product kernel).
    static var depthwiseExtremes: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for ch in [16, 24, 33] {
            for (i, w) in windowConfigs.enumerated() where w.kernel == 3 {
                for full in [false, true] {
                    cases.append(ConformanceCase(label: "c\(ch)k3s\(w.stride)\(w.same ? "same" : "valid")\(full ? "full" : "pairs")",
                                                 width: 7, height: 6, slack: ch, extra: i * 2 + (full ? 1 : 0)))
                }
            }
        }
        return ConformanceKernel(name: "nn.depthwise.extremes", cases: cases,
                                 benchCase: ConformanceCase(label: "c32k3s1same32x32pairs", width: 32, height: 32, slack: 32, extra: 0),
                                 variantNames: variantNames) { c, r in
            let ch = c.slack, w = windowConfigs[c.extra / 2], full = c.extra % 2 == 1
            let geo = WindowGeometry(inputHeight: c.height, inputWidth: c.width, channels: ch, kernelHeight: 3,
                                     kernelWidth: 3, strideY: w.stride, strideX: w.stride, same: w.same)
            let pin = randomQuant(&r)
            var weights: [Int8] = []
            for t in 0..<(9 * ch) {
                let bit = r.next() % 2 == 0
                weights.append(full ? (t % 7 == 0 ? Int8.min : Int8.random(in: -128...127, using: &r)) : (bit ? 127 : -127))
            }
            let packed = PackedDepthwiseWeights(weights: weights, kernelHeight: 3, kernelWidth: 3, channels: ch)
            var multipliers: [FixedMultiplier] = []
            var bias: [Int32] = []
            for _ in 0..<ch {
                multipliers.append(FixedMultiplier(Double.random(in: 0.00002...0.0005, using: &r)))
                bias.append(Int32.random(in: -3000...3000, using: &r))
            }
            let stage = OutputStage(bias: bias, multipliers: multipliers, outputZeroPoint: Int32.random(in: -10...10, using: &r))
            let input = TestPlane(count: c.height * c.width * ch, elementSize: 1, random: &r)
            let x = int8(input.plane)
            for i in 0..<(c.height * c.width * ch) { x[i] = r.next() % 2 == 0 ? Int8.min : Int8.max }
            let (ref, vars) = variants { set, i, o in set.depthwise(UnsafePointer(int8(i[0])), geo, pin.zeroPoint, packed, stage, int8(o[0])) }
            return ConformanceInstance(inputs: [input], outputs: [int8Output(geo.outputPixels * ch)], reference: ref, variants: vars)
        }
    }
}
