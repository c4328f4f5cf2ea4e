import Foundation
import ImageCore
import ImageFiles
import Passport
import TestSupport
import Testing
import Vision

/// `MouthBar.measure` samples fewer pixels than its definition (shared centre pixels, luma only,
/// rays stopped once they cannot raise the maximum) for the same value. Checked here against the
/// definition written out plainly — every point of every ray, each flank distance on its own —
/// on the tuning half's real photos (RGB, as stills are) and on their I420 copies (as live frames
/// are), and timed against it in the same run.
@Suite(.serialized) struct MouthBarTests {
    /// Its own face models (other suites run in parallel with theirs).
    nonisolated(unsafe) static let analyzer = try! FaceAnalyzer(modelDirectory: Fixtures.models, path: .integer)

    /// Luma of the nearest pixel (BT.601 full range from RGB; the Y plane otherwise), clamped.
    static func luma(_ image: Image, _ x: Float, _ y: Float) -> Float {
        let xi = max(0, min(image.width - 1, Int(x.rounded()))), yi = max(0, min(image.height - 1, Int(y.rounded())))
        let row = image.planes.0.row(yi)
        guard image.format == .rgb888 else { return Float(row[xi]) }
        let r = Float(row[3 * xi]), g = Float(row[3 * xi + 1]), b = Float(row[3 * xi + 2])
        return 0.299 * r + 0.587 * g + 0.114 * b
    }

    /// `MouthBar`'s definition, every sample taken, as session 14 computed it: 7 start points ×
    /// 17 directions × 2 flank distances, each ray's second-lowest of its 10 values (kept as they
    /// come), the largest ray. Also counts the pixels read.
    static func definition(_ image: Image, points p: [Point3], skinLuma: Float, reads: inout Int) -> Float {
        func mid(_ a: Point3, _ b: Point3) -> Point2 { Point2((a.x + b.x) / 2, (a.y + b.y) / 2) }
        let eyeR = mid(p[33], p[133]), eyeL = mid(p[263], p[362])
        var ux = eyeL.x - eyeR.x, uy = eyeL.y - eyeR.y
        let d = max(4, (ux * ux + uy * uy).squareRoot())
        ux /= d; uy /= d
        let ref = max(16, skinLuma)
        let centre = mid(p[13], p[14])
        // cos and sin of 0°, 10°, …, 80°, written as `MouthBar` writes them (the same Floats).
        let cosines: [Float] = [1.0000000, 0.9848078, 0.9396926, 0.8660254, 0.7660444, 0.6427876, 0.5000000, 0.3420201, 0.1736482]
        let sines: [Float] = [0.0000000, 0.1736482, 0.3420201, 0.5000000, 0.6427876, 0.7660444, 0.8660254, 0.9396926, 0.9848078]
        var best = -Float.infinity
        for k in 0..<7 {
            let f = Float(k) / 6
            let a = f < 0.5 ? 2 * f : 2 * f - 1
            let from = f < 0.5 ? p[61].xy : centre, to = f < 0.5 ? centre : p[291].xy
            let sx = from.x + a * (to.x - from.x), sy = from.y + a * (to.y - from.y)
            for step in -8...8 {
                let c = cosines[abs(step)], s = step < 0 ? -sines[-step] : sines[step]
                let dx = c * -uy + s * ux, dy = c * ux + s * uy
                for flank in MouthBar.flanks {
                    let o = flank * d
                    var lowest = Float.infinity, second = Float.infinity
                    for i in 0..<MouthBar.samples {
                        let t = (MouthBar.reach.lowerBound + (MouthBar.reach.upperBound - MouthBar.reach.lowerBound) * Float(i)
                            / Float(MouthBar.samples - 1)) * d
                        let x = sx + t * dx, y = sy + t * dy
                        let side = max(luma(image, x - o * dy, y + o * dx), luma(image, x + o * dy, y - o * dx))
                        let v = (luma(image, x, y) - side) / ref
                        if v < lowest { second = lowest; lowest = v } else if v < second { second = v }
                        reads += 3
                    }
                    best = max(best, second)
                }
            }
        }
        return best
    }

    /// The definition, then the measure, each timed into `spent`: (measure, definition, pixels the
    /// definition read).
    static func both(_ img: Image, _ mesh: [Point3], _ skin: Float, _ spent: inout (definition: Double, measure: Double))
        -> (Float, Float, Int) {
        var n = 0
        let t0 = MonotonicClock.seconds()
        let expected = definition(img, points: mesh, skinLuma: skin, reads: &n)
        let t1 = MonotonicClock.seconds()
        let got = MouthBar.measure(img, points: mesh, skinLuma: skin)
        let t2 = MonotonicClock.seconds()
        spent.definition += t1 - t0; spent.measure += t2 - t1
        return (got, expected, n)
    }

    @Test("the measure equals its definition on real photos, RGB and I420", .enabled(if: Fixtures.available))
    func sameValueAsTheDefinition() throws {
        var faces = 0, differ = 0, reads = 0
        var spent = (definition: 0.0, measure: 0.0)
        for l in try ExaminerSetTests.labels(in: ExaminerRealTests.folder) where l.split == "tune" {
            let photo = try ImageDecoder.decode(path: ExaminerRealTests.folder + "/" + l.file, as: .rgb888)
            let i420 = ImageBuffer(format: .i420, width: photo.width, height: photo.height)
            photo.withImage { rgb in i420.withImage { RGBToI420.run(rgb, $0) } }
            guard let face = photo.withImage({ Self.analyzer.analyze($0).max(by: { $0.box.area < $1.box.area }) }) else { continue }
            faces += 1
            for image in [photo, i420] {
                image.withImage { img in
                    // Two skin references: the photo's own scale and a dark one (larger values).
                    for skin: Float in [150, 40] {
                        let (got, expected, n) = Self.both(img, face.mesh, skin, &spent)
                        reads += n
                        if got != expected {
                            differ += 1
                            print("\(l.file) \(img.format) skin \(skin): measure \(got), definition \(expected)")
                        }
                    }
                }
            }
        }
        print(String(format: "mouth bar on %d faces × 2 formats × 2 skin references: %d differ; definition %.1f ms, measure %.1f ms (%.2f×); definition reads %d pixels a face",
                     faces, differ, spent.definition * 1000, spent.measure * 1000, spent.definition / max(1e-9, spent.measure), reads / max(1, 4 * faces)))
        #expect(faces >= 100)
        #expect(differ == 0)
    }

    /// Two faces (a compliant one and a cigarette hanging from the lips), each format, 20 rounds of
    /// the definition and the measure alternating: the same values, the time of each printed.
    @Test("the measure against its definition, alternating on two faces", .enabled(if: Fixtures.available))
    func alternatingRounds() throws {
        var spent = (definition: 0.0, measure: 0.0)
        for name in ["cmd-without_mask-114.jpg", "huy-train-000352.jpg"] {
            let photo = try ImageDecoder.decode(path: ExaminerRealTests.folder + "/" + name, as: .rgb888)
            let i420 = ImageBuffer(format: .i420, width: photo.width, height: photo.height)
            photo.withImage { rgb in i420.withImage { RGBToI420.run(rgb, $0) } }
            let face = try #require(photo.withImage { Self.analyzer.analyze($0).max(by: { $0.box.area < $1.box.area }) })
            let skin = photo.withImage { ExaminerEstimator.measure($0, face: face, quality: CaptureQualityEstimator().evaluate($0, face: face)).skinLuma }
            for image in [photo, i420] {
                try image.withImage { img in
                    for _ in 0..<20 {
                        let (got, expected, _) = Self.both(img, face.mesh, skin, &spent)
                        try #require(got == expected, "\(name) \(img.format): measure \(got), definition \(expected)")
                    }
                }
            }
        }
        print(String(format: "mouth bar, 2 faces × 2 formats × 20 rounds: definition %.2f ms, measure %.2f ms a call (%.2f×)",
                     spent.definition * 1000 / 80, spent.measure * 1000 / 80, spent.definition / max(1e-9, spent.measure)))
    }
}

/// Wall-clock seconds for the same-run comparison above.
enum MonotonicClock {
    static func seconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}
