import NeuralCore
import Testing
import TestSupport

/// The boundary conversions of every kernel set (`quantize`, `dequantize`; the C AVX2 and NEON
/// ones included) equal the scalar references byte for byte, int8 and int16, on values that
/// stress the rounding: exact halves of a step (round half away from zero), values a float ulp
/// either side of them, ±0, values past the clamp, and counts around the 8- and 16-lane steps.
@Suite struct BoundaryConversionTests {
    static let counts = [1, 7, 8, 9, 15, 16, 17, 31, 33, 100]

    /// `n` floats for scale `s` and zero point `zp`: every fourth an exact half-step, the others
    /// its neighbours, zeros, far-out values and plain random ones.
    static func values(_ n: Int, scale s: Float, zeroPoint zp: Int32, bits: Int, _ g: inout SeededGenerator) -> [Float] {
        let range = Float(bits == 8 ? 160 : 40000)
        return (0..<n).map { i in
            let k = Float(Int.random(in: -Int(range)...Int(range), using: &g)) + 0.5
            switch i % 8 {
            case 0: return k * s
            case 1: return (k * s).nextUp
            case 2: return (k * s).nextDown
            case 3: return i % 16 == 3 ? -0.0 : 0
            case 4: return (i % 3 == 0 ? -1 : 1) * range * 4 * s
            case 5: return -k * s
            default: return Float.random(in: -range...range, using: &g) * s
            }
        }
    }

    func check<E: QuantizedActivation>(_ sets: [IntegerKernelSetOf<E>], bits: Int, zeroPoints: [Int32]) {
        var g = SeededGenerator(seed: UInt64(0xB0C + bits))
        for count in Self.counts {
            for zp in zeroPoints {
                let p = QuantParams(scale: Float.random(in: 0.002...0.2, using: &g), zeroPoint: zp)
                let x = Self.values(count, scale: p.scale, zeroPoint: zp, bits: bits, &g)
                var want = [E](repeating: 0, count: count)
                quantizeScalar(x, count, p, &want)
                var back = [Float](repeating: 0, count: count)
                dequantizeScalar(want, count, p, &back)
                for set in sets {
                    var q = [E](repeating: 0x55, count: count)
                    set.quantize(x, count, p, &q)
                    #expect(q == want, "quantize \(set.name) n=\(count) zp=\(zp)")
                    var f = [Float](repeating: .nan, count: count)
                    set.dequantize(want, count, p, &f)
                    #expect(f.map(\.bitPattern) == back.map(\.bitPattern), "dequantize \(set.name) n=\(count) zp=\(zp)")
                }
            }
        }
    }

    @Test func int8SetsEqualTheScalarReference() {
        check(IntegerKernels.all, bits: 8, zeroPoints: [0, -128, 5, 127])
    }

    @Test func int16SetsEqualTheScalarReference() {
        check(IntegerKernels.all16, bits: 16, zeroPoints: [0, -7, 300])
    }
}
