import ArgumentParser
import NeuralCore
import Vision

/// The `--models` and `--path`/`--inference` options every model-using command shares: the
/// `ModelStore` they name, and its errors as one-line failures with the status that fits.
enum ModelOptions {
    /// The help of every `--models` option.
    static let help: ArgumentHelp = "Folder holding the models (default: $BOOTH_MODELS, else ./models, else the installed PREFIX/share/booth/models)."

    /// The store `--models` names (else `$BOOTH_MODELS`, else the search path). A named folder
    /// that does not exist is a config error (78) that says where the name came from: there is no
    /// silent fallback.
    static func store(_ option: String?) throws(CommandFailure) -> ModelStore {
        do { return try ModelStore.locate(option: option) } catch { throw failure(error) }
    }

    /// "float" or "integer" (or "int") as an `ExecutionPath`.
    static func executionPath(_ text: String, option: String = "--path") throws -> ExecutionPath {
        switch text {
        case "float": return .float
        case "integer", "int": return .integer
        default: throw CommandFailure.usage("\(option) must be float or integer; found \"\(text)\"")
        }
    }

    /// "short" or "full" as a `FaceDetectorModel`.
    static func detector(_ text: String, option: String = "--detector") throws -> FaceDetectorModel {
        guard let model = FaceDetectorModel(rawValue: text) else {
            throw CommandFailure.usage("\(option) must be short or full; found \"\(text)\"")
        }
        return model
    }

    /// The face models (the `detector` BlazeFace, the mesh, the iris; with the short-range
    /// detector the full-range one confirms each still's faces, `FaceAnalyzer.verifier`), each
    /// refused by name when missing, corrupt or not the model its stage expects.
    static func faceAnalyzer(_ option: String?, path: ExecutionPath, detector range: FaceDetectorModel = .short) throws(CommandFailure) -> FaceAnalyzer {
        let store = try store(option)
        do { return try store.faceAnalyzer(path: path, detector: range) } catch { throw failure(error) }
    }

    /// The store the passport maker builds its palm detector from, checked to build (a bad
    /// hand model stops the command before any work).
    static func palmModels(_ option: String?) throws(CommandFailure) -> ModelStore {
        let store = try store(option)
        do { _ = try store.palmDetector() } catch { throw failure(error) }
        return store
    }

    /// The store the passport maker builds the attention mesh from (`mouth_closed_refined_lips`),
    /// checked to build (a missing or wrong file stops the command before any work).
    static func lipsModels(_ option: String?) throws(CommandFailure) -> ModelStore {
        let store = try store(option)
        do { _ = try store.refinedLips() } catch { throw failure(error) }
        return store
    }

    /// The segmentation models `level` needs.
    static func segmenter(_ level: SegmentationLevel, models option: String?, path: ExecutionPath = .integer) throws(CommandFailure) -> PersonSegmenter {
        let store = try store(option)
        do { return try store.segmenter(level, path: path) } catch { throw failure(error) }
    }

    /// A store error as one line: missing things are config errors (78), unreadable files I/O
    /// errors (74), corrupt or wrong models bad input data (65).
    static func failure(_ error: ModelStoreError) -> CommandFailure {
        switch error.kind {
        case .config: return CommandFailure(error.description, status: .config)
        case .io: return CommandFailure(error.description, status: .io)
        case .badData: return CommandFailure(error.description, status: .badInput)
        }
    }
}
