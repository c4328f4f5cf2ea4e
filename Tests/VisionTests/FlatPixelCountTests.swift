import ImageCore
import Testing
import TestSupport
import Vision

/// `FlatPixelCount`: the SIMD variant equals the scalar reference bit for bit (seeded random
/// planes, widths below, at and above the vector width, odd strides, arbitrary rectangles,
/// thresholds and clip limits), and hand-computed counts.
@Suite struct FlatPixelCountTests {
    typealias RandomPlane = QualityKernelTests.RandomPlane

    @Test func simdEqualsScalarBitForBit() {
        var g = SeededGenerator(seed: 0xF1A7)
        var cases = 0
        for (w, h) in [(3, 3), (15, 6), (17, 9), (18, 18), (33, 12), (64, 64), (130, 70)] {
            for smooth in [false, true] {
                let stride = w + 1 + Int.random(in: 0...13, using: &g) * 2
                let p = RandomPlane(width: w, height: h, stride: stride, generator: &g, smooth: smooth)
                for _ in 0..<8 {
                    let x0 = Int.random(in: 1...max(1, w - 1), using: &g), y0 = Int.random(in: 1...max(1, h - 1), using: &g)
                    let rect = PixelRect(x0: x0, y0: y0, x1: Int.random(in: x0...max(x0, w - 1), using: &g),
                                         y1: Int.random(in: y0...max(y0, h - 1), using: &g))
                    let t = UInt8.random(in: 0...40, using: &g)
                    let low = UInt8.random(in: 0...20, using: &g), high = UInt8.random(in: 235...255, using: &g)
                    let a = FlatPixelCount.scalar(p.plane, rect, threshold: t, low: low, high: high)
                    let b = FlatPixelCount.simd(p.plane, rect, threshold: t, low: low, high: high)
                    #expect(a == b, "\(w)x\(h) stride \(stride) rect \(rect) t \(t)")
                    cases += 1
                }
            }
        }
        print("flat pixel count: \(cases) cases")
    }

    @Test func countsByHand() {
        // 40×12: left half flat at 100, right half a ramp of 3 per column; row 6 clipped at 255
        // in the flat half.
        var g = SeededGenerator(seed: 3)
        let p = RandomPlane(width: 40, height: 12, stride: 45, generator: &g)
        for y in 0..<12 { for x in 0..<40 { p.plane.row(y)[x] = x < 20 ? 100 : UInt8(100 + 3 * (x - 19)) } }
        for x in 0..<20 { p.plane.row(6)[x] = 255 }
        let rect = PixelRect(x0: 1, y0: 1, x1: 39, y1: 11)
        for variant in KernelVariant.allCases {
            let run = { (t: UInt8) in
                variant == .scalar ? FlatPixelCount.scalar(p.plane, rect, threshold: t, low: 0, high: 255)
                                   : FlatPixelCount.simd(p.plane, rect, threshold: t, low: 0, high: 255)
            }
            // Columns 1...18 (flat half): g = 0, except rows 5 and 7 next to the clipped row
            // (vertical 155); row 6 is clipped (not counted): 18 × 7 flat pixels.
            // Column 19: g = 3 (100 → 103) in the 7 ordinary rows, 158 in rows 5 and 7, 152 in row 6.
            // Column 20: g = 6, except 149 in row 6 (|106 − 255|); columns 21...38: g = 6.
            #expect(run(0).flat == 18 * 7, "\(variant)")
            #expect(run(3).flat == 18 * 7 + 7, "\(variant)")
            #expect(run(6).flat == 18 * 7 + 7 + 9 + 18 * 10, "\(variant)")
            let sum = 18 * 2 * 155 + (2 * 158 + 152 + 7 * 3) + (149 + 9 * 6) + 18 * 10 * 6
            #expect(run(0).gradientSum == UInt32(sum), "\(variant)")
        }
    }
}
