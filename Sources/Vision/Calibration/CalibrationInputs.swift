import ImageCore
import NeuralCore
import VisionKernels

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A calibration set for one model, made from real images the way the pipeline feeds the model,
/// with the variations a camera adds (what `scripts/calibrate` records a `CalibrationTable` on):
/// - detector: the whole image letterboxed (the live path), squares around each face at 1.5–6×
///   its width (the faces a tile or a farther camera sees; 2–16× for the full-range detector,
///   whose faces stand back) and random tiles of the scene;
/// - mesh: each face's detection region and its tracking region (from the float mesh), jittered
///   in position, scale and rotation as tracking drifts between frames;
/// - iris: both eyes' regions from the float mesh (the left one mirrored, as the pipeline does),
///   jittered;
/// - segmentation: the whole image stretched (fast/balanced), mirrored (accurate), and the
///   people's box (accurate's second pass), slightly rotated.
/// Every region then comes `variants` times: once as is, then with a seeded exposure gain
/// (0.55–1.6×) and gamma (0.8–1.25), a 3×3 blur on some, and sensor noise (σ ≤ 3 % of the range).
/// Faces are found with the float path (the reference). Deterministic: input `i` is the same on
/// every call, so the recorder's two passes see the same inputs. Allocates (offline tool).
public final class CalibrationInputs {
    public let model: CalibrationModel
    struct Sample {
        var image: Int
        var region: RotatedRect
        var flip: Bool
        var variant: Int
    }
    let images: [Image]
    var samples: [Sample] = []
    let seed: UInt64
    /// Faces found per image (for reporting).
    public private(set) var faceCount = 0

    public var count: Int { samples.count }

    /// - Parameters:
    ///   - images: the set (kept alive by the caller while this is used).
    ///   - detector, landmarker: float-path models that find the faces, mesh and eyes.
    public init(model: CalibrationModel, images: [Image], detector: FaceDetector, landmarker: FaceLandmarker,
                variants: Int = 3, seed: UInt64 = 0xCA1B) {
        precondition(variants >= 1, "at least the unaugmented variant")
        self.model = model
        self.images = images
        self.seed = seed
        var rng = CalibrationRandom(state: seed)
        func jitter(_ r: RotatedRect, shift: Float, scale: ClosedRange<Float>, angle: Float) -> RotatedRect {
            var j = r
            let s = rng.uniform(scale.lowerBound, scale.upperBound)
            j.center.x += rng.uniform(-shift, shift) * r.width
            j.center.y += rng.uniform(-shift, shift) * r.height
            j.width *= s
            j.height *= s
            j.rotation += rng.uniform(-angle, angle)
            return j
        }
        for (index, image) in images.enumerated() {
            let w = Float(image.width), h = Float(image.height)
            var regions: [(RotatedRect, Bool)] = []
            var faces: [(RotatedRect, RotatedRect, FaceMesh)] = []
            for d in detector.detectTiled(image) {
                let mesh = FaceMesh()
                guard landmarker.process(image, region: d.landmarkRegion, into: mesh) else { continue }
                let refined = FaceMesh()
                if landmarker.process(image, region: mesh.trackingRegion, into: refined) { mesh.copy(from: refined) }
                faces.append((d.landmarkRegion, mesh.trackingRegion, mesh))
            }
            faceCount += faces.count
            switch model {
            case .faceDetection, .faceDetectionFullRange:
                regions.append((FaceDetector.letterbox(width: image.width, height: image.height), false))
                let widths: ClosedRange<Float> = model == .faceDetection ? 1.5...6 : 2...16
                for (_, track, _) in faces {
                    for _ in 0..<2 {
                        let side = track.width / 1.5 * rng.uniform(widths.lowerBound, widths.upperBound)
                        let c = Point2(track.center.x + rng.uniform(-0.3, 0.3) * side, track.center.y + rng.uniform(-0.3, 0.3) * side)
                        regions.append((RotatedRect(center: c, width: side, height: side), false))
                    }
                }
                for _ in 0..<2 {
                    let side = max(w, h) * rng.uniform(0.35, 0.8)
                    regions.append((RotatedRect(center: Point2(rng.uniform(0, w), rng.uniform(0, h)), width: side, height: side), false))
                }
            case .faceLandmark:
                for (detected, track, _) in faces {
                    regions.append((detected, false))
                    regions.append((track, false))
                    for _ in 0..<2 { regions.append((jitter(track, shift: 0.08, scale: 0.9...1.2, angle: 0.25), false)) }
                }
            case .irisLandmark:
                for (_, _, mesh) in faces {
                    for right in [true, false] {
                        let eye = FaceLandmarker.eyeRegion(mesh.points, rightEye: right)
                        regions.append((eye, !right))
                        regions.append((jitter(eye, shift: 0.06, scale: 0.9...1.12, angle: 0.15), !right))
                    }
                }
            case .selfieSegmentation, .selfieSegmentationLandscape:
                let whole = RotatedRect(center: Point2(w / 2, h / 2), width: w, height: h)
                regions.append((whole, false))
                regions.append((whole, true))
                regions.append((jitter(whole, shift: 0.03, scale: 0.95...1.05, angle: 0.1), false))
                if let first = faces.first {
                    // The people's box as the accurate level crops it: around the face, down to the bottom.
                    let b = first.2.boundingBox
                    let top = max(0, b.y - b.height), bottom = h
                    let left = max(0, b.x - 1.5 * b.width), right = min(w, b.x + 2.5 * b.width)
                    regions.append((RotatedRect(center: Point2((left + right) / 2, (top + bottom) / 2),
                                                width: right - left, height: bottom - top), false))
                }
            }
            for (region, flip) in regions {
                for v in 0..<variants { samples.append(Sample(image: index, region: region, flip: flip, variant: v)) }
            }
        }
    }

    /// Writes input `i` (the model's float NHWC input, in its value range) into `tensor`.
    public func fill(_ i: Int, _ tensor: UnsafeMutableBufferPointer<Float>) {
        let s = samples[i]
        let w = model.inputWidth, h = model.inputHeight
        TensorSampler.sample(images[s.image], region: s.region, into: tensor, width: w, height: h,
                             range: .zeroToOne, border: model.border, flipHorizontally: s.flip)
        if s.variant > 0 {
            var rng = CalibrationRandom(state: seed ^ (UInt64(i) &* 0x9E37_79B9_7F4A_7C15))
            let gain = rng.uniform(0.55, 1.6), gamma = rng.uniform(0.8, 1.25)
            let blur = rng.uniform(0, 1) < 0.35
            let sigma = rng.uniform(0, 0.03)
            if blur { CalibrationInputs.boxBlur(tensor, width: w, height: h) }
            for k in 0..<tensor.count {
                // Approximately Gaussian noise: the sum of three uniforms.
                let n = (rng.uniform(-1, 1) + rng.uniform(-1, 1) + rng.uniform(-1, 1)) * sigma
                let v = powf(max(tensor[k], 0) * gain, gamma) + n
                tensor[k] = min(max(v, 0), 1)
            }
        }
        if model.range == .minusOneToOne {
            for k in 0..<tensor.count { tensor[k] = tensor[k] * 2 - 1 }
        }
    }

    /// 3×3 box blur of an RGB tensor in place (edges replicated), a defocused camera.
    static func boxBlur(_ t: UnsafeMutableBufferPointer<Float>, width w: Int, height h: Int) {
        let copy = Array(t)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<3 {
                    var sum: Float = 0
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let yy = min(max(y + dy, 0), h - 1), xx = min(max(x + dx, 0), w - 1)
                            sum += copy[(yy * w + xx) * 3 + c]
                        }
                    }
                    t[(y * w + x) * 3 + c] = sum / 9
                }
            }
        }
    }
}
