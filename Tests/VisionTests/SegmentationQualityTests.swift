import ImageCore
import ImageFiles
import TestSupport
import Testing
import Vision

/// Mean IoU per level on ../shared/fixtures/persons against the ground truth, and the order of
/// the levels. Disabled (saying so) when the fixtures are absent. An extension of the serialized
/// `SegmentationModelTests` suite, so it never runs beside the heap check.
extension SegmentationModelTests {
    struct Scores {
        var cihp: Double, portrait: Double
        /// Mean over every photo of both sets.
        var all: Double
    }

    static func meanIoU(_ level: SegmentationLevel, _ samples: [SegmentationFixtures.Sample]) throws -> Double {
        let seg = try SegmentationFixtures.segmenter(level)
        var sum = 0.0
        for s in samples {
            sum += s.image.withImage { image in
                s.truth.withImage { truth in SegmentationFixtures.iou(seg.segment(image).plane, truth.luma) }
            }
        }
        return sum / Double(samples.count)
    }

    @Test(.enabled(if: SegmentationFixtures.available, "../shared/fixtures/persons is absent: segmentation IoU gates skipped"))
    func levelsAreOrderedByIoUAndBalancedMatchesTheStretchedModel() throws {
        let portraits = try SegmentationFixtures.samples("portrait")
        let cihp = try SegmentationFixtures.samples("cihp")
        try #require(!portraits.isEmpty && !cihp.isEmpty, "no photos under \(SegmentationFixtures.personsRoot)")
        var scores: [SegmentationLevel: Scores] = [:]
        for level in SegmentationLevel.allCases {
            let c = try Self.meanIoU(level, cihp), p = try Self.meanIoU(level, portraits)
            let s = Scores(cihp: c, portrait: p, all: (c * Double(cihp.count) + p * Double(portraits.count)) / Double(cihp.count + portraits.count))
            scores[level] = s
            print("segmentation IoU \(level.rawValue): portraits \(s.portrait) (n=\(portraits.count)), cihp \(s.cihp) (n=\(cihp.count)), all \(s.all)")
        }
        let f = try #require(scores[.fast]), b = try #require(scores[.balanced]), a = try #require(scores[.accurate])
        // The order of the levels over all the photos, and on the portraits.
        #expect(a.all >= b.all)
        #expect(b.all >= f.all)
        #expect(a.portrait >= b.portrait)
        #expect(b.portrait >= f.portrait)
        // The float general model on a stretched input scores about 0.92 on these portraits.
        #expect(b.portrait >= 0.915)
        #expect(a.portrait > b.portrait)
    }
}
