import NeuralCore

/// The environment failing to give the segmenter what it needs (a model file missing or broken).
public enum SegmentationError: Error, Sendable, Equatable {
    /// The level needs this model and none was given.
    case missingModel(SegmentationModel)
    /// The model file could not be loaded.
    case model(SegmentationModel, ModelError)

    public var message: String {
        switch self {
        case .missingModel(let m): return "segmentation model " + m.fileName + " is missing (run scripts/fetch-models)"
        case .model(let m, let e): return "segmentation model " + m.fileName + ": " + e.description
        }
    }
}
