import Foundation
import NeuralCore
import TestSupport
import Testing

/// The integer path against LiteRT's float outputs (the cases `scripts/reference/litert-reference`
/// writes; see `LiteRTReferenceTests`), with the accuracy goals of the NeuralCore issue:
/// BlazeFace scores within 0.02 and boxes within 1 px (128×128), mesh landmarks within 1.0 px RMS
/// (192×192), iris within 0.5 px (64×64), segmentation IoU ≥ 0.97 at 0.5 and mean |Δ| ≤ 0.02.
/// The goals hold on the real-face case; the noise case is measured and printed only (noise is
/// far outside what the calibration — and the models — are made for).
@Suite(.serialized) struct IntegerModelTests {
    /// Input value range per model (MediaPipe's graphs).
    static func calibration(_ model: String) -> IntegerCalibration {
        model.hasPrefix("face_detection") ? .signedUnit : model == "iris_landmark" ? .eyes : .unit
    }

    /// The models whose load-time calibration is held to the NeuralCore issue's goals here. The
    /// full-range detector is not: it runs with its shipped table only, and Vision's
    /// IntegerCalibrationTests and FullRangeDetectorTests hold its integer path. The hand models
    /// run on the float path only.
    static let goalModels = LiteRTReferenceTests.models.filter { $0 != "face_detection_full_range_sparse" && !LiteRTReferenceTests.floatOnly.contains($0) }

    struct Run {
        var outputs: [[Float]]
        var reference: [[Float]]
    }

    static func run(_ model: String, _ c: LiteRTReferenceTests.ReferenceCase, _ interpreter: Interpreter) throws -> Run {
        let input = try LiteRTReferenceTests.readFloats(c.file("input"))
        _ = interpreter.withInput(0) { $0.update(fromContentsOf: input) }
        interpreter.run()
        var outs: [[Float]] = [], refs: [[Float]] = []
        for k in 0..<c.outputCount {
            outs.append(interpreter.withOutput(k) { Array($0) })
            refs.append(try LiteRTReferenceTests.readFloats(c.file("out\(k)")))
        }
        return Run(outputs: outs, reference: refs)
    }

    static func sigmoid(_ x: Float) -> Float { 1 / (1 + exp(-x)) }

    /// (metric name, value, goal) per output figure of a model.
    static func figures(_ model: String, _ r: Run) -> [(String, Float, Float)] {
        switch model {
        case "face_detection_short_range":
            var scoreDiff: Float = 0, boxDiff: Float = 0, boxDiffAll: Float = 0
            var detections = 0
            for a in 0..<896 {
                let s = sigmoid(r.outputs[1][a]), t = sigmoid(r.reference[1][a])
                scoreDiff = max(scoreDiff, abs(s - t))
                var d: Float = 0
                for k in 0..<16 { d = max(d, abs(r.outputs[0][a * 16 + k] - r.reference[0][a * 16 + k])) }
                boxDiffAll = max(boxDiffAll, d)
                if t >= 0.5 { boxDiff = max(boxDiff, d); detections += 1 }
            }
            print("integer path: \(model) raw anchors: \(detections) with score ≥ 0.5, max score Δ \(scoreDiff), "
                + "max regressor Δ \(boxDiff) px there, \(boxDiffAll) px over all anchors")
            // The faces as MediaPipe reports them: decoded boxes after weighted NMS.
            let ours = BlazeFaceDecoder.detections(r.outputs[0], r.outputs[1])
            let theirs = BlazeFaceDecoder.detections(r.reference[0], r.reference[1])
            var faceScore: Float = ours.count == theirs.count ? 0 : 1, faceBox: Float = ours.count == theirs.count ? 0 : 128
            for t in theirs {
                guard let o = ours.max(by: { BlazeFaceDecoder.iou($0.box, t.box) < BlazeFaceDecoder.iou($1.box, t.box) }) else { continue }
                faceScore = max(faceScore, abs(o.score - t.score))
                for k in 0..<4 { faceBox = max(faceBox, abs(o.box[k] - t.box[k])) }
            }
            print("integer path: \(model) faces: \(ours.count) (LiteRT \(theirs.count))")
            return [("face score Δ", faceScore, 0.02), ("face box Δ px", faceBox, 1)]
        case "face_landmark":
            var sum: Float = 0
            for p in 0..<468 {
                let dx = r.outputs[0][p * 3] - r.reference[0][p * 3], dy = r.outputs[0][p * 3 + 1] - r.reference[0][p * 3 + 1]
                sum += dx * dx + dy * dy
            }
            let presence = abs(sigmoid(r.outputs[1][0]) - sigmoid(r.reference[1][0]))
            return [("landmark RMS px", (sum / 468).squareRoot(), 1), ("presence Δ", presence, 0.02)]
        case "iris_landmark":
            var irisMax: Float = 0, contourSum: Float = 0
            for p in 0..<5 {
                let dx = r.outputs[1][p * 3] - r.reference[1][p * 3], dy = r.outputs[1][p * 3 + 1] - r.reference[1][p * 3 + 1]
                irisMax = max(irisMax, (dx * dx + dy * dy).squareRoot())
            }
            for p in 0..<71 {
                let dx = r.outputs[0][p * 3] - r.reference[0][p * 3], dy = r.outputs[0][p * 3 + 1] - r.reference[0][p * 3 + 1]
                contourSum += dx * dx + dy * dy
            }
            return [("iris max px", irisMax, 0.5), ("eye contour RMS px", (contourSum / 71).squareRoot(), 1)]
        default:
            var inter = 0, union = 0
            var absSum: Float = 0
            let a = r.outputs[0], b = r.reference[0]
            for i in 0..<a.count {
                let x = a[i] >= 0.5, y = b[i] >= 0.5
                if x && y { inter += 1 }
                if x || y { union += 1 }
                absSum += abs(a[i] - b[i])
            }
            let iou: Float = union == 0 ? 1 : Float(inter) / Float(union)
            // IoU is "higher is better": expressed as 1 − IoU ≤ 0.03.
            return [("1 − IoU", 1 - iou, 0.03), ("mean |Δ|", absSum / Float(a.count), 0.02)]
        }
    }

    @Test("integer path meets the accuracy goals against LiteRT",
          .enabled(if: Fixtures.available, "../shared/fixtures is absent: no real-face reference case, the accuracy goals are not checked"),
          arguments: goalModels)
    func integerPathMatchesLiteRT(model: String) throws {
        let cases = try LiteRTReferenceTests.reference.get().filter { $0.model == model }
        // The goals are asserted on the real-face case only: without it this test would pass untested.
        try #require(cases.contains { $0.name != "noise" }, "no real-image reference case for \(model) in \(LiteRTReferenceTests.referenceDirectory)")
        let bytes = try LiteRTReferenceTests.modelBytes(model)
        let cal = Self.calibration(model)
        let interpreter = try Interpreter(model: bytes, path: .integer, calibration: cal)
        if cal.activations == .automatic {
            // int16 activations where the per-pixel masks need them (see IntegerCalibration.activationWidth).
            #expect(interpreter.activationBits == (model.hasPrefix("selfie_segmentation") ? 16 : 8))
        }
        for c in cases {
            let r = try Self.run(model, c, interpreter)
            for (name, value, goal) in Self.figures(model, r) {
                let status = value <= goal ? "meets goal" : "MISSES goal"
                print("integer path: \(model) \(c.name) (int\(interpreter.activationBits)): \(name) = \(value) (goal ≤ \(goal), \(status))")
                if c.name != "noise" { #expect(value <= goal, "\(model) \(c.name): \(name) = \(value), goal \(goal)") }
            }
        }
    }

    @Test("scalar and SIMD integer kernels give identical model outputs", arguments: ["face_detection_short_range", "selfie_segmentation", "selfie_segmentation_landscape"])
    func scalarAndSIMDAgreeOnWholeModels(model: String) throws {
        let bytes = try LiteRTReferenceTests.modelBytes(model)
        let tfl = try TFLiteModel(bytes: bytes)
        let simd = try Interpreter(model: tfl, path: .integer, calibration: Self.calibration(model))
        let scalar = try Interpreter(model: tfl, path: .integer, kernels: .scalar, calibration: Self.calibration(model))
        var g = SeededGenerator(seed: 99)
        let count = simd.inputShape(0).reduce(1, *)
        let input = (0..<count).map { _ in Float.random(in: 0...1, using: &g) }
        for i in [simd, scalar] {
            _ = i.withInput(0) { $0.update(fromContentsOf: input) }
            i.run()
        }
        for k in 0..<simd.outputCount {
            let a = simd.withOutput(k) { Array($0) }, b = scalar.withOutput(k) { Array($0) }
            #expect(a == b, "\(model) output \(k)")
        }
    }
}

/// MediaPipe's decoding of BlazeFace short-range (SSD anchors: strides 8, 16, 16, 16, fixed
/// size; boxes relative to 128 px; score threshold 0.5; weighted NMS at IoU 0.3), for measuring
/// faces as the detector reports them.
enum BlazeFaceDecoder {
    struct Detection { var score: Float; var box: SIMD4<Float> }  // xmin, ymin, width, height (px)

    static let anchors: [SIMD2<Float>] = {
        var a: [SIMD2<Float>] = []
        for (grid, perCell) in [(16, 2), (8, 6)] {
            for y in 0..<grid {
                for x in 0..<grid {
                    for _ in 0..<perCell { a.append(SIMD2((Float(x) + 0.5) / Float(grid), (Float(y) + 0.5) / Float(grid))) }
                }
            }
        }
        return a
    }()

    static func iou(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Float {
        let x0 = max(a[0], b[0]), y0 = max(a[1], b[1])
        let x1 = min(a[0] + a[2], b[0] + b[2]), y1 = min(a[1] + a[3], b[1] + b[3])
        let inter = max(0, x1 - x0) * max(0, y1 - y0)
        let union = a[2] * a[3] + b[2] * b[3] - inter
        return union > 0 ? inter / union : 0
    }

    static func detections(_ regressors: [Float], _ logits: [Float]) -> [Detection] {
        var raw: [Detection] = []
        for i in 0..<896 {
            let score = 1 / (1 + exp(-min(max(logits[i], -100), 100)))
            guard score >= 0.5 else { continue }
            let cx = anchors[i].x * 128 + regressors[i * 16], cy = anchors[i].y * 128 + regressors[i * 16 + 1]
            let w = regressors[i * 16 + 2], h = regressors[i * 16 + 3]
            raw.append(Detection(score: score, box: SIMD4(cx - w / 2, cy - h / 2, w, h)))
        }
        raw.sort { $0.score > $1.score }
        var out: [Detection] = []
        while let top = raw.first {
            let cluster = raw.filter { iou($0.box, top.box) > 0.3 }
            raw.removeAll { iou($0.box, top.box) > 0.3 }
            var sum = SIMD4<Float>(), weight: Float = 0
            for d in cluster { sum += d.box * d.score; weight += d.score }
            out.append(Detection(score: top.score, box: sum / weight))
        }
        return out
    }
}

/// The integer path's `run()` allocates nothing either (SIMD and scalar kernel sets).
@Test("integer run() allocates nothing", arguments: LiteRTReferenceTests.models)
func integerRunAllocatesNothing(model: String) throws {
    #if canImport(Glibc)
    for scalar in [false, true] {
        let interpreter = try Interpreter(model: try TFLiteModel(bytes: try LiteRTReferenceTests.modelBytes(model)),
                                          path: .integer, kernels: scalar ? .scalar : .native,
                                          calibration: IntegerModelTests.calibration(model))
        var g = SeededGenerator(seed: 3)
        interpreter.withInput(0) { for i in 0..<$0.count { $0[i] = Float.random(in: 0...1, using: &g) } }
        interpreter.run()
        let counts = MallocCounter.count { interpreter.run() }
        #expect(counts == 0, "\(model) (scalar kernels: \(scalar)): run() allocated \(counts) heap objects")
    }
    #endif
}
