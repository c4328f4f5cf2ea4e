import ImageCore
import Testing
import TestSupport
import Vision

/// Every capture-quality kernel: the SIMD variant equals the scalar reference bit for bit on
/// seeded random planes, at widths below, at and above the vector width, odd strides and
/// arbitrary rectangles; plus hand-computed values.
@Suite struct QualityKernelTests {
    /// A plane of random bytes with an odd stride (and tail padding), kept alive by its buffer.
    final class RandomPlane {
        let storage: UnsafeMutableRawPointer
        let plane: Plane
        init(width: Int, height: Int, stride: Int, generator: inout SeededGenerator, smooth: Bool = false) {
            let bytes = stride * height + Plane.requiredPadding
            storage = .allocate(byteCount: bytes, alignment: 64)
            let p = storage.assumingMemoryBound(to: UInt8.self)
            for i in 0..<bytes { p[i] = UInt8.random(in: 0...255, using: &generator) }
            if smooth {
                // Mostly small steps around a level, so thresholds and clipping both trigger.
                for i in 1..<bytes { p[i] = UInt8(truncatingIfNeeded: Int(p[i - 1]) + Int(p[i] % 9) - 4) }
            }
            plane = Plane(base: storage, width: width, height: height, stride: stride, bytesPerPixel: 1,
                          padding: bytes - ((height - 1) * stride + width))
        }
        deinit { storage.deallocate() }
    }

    @Test func variantsMatchReferenceBitForBit() {
        var g = SeededGenerator(seed: 0xC0FFEE)
        var cases = 0
        for entry in QualityKernelTable.all {
            for (w, h) in [(16, 16), (24, 16), (32, 40), (64, 64), (128, 128), (136, 72)] {
                for smooth in [false, true] {
                    let stride = w + 1 + Int.random(in: 0...13, using: &g) * 2
                    let a = RandomPlane(width: w, height: h, stride: stride, generator: &g, smooth: smooth)
                    let b = RandomPlane(width: w, height: h, stride: stride + 2, generator: &g, smooth: smooth)
                    for _ in 0..<6 {
                        let x0 = Int.random(in: 0..<w, using: &g), y0 = Int.random(in: 0..<h, using: &g)
                        let rect = PixelRect(x0: x0, y0: y0, x1: Int.random(in: x0...w, using: &g), y1: Int.random(in: y0...h, using: &g))
                        let n = QualityKernelEntry.outputCount(width: w, height: h)
                        let reference = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: n)
                        let vector = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: n)
                        defer { reference.deallocate(); vector.deallocate() }
                        reference.initialize(repeating: 0xDEAD_BEEF)
                        vector.initialize(repeating: 0xDEAD_BEEF)
                        entry.run(.scalar, a.plane, b.plane, rect, reference)
                        entry.run(.simd, a.plane, b.plane, rect, vector)
                        #expect(Array(reference) == Array(vector), "\(entry.name) \(w)x\(h) stride \(stride) rect \(rect)")
                        cases += 1
                    }
                }
            }
        }
        print("quality kernels: \(cases) cases, \(QualityKernelTable.all.count) kernels")
    }

    @Test func laplacianBlocksByHand() {
        // A single bright pixel at (10, 9) on 0: L = 4·200 at the pixel, −200 at its 4 neighbours.
        var g = SeededGenerator(seed: 1)
        let p = RandomPlane(width: 24, height: 16, stride: 29, generator: &g)
        for y in 0..<16 { for x in 0..<24 { p.plane.row(y)[x] = 0 } }
        p.plane.row(9)[10] = 200
        let blocks = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 6)
        defer { blocks.deallocate() }
        for variant in KernelVariant.allCases {
            variant == .scalar ? LaplacianBlocks.scalar(p.plane, blocks) : LaplacianBlocks.simd(p.plane, blocks)
            // Block (1,1) holds the pixel and all four neighbours: 800² + 4·200².
            #expect(blocks[4] == 800 * 800 + 4 * 200 * 200, "\(variant)")
            #expect(blocks[0] == 0 && blocks[1] == 0 && blocks[2] == 0 && blocks[3] == 0 && blocks[5] == 0, "\(variant)")
        }
    }

    @Test func regionStatisticsByHand() {
        var g = SeededGenerator(seed: 2)
        let p = RandomPlane(width: 40, height: 8, stride: 41, generator: &g)
        for y in 0..<8 { for x in 0..<40 { p.plane.row(y)[x] = UInt8(x * 6 + y) } }
        let rect = PixelRect(x0: 1, y0: 2, x1: 39, y1: 5)
        var sum: UInt32 = 0, squares: UInt64 = 0, low: UInt32 = 0, high: UInt32 = 0
        for y in 2..<5 { for x in 1..<39 {
            let v = UInt32(x * 6 + y)
            sum += v; squares += UInt64(v * v); if v <= 20 { low += 1 }; if v >= 200 { high += 1 }
        } }
        for s in [RegionStatistics.scalar(p.plane, rect, low: 20, high: 200), RegionStatistics.simd(p.plane, rect, low: 20, high: 200)] {
            #expect(s.count == 38 * 3 && s.sum == sum && s.sumOfSquares == squares && s.low == low && s.high == high)
        }
    }
}
