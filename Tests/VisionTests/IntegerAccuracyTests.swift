import Foundation
import NeuralCore
import Testing
import Vision

/// How `IntegerAccuracy` scores BlazeFace's outputs against the reference's: identical outputs
/// give no error even with anchors scored just below the threshold on the face (they used to be
/// merged into the candidate's weighted average only, moving its box by pixels); a face the
/// candidate scores just below the threshold counts with its score difference; the per-anchor
/// figures see a regressor difference the decoded ones also see.
@Suite struct IntegerAccuracyTests {
    static let anchors = FaceAnchors.make(for: .short)

    /// BlazeFace short-range outputs (boxes, logits) with one face at (64, 64): three anchors of
    /// the same cell scored `scores`, boxes `widths` wide.
    static func outputs(scores: [Float], widths: [Float]) -> [[Float]] {
        var boxes = [Float](repeating: 0, count: anchors.count * 16)
        var logits = [Float](repeating: -20, count: anchors.count)
        let nearest = anchors.indices.sorted {
            let a = anchors[$0], b = anchors[$1]
            return abs(a.x - 0.5) + abs(a.y - 0.5) < abs(b.x - 0.5) + abs(b.y - 0.5)
        }
        for (k, i) in nearest.prefix(scores.count).enumerated() {
            logits[i] = log(scores[k] / (1 - scores[k]))
            boxes[i * 16] = 64 - anchors[i].x * 128
            boxes[i * 16 + 1] = 64 - anchors[i].y * 128
            boxes[i * 16 + 2] = widths[k]
            boxes[i * 16 + 3] = widths[k]
        }
        return [boxes, logits]
    }

    @Test func identicalOutputsHaveNoError() {
        let out = Self.outputs(scores: [0.9, 0.7, 0.4], widths: [40, 44, 60])
        #expect(IntegerAccuracy.measure(.faceDetection, out, out) == [0, 0])
        #expect(IntegerAccuracy.anchorErrors(.short, out, out) == [0, 0])
    }

    @Test func aFaceJustBelowTheThresholdCountsItsScoreDifference() throws {
        let ref = Self.outputs(scores: [0.51], widths: [40])
        let out = Self.outputs(scores: [0.49], widths: [40])
        let e = IntegerAccuracy.measure(.faceDetection, out, ref)
        #expect(abs(e[0] - 0.02) < 1e-4 && e[1] < 1e-3, "\(e)")
        // Not seen at all: its whole score and width.
        let none = Self.outputs(scores: [0.2], widths: [40])
        let missed = IntegerAccuracy.measure(.faceDetection, none, ref)
        #expect(abs(missed[0] - 0.51) < 1e-4 && abs(missed[1] - 40) < 1e-3, "\(missed)")
    }

    @Test func aBoxDifferenceShowsInBothFigures() {
        let ref = Self.outputs(scores: [0.9, 0.7], widths: [40, 44])
        let out = Self.outputs(scores: [0.9, 0.7], widths: [41.5, 44])
        let decoded = IntegerAccuracy.measure(.faceDetection, out, ref), anchor = IntegerAccuracy.anchorErrors(.short, out, ref)
        #expect(decoded[0] == 0 && decoded[1] > 0.5 && decoded[1] <= 1.5, "\(decoded)")
        #expect(anchor[1] == 1.5, "\(anchor)")
    }
}
