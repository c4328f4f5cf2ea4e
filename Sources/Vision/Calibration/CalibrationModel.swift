import NeuralCore
import VisionKernels

/// The six models Booth runs, as calibration sees them: file, input size, input value range and
/// the load-time calibration they fall back to.
public enum CalibrationModel: String, Sendable, CaseIterable {
    case faceDetection = "face_detection_short_range"
    case faceDetectionFullRange = "face_detection_full_range_sparse"
    case faceLandmark = "face_landmark"
    case irisLandmark = "iris_landmark"
    case selfieSegmentation = "selfie_segmentation"
    case selfieSegmentationLandscape = "selfie_segmentation_landscape"

    public var fileName: String { rawValue + ModelFile.fileExtension }

    public var inputWidth: Int {
        switch self {
        case .faceDetection: return FaceDetectorModel.short.inputSize
        case .faceDetectionFullRange: return FaceDetectorModel.full.inputSize
        case .faceLandmark: return FaceLandmarker.meshInputSize
        case .irisLandmark: return FaceLandmarker.irisInputSize
        case .selfieSegmentation, .selfieSegmentationLandscape: return 256
        }
    }

    public var inputHeight: Int { self == .selfieSegmentationLandscape ? 144 : inputWidth }

    /// The BlazeFace detector this is, if it is one.
    public var detector: FaceDetectorModel? {
        switch self {
        case .faceDetection: return .short
        case .faceDetectionFullRange: return .full
        default: return nil
        }
    }

    /// How pixels become input values (MediaPipe's graphs: BlazeFace −1...1, the rest 0...1).
    public var range: TensorRange { detector != nil ? .minusOneToOne : .zeroToOne }

    /// What lies outside the image: BlazeFace letterboxes with black, the others replicate edges.
    public var border: TensorBorder { detector != nil ? .zero : .replicate }

    /// The load-time calibration used when no table fits.
    public var fallback: IntegerCalibration { detector != nil ? .signedUnit : .unit }
}
