import ImageCore
import NeuralCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// MediaPipe's palm detector (`palm_detection_lite.tflite` of the mediapipe 0.10.14 wheel) on
/// NeuralCore, with the settings of MediaPipe's `palm_detection_cpu.pbtxt`: 192×192 input
/// letterboxed with black, RGB in [0, 1]; 2016 fixed-size SSD anchors (strides 8, 16, 16, 16, two
/// anchors per layer and cell — the same layout as BlazeFace short range at 192 px); 18
/// regressors per anchor (box and 7 keypoints, in input pixels from the anchor centre) and one
/// logit; sigmoid score ≥ 0.5; weighted NMS at IoU 0.3.
///
/// The examiner runs it on a square around the face of a still (`handOverFace`), to tell a hand
/// at the face (`ExaminerMeasurements.hand`); each palm is then confirmed by the hand landmark
/// model's presence score (`HandLandmarkVerifier`), as in MediaPipe's hand tracking: alone, the
/// palm detector also fires on faces, necks and beards (scores up to 0.92 on the examiner set's
/// photos without hands). Both run on the float path: once per still, not per live frame, and
/// no calibration table is shipped for them (the integer path would calibrate them at load from
/// generated images, which hold no hands).
public final class PalmDetector {
    /// Input side, anchor count and regressors per anchor of the model.
    public static let inputSize = 192, anchorCount = 2016, regressors = 18
    /// The model's shapes (checked at load).
    public static let inputShapes = [[1, inputSize, inputSize, 3]]
    public static let outputShapes = [[1, anchorCount, regressors], [1, anchorCount, 1]]

    public let interpreter: Interpreter
    /// Runs each model pass (input, run, output read) when set: for a model whose arena is shared
    /// with interpreters on another thread, the caller's lock around the pass (as
    /// `PersonSegmenter.exclusive`; the verifier has its own).
    public var exclusive: ((() -> Void) -> Void)? = nil
    let anchors: [FaceAnchor]
    /// Palms below this score are dropped (MediaPipe: 0.5).
    public var minScore: Float = 0.5
    /// Weighted-NMS overlap (MediaPipe: 0.3).
    public var nmsThreshold: Float = 0.3
    /// The most palms one call reports.
    public var maxPalms = 4
    /// The square searched around a face, in face-box sides (its larger side).
    public var faceRegionScale: Float = 3
    /// The palm box is widened by this about its centre before it is compared with the face
    /// (the palm box leaves out the fingers).
    public var fingerScale: Float = 1.5

    /// A palm whose widened box reaches into the face box's lower half (a hand at the mouth,
    /// chin, jaw or lower cheek) is kept from this score on in `handOverFace` … (tuning half of
    /// the examiner's real photos: such hands scored down to 0.23 there)
    public var lowerFaceMinScore: Float = 0.2
    /// … and confirmed from this presence (there: hands at the chin or mouth 0.60–0.77 under the
    /// verifier's 0.8; palms the detector finds in the lower half of compliant faces, beards and
    /// necks, at most 0.42).
    public var lowerFaceMinPresence: Float = 0.6

    /// The side of the squares `handAtJaw` runs the hand model on, in face-box sides.
    public var jawRegionScale: Float = 0.8

    /// Confirms each palm (nil: palms are reported unconfirmed).
    public let verifier: HandLandmarkVerifier?

    var candidates: [FaceDetection]
    var merged: [FaceDetection] = []

    /// Loads `bytes` (`ModelFile.palmDetection`) for the float path, keeping no float weights
    /// beside the program's packed ones, with the hand landmark model `verifier` to confirm palms;
    /// the shapes are checked. With `shared` (the verifier's too), the two models' activations
    /// share one block: `detect` reads the palm outputs before it runs the verifier.
    public convenience init(model bytes: [UInt8], verifier: HandLandmarkVerifier?, sharing shared: SharedArena? = nil) throws(ModelError) {
        var copy = ModelBytes(bytes)
        try self.init(taking: &copy, verifier: verifier, sharing: shared)
    }

    /// As `init(model:verifier:sharing:)`, taking the file's `bytes` (a mapping: `ModelStore.map`):
    /// released as soon as they are parsed (`bytes` is left empty; `Interpreter(taking:)`), before
    /// the weights are packed.
    public init(taking bytes: inout ModelBytes, verifier: HandLandmarkVerifier?, sharing shared: SharedArena? = nil) throws(ModelError) {
        self.verifier = verifier
        interpreter = try Interpreter(taking: &bytes, path: .float, sharing: shared, keepingWeights: false)
        try interpreter.requireShapes("MediaPipe palm detector", inputs: Self.inputShapes, outputs: Self.outputShapes)
        anchors = FaceAnchors.make(inputSize: Self.inputSize, strides: [8, 16, 16, 16], perLayer: 2)
        candidates = Array(repeating: FaceDetection(box: Rect(x: 0, y: 0, width: 0, height: 0), keypoints: .zero, score: 0),
                           count: anchors.count)
        merged.reserveCapacity(maxPalms)
    }

    /// Palms in the square around `region` (axis-aligned; black where it leaves the image), best
    /// first, in image pixels; with `verify`, each with the verifier's presence score; palms from
    /// `minScore` on (nil: the detector's `minScore`).
    public func detect(_ image: Image, region: RotatedRect, verify: Bool = true, minScore: Float? = nil) -> [PalmDetection] {
        let size = Self.inputSize
        let side = max(region.width, region.height)
        let square = RotatedRect(center: region.center, width: side, height: side)
        let originX = region.center.x - side / 2, originY = region.center.y - side / 2
        let scale = side / Float(size)
        let logitLimit = -logf(1 / (minScore ?? self.minScore) - 1)
        var n = 0
        let pass = {
            self.interpreter.withInput(0) { tensor in
                TensorSampler.sample(image, region: square, into: tensor, width: size, height: size, range: .zeroToOne, border: .zero)
            }
            self.interpreter.run()
            let anchors = self.anchors
            n = self.interpreter.withOutput(0) { boxes in
                self.interpreter.withOutput(1) { logits in
                    var n = 0
                    for i in 0..<anchors.count {
                        let logit = min(max(logits[i], -100), 100)
                        guard logit >= logitLimit else { continue }
                        let a = anchors[i], r = i * Self.regressors
                        let cx = originX + (a.x * Float(size) + boxes[r]) * scale
                        let cy = originY + (a.y * Float(size) + boxes[r + 1]) * scale
                        let w = boxes[r + 2] * scale, h = boxes[r + 3] * scale
                        guard w > 0, h > 0 else { continue }
                        // The wrist and the middle knuckle ride in two keypoint slots through the NMS.
                        var keys = FaceKeypoints.zero
                        for k in 0..<2 {
                            keys[k] = Point2(originX + (a.x * Float(size) + boxes[r + 4 + 4 * k]) * scale,
                                             originY + (a.y * Float(size) + boxes[r + 5 + 4 * k]) * scale)
                        }
                        self.candidates[n] = FaceDetection(box: Rect(x: cx - w / 2, y: cy - h / 2, width: w, height: h), keypoints: keys,
                                                      score: 1 / (1 + expf(-logit)))
                        n += 1
                    }
                    return n
                }
            }
        }
        if let exclusive { exclusive(pass) } else { pass() }
        merged.removeAll(keepingCapacity: true)
        WeightedNMS.run(&candidates, count: n, threshold: nmsThreshold, maxOutputs: maxPalms, into: &merged)
        return merged.map { d in
            var palm = PalmDetection(box: d.box, score: d.score, wrist: d.keypoints[0], knuckle: d.keypoints[1])
            if verify { palm.presence = presence(image, palm) }
            return palm
        }
    }

    /// The verifier's presence score for `palm` (nil without a verifier).
    func presence(_ image: Image, _ palm: PalmDetection) -> Float? {
        verifier.map { $0.presence(image, region: HandLandmarkVerifier.region(palm: palm.box, wrist: palm.wrist, knuckle: palm.knuckle)) }
    }

    /// The square searched for a hand at the face `box`: `faceRegionScale` times its larger side.
    public func region(around box: Rect) -> RotatedRect {
        let side = faceRegionScale * max(box.width, box.height)
        return RotatedRect(center: box.center, width: side, height: side)
    }

    /// How much of a hand lies over the face `box`: the largest share (0...1), over the palms
    /// found around the face and confirmed by the verifier, of the palm's box (widened by
    /// `fingerScale`) inside the face box. 0 when no palm is found. A palm reaching into the
    /// face's lower half needs only `lowerFaceMinScore` and `lowerFaceMinPresence` (a hand
    /// against the jaw or over the mouth is partly hidden and scores lower); elsewhere
    /// `minScore` and the verifier's `minPresence`.
    /// Only the palms over the face are verified (the hand model costs more than the detector).
    public func handOverFace(_ image: Image, face box: Rect) -> Float {
        palmsOverFace(palmsAround(image, face: box), face: box).overlap(image, confirmedBy: verifier)
    }

    /// The lowest score a palm of a still's hand measures is kept from: `lowerFaceMinScore`
    /// (or `minScore` if lower). `palmsAround` detects from it, and `HandsInFrame.palms` keeps
    /// every palm it found; one threshold, so that one detection serves both measures (weighted
    /// NMS over another candidate set could move the boxes).
    public var stillMinScore: Float { min(minScore, lowerFaceMinScore) }

    /// The palms, unverified, in the square around the face `box` (`region(around:)`) from
    /// `stillMinScore` on: one detector run whose palms both `palmsOverFace` and
    /// `HandsInFrame.palms` filter.
    public func palmsAround(_ image: Image, face box: Rect) -> [PalmDetection] {
        detect(image, region: region(around: box), verify: false, minScore: stillMinScore)
    }

    /// Of `palms` (`palmsAround` for the face `box`), those over the face that `handOverFace`
    /// would ask the verifier about (the detector's half of it): with a detector built without a
    /// verifier, the palm model can be dropped before the hand model is built
    /// (`PalmsOverFace.overlap`).
    public func palmsOverFace(_ palms: [PalmDetection], face box: Rect) -> PalmsOverFace {
        let lower = Rect(x: box.x, y: box.y + box.height / 2, width: box.width, height: box.height / 2)
        var over: [(palm: PalmDetection, low: Bool)] = []
        for palm in palms {
            guard Self.overlap([palm], face: box, fingerScale: fingerScale) > 0 else { continue }
            let low = Self.overlap([palm], face: lower, fingerScale: fingerScale) > 0
            guard palm.score >= (low ? lowerFaceMinScore : minScore) else { continue }
            over.append((palm, low))
        }
        return PalmsOverFace(palms: over, face: box, fingerScale: fingerScale, lowerFaceMinPresence: lowerFaceMinPresence)
    }

    /// The hand landmark model's presence score beside the jaw (`HandLandmarkVerifier.handAtJaw`,
    /// with `jawRegionScale`). nil without a verifier.
    public func handAtJaw(_ image: Image, face box: Rect) -> Float? {
        verifier?.handAtJaw(image, face: box, regionScale: jawRegionScale)
    }

    /// The largest share of a palm box, widened by `fingerScale` about its centre, inside `face`.
    public static func overlap(_ palms: [PalmDetection], face: Rect, fingerScale: Float) -> Float {
        var best: Float = 0
        for p in palms {
            let w = p.box.width * fingerScale, h = p.box.height * fingerScale
            let hand = Rect(x: p.box.center.x - w / 2, y: p.box.center.y - h / 2, width: w, height: h)
            if hand.area > 0 { best = max(best, hand.intersectionArea(face) / hand.area) }
        }
        return best
    }
}

/// The palms a detector found over a face, each with whether it reaches into the face's lower
/// half, waiting for the hand model's confirmation (`PalmDetector.palmsOverFace`).
public struct PalmsOverFace: Sendable {
    public var palms: [(palm: PalmDetection, low: Bool)]
    public var face: Rect
    public var fingerScale: Float
    public var lowerFaceMinPresence: Float

    /// `PalmDetector.handOverFace`'s share: the palms `verifier` confirms (all of them without
    /// one) against its `minPresence`, or `lowerFaceMinPresence` for a palm in the lower half.
    public func overlap(_ image: Image, confirmedBy verifier: HandLandmarkVerifier?) -> Float {
        let minPresence = verifier?.minPresence ?? 0
        let confirmed = palms.filter { p in
            let presence = verifier.map { $0.presence(image, region: HandLandmarkVerifier.region(palm: p.palm.box, wrist: p.palm.wrist,
                                                                                             knuckle: p.palm.knuckle)) }
            return (presence ?? 1) >= (p.low ? min(minPresence, lowerFaceMinPresence) : minPresence)
        }.map(\.palm)
        return PalmDetector.overlap(confirmed, face: face, fingerScale: fingerScale)
    }
}

extension HandLandmarkVerifier {
    /// The presence score beside the jaw, where no palm need show (a hand against the jaw or lower
    /// cheek shows its back or its fingers): the largest over two squares of `regionScale`
    /// face-box sides (`PalmDetector.jawRegionScale`), centred on the face box's left and right
    /// edges at three quarters of its height, each turned 0°, 90°, 180° and 270° (8 runs).
    public func handAtJaw(_ image: Image, face box: Rect, regionScale: Float) -> Float {
        let side = regionScale * max(box.width, box.height)
        let y = box.y + 0.75 * box.height
        var best: Float = 0
        for x in [box.x, box.x + box.width] {
            for quarter in 0..<4 {
                let region = RotatedRect(center: Point2(x, y), width: side, height: side, rotation: Float(quarter) * Float.pi / 2)
                best = max(best, presence(image, region: region))
            }
        }
        return best
    }
}
