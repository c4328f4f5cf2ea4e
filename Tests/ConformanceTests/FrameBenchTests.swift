import Conformance
import Foundation
import Testing

/// `FrameBench` (the `--frame` workload of `scripts/arm/bench`): clear errors for missing or wrong
/// models, and a run that really does the frame's work (deterministic, and the result changes
/// with the work done).
@Suite struct FrameBenchTests {
    static func model(_ file: String) -> [UInt8]? {
        FileManager.default.contents(atPath: ConformanceTests.modelsDirectory + "/" + file).map { [UInt8]($0) }
    }

    static var haveModels: Bool {
        ["face_landmark.tflite", "selfie_segmentation_landscape.tflite", "face_detection_short_range.tflite"]
            .allSatisfy { model($0) != nil }
    }

    @Test(arguments: [(FrameBench.Part.frame, "face_landmark.tflite"),
                      (FrameBench.Part.detector, "face_detection_short_range.tflite")])
    func aMissingModelIsNamed(part: FrameBench.Part, expected: String) {
        do {
            _ = try FrameBench.run(part: part, mesh: nil, landscape: nil, detector: nil, iterations: 1)
            Issue.record("ran without models")
        } catch {
            guard case .missingModel(let file) = error else { Issue.record("\(error.description)"); return }
            #expect(file == expected)
        }
    }

    @Test(.enabled(if: haveModels, "needs models/ (scripts/fetch-models)"))
    func aModelOfTheWrongShapeIsRefused() throws {
        let landscape = try #require(Self.model("selfie_segmentation_landscape.tflite"))
        do {
            _ = try FrameBench.run(part: .frame, mesh: landscape, landscape: landscape, detector: nil, iterations: 1)
            Issue.record("ran the landscape model as the mesh")
        } catch {
            guard case .inputShape(let file, let shape) = error else { Issue.record("\(error.description)"); return }
            #expect(file == "face_landmark.tflite")
            #expect(shape == [1, 144, 256, 3])
        }
    }

    @Test(.enabled(if: haveModels, "needs models/ (scripts/fetch-models)"))
    func theFrameAndTheDetectorRun() throws {
        let mesh = Self.model("face_landmark.tflite"), landscape = Self.model("selfie_segmentation_landscape.tflite")
        let detector = Self.model("face_detection_short_range.tflite")
        let none = try FrameBench.run(part: .frame, mesh: mesh, landscape: landscape, detector: nil, iterations: 0)
        let one = try FrameBench.run(part: .frame, mesh: mesh, landscape: landscape, detector: nil, iterations: 1)
        let again = try FrameBench.run(part: .frame, mesh: mesh, landscape: landscape, detector: nil, iterations: 1)
        #expect(one == again)
        #expect(one != none)
        let detectorNone = try FrameBench.run(part: .detector, mesh: nil, landscape: nil, detector: detector, iterations: 0)
        let detectorOne = try FrameBench.run(part: .detector, mesh: nil, landscape: nil, detector: detector, iterations: 1)
        #expect(detectorOne != detectorNone)
    }
}
