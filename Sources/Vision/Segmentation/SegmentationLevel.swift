/// Quality levels of `PersonSegmenter`, like Vision's person-segmentation levels.
///
/// | level | model | mask computed at | upsampling to the frame |
/// |---|---|---|---|
/// | `fast` | landscape 256×144, integer path | model resolution | bilinear warp |
/// | `balanced` | general 256×256 or landscape by aspect | model resolution | fixed-point guided filter on luma |
/// | `accurate` | both passes of the chosen model (+ mirror, + person crop) | model resolution ×2 | colour guided filter applied at full resolution (matting) |
public enum SegmentationLevel: String, Sendable, CaseIterable, Equatable {
    /// Live preview on a Pi: one landscape-model run, a cheap bilinear upsample.
    case fast
    /// Preview on faster boards and video greetings: edges follow the image's luma.
    case balanced
    /// Stills: hair and edges refined at full resolution; takes longer.
    case accurate
}
