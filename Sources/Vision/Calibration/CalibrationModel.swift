import NeuralCore
import VisionKernels

/// The five models Booth runs, as calibration sees them: file, input size, input value range and
/// the load-time calibration they fall back to.
public enum CalibrationModel: String, Sendable, CaseIterable {
    case faceDetection = "face_detection_short_range"
    case faceLandmark = "face_landmark"
    case irisLandmark = "iris_landmark"
    case selfieSegmentation = "selfie_segmentation"
    case selfieSegmentationLandscape = "selfie_segmentation_landscape"

    public var fileName: String { rawValue + ModelFile.fileExtension }

    public var inputWidth: Int {
        switch self {
        case .faceDetection: return FaceDetector.inputSize
        case .faceLandmark: return FaceLandmarker.meshInputSize
        case .irisLandmark: return FaceLandmarker.irisInputSize
        case .selfieSegmentation, .selfieSegmentationLandscape: return 256
        }
    }

    public var inputHeight: Int { self == .selfieSegmentationLandscape ? 144 : inputWidth }

    /// How pixels become input values (MediaPipe's graphs: BlazeFace −1...1, the rest 0...1).
    public var range: TensorRange { self == .faceDetection ? .minusOneToOne : .zeroToOne }

    /// What lies outside the image: BlazeFace letterboxes with black, the others replicate edges.
    public var border: TensorBorder { self == .faceDetection ? .zero : .replicate }

    /// The load-time calibration used when no table fits.
    public var fallback: IntegerCalibration { self == .faceDetection ? .signedUnit : .unit }
}
