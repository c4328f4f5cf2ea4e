import Foundation
import ImageCore
import NeuralCore
import Testing
import TestSupport
import Vision

/// BlazeFace full range (`FaceDetectorModel.full`) on Booth's integer path, with the astronaut
/// portrait from the models (no fixtures needed): the anchors of its graph, and a person standing
/// back — a face under 80 px wide in a 640×480 frame — found where the short-range model is not.
@Suite(.serialized) struct FullRangeDetectorTests {
    static func detector(_ model: FaceDetectorModel, _ path: ExecutionPath) throws -> FaceDetector {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.models + "/" + model.fileName)))
        return try FaceDetector(model: bytes, path: path, range: model)
    }

    /// The astronaut (512×512) shrunk by `scale` into the middle of a grey 640×480 frame, and the
    /// map from portrait to frame pixels.
    static func standingBack(scale: Float) -> (ImageBuffer, (Rect) -> Rect) {
        let source = FaceTestSupport.astronaut()
        let dx = 320 - Float(source.width) / 2 * scale, dy = 240 - Float(source.height) / 2 * scale
        let frame = FaceTestSupport.warp(source, width: 640, height: 480) { x, y in ((x - dx) / scale, (y - dy) / scale) }
        return (frame, { r in Rect(x: r.x * scale + dx, y: r.y * scale + dy, width: r.width * scale, height: r.height * scale) })
    }

    static func best(_ detector: FaceDetector, _ frame: ImageBuffer, near box: Rect, minScore: Float) -> FaceDetection? {
        detector.minScore = minScore
        var found: [FaceDetection] = []
        withExtendedLifetime(frame) { detector.detect(frame.image(), into: &found) }
        return found.filter { $0.box.iou(box) >= 0.3 }.max { $0.score < $1.score }
    }

    @Test func anchorsOfTheFullRangeGraph() {
        let full = FaceAnchors.make(for: .full)
        #expect(full.count == 2304 && FaceDetectorModel.full.anchorCount == 2304)
        // One layer at stride 4 on 192: 48×48 cells, one anchor each, row-major.
        #expect(full[0] == FaceAnchor(x: 0.5 / 48, y: 0.5 / 48))
        #expect(full[1] == FaceAnchor(x: 1.5 / 48, y: 0.5 / 48))
        #expect(full[48] == FaceAnchor(x: 0.5 / 48, y: 1.5 / 48))
        #expect(full[2303] == FaceAnchor(x: 47.5 / 48, y: 47.5 / 48))
        #expect(FaceAnchors.make(for: .short) == FaceAnchors.make())
        #expect(FaceAnchors.make(for: .short).count == 896)
    }

    @Test func loadsWithItsShapesAndRefusesTheOtherModelsShapes() throws {
        let full = try Self.detector(.full, .integer)
        #expect(full.inputSize == 192 && full.minScore == 0.6)
        // The short-range file is not a full-range detector: refused by its shapes.
        let short = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.models + "/" + FaceDetectorModel.short.fileName)))
        #expect(throws: ModelError.self) { _ = try FaceDetector(model: short, path: .integer, range: .full) }
    }

    /// The face (brow to chin) 56 px wide at scale 0.6: the full-range model finds it on the
    /// integer path at its own threshold (0.6) with the box the float path gives; the short-range
    /// model, whose working range ends at about 66 px, does not reach its 0.5.
    @Test func findsAFaceUnder80PixelsWideOnTheIntegerPath() throws {
        let portrait = FaceTestSupport.astronaut()
        let reference = try Self.detector(.short, .float)
        var faces: [FaceDetection] = []
        withExtendedLifetime(portrait) { reference.detect(portrait.image(), into: &faces) }
        let face = try #require(faces.first, "no face in the astronaut portrait")
        let (frame, map) = Self.standingBack(scale: 0.6)
        let expected = map(face.box)
        #expect(expected.width < 80, "the face must be under 80 px wide: \(expected.width)")

        let fullInteger = try Self.detector(.full, .integer)
        let full = try #require(Self.best(fullInteger, frame, near: expected, minScore: FaceDetectorModel.full.minScore),
                                "full range, integer: no face near \(expected)")
        let fullFloat = try #require(Self.best(try Self.detector(.full, .float), frame, near: expected, minScore: 0.3))
        print("standing back: face \(expected.width) px; full range integer \(full.score) box \(full.box), float \(fullFloat.score) box \(fullFloat.box)")
        #expect(full.box.width < 80)
        #expect(abs(full.score - fullFloat.score) <= 0.05)
        #expect(abs(full.box.x - fullFloat.box.x) <= 2 && abs(full.box.width - fullFloat.box.width) <= 2)

        let shortInteger = try Self.detector(.short, .integer)
        #expect(Self.best(shortInteger, frame, near: expected, minScore: FaceDetectorModel.short.minScore) == nil,
                "short range reaches its threshold on a \(expected.width) px face")
        let weak = Self.best(shortInteger, frame, near: expected, minScore: 0.01)
        print("standing back: short range integer best score \(weak?.score ?? 0)")
        #expect((weak?.score ?? 0) < full.score)
    }
}
