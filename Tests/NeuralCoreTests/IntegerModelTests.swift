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
        model == "face_detection_short_range" ? .signedUnit : .unit
    }

    struct Run {
        var outputs: [[Float]]
        var reference: [[Float]]
    }

    static func run(_ model: String, _ c: LiteRTReferenceTests.ReferenceCase, _ interpreter: Interpreter) throws -> Run {
        let input = try LiteRTReferenceTests.readFloats(c.file("input"))
        interpreter.withInput(0) { $0.update(fromContentsOf: input) }
        interpreter.run()
        var outs: [[Float]] = [], refs: [[Float]] = []
        for k in 0..<c.outputCount {
            outs.append(interpreter.withOutput(k) { Array($0) })
            refs.append(try LiteRTReferenceTests.readFloats(c.file("out\(k)")))
        }
        return Run(outputs: outs, reference: refs)
    }

    static func sigmoid(_ x: Float) -> Float { 1 / (1 + exp(-x)) }

    /// (metric name, value, limit) per output figure of a model.
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
            print("integer path: \(model) detections (score ≥ 0.5): \(detections); box/keypoint Δ over all anchors \(boxDiffAll) px")
            return [("max score Δ", scoreDiff, 0.02), ("max box/keypoint Δ (detections) px", boxDiff, 1)]
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

    @Test("integer path meets the accuracy goals against LiteRT", arguments: LiteRTReferenceTests.models)
    func integerPathMatchesLiteRT(model: String) throws {
        let cases = try LiteRTReferenceTests.reference.get().filter { $0.model == model }
        #expect(!cases.isEmpty, "no reference cases for \(model)")
        let bytes = try LiteRTReferenceTests.modelBytes(model)
        let interpreter = try Interpreter(model: bytes, path: .integer, calibration: Self.calibration(model))
        for c in cases {
            let r = try Self.run(model, c, interpreter)
            for (name, value, limit) in Self.figures(model, r) {
                print("integer path: \(model) \(c.name): \(name) = \(value) (goal ≤ \(limit))")
                if c.name != "noise" { #expect(value <= limit, "\(model) \(c.name): \(name) = \(value)") }
            }
        }
    }

    @Test("scalar and SIMD integer kernels give identical model outputs", arguments: ["face_detection_short_range", "selfie_segmentation"])
    func scalarAndSIMDAgreeOnWholeModels(model: String) throws {
        let bytes = try LiteRTReferenceTests.modelBytes(model)
        let tfl = try TFLiteModel(bytes: bytes)
        let simd = try Interpreter(model: tfl, path: .integer, calibration: Self.calibration(model))
        let scalar = try Interpreter(model: tfl, path: .integer, scalarKernels: true, calibration: Self.calibration(model))
        var g = SeededGenerator(seed: 99)
        let count = simd.inputShape(0).reduce(1, *)
        let input = (0..<count).map { _ in Float.random(in: 0...1, using: &g) }
        for i in [simd, scalar] {
            i.withInput(0) { $0.update(fromContentsOf: input) }
            i.run()
        }
        for k in 0..<simd.outputCount {
            let a = simd.withOutput(k) { Array($0) }, b = scalar.withOutput(k) { Array($0) }
            #expect(a == b, "\(model) output \(k)")
        }
    }
}
