import ImageCore
import TestSupport
import Testing
import Vision

@Suite struct SegmentationMappingTests {
    @Test(arguments: FrameRotation.allCases)
    func frameModelRoundTrip(rotation: FrameRotation) {
        for fit in [MaskMapping.Fit.stretch, .letterbox] {
            let m = MaskMapping(frameWidth: 640, frameHeight: 480, rotation: rotation, modelWidth: 256, modelHeight: 144, fit: fit)
            var g = SeededGenerator(seed: UInt64(rotation.rawValue) + 7)
            for _ in 0..<100 {
                let x = Float.random(in: 0..<640, using: &g), y = Float.random(in: 0..<480, using: &g)
                let p = m.model(fromFrame: x, y)
                let back = m.frame(fromModel: p.x, p.y)
                #expect(abs(back.x - x) < 1e-2 && abs(back.y - y) < 1e-2)
                #expect(p.x >= m.content.x - 1e-3 && p.x <= m.content.x + m.content.width + 1e-3)
            }
        }
    }

    @Test func rotationPutsTheFramesTopRowOnTheUprightRight() {
        // A buffer that must turn 90° clockwise: its top-left corner is the upright top-right.
        let m = MaskMapping(frameWidth: 480, frameHeight: 640, rotation: .clockwise90, modelWidth: 256, modelHeight: 144, fit: .stretch)
        #expect(m.uprightWidth == 640 && m.uprightHeight == 480)
        let u = m.upright(fromFrame: 0, 0)
        #expect(u.u == 640 && u.v == 0)
    }

    @Test func letterboxKeepsTheAspect() {
        let m = MaskMapping(frameWidth: 640, frameHeight: 480, rotation: .none, modelWidth: 256, modelHeight: 144, fit: .letterbox)
        #expect(abs(m.content.width / m.content.height - 640.0 / 480.0) < 1e-4)
        #expect(m.content.height == 144)
    }

    @Test func landscapeModelForWidePictures() {
        #expect(SegmentationModel.forAspect(width: 640, height: 480) == .landscape)
        #expect(SegmentationModel.forAspect(width: 480, height: 640) == .general)
    }
}

@Suite struct TemporalStabilizerTests {
    /// A bright square moves fast over a dark background; the "model" sees it exactly.
    static func scene(x0: Int, n: Int, mask: UnsafeMutablePointer<UInt8>, luma: UnsafeMutablePointer<UInt8>, w: Int, h: Int,
                      noise: inout SeededGenerator, flicker: Int) {
        for y in 0..<h {
            for x in 0..<w {
                let inside = x >= x0 && x < x0 + n && y >= 10 && y < 10 + n
                let f = flicker > 0 ? Int.random(in: -flicker...flicker, using: &noise) : 0
                mask[y * w + x] = UInt8(clamping: (inside ? 230 : 25) + f)
                luma[y * w + x] = inside ? 200 : 40
            }
        }
    }

    @Test func noGhostBehindFastMotion() {
        let w = 64, h = 48
        let st = TemporalStabilizer(count: w * h)
        let mask = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h), luma = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h)
        defer { mask.deallocate(); luma.deallocate() }
        var g = SeededGenerator(seed: 1)
        for _ in 0..<5 { Self.scene(x0: 4, n: 16, mask: mask, luma: luma, w: w, h: h, noise: &g, flicker: 0); st.apply(mask: mask, luma: luma) }
        // Jump 30 pixels to the right in one frame.
        Self.scene(x0: 34, n: 16, mask: mask, luma: luma, w: w, h: h, noise: &g, flicker: 0)
        st.apply(mask: mask, luma: luma)
        for y in 10..<26 {
            for x in 4..<20 { #expect(mask[y * w + x] < 128, "ghost left at (\(x), \(y))") }
            for x in 34..<50 { #expect(mask[y * w + x] >= 128, "person missing at (\(x), \(y))") }
        }
    }

    @Test func flickerIsDampedWhereNothingMoves() {
        let w = 64, h = 48
        let st = TemporalStabilizer(count: w * h)
        let mask = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h), luma = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h)
        defer { mask.deallocate(); luma.deallocate() }
        var g = SeededGenerator(seed: 2)
        var rawVariation = 0, stableVariation = 0
        var previousRaw = [UInt8](repeating: 0, count: w * h), previousOut = previousRaw
        for frame in 0..<20 {
            Self.scene(x0: 20, n: 16, mask: mask, luma: luma, w: w, h: h, noise: &g, flicker: 20)
            let raw = Array(UnsafeBufferPointer(start: mask, count: w * h))
            st.apply(mask: mask, luma: luma)
            if frame > 0 {
                for i in 0..<(w * h) {
                    rawVariation += abs(Int(raw[i]) - Int(previousRaw[i]))
                    stableVariation += abs(Int(mask[i]) - Int(previousOut[i]))
                }
            }
            previousRaw = raw
            previousOut = Array(UnsafeBufferPointer(start: mask, count: w * h))
        }
        #expect(stableVariation * 2 < rawVariation)
    }

    /// The multiply-and-shift weight equals the documented formula's integer division, for the
    /// default limits, odd ones, and limits large enough to take the division path.
    @Test(arguments: [(160, 24, 128), (255, 1, 1), (7, 3, 5), (200, 255, 255), (1 << 20, 200, 250)])
    func weightsEqualTheFormula(keep: Int, motionLimit: Int, changeLimit: Int) {
        let n = 4096
        let st = TemporalStabilizer(count: n)
        st.keep = keep; st.motionLimit = motionLimit; st.changeLimit = changeLimit
        var g = SeededGenerator(seed: UInt64(keep + motionLimit))
        let q = (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }, lq = (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }
        var mask = q, luma = lq
        st.apply(mask: &mask, luma: &luma)
        var p = (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }, l = (0..<n).map { i in UInt8(clamping: Int(lq[i]) + Int.random(in: -30...30, using: &g)) }
        let fresh = p
        st.apply(mask: &p, luma: &l)
        var differing = 0
        for i in 0..<n {
            let motion = max(0, motionLimit - abs(Int(l[i]) - Int(lq[i]))), change = max(0, changeLimit - abs(Int(fresh[i]) - Int(q[i])))
            let w = keep * motion * change / (motionLimit * changeLimit)
            let expected = UInt8(truncatingIfNeeded: (w * Int(q[i]) + (256 - w) * Int(fresh[i]) + 128) >> 8)
            if p[i] != expected { differing += 1 }
        }
        #expect(differing == 0)
    }

    /// The weights follow `keep` and the limits changed between frames (the stabiliser keeps a
    /// table of them for the last settings): each frame equals the formula with that frame's
    /// settings, through the table and through the per-pixel path.
    @Test func weightsFollowChangedSettings() {
        let n = 2048
        let st = TemporalStabilizer(count: n)
        var g = SeededGenerator(seed: 9)
        var previous = (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }
        var previousLuma = (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }
        var mask = previous, luma = previousLuma
        st.apply(mask: &mask, luma: &luma)
        for (keep, motionLimit, changeLimit) in [(160, 24, 128), (90, 24, 128), (90, 10, 60), (90, 200, 200), (160, 24, 128)] {
            st.keep = keep; st.motionLimit = motionLimit; st.changeLimit = changeLimit
            let fresh = (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }
            let l = (0..<n).map { i in UInt8(clamping: Int(previousLuma[i]) + Int.random(in: -40...40, using: &g)) }
            var p = fresh, lm = l
            st.apply(mask: &p, luma: &lm)
            var differing = 0
            for i in 0..<n {
                let motion = max(0, motionLimit - abs(Int(l[i]) - Int(previousLuma[i])))
                let change = max(0, changeLimit - abs(Int(fresh[i]) - Int(previous[i])))
                let w = keep * motion * change / (motionLimit * changeLimit)
                let expected = UInt8(truncatingIfNeeded: (w * Int(previous[i]) + (256 - w) * Int(fresh[i]) + 128) >> 8)
                if p[i] != expected { differing += 1 }
            }
            #expect(differing == 0, "keep \(keep), limits \(motionLimit) / \(changeLimit)")
            previous = p; previousLuma = l
        }
    }
}

@Suite struct GuidedFilterTests {
    @Test func maskSnapsToTheGuidesEdge() {
        // The guide has a sharp vertical edge at x = 32; the mask's edge is blurred and off by 3 px.
        let w = 64, h = 16
        let guide = ImageBuffer(format: .gray8, width: w, height: h), mask = ImageBuffer(format: .gray8, width: w, height: h)
        mask.withImage { maskImage in
            guide.withImage { guideImage in
                let gp = guideImage.luma, mp = maskImage.luma
                for y in 0..<h {
                    for x in 0..<w {
                        gp.row(y)[x] = x < 32 ? 220 : 30
                        let v: Int = (35 - x) * 32 + 128
                        mp.row(y)[x] = UInt8(clamping: max(0, min(255, v)))
                    }
                }
                let before = (0..<w).filter { mp.row(8)[$0] >= 128 }.count
                GuidedFilter(maxWidth: w, maxHeight: h, radius: 4, epsilon: 50).run(guide: gp, input: mp, output: mp)
                let after = (0..<w).filter { mp.row(8)[$0] >= 128 }.count
                #expect(before == 36)
                #expect(after < before && abs(after - 32) <= 2)
                #expect(mp.row(8)[10] > 240 && mp.row(8)[50] < 15)
            }
        }
    }

    @Test func flatGuideGivesTheBoxMean() {
        let w = 40, h = 30
        let guide = ImageBuffer(format: .gray8, width: w, height: h), mask = ImageBuffer(format: .gray8, width: w, height: h)
        mask.withImage { maskImage in
            guide.withImage { guideImage in
                let gp = guideImage.luma, mp = maskImage.luma
                var g = SeededGenerator(seed: 3)
                for y in 0..<h { for x in 0..<w { gp.row(y)[x] = 100; mp.row(y)[x] = UInt8.random(in: 0...255, using: &g) } }
                let copy = (0..<h).map { y in (0..<w).map { Int(mp.row(y)[$0]) } }
                GuidedFilter(maxWidth: w, maxHeight: h, radius: 2, epsilon: 100).run(guide: gp, input: mp, output: mp)
                // With var(I) = 0, a = 0 and b = mean(p): q is the mean of the window means of p.
                let (x, y) = (20, 15)
                var sum = 0.0
                for dy in -2...2 { for dx in -2...2 {
                    var inner = 0
                    for ey in -2...2 { for ex in -2...2 { inner += copy[y + dy + ey][x + dx + ex] } }
                    sum += Double(inner) / 25
                } }
                #expect(abs(Double(mp.row(y)[x]) - sum / 25) <= 1)
            }
        }
    }
}

@Suite struct CompositingTests {
    @Test func coverFitCropsNeverStretches() {
        let a = CoverFit(sourceWidth: 1000, sourceHeight: 500, width: 640, height: 480)
        #expect(a.height == 500 && a.y == 0)
        #expect(abs(Double(a.width) / Double(a.height) - 640.0 / 480.0) < 0.005)
        #expect(a.x == (1000 - a.width) / 2)
        let b = CoverFit(sourceWidth: 300, sourceHeight: 900, width: 640, height: 480)
        #expect(b.width == 300 && b.x == 0 && b.height == 225 && b.y == (900 - 225) / 2)
    }

    @Test func solidBackgroundAndMask() {
        let w = 37, h = 11
        let frame = ImageBuffer(format: .rgb888, width: w, height: h), mask = ImageBuffer(format: .gray8, width: w, height: h)
        mask.withImage { maskImage in
            frame.withImage { frameImage in
                let f = frameImage.luma, m = maskImage.luma
                for y in 0..<h {
                    for x in 0..<w {
                        f.row(y)[3 * x] = 10; f.row(y)[3 * x + 1] = 20; f.row(y)[3 * x + 2] = 30
                        let v: UInt8 = x < 10 ? 255 : (x < 20 ? 0 : 128)
                        m.row(y)[x] = v
                    }
                }
                let c = BackgroundCompositor(width: w, height: h, format: .rgb888)
                c.setBackground(.cream)
                c.composite(frame: frameImage, mask: m, into: frameImage)
                let r = f.row(5)
                #expect(r[0] == 10 && r[1] == 20 && r[2] == 30)
                #expect(r[3 * 15] == 243 && r[3 * 15 + 1] == 236 && r[3 * 15 + 2] == 220)
                let expected = (10 * 128 + 243 * 127 + 127) / 255
                #expect(Int(r[3 * 25]) == expected)
            }
        }
    }

    @Test func imageBackgroundIsCoveredAndCentred() {
        // A 200×100 picture: left half black, right half white, with a 2 px red column in the middle.
        let pic = ImageBuffer(format: .rgb888, width: 200, height: 100)
        pic.withImage { picImage in
            let p = picImage.luma
            for y in 0..<100 { for x in 0..<200 {
                var v: (UInt8, UInt8, UInt8) = x < 100 ? (0, 0, 0) : (255, 255, 255)
                if x == 99 || x == 100 { v = (255, 0, 0) }
                p.row(y)[3 * x] = v.0; p.row(y)[3 * x + 1] = v.1; p.row(y)[3 * x + 2] = v.2
            } }
            let frame = ImageBuffer(format: .rgb888, width: 50, height: 50), mask = ImageBuffer(format: .gray8, width: 50, height: 50)
            mask.withImage { maskImage in
                frame.withImage { frameImage in
                    let c = BackgroundCompositor(width: 50, height: 50, format: .rgb888)
                    c.setBackground(.image(picImage))
                    c.composite(frame: frameImage, mask: maskImage.luma, into: frameImage)
                    let row = frameImage.luma.row(25)
                    // Covered: the central 100×100 square → the red column lands in the middle, the halves stay halves.
                    // Area 2:1 — pixel 24 averages black and red, pixel 25 red and white.
                    #expect(row[3 * 24] >= 120 && row[3 * 24] <= 135 && row[3 * 24 + 1] < 5)
                    #expect(row[3 * 25] > 250 && row[3 * 25 + 1] >= 120 && row[3 * 25 + 1] <= 135)
                    #expect(row[3 * 5] < 10 && row[3 * 45] > 245)
                }
            }
            }
    }

    @Test func redChannelMask() {
        let rgb = ImageBuffer(format: .rgb888, width: 5, height: 2), mask = ImageBuffer(format: .gray8, width: 5, height: 2)
        mask.withImage { maskImage in
            rgb.withImage { rgbImage in
                for x in 0..<5 { rgbImage.luma.row(1)[3 * x] = UInt8(x * 50); rgbImage.luma.row(1)[3 * x + 1] = 7 }
                RedChannelMask.extract(rgbImage, into: maskImage.luma)
                #expect((0..<5).map { maskImage.luma.row(1)[$0] } == [0, 50, 100, 150, 200])
            }
        }
    }

    @Test func blurredBackgroundKeepsThePersonSharp() {
        let w = 64, h = 48
        let frame = ImageBuffer(format: .rgb888, width: w, height: h), mask = ImageBuffer(format: .gray8, width: w, height: h)
        mask.withImage { maskImage in
            frame.withImage { frameImage in
                var g = SeededGenerator(seed: 4)
                let f = frameImage.luma, m = maskImage.luma
                for y in 0..<h { for x in 0..<(3 * w) { f.row(y)[x] = UInt8.random(in: 0...255, using: &g) } }
                for y in 0..<h { for x in 0..<w { m.row(y)[x] = x < 32 ? 255 : 0 } }
                let original = (0..<(3 * w)).map { f.row(20)[$0] }
                let c = BackgroundCompositor(width: w, height: h, format: .rgb888)
                c.setBackground(.blurred(strength: 10))
                c.composite(frame: frameImage, mask: m, into: frameImage)
                #expect((0..<96).allSatisfy { f.row(20)[$0] == original[$0] })
                // Blurred half: neighbouring pixels differ far less than in the noise.
                var diff = 0, diffOrig = 0
                for x in 40..<63 { diff += abs(Int(f.row(20)[3 * x]) - Int(f.row(20)[3 * x + 3])); diffOrig += abs(Int(original[3 * x]) - Int(original[3 * x + 3])) }
                #expect(diff * 4 < diffOrig)
            }
        }
    }
}
