import ImageCore
import ImageFiles
import TestSupport
import Vision

#if canImport(Glibc)
import Glibc
#endif

/// Models, fixtures and generated degradations for the capture-quality tests.
enum QualityTestSupport {
    /// Untiled analyzer (the test images are single-face crops).
    nonisolated(unsafe) static let analyzer: FaceAnalyzer = {
        do {
            let a = try FaceAnalyzer(modelDirectory: Fixtures.models)
            a.tiled = false
            return a
        } catch { fatalError("face models: \(error)") }
    }()

    /// Tiled analyzer for finding the subject in the full fixture photo (its own interpreters).
    nonisolated(unsafe) static let tiledAnalyzer: FaceAnalyzer = {
        do { return try FaceAnalyzer(modelDirectory: Fixtures.models) } catch { fatalError("face models: \(error)") }
    }()

    static var faceFixtures: String { Fixtures.sharedFixtures + "/faces" }
    static var hasFixtures: Bool { access(faceFixtures, F_OK) == 0 }

    /// Several real faces: menpo, lfpw_pair, portraits (a colour mix, one greyscale).
    /// `BOOTH_QUALITY_FACES` (comma-separated, relative to fixtures/faces) picks others.
    static let faces: [String] = {
        if let list = getenv("BOOTH_QUALITY_FACES") { return String(cString: list).split(separator: ",").map(String.init) }
        return ["menpo/lenna.png", "menpo/breakingbad.jpg", "menpo/einstein.jpg", "lfpw_pair/image_0001.png",
                "lfpw_pair/image_0010.png", "portraits/obama.jpg", "portraits/obama2.jpg"]
    }()

    static func load(_ path: String) -> ImageBuffer {
        do { return try ImageDecoder().decode(path: path, as: .rgb888) } catch { fatalError("\(error)") }
    }

    /// The largest face of `image`, or nil.
    static func mainFace(_ image: Image) -> FaceObservation? {
        analyzer.analyze(image).max(by: { $0.box.area < $1.box.area })
    }

    /// A square crop around the main face (side 2.2× the face box), resized so the face box is
    /// about `faceSize` pixels wide — the test subject, small enough to analyse quickly.
    static func subject(_ file: String, faceSize: Float = 170) -> ImageBuffer? {
        let full = load(faceFixtures + "/" + file)
        return full.withImage { fullImage in
            guard let face = tiledAnalyzer.analyze(fullImage).max(by: { $0.box.area < $1.box.area }) else { return nil }
            let side = max(face.box.width, face.box.height) * 2.2
            let c = face.box.center
            let scale = faceSize / face.box.width
            let out = Int((side * scale).rounded())
            return FaceTestSupport.warp(full, width: out, height: out) { x, y in
                (c.x - side / 2 + x / scale, c.y - side / 2 + y / scale)
            }
        }
    }

    static func copy(_ b: ImageBuffer) -> ImageBuffer {
        return b.withImage { bImage in
            let out = ImageBuffer(format: b.format, width: b.width, height: b.height)
            return out.withImage { outImage in
                let s = bImage.luma, d = outImage.luma
                for y in 0..<b.height { (d.row(y)).update(from: s.row(y), count: s.rowBytes) }
                return out
            }
        }
    }

    /// Applies `f` to every RGB byte.
    static func mapBytes(_ b: ImageBuffer, _ f: (UInt8) -> UInt8) -> ImageBuffer {
        let out = copy(b)
        return out.withImage { outImage in
            let d = outImage.luma
            for y in 0..<b.height {
                let row = d.row(y)
                for x in 0..<d.rowBytes { row[x] = f(row[x]) }
            }
            return out
        }
    }

    static func clampByte(_ v: Float) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }

    /// Separable Gaussian blur (edge pixels replicated).
    static func blur(_ b: ImageBuffer, sigma: Float) -> ImageBuffer {
        return b.withImage { bImage in
            guard sigma > 0 else { return copy(b) }
            let r = Int((3 * sigma).rounded(.up))
            var k = (-r...r).map { expf(-Float($0 * $0) / (2 * sigma * sigma)) }
            let total = k.reduce(0, +)
            k = k.map { $0 / total }
            let w = b.width, h = b.height
            var tmp = [Float](repeating: 0, count: w * h * 3)
            let s = bImage.luma
            for y in 0..<h {
                let row = s.row(y)
                for x in 0..<w {
                    for c in 0..<3 {
                        var acc: Float = 0
                        for i in -r...r { acc += k[i + r] * Float(row[min(w - 1, max(0, x + i)) * 3 + c]) }
                        tmp[(y * w + x) * 3 + c] = acc
                    }
                }
            }
            let out = ImageBuffer(format: .rgb888, width: w, height: h)
            return out.withImage { outImage in
                let d = outImage.luma
                for y in 0..<h {
                    let row = d.row(y)
                    for x in 0..<w {
                        for c in 0..<3 {
                            var acc: Float = 0
                            for i in -r...r { acc += k[i + r] * tmp[(min(h - 1, max(0, y + i)) * w + x) * 3 + c] }
                            row[x * 3 + c] = clampByte(acc)
                        }
                    }
                }
                return out
            }
        }
    }

    /// Additive Gaussian noise of `sigma` (8-bit units), independent per channel, seeded.
    static func noise(_ b: ImageBuffer, sigma: Float, seed: UInt64) -> ImageBuffer {
        var g = SeededGenerator(seed: seed)
        return mapBytes(b) { v in
            // Box–Muller.
            let u1 = max(1e-7, Float(g.next() >> 40) / Float(1 << 24)), u2 = Float(g.next() >> 40) / Float(1 << 24)
            let n = (-2 * logf(u1)).squareRoot() * cosf(2 * .pi * u2)
            return clampByte(Float(v) + sigma * n)
        }
    }

    /// Fills the pixels where `inside(x, y)` with `color`.
    static func paint(_ b: ImageBuffer, color: (UInt8, UInt8, UInt8), inside: (Float, Float) -> Bool) -> ImageBuffer {
        let out = copy(b)
        return out.withImage { outImage in
            let d = outImage.luma
            for y in 0..<b.height {
                let row = d.row(y)
                for x in 0..<b.width where inside(Float(x) + 0.5, Float(y) + 0.5) {
                    row[3 * x] = color.0; row[3 * x + 1] = color.1; row[3 * x + 2] = color.2
                }
            }
            return out
        }
    }

    /// The head turned by `angle` radians about a vertical axis (yaw), modelled as a cylinder of
    /// radius `radius` centred on `centreX`: a point at angle φ on the cylinder moves to φ + angle.
    /// Outside the cylinder the image is kept.
    static func yawed(_ b: ImageBuffer, angle: Float, centreX: Float, radius: Float) -> ImageBuffer {
        FaceTestSupport.warp(b, width: b.width, height: b.height) { x, y in
            let dx = x - centreX
            guard abs(dx) < radius else { return (x, y) }
            let phi = asinf(dx / radius) - angle
            guard abs(phi) < .pi / 2 else { return (-1000, -1000) }
            return (centreX + radius * sinf(phi), y)
        }
    }

    /// Spearman's rank correlation of `x` and `y` (average ranks on ties).
    static func spearman(_ x: [Float], _ y: [Float]) -> Float {
        func ranks(_ v: [Float]) -> [Float] {
            let order = v.indices.sorted { v[$0] < v[$1] }
            var r = [Float](repeating: 0, count: v.count)
            var i = 0
            while i < order.count {
                var j = i
                while j + 1 < order.count && v[order[j + 1]] == v[order[i]] { j += 1 }
                for k in i...j { r[order[k]] = Float(i + j) / 2 + 1 }
                i = j + 1
            }
            return r
        }
        let rx = ranks(x), ry = ranks(y)
        let mx = rx.reduce(0, +) / Float(rx.count), my = ry.reduce(0, +) / Float(ry.count)
        var sxy: Float = 0, sxx: Float = 0, syy: Float = 0
        for i in rx.indices {
            sxy += (rx[i] - mx) * (ry[i] - my); sxx += (rx[i] - mx) * (rx[i] - mx); syy += (ry[i] - my) * (ry[i] - my)
        }
        return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
    }
}
