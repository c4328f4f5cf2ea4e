/// The two MediaPipe selfie-segmentation models (in the `ModelStore`, fetched by scripts/fetch-models).
///
/// Both take RGB in [0, 1] (`output_tensor_float_range {0, 1}` in the wheel's
/// `selfie_segmentation_cpu.binarypb`) and end in a LOGISTIC op: the output is already a person
/// probability in [0, 1], not logits (the graph's TensorsToSegmentationCalculator uses activation NONE).
public enum SegmentationModel: Sendable, Equatable, CaseIterable {
    /// 1×256×256×3 → 1×256×256×1.
    case general
    /// 1×144×256×3 → 1×144×256×1, for landscape frames.
    case landscape

    /// The model file in the store's catalog.
    public var file: ModelFile { self == .general ? .selfieSegmentation : .selfieSegmentationLandscape }

    /// File name in the models directory.
    public var fileName: String { file.fileName }

    /// The shapes checked at load: RGB in, one person-probability channel out, same size.
    public var inputShape: [Int] { file.inputs[0] }
    public var outputShape: [Int] { file.outputs[0] }
    public var inputWidth: Int { inputShape[2] }
    public var inputHeight: Int { inputShape[1] }

    /// The model for an upright picture of `width`×`height`: the landscape model for pictures at
    /// least as wide as tall, the general one for portrait-orientation pictures. (Measured on the
    /// fixtures: the landscape model scores higher than the general one even on near-square
    /// pictures, 0.919 vs 0.915 mean IoU on the portraits; the general one keeps tall pictures
    /// from being squeezed 1.8× or more.)
    public static func forAspect(width: Int, height: Int) -> SegmentationModel {
        width >= height ? .landscape : .general
    }
}
