import NeuralCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The integer path against a reference (the float path, itself within 5.2e-5 of LiteRT's float
/// outputs) on a calibration-style set of real inputs, with the bounds of the NeuralCore issue:
/// BlazeFace face score within 0.02 and box within 1 px (input pixels: 128×128 short range,
/// 192×192 full range) on every face the
/// reference reports (decoded as `FaceDetector` does: score ≥ 0.5, weighted NMS; a face the
/// integer path reports only below 0.5, down to 0.3, counts with its score difference, so that a
/// face scored 0.51 and 0.49 counts as a 0.02 difference; a
/// face it does not see at all counts as its whole score and width), mesh RMS ≤ 1.0 px (192×192), iris RMS ≤ 0.5 px (64×64, the 5 iris
/// points), segmentation IoU ≥ 0.97 at 0.5 (on inputs where the reference mask covers at least 1 %
/// of the pixels). Used by `booth model calibrate --check` and the tests.
public struct IntegerAccuracy: Sendable {
    /// One figure over the set: its worst and mean value, and the bound the worst must meet.
    public struct Figure: Sendable {
        public var name: String
        public var worst: Float
        public var mean: Float
        public var bound: Float
        /// Higher is better (IoU) rather than lower.
        public var higherIsBetter: Bool
        public var count: Int
        public var meetsBound: Bool { higherIsBetter ? worst >= bound : worst <= bound }
        public var summary: String {
            name + ": worst " + Self.format(worst) + ", mean " + Self.format(mean) + " over " + String(count)
                + " (bound " + (higherIsBetter ? "≥ " : "≤ ") + Self.format(bound) + (meetsBound ? ", met)" : ", MISSED)")
        }
        static func format(_ v: Float) -> String {
            let scaled = (v * 10000).rounded() / 10000
            return String(scaled)
        }
    }

    public var model: CalibrationModel
    public var figures: [Figure]

    /// Runs `integer` and `reference` on every input of `inputs` and collects the figures.
    /// The integer program of `bytes` with `table` adopted into `calibration` and its per-tensor
    /// activation widths replaced by `widths` (tensor → 8 or 16 bits), against `reference` on
    /// `inputs`: one trial of the width choices (`PrecisionChoice`, `WidthSweep`).
    init(model: CalibrationModel, bytes: [UInt8], table: CalibrationTable, widths: [Int: Int],
         calibration: IntegerCalibration, reference: Interpreter, inputs: CalibrationInputs) throws(ModelError) {
        var t = table
        t.widths = widths
        var c = calibration
        c.adopt(t)
        let integer = try Interpreter(model: bytes, path: .integer, calibration: c)
        self.init(model: model, integer: integer, reference: reference, inputs: inputs)
    }

    /// Operations whose output width follows their input's (no kernel of their own to change
    /// width): left out of the per-operation width trials.
    static let widthFollowingKinds: Set<String> = ["MAX_POOL_2D", "AVERAGE_POOL_2D", "PAD", "RESHAPE", "RESIZE_BILINEAR"]

    public init(model: CalibrationModel, integer: Interpreter, reference: Interpreter, inputs: CalibrationInputs) {
        self.init(model: model, reference: reference, inputs: inputs) { _, input in
            integer.withInput(0) { $0.update(fromContentsOf: input) }
            integer.run()
            return (0..<integer.outputCount).map { k in integer.withOutput(k) { Array($0) } }
        }
    }

    /// The figures of `candidate(index, input)` (the outputs of another computation) against
    /// `reference` on every input of `inputs`.
    public init(model: CalibrationModel, reference: Interpreter, inputs: CalibrationInputs,
                candidate: (Int, [Float]) -> [[Float]]) {
        self.model = model
        var values: [[Float]] = Self.bounds(model).map { _ in [] }
        var input = [Float](repeating: 0, count: reference.inputShape(0).reduce(1, *))
        for i in 0..<inputs.count {
            input.withUnsafeMutableBufferPointer { inputs.fill(i, $0) }
            reference.withInput(0) { $0.update(fromContentsOf: input) }
            reference.run()
            let ref = (0..<reference.outputCount).map { k in reference.withOutput(k) { Array($0) } }
            let out = candidate(i, input)
            for (k, v) in Self.measure(model, out, ref).enumerated() { values[k].append(v) }
        }
        figures = Self.figures(model, values: values)
    }

    /// The figures of `model` from `values[k]`, figure k's value on each input (NaN: none there):
    /// the worst and the mean of the values present.
    static func figures(_ model: CalibrationModel, values: [[Float]]) -> [Figure] {
        bounds(model).enumerated().map { k, b in
            let v = values[k].filter { !$0.isNaN }
            let worst = v.isEmpty ? (b.higherIsBetter ? 1 : 0) : (b.higherIsBetter ? v.min()! : v.max()!)
            let mean = v.isEmpty ? worst : v.reduce(0, +) / Float(v.count)
            return Figure(name: b.name, worst: worst, mean: mean, bound: b.bound, higherIsBetter: b.higherIsBetter, count: v.count)
        }
    }

    /// The figures of `model`, in `measure`'s order: name, bound, and whether higher is better.
    static func bounds(_ model: CalibrationModel) -> [(name: String, bound: Float, higherIsBetter: Bool)] {
        switch model {
        case .faceDetection, .faceDetectionFullRange: return [("face score Δ", 0.02, false), ("face box Δ px", 1, false)]
        case .faceLandmark: return [("mesh RMS px", 1, false)]
        case .irisLandmark: return [("iris RMS px", 0.5, false)]
        case .selfieSegmentation, .selfieSegmentationLandscape: return [("IoU", 0.97, true)]
        }
    }

    /// The figures of one input (NaN where it has none, e.g. no face anchor).
    package static func measure(_ model: CalibrationModel, _ out: [[Float]], _ ref: [[Float]]) -> [Float] {
        switch model {
        case .faceDetection, .faceDetectionFullRange:
            // The faces as the detector reports them (decoded, weighted NMS), in input pixels.
            // The candidate's faces are decoded at the detector's threshold, as the reference's;
            // a face it reports only below the threshold (down to 0.2 below) counts with its score
            // difference. (Decoding the candidate at the lower threshold only would merge anchors
            // scored 0.3–0.5 into the weighted average and move the box of identical outputs.)
            let detector = model.detector ?? .short
            let theirs = decodeFaces(ref, detector, minScore: detector.minScore)
            let ours = decodeFaces(out, detector, minScore: detector.minScore)
            let below = decodeFaces(out, detector, minScore: detector.minScore - 0.2)
            guard !theirs.isEmpty else { return [.nan, .nan] }
            func match(_ faces: [FaceDetection], _ t: FaceDetection) -> FaceDetection? {
                guard let o = faces.max(by: { $0.box.iou(t.box) < $1.box.iou(t.box) }), o.box.iou(t.box) > 0.3 else { return nil }
                return o
            }
            var score: Float = 0, box: Float = 0
            for t in theirs {
                guard let o = match(ours, t) ?? match(below, t) else {
                    // A face the reference finds and the candidate does not see at all.
                    score = max(score, t.score)
                    box = max(box, t.box.width)
                    continue
                }
                score = max(score, abs(o.score - t.score))
                box = max(box, abs(o.box.x - t.box.x), abs(o.box.y - t.box.y),
                          abs(o.box.width - t.box.width), abs(o.box.height - t.box.height))
            }
            return [score, box]
        case .faceLandmark:
            let m = out[0].count == 1404 ? 0 : 1
            return [rms(out[m], ref[m], points: 468)]
        case .irisLandmark:
            let m = out[0].count == 15 ? 0 : 1
            return [rms(out[m], ref[m], points: 5)]
        case .selfieSegmentation, .selfieSegmentationLandscape:
            var inter = 0, union = 0, person = 0
            for i in 0..<out[0].count {
                let x = out[0][i] >= 0.5, y = ref[0][i] >= 0.5
                if x && y { inter += 1 }
                if x || y { union += 1 }
                if y { person += 1 }
            }
            // IoU says nothing on inputs with (almost) no person: a few stray pixels decide it.
            return [person * 100 < out[0].count ? .nan : Float(inter) / Float(union)]
        }
    }

    /// BlazeFace's figures per anchor, before decoding, for choosing by (`FloatChoice`): the
    /// largest face-score difference over the anchors the reference scores at least 0.2 below the
    /// threshold, and the largest box-regressor difference (input pixels) over those it scores at
    /// or above it. Unlike the decoded figures, these move smoothly with the outputs (no anchor
    /// crossing the threshold, no change of the top anchor); the decoded ones are bounded by them
    /// while the same anchors pass. NaN where the reference has no such anchor.
    package static func anchorErrors(_ model: FaceDetectorModel, _ out: [[Float]], _ ref: [[Float]]) -> [Float] {
        let anchors = model == .short ? Self.anchors[0] : Self.anchors[1]
        let first = ref[0].count == anchors.count * 16
        let (boxes, logits) = first ? (out[0], out[1]) : (out[1], out[0])
        let (refBoxes, refLogits) = first ? (ref[0], ref[1]) : (ref[1], ref[0])
        func sigmoid(_ x: Float) -> Float { 1 / (1 + expf(-min(max(x, -100), 100))) }
        var score: Float = .nan, box: Float = .nan
        for i in anchors.indices {
            let r = sigmoid(refLogits[i])
            guard r >= model.minScore - 0.2 else { continue }
            score = max(score.isNaN ? 0 : score, abs(sigmoid(logits[i]) - r))
            guard r >= model.minScore else { continue }
            for k in 0..<4 { box = max(box.isNaN ? 0 : box, abs(boxes[i * 16 + k] - refBoxes[i * 16 + k])) }
        }
        return [score, box]
    }

    static let anchors = [FaceAnchors.make(for: .short), FaceAnchors.make(for: .full)]

    /// BlazeFace's outputs decoded as `FaceDetector` decodes them (score ≥ `minScore`, MediaPipe:
    /// 0.5 short range, 0.6 full range; weighted NMS at 0.3), in input pixels.
    static func decodeFaces(_ outputs: [[Float]], _ model: FaceDetectorModel, minScore: Float) -> [FaceDetection] {
        let anchors = model == .short ? Self.anchors[0] : Self.anchors[1]
        let (boxes, logits) = outputs[0].count == anchors.count * 16 ? (outputs[0], outputs[1]) : (outputs[1], outputs[0])
        let size = Float(model.inputSize)
        var candidates: [FaceDetection] = []
        for (i, a) in anchors.enumerated() {
            let score = 1 / (1 + expf(-min(max(logits[i], -100), 100)))
            guard score >= minScore else { continue }
            let r = i * 16
            let w = boxes[r + 2], h = boxes[r + 3]
            guard w > 0, h > 0 else { continue }
            let cx = a.x * size + boxes[r], cy = a.y * size + boxes[r + 1]
            var keys = FaceKeypoints.zero
            for k in 0..<6 { keys[k] = Point2(a.x * size + boxes[r + 4 + 2 * k], a.y * size + boxes[r + 5 + 2 * k]) }
            candidates.append(FaceDetection(box: Rect(x: cx - w / 2, y: cy - h / 2, width: w, height: h), keypoints: keys, score: score))
        }
        var faces: [FaceDetection] = []
        WeightedNMS.run(&candidates, count: candidates.count, threshold: 0.3, maxOutputs: 16, into: &faces)
        return faces
    }

    /// Root mean square of the xy distance over `points` xyz points.
    static func rms(_ a: [Float], _ b: [Float], points: Int) -> Float {
        var sum: Float = 0
        for p in 0..<points {
            let dx = a[3 * p] - b[3 * p], dy = a[3 * p + 1] - b[3 * p + 1]
            sum += dx * dx + dy * dy
        }
        return (sum / Float(points)).squareRoot()
    }
}
