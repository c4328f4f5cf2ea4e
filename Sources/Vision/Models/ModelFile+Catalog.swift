/// The store's catalog: every model Booth runs, with its pin and shapes — the one place model
/// file names are written (`scripts/fetch-models` pins the same hashes; a test keeps them equal).
/// Adding a model is its line here and its name in `all`.
extension ModelFile {
    public static let faceDetection = ModelFile("face_detection_short_range", sha256: "bbff11cebd1eb27a1e004cae0b0e63ec8c551cbf34a4451148b4908b8db3eca8", inputs: [[1, 128, 128, 3]], outputs: [[1, 896, 16], [1, 896, 1]])
    public static let faceDetectionFullRange = ModelFile("face_detection_full_range_sparse", sha256: "2c3728e6da56f21e21a320433396fb06d40d9088f2247c05e5635a688d45dfe1", inputs: [[1, 192, 192, 3]], outputs: [[1, 2304, 16], [1, 2304, 1]])
    public static let faceLandmark = ModelFile("face_landmark", sha256: "1055cb9d4a9ca8b8c688902a3a5194311138ba256bcc94e336d8373a5f30c814", inputs: [[1, 192, 192, 3]], outputs: [[1, 1, 1, 1404], [1, 1, 1, 1]])
    public static let irisLandmark = ModelFile("iris_landmark", sha256: "d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f", inputs: [[1, 64, 64, 3]], outputs: [[1, 213], [1, 15]])
    public static let selfieSegmentation = ModelFile("selfie_segmentation", sha256: "9ee168ec7c8f2a16c56fe8e1cfbc514974cbbb7e434051b455635f1bd1462f5c", inputs: [[1, 256, 256, 3]], outputs: [[1, 256, 256, 1]])
    public static let selfieSegmentationLandscape = ModelFile("selfie_segmentation_landscape", sha256: "a77d03f4659b9f6b6c1f5106947bf40e99d7655094b6527f214ea7d451106edd", inputs: [[1, 144, 256, 3]], outputs: [[1, 144, 256, 1]])
    public static let palmDetection = ModelFile("palm_detection_lite", sha256: "e9a4aaddf90dda56a87235303cf00e4c2d3fb28725f68fd88772997dac905c18", inputs: [[1, 192, 192, 3]], outputs: [[1, 2016, 18], [1, 2016, 1]])
    public static let handLandmark = ModelFile("hand_landmark_lite", sha256: "048edd3645c9bf7397d19a9f6e3a42957d6e414c9bea6598030a2e9b624156e6", inputs: [[1, 224, 224, 3]], outputs: [[1, 63], [1, 1], [1, 1], [1, 63]])
    /// MediaPipe's attention face mesh (478 points: the mesh plus refined lips, eyes and irises),
    /// run on passport stills for its refined lips (`RefinedLips`, `mouth_closed_refined_lips`).
    public static let faceLandmarkWithAttention = ModelFile("face_landmark_with_attention", sha256: "e06a804e0144f9929eda782122916b35d60c697c3c9344013ca2bbe76a6ce2b4", inputs: [[1, 192, 192, 3]], outputs: [[1, 1, 1, 1404], [1, 1, 1, 160], [1, 1, 1, 142], [1, 1, 1, 142], [1, 1, 1, 10], [1, 1, 1, 10], [1, 1, 1, 1]])

    /// The models that always run on the float path (the examiner's hand checks and refined lips
    /// on stills; no calibration table is shipped for them: the attention mesh's custom transform
    /// operators have no integer form).
    public static let floatOnly: Set<ModelFile> = [palmDetection, handLandmark, faceLandmarkWithAttention]

    /// Every model, in `scripts/fetch-models` order.
    public static let all: [ModelFile] = [faceDetection, faceDetectionFullRange, faceLandmark, irisLandmark, selfieSegmentation, selfieSegmentationLandscape,
                                         palmDetection, handLandmark, faceLandmarkWithAttention]
}
