import ImageCore
import VisionKernels

/// The frame-size buffers of a `PersonSegmenter`, planned together on the first frame of a size
/// and kept while frames keep that size: the frame-size mask, the mask warp, and at the balanced
/// level the guided filter's guide, its working mask (nil when the frame is filtered at full
/// size) and the filter itself. Built whole, so no buffer is ever missing when a frame runs.
final class SegmentationPlan {
    let width: Int
    let height: Int
    /// The frame-size mask that `segment` hands out (valid until the next `segment` call).
    let mask: ImageBuffer
    let warp: MaskWarp
    /// The balanced level's guided-filter buffers; nil at the other levels.
    let balanced: Balanced?

    /// The guided filter's working buffers (balanced level).
    struct Balanced {
        let guide: ImageBuffer
        let workMask: ImageBuffer?
        let filter: GuidedFilter
    }

    init(width: Int, height: Int, level: SegmentationLevel) {
        self.width = width
        self.height = height
        mask = ImageBuffer(format: .gray8, width: width, height: height)
        warp = MaskWarp(maxSide: max(width, height))
        if level == .balanced {
            let ws = PersonSegmenter.workingSize(width: width, height: height, side: PersonSegmenter.balancedWorkingSide)
            balanced = Balanced(
                guide: ImageBuffer(format: .gray8, width: ws.width, height: ws.height),
                workMask: ws.width == width && ws.height == height ? nil : ImageBuffer(format: .gray8, width: ws.width, height: ws.height),
                filter: GuidedFilter(maxWidth: ws.width, maxHeight: ws.height,
                                     radius: PersonSegmenter.balancedRadius(ws.width, ws.height),
                                     epsilon: PersonSegmenter.balancedEpsilon))
        } else {
            balanced = nil
        }
    }

    /// Bytes of working memory held.
    var byteCount: Int {
        var n = mask.byteCount + warp.byteCount
        if let b = balanced { n += b.guide.byteCount + (b.workMask?.byteCount ?? 0) + b.filter.byteCount }
        return n
    }
}
