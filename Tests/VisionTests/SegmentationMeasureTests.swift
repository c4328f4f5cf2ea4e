import ImageCore
import ImageFiles
import NeuralCore
import TestSupport
import Testing
import Vision
#if canImport(Glibc)
import Glibc
#endif

/// The mean IoU of each level against LiteRT's float model output (masks made by
/// scripts/segmentation/litert_masks.py into out/segmentation/litert), printed. Opt-in (it takes a
/// while): BOOTH_SEGMENT_MEASURE=1 swift test -c release --skip-build --filter SegmentationMeasure.
/// The time per level is `Benchmarks/NeuralBenchmarks` (`segment <level> …`).
@Suite(.serialized) struct SegmentationMeasureTests {
    static var litert: String { Fixtures.packageRoot + "/out/segmentation/litert" }
    static var enabled: Bool {
        getenv("BOOTH_SEGMENT_MEASURE") != nil && SegmentationFixtures.available && access(litert + "/portrait", F_OK) == 0
    }

    @Test(.enabled(if: enabled, "a measurement: set BOOTH_SEGMENT_MEASURE=1, with the fixtures and scripts/segmentation/litert_masks.py's masks"))
    func iouAgainstLiteRT() throws {
        let litert = Self.litert
        let decoder = ImageDecoder()
        for set in ["portrait", "cihp"] {
            let samples = try SegmentationFixtures.samples(set)
            for level in SegmentationLevel.allCases {
                let seg = try SegmentationFixtures.segmenter(level)
                var sum = 0.0
                for s in samples {
                    let ref = try decoder.decode(path: litert + "/" + set + "/" + s.name + ".png", as: .gray8)
                    sum += ref.withImage { truth in
                        s.image.withImage { SegmentationFixtures.iou(seg.segment($0).plane, truth.luma) }
                    }
                }
                let mean = sum / Double(samples.count)
                print("MEASURE IoU vs LiteRT float (general, stretched) \(set) \(level.rawValue): \(mean)")
                #expect(mean > 0.5, "\(set) \(level.rawValue): IoU \(mean) against LiteRT's own mask")
            }
        }
    }
}
