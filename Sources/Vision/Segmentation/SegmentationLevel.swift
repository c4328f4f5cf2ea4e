/// Quality levels of `PersonSegmenter`, like Vision's person-segmentation levels.
///
/// | level | model | mask computed at | upsampling to the frame |
/// |---|---|---|---|
/// | `fast` | landscape 256×144 | model resolution | bilinear warp |
/// | `balanced` | general 256×256 or landscape by aspect | model resolution | fixed-point guided filter on luma |
/// | `accurate` | both passes of the chosen model (+ mirror, + person crop) | model resolution ×2 | colour guided filter applied at full resolution (matting) |
///
/// Measured on the development machine (x86-64, 2 cores, release build, one thread;
/// `BOOTH_SEGMENT_MEASURE=1 swift test -c release --filter SegmentationMeasure`). The mask is
/// always returned at the frame's size; "working memory" is the segmenter's own buffers for that
/// frame size (interpreter arenas and weights not included).
///
/// | level | 640×480 frame | 4000×3000 still | working memory at 640×480 | model path |
/// |---|---|---|---|---|
/// | `fast` | 2.3 ms | — | 3.0 MiB | integer (int16 activations) |
/// | `balanced` | 6.3 ms | — | 9.9 MiB | integer (float until the calibration tables; same time measured) |
/// | `accurate` | 41 ms | 0.41 s (18.6 MiB) | 7.3 MiB | integer (as balanced; 12 MP measured 0.57 s on a loaded machine) |
public enum SegmentationLevel: String, Sendable, CaseIterable, Equatable {
    /// Live preview on a Pi: one landscape-model run, a cheap bilinear upsample.
    case fast
    /// Preview on faster boards and video greetings: edges follow the image's luma.
    case balanced
    /// Stills: hair and edges refined at full resolution; takes longer.
    case accurate
}
