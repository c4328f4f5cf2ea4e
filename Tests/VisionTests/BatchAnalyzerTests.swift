import ImageCore
import Synchronization
import Testing
import TestSupport
import Vision

/// Vision's batch analyzer without the CLI: a photo with a face, a faceless one and one that
/// cannot be decoded, through two workers.
@Suite struct BatchAnalyzerTests {
    struct Unreadable: Error, CustomStringConvertible {
        var file: String
        var description: String { "\(file): not an image" }
    }

    static func gradient() -> ImageBuffer {
        let b = ImageBuffer(format: .rgb888, width: 200, height: 120)
        b.withImage { image in
            let g = image.luma
            for y in 0..<120 { for x in 0..<600 { g.row(y)[x] = UInt8((x + y) % 256) } }
        }
        return b
    }

    @Test func photosAreScoredRankedAndFailuresKept() async throws {
        let annotated = Mutex<[Int: Int]>([:])
        let batch = BatchAnalyzer(
            files: ["gradient.png", "broken.jpg", "astronaut.png"], store: ModelStore(directory: Fixtures.models),
            execution: .integer, workers: 2, reports: true,
            decode: { file in
                switch file {
                case "astronaut.png": return FaceTestSupport.astronaut()
                case "gradient.png": return Self.gradient()
                default: throw Unreadable(file: file)
                }
            },
            annotate: { index, _, faces, _, _ in annotated.withLock { $0[index] = faces.count } })
        var outcomes: [BatchOutcome] = []
        for await o in batch.run() { outcomes.append(o) }
        outcomes.sort(by: BatchOutcome.ranked)

        #expect(outcomes.map(\.file) == ["astronaut.png", "gradient.png", "broken.jpg"])
        let face = outcomes[0], faceless = outcomes[1], broken = outcomes[2]
        #expect(face.faceCount == 1 && face.score > 0.2 && face.weakest != nil && face.failure == nil)
        #expect(face.report?.faces.count == 1 && face.report?.score == (face.score * 10_000).rounded() / 10_000)
        #expect(faceless.faceCount == 0 && faceless.score == 0 && faceless.weakest == nil && faceless.report?.weakest == nil)
        #expect(broken.failure is Unreadable && broken.message == "not an image", "\(String(describing: broken.message))")
        #expect(broken.report?.error == "not an image" && broken.report?.faces.isEmpty == true)
        // Annotated: the two readable photos, by their index, with what was found on them.
        #expect(annotated.withLock { $0 } == [2: 1, 0: 0])
    }

    @Test func noReportsAreMadeWhenNotAsked() async {
        let batch = BatchAnalyzer(files: ["gradient.png"], store: ModelStore(directory: Fixtures.models), execution: .integer,
                                  workers: 4, reports: false, decode: { _ in Self.gradient() })
        #expect(batch.workers == 1, "no more workers than files")
        var outcomes: [BatchOutcome] = []
        for await o in batch.run() { outcomes.append(o) }
        #expect(outcomes.count == 1 && outcomes[0].report == nil && outcomes[0].failure == nil)
    }

    @Test func aStoreWithoutModelsFailsEveryPhotoByName() async {
        let dir = makeTemporaryDirectory()
        let batch = BatchAnalyzer(files: ["a.png", "b.png"], store: ModelStore(directory: dir), execution: .integer,
                                  workers: 1, reports: true, decode: { _ in Self.gradient() })
        var outcomes: [BatchOutcome] = []
        for await o in batch.run() { outcomes.append(o) }
        #expect(outcomes.count == 2)
        for o in outcomes {
            #expect((o.failure as? ModelStoreError) == .missing(dir + "/face_detection_short_range.tflite"), "\(o.file)")
        }
    }
}
