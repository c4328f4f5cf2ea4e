import ImageCore
import ImageFiles
import TestSupport
import Vision

#if canImport(Glibc)
import Glibc
#endif

/// Shared models and image helpers for the face tests.
enum FaceTestSupport {
    /// One analyzer per serialized suite: an interpreter is not thread-safe, and suites run in
    /// parallel with each other.
    nonisolated(unsafe) static let modelSuiteAnalyzer = makeAnalyzer()
    nonisolated(unsafe) static let fixtureSuiteAnalyzer = makeAnalyzer()

    static func makeAnalyzer() -> FaceAnalyzer {
        do { return try FaceAnalyzer(modelDirectory: Fixtures.models) } catch { fatalError("face models: \(error)") }
    }

    static var faceFixtures: String { Fixtures.sharedFixtures + "/faces" }
    static var hasFixtures: Bool { access(faceFixtures, F_OK) == 0 }

    static func load(_ path: String) -> ImageBuffer {
        do { return try ImageDecoder().decode(path: path, as: .rgb888) } catch { fatalError("\(error)") }
    }

    /// The astronaut portrait that ships with the models (always present).
    static func astronaut() -> ImageBuffer { load(Fixtures.models + "/astronaut.png") }

    /// `source` warped onto a `width`×`height` RGB canvas (grey outside): destination point q shows
    /// source point `inverse(q)`; bilinear.
    static func warp(_ source: ImageBuffer, width: Int, height: Int, inverse: (Float, Float) -> (Float, Float)) -> ImageBuffer {
        return source.withImage { sourceImage in
            let out = ImageBuffer(format: .rgb888, width: width, height: height)
            return out.withImage { outImage in
                let src = sourceImage.luma, dst = outImage.luma
                for y in 0..<height {
                    let row = dst.row(y)
                    for x in 0..<width {
                        let (sx, sy) = inverse(Float(x) + 0.5, Float(y) + 0.5)
                        let fx = sx - 0.5, fy = sy - 0.5
                        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
                        let ax = fx - Float(x0), ay = fy - Float(y0)
                        for c in 0..<3 {
                            func px(_ xx: Int, _ yy: Int) -> Float {
                                guard xx >= 0, yy >= 0, xx < source.width, yy < source.height else { return 128 }
                                return Float(src.row(yy)[xx * 3 + c])
                            }
                            let top = px(x0, y0) + (px(x0 + 1, y0) - px(x0, y0)) * ax
                            let bottom = px(x0, y0 + 1) + (px(x0 + 1, y0 + 1) - px(x0, y0 + 1)) * ax
                            row[x * 3 + c] = UInt8(max(0, min(255, (top + (bottom - top) * ay).rounded())))
                        }
                    }
                }
                return out
            }
        }
    }

    /// `source` rotated clockwise on screen by `angle` radians about its centre, on a canvas
    /// large enough to hold it.
    static func rotated(_ source: ImageBuffer, by angle: Float) -> (ImageBuffer, map: (Point2) -> Point2) {
        let w = Float(source.width), h = Float(source.height)
        let side = Int((w * w + h * h).squareRoot().rounded(.up))
        let c = cosf(angle), s = sinf(angle)
        let cx = Float(side) / 2, cy = Float(side) / 2
        let image = warp(source, width: side, height: side) { x, y in
            let dx = x - cx, dy = y - cy
            return (w / 2 + c * dx + s * dy, h / 2 - s * dx + c * dy)
        }
        return (image, { p in
            let dx = p.x - w / 2, dy = p.y - h / 2
            return Point2(cx + c * dx - s * dy, cy + s * dx + c * dy)
        })
    }

    /// I420 copy of an RGB888 buffer (ImageCore's BT.601 full-range kernel), for the camera-format path.
    static func i420(_ rgb: ImageBuffer) -> ImageBuffer {
        return rgb.withImage { rgbImage in
            let out = ImageBuffer(format: .i420, width: rgb.width, height: rgb.height)
            return out.withImage { outImage in
                RGBToI420.run(rgbImage, outImage)
                return out
            }
        }
    }

    static func degrees(_ r: Float) -> Float { r * 180 / .pi }
}
