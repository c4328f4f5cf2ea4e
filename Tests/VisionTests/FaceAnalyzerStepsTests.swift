import Foundation
import ImageCore
import NeuralCore
import Testing
import TestSupport
import Vision

#if canImport(Glibc)
import Glibc
#endif

/// `FaceAnalyzer.analyzeInSteps` (each face model built for its own step, as a kiosk's passport
/// still does) against `analyze` with the three models held, on the integer path.
@Suite(.serialized, .enabled(if: FaceTestSupport.hasFixtures, "../shared/fixtures/faces is absent: face fixture tests skipped"))
struct FaceAnalyzerStepsTests {
    static let store = ModelStore(directory: Fixtures.models)

    struct Builds { var detector = 0, landmarker = 0, verifier = 0 }

    /// The faces in steps, and how often each builder ran.
    static func inSteps(_ image: Image) throws -> ([FaceObservation], Builds) {
        var builds = Builds()
        let faces = try FaceAnalyzer.analyzeInSteps(
            image,
            detector: { builds.detector += 1; return try store.faceDetector(.short, path: .integer) },
            landmarker: { builds.landmarker += 1; return try store.faceLandmarker(iris: true, path: .integer) },
            verifier: { builds.verifier += 1; return try store.faceDetector(.full, path: .integer) })
        return (faces, builds)
    }

    struct Broken: Error {}

    /// Every VOC photo (one to several faces, some found on tiles only), the dogs photo and the
    /// astronaut: the same faces, bit for bit, as the held analyzer; the verifier is built at most
    /// once, only for a photo with a face found on tiles only, and when it fails to build the
    /// analysis stops with its error.
    @Test func stepsGiveTheHeldAnalyzersFaces() throws {
        let held = try Self.store.faceAnalyzer(path: .integer)
        let dir = FaceTestSupport.faceFixtures + "/voc_boxes"
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".jpg") }.sorted()
        #expect(names.count >= 10)
        var verified = 0
        for path in names.map({ dir + "/" + $0 }) + [Fixtures.models + "/astronaut.png"] {
            let buffer = FaceTestSupport.load(path)
            let (expected, (steps, builds)) = try buffer.withImage { image in (held.analyze(image), try Self.inSteps(image)) }
            #expect(steps == expected, "\(path): \(steps.count) faces in steps, \(expected.count) held")
            #expect(builds.detector == 1 && builds.landmarker == 1 && builds.verifier <= 1, "\(path): \(builds)")
            if path.hasSuffix("dogs.jpg") { #expect(steps.isEmpty) }
            if path.hasSuffix("astronaut.png") {
                #expect(steps.count == 1)
                #expect(builds.verifier == 0, "a face the whole image shows needs no second look")
            }
            guard builds.verifier == 1 else { continue }
            verified += 1
            #expect(throws: Broken.self, "\(path)") {
                try buffer.withImage { image in
                    try FaceAnalyzer.analyzeInSteps(
                        image,
                        detector: { try Self.store.faceDetector(.short, path: .integer) },
                        landmarker: { try Self.store.faceLandmarker(iris: true, path: .integer) },
                        verifier: { throw Broken() })
                }
            }
        }
        #expect(verified >= 1, "no photo had a face found on tiles only")
    }
}
