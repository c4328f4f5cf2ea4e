import ImageCore
import NeuralCore
import Testing
import TestSupport
import Vision

/// The live detector in slices (`FaceDetector.startDetection` / `continueDetection`,
/// `FaceTracker.detectionSlices`): the detections are those of one `detect` bit for bit, with the
/// mesh sharing the arena run between slices; a tracker that slices its detector finds the same
/// faces, at most 2·(slices − 1) frames later, and tracks them as the unsliced one does.
@Suite(.serialized) struct SlicedDetectionTests {
    static func models(_ range: FaceDetectorModel) throws -> FaceAnalyzer {
        try ModelStore(directory: Fixtures.models).faceAnalyzer(path: .integer, iris: false, detector: range, verify: false,
                                                                 sharing: SharedArena(capacity: 16 << 20))
    }

    /// 640×480 I420 frames: the astronaut drifting right (the clip of the tracker's tests).
    static func clip(_ count: Int) -> [ImageBuffer] {
        let source = FaceTestSupport.astronaut()
        return (0..<count).map { i in
            let shift = Float(i) * 4
            return FaceTestSupport.i420(FaceTestSupport.warp(source, width: 640, height: 480) { x, y in
                ((x - 100 - shift) / 0.8, (y - 40) / 0.8)
            })
        }
    }

    static func same(_ a: [FaceDetection], _ b: [FaceDetection]) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) {
            if x.score.bitPattern != y.score.bitPattern || x.box != y.box { return false }
            if x.keypoints != y.keypoints { return false }
        }
        return true
    }

    @Test("sliced detections equal whole ones bit for bit, the mesh running between slices",
          arguments: [FaceDetectorModel.short, .full])
    func slicedDetectionsEqualWholeOnes(range: FaceDetectorModel) throws {
        let faces = try Self.models(range)
        let frame = Self.clip(1)[0]
        let mesh = FaceMesh()
        var whole: [FaceDetection] = [], sliced: [FaceDetection] = []
        whole.reserveCapacity(16)
        sliced.reserveCapacity(16)
        frame.withImage { image in
            let region = FaceDetector.letterbox(width: image.width, height: image.height)
            faces.detector.detect(image, region: region, into: &whole)
            #expect(!whole.isEmpty, "\(range): no face in the frame")
            for slices in [1, 2, 3, 4] {
                faces.detector.startDetection(image, region: region, slices: slices)
                var calls = 0
                while true {
                    calls += 1
                    if faces.detector.continueDetection(into: &sliced) { break }
                    #expect(faces.detector.detectionUnderWay)
                    // The mesh shares the arena: it runs between slices, as on the kiosk's vision thread.
                    if let d = whole.first { _ = faces.landmarker.process(image, region: d.landmarkRegion, into: mesh) }
                }
                // As many calls as slices were cut (fewer than asked when two cuts of the measured
                // costs fall between the same operations), and never the whole model in one.
                let cut = max(faces.detector.sliceCosts?.count ?? 1, 1)
                #expect(calls == cut && (slices == 1 || calls >= 2), "\(range), \(slices) slices asked: \(calls) calls, \(cut) cut")
                #expect(Self.same(whole, sliced), "\(range), \(slices) slices: \(sliced) against \(whole)")
            }
            // A whole detection while a sliced one is under way drops the sliced one.
            faces.detector.startDetection(image, region: region, slices: 3)
            _ = faces.detector.continueDetection(into: &sliced)
            faces.detector.detect(image, region: region, into: &sliced)
            #expect(!faces.detector.detectionUnderWay)
        }
    }

    @Test("a tracker slicing its detector finds the same face, at most 2·(slices − 1) frames later, and tracks it alike",
          arguments: [FaceDetectorModel.short, .full])
    func slicedTrackerTracksAlike(range: FaceDetectorModel) throws {
        let frames = Self.clip(16)
        let whole = try Self.models(range), sliced = try Self.models(range)
        let a = FaceTracker(detector: whole.detector, landmarker: whole.landmarker, maxFaces: 2)
        let b = FaceTracker(detector: sliced.detector, landmarker: sliced.landmarker, maxFaces: 2)
        a.detectionInterval = 5
        b.detectionInterval = 5
        b.detectionSlices = 3
        // The step costs measured before the first frame (as the kiosk does), not inside it; a
        // tracker that does not slice measures nothing.
        // Given the frame size, the sliced run is made before the first frame too (the first live
        // detection then allocates nothing); the tracker without slices makes none.
        a.prepareDetectionSlices(frameWidth: 640, frameHeight: 480, format: .i420)
        b.prepareDetectionSlices(frameWidth: 640, frameHeight: 480, format: .i420)
        #expect(!whole.detector.sliceCostsMeasured)
        #expect(sliced.detector.sliceCostsMeasured)
        #expect(!whole.detector.slicedRunMade)
        #expect(sliced.detector.slicedRunMade)
        #expect(!sliced.detector.detectionUnderWay)
        let preparedCuts = sliced.detector.sliceCosts
        var firstA: Int? = nil, firstB: Int? = nil
        for (i, frame) in frames.enumerated() {
            let metadata = FrameMetadata(sequence: UInt64(i), timestampNanoseconds: UInt64(i + 1) * 33_333_333)
            let (na, nb) = frame.withImage(metadata: metadata) { (a.process($0), b.process($0)) }
            if na > 0 && firstA == nil { firstA = i }
            if nb > 0 && firstB == nil { firstB = i }
            if let firstB, i >= firstB + 2 {
                #expect(na == nb, "frame \(i): \(na) against \(nb) faces")
                if na == 1 && nb == 1 {
                    let fa = a.face(0).boundingBox, fb = b.face(0).boundingBox
                    #expect(fa.iou(fb) > 0.8, "frame \(i): \(fa) against \(fb)")
                }
            }
        }
        let fa = try #require(firstA), fb = try #require(firstB, "\(range): the sliced tracker found no face")
        #expect(fa == 0)
        #expect(fb - fa <= 2 * (3 - 1), "\(range): found at frame \(fb) against \(fa)")
        // Every detector frame of the sliced tracker carries one slice: the runs every 5 frames
        // while a second face is looked for take 3 slices on every other frame.
        #expect(b.detectorRuns > a.detectorRuns)
        // The live detections used the run made before the first frame (no new cut).
        #expect(sliced.detector.sliceCosts == preparedCuts)
    }
}
