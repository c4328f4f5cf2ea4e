import ImageCore
import TestSupport
import Testing
import Vision

/// The still's accurate segmenter running the live fast segmenter's landscape model
/// (`init(accurateUsingLandscapeOf:)`, as the kiosk's still path does for landscape stills): the
/// same mask as an accurate segmenter with its own copy of the model, each model pass inside
/// `exclusive`, and the live segmenter's next frame unchanged by the still run between.
@Suite(.serialized) struct StillSegmenterTests {
    @Test func borrowedLandscapeModelGivesTheSameMask() throws {
        let image = try SegmentationModelTests.astronaut()           // 512×384: the landscape model
        let own = try PersonSegmenter(level: .accurate, generalModel: nil, landscapeModel: SegmentationFixtures.model(.landscape),
                                      only: .landscape)
        let live = try PersonSegmenter(level: .fast, generalModel: nil, landscapeModel: SegmentationFixtures.model(.landscape))
        live.temporalStability = true
        let borrowed = PersonSegmenter(accurateUsingLandscapeOf: live)
        var passes = 0
        borrowed.exclusive = { pass in passes += 1; pass() }
        try image.withImage { frame in
            let a = own.segment(frame), b = borrowed.segment(frame)
            var differing = 0, person = 0
            for y in 0..<frame.height {
                for x in 0..<frame.width {
                    if a.plane.row(y)[x] != b.plane.row(y)[x] { differing += 1 }
                    if b.plane.row(y)[x] > 127 { person += 1 }
                }
            }
            #expect(differing == 0)
            #expect(person > frame.width * frame.height / 10, "a person was found")
            // Whole picture and its mirror, then the people's box and its mirror when they are small.
            #expect(passes == 2 || passes == 4)
        }
    }

    /// The live segmenter's mask of a frame is the same whether or not a still ran its model in between.
    @Test func theLiveSegmenterIsUnchangedByAStillRunBetweenFrames() throws {
        let image = try SegmentationModelTests.astronaut()
        func liveMasks(stillBetween: Bool) throws -> [UInt8] {
            let live = try PersonSegmenter(level: .fast, generalModel: nil, landscapeModel: SegmentationFixtures.model(.landscape))
            live.temporalStability = true
            return image.withImage { frame in
                _ = live.segment(frame)
                if stillBetween { _ = PersonSegmenter(accurateUsingLandscapeOf: live).segment(frame) }
                let m = live.segment(frame).plane
                return (0..<frame.height).flatMap { y in Array(UnsafeBufferPointer(start: m.row(y), count: frame.width)) }
            }
        }
        #expect(try liveMasks(stillBetween: true) == liveMasks(stillBetween: false))
    }
}
