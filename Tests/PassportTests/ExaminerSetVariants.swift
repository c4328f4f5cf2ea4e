import ImageCore
import Vision

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Honest synthetic variants of a real photo of the examiner set: the same face blurred, shaded
/// on one side, rotated, darkened, with dark lenses over the eyes, with a real hand (cut from
/// another photo of the set) over the lower face, or with a cigarette at the mouth. Placed from
/// the face's own mesh; RGB888 in and out. The hat is a navy knitted-cap band from above the
/// head down to the middle of the forehead (with a little luma texture, as wool has).
enum ExaminerSetVariants {
    enum Kind: String, CaseIterable {
        case blur, shadow, rotated, dark, sunglasses, hand, cigarette, hat
    }

    static func copy(_ s: ImageBuffer) -> ImageBuffer {
        return s.withImage { sImage in
            let out = ImageBuffer(format: .rgb888, width: s.width, height: s.height)
            return out.withImage { outImage in
                CopyPlane.run(sImage, outImage)
                return out
            }
        }
    }

    /// The variant `kind` of `source`, whose main face is `face`; `hand` is the hand cut-out
    /// (RGB888, pure green where there is no hand).
    static func make(_ kind: Kind, _ source: ImageBuffer, face: FaceObservation, hand: ImageBuffer) -> ImageBuffer {
        return source.withImage { sourceImage in
        return hand.withImage { handImage in
                let out = copy(source)
                return out.withImage { outImage in
                    let d = outImage.luma
                    let w = out.width, h = out.height
                    let eyeR = face.rightPupil, eyeL = face.leftPupil
                    let ed = max(4, hypotf(eyeL.x - eyeR.x, eyeL.y - eyeR.y))
                    switch kind {
                    case .blur:
                        // Three box passes (≈ Gaussian), radius scaled to the face: σ ≈ 0.06 of the eye distance · √3.
                        let r = max(2, Int((ed * 0.07).rounded()))
                        for _ in 0..<3 { PassportSceneTests.boxBlur(out, radius: r) }
                    case .shadow:
                        // The person's left half (image right of the nose line) at 35 % light, soft 0.1·ed edge.
                        let a = face.mesh[168].xy, b = face.mesh[152].xy
                        let nx = b.y - a.y, ny = -(b.x - a.x)
                        let n = max(1, hypotf(nx, ny))
                        for y in 0..<h {
                            for x in 0..<w {
                                let side = ((Float(x) - a.x) * nx + (Float(y) - a.y) * ny) / n
                                let t = max(0, min(1, 0.5 - side / (0.2 * ed)))
                                let gain = 1 - 0.65 * t
                                for k in 0..<3 { d.row(y)[3 * x + k] = UInt8(Float(d.row(y)[3 * x + k]) * gain) }
                            }
                        }
                    case .rotated:
                        // 7° about the face centre (borders filled grey).
                        let c = face.box.center, a: Float = 7 * .pi / 180, co = cosf(a), si = sinf(a)
                        let s = sourceImage.luma
                        for y in 0..<h {
                            for x in 0..<w {
                                let u = Float(x) - c.x, v = Float(y) - c.y
                                let sx = Int((co * u + si * v + c.x).rounded()), sy = Int((-si * u + co * v + c.y).rounded())
                                for k in 0..<3 {
                                    d.row(y)[3 * x + k] = (sx >= 0 && sy >= 0 && sx < w && sy < h) ? s.row(sy)[3 * sx + k] : 128
                                }
                            }
                        }
                    case .dark:
                        for y in 0..<h { for i in 0..<(3 * w) { d.row(y)[i] = UInt8(Float(d.row(y)[i]) * 0.45) } }
                    case .sunglasses:
                        // Two dark lens ellipses (0.55·ed wide, 0.4·ed tall) with a little of the eye showing
                        // through (12 %), joined by a bridge.
                        for (c, _) in [(eyeR, 0), (eyeL, 1)] {
                            fill(out, minX: c.x - 0.3 * ed, maxX: c.x + 0.3 * ed, minY: c.y - 0.22 * ed, maxY: c.y + 0.24 * ed) { x, y in
                                let u = (x - c.x) / (0.29 * ed), v = (y - c.y - 0.01 * ed) / (0.23 * ed)
                                return u * u + v * v <= 1 ? 0.88 : nil
                            }
                        }
                        let m = Point2((eyeR.x + eyeL.x) / 2, (eyeR.y + eyeL.y) / 2)
                        fill(out, minX: m.x - 0.22 * ed, maxX: m.x + 0.22 * ed, minY: m.y - 0.14 * ed, maxY: m.y - 0.08 * ed) { _, _ in 1 }
                    case .hand:
                        // The hand, scaled to 1.1 eye distances wide, its centre over the mouth corner.
                        let target = face.mesh[61].xy
                        let scale = 1.1 * ed / Float(hand.width)
                        let hw = Float(hand.width) * scale, hh = Float(hand.height) * scale
                        let x0 = target.x - hw * 0.45, y0 = target.y - hh * 0.5
                        let src = handImage.luma
                        for y in max(0, Int(y0))..<min(h, Int(y0 + hh)) {
                            for x in max(0, Int(x0))..<min(w, Int(x0 + hw)) {
                                let sx = max(0, min(hand.width - 1, Int((Float(x) - x0) / scale)))
                                let sy = max(0, min(hand.height - 1, Int((Float(y) - y0) / scale)))
                                let p = src.row(sy)
                                let r = p[3 * sx], g = p[3 * sx + 1], b = p[3 * sx + 2]
                                if r < 40 && g > 200 && b < 40 { continue }           // keyed-out background
                                d.row(y)[3 * x] = r; d.row(y)[3 * x + 1] = g; d.row(y)[3 * x + 2] = b
                            }
                        }
                    case .cigarette:
                        // A white stick 0.55·ed long, 0.07·ed thick, from the person's left mouth corner
                        // outwards and slightly down, with an orange-brown filter at the lips.
                        let start = face.mesh[291].xy
                        let ux = (eyeL.x - eyeR.x) / ed, uy = (eyeL.y - eyeR.y) / ed
                        let dx = ux * 0.94 - uy * 0.34, dy = uy * 0.94 + ux * 0.34
                        let length = 0.55 * ed, half = 0.035 * ed
                        for y in max(0, Int(start.y - length))..<min(h, Int(start.y + length)) {
                            for x in max(0, Int(start.x - length))..<min(w, Int(start.x + length)) {
                                let px = Float(x) - start.x, py = Float(y) - start.y
                                let along = px * dx + py * dy, across = abs(-px * dy + py * dx)
                                guard along >= -0.05 * ed, along <= length, across <= half else { continue }
                                let filter = along < 0.15 * ed
                                d.row(y)[3 * x] = filter ? 200 : 245; d.row(y)[3 * x + 1] = filter ? 130 : 243; d.row(y)[3 * x + 2] = filter ? 60 : 238
                            }
                        }
                    case .hat:
                        // Everything above the line through the middle of the forehead (between the brows'
                        // tops and the hairline), within 1.3 eye distances of the face's centre line.
                        let top = face.mesh[10].xy, brow = face.mesh[9].xy
                        let ux = (eyeL.x - eyeR.x) / ed, uy = (eyeL.y - eyeR.y) / ed
                        let edge = Point2(brow.x + 0.45 * (top.x - brow.x), brow.y + 0.45 * (top.y - brow.y))
                        for y in 0..<h {
                            for x in 0..<w {
                                let px = Float(x) - edge.x, py = Float(y) - edge.y
                                let along = px * ux + py * uy, down = -px * uy + py * ux
                                guard down <= 0, down >= -1.6 * ed, abs(along) <= 1.3 * ed else { continue }
                                let texture = UInt8(truncatingIfNeeded: (x * 7 + y * 13) % 9)
                                d.row(y)[3 * x] = 30 + texture; d.row(y)[3 * x + 1] = 40 + texture; d.row(y)[3 * x + 2] = 90 + texture
                            }
                        }
                    }
                    return out
                }
        }
    }
    }

    /// Darkens pixels in a box by the factor `body` returns (nil: untouched).
    static func fill(_ frame: ImageBuffer, minX: Float, maxX: Float, minY: Float, maxY: Float, _ body: (Float, Float) -> Float?) {
        return frame.withImage { frameImage in
            let d = frameImage.luma
            for y in max(0, Int(minY))..<min(frame.height, Int(maxY.rounded(.up))) {
                for x in max(0, Int(minX))..<min(frame.width, Int(maxX.rounded(.up))) {
                    guard let k = body(Float(x), Float(y)) else { continue }
                    for c in 0..<3 {
                        let v = Float(d.row(y)[3 * x + c])
                        d.row(y)[3 * x + c] = UInt8(max(0, min(255, v * (1 - k) + 12 * k)))
                    }
                }
            }
        }
    }
}
