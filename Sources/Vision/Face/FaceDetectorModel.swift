/// The two BlazeFace detectors of the MediaPipe wheel (`models/*.tflite`, fetched by
/// scripts/fetch-models), with the settings of their MediaPipe graphs
/// (`face_detection_short_range.pbtxt`, `face_detection_full_range.pbtxt`). Both take RGB in
/// [-1, 1], letterboxed with black, and give 16 regressors (box + 6 keypoints, in input pixels
/// from the anchor centre) and one logit per anchor; the anchors are fixed-size.
///
/// - `short`: 128×128 input, 896 anchors (strides 8, 16, 16, 16; two anchors per layer and
///   cell), score ≥ 0.5. Selfie distances: faces filling roughly 10–75 % of the input.
/// - `full`: 192×192 input, 2304 anchors (one layer at stride 4, one anchor per cell; no
///   interpolated-scale anchor), score ≥ 0.6. People standing back, groups: MediaPipe's "within
///   5 metres" model. Its weights are sparse fp16 (DENSIFY) and its heads end in DEPTH_TO_SPACE.
public enum FaceDetectorModel: String, Sendable, CaseIterable {
    case short
    case full

    /// The model file in the store's catalog.
    public var file: ModelFile { self == .short ? .faceDetection : .faceDetectionFullRange }

    /// File name in the models directory.
    public var fileName: String { file.fileName }

    /// What calibration tables and `booth model calibrate` call it.
    public var calibration: CalibrationModel { self == .short ? .faceDetection : .faceDetectionFullRange }

    /// The square input's side.
    public var inputSize: Int { self == .short ? 128 : 192 }

    /// The SSD layers' strides (`SsdAnchorsCalculatorOptions.strides`).
    public var strides: [Int] { self == .short ? [8, 16, 16, 16] : [4] }

    /// Anchors per layer and cell: the aspect ratio 1.0 anchor, plus the interpolated-scale one
    /// where `interpolated_scale_aspect_ratio` is not 0 (short range only).
    public var anchorsPerLayer: Int { self == .short ? 2 : 1 }

    public var anchorCount: Int { self == .short ? 896 : 2304 }

    /// MediaPipe's `min_score_thresh`.
    public var minScore: Float { self == .short ? 0.5 : 0.6 }

    /// The model's shapes (checked at load): an image in, regressors and scores out.
    public var inputShapes: [[Int]] { [[1, inputSize, inputSize, 3]] }
    public var outputShapes: [[Int]] { [[1, anchorCount, 16], [1, anchorCount, 1]] }

    /// The name errors use.
    public var title: String { self == .short ? "BlazeFace short-range detector" : "BlazeFace full-range detector" }
}
