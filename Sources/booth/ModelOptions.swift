import ArgumentParser
import Foundation
import ImageFiles
import NeuralCore
import Vision

/// The `--models` and `--path`/`--inference` options every model-using command shares, and the
/// loading of the models with errors that name the file (no enum dumps, no usage text).
enum ModelOptions {
    /// The models folder: the option, else `$BOOTH_MODELS`, else `./models`. A folder that does not
    /// exist is a config error (78) that says where the name came from: there is no silent fallback.
    static func directory(_ option: String?) throws(CommandFailure) -> String {
        let dir: String, source: String
        if let option {
            (dir, source) = (option, "--models")
        } else if let env = ProcessInfo.processInfo.environment["BOOTH_MODELS"], !env.isEmpty {
            (dir, source) = (env, "$BOOTH_MODELS")
        } else {
            (dir, source) = ("models", "the models folder")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("\(source) \(dir) is not a folder (run scripts/fetch-models, or give --models DIR)", status: .config)
        }
        return dir
    }

    /// "float" or "integer" (or "int") as an `ExecutionPath`.
    static func executionPath(_ text: String, option: String = "--path") throws -> ExecutionPath {
        switch text {
        case "float": return .float
        case "integer", "int": return .integer
        default: throw CommandFailure.usage("\(option) must be float or integer; found \"\(text)\"")
        }
    }

    /// The bytes of model `name` in `directory`, checked to be a readable .tflite model: a missing
    /// file is a config error (78), an unreadable one an I/O error (74), a corrupt one bad input
    /// data (65); each names the file.
    static func read(_ directory: String, _ name: String) throws(CommandFailure) -> [UInt8] {
        let path = directory + "/" + name
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("\(path): missing (run scripts/fetch-models)", status: .config)
        }
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: 64 << 20) } catch { throw CommandFailure(error) }
        do { _ = try TFLiteModel(bytes: bytes) } catch { throw CommandFailure("\(path): \(error.description)", status: .badInput) }
        return bytes
    }

    /// "short" or "full" as a `FaceDetectorModel`.
    static func detector(_ text: String, option: String = "--detector") throws -> FaceDetectorModel {
        guard let model = FaceDetectorModel(rawValue: text) else {
            throw CommandFailure.usage("\(option) must be short or full; found \"\(text)\"")
        }
        return model
    }

    /// The three face models from the models folder (the `detector` BlazeFace, the mesh, the
    /// iris), each refused by name when corrupt or not the model its stage expects (shapes are
    /// checked at load).
    static func faceAnalyzer(_ option: String?, path: ExecutionPath, detector range: FaceDetectorModel = .short) throws(CommandFailure) -> FaceAnalyzer {
        let dir = try directory(option)
        let detection = try read(dir, range.fileName)
        let mesh = try read(dir, "face_landmark.tflite")
        let iris = try read(dir, "iris_landmark.tflite")
        let detector: FaceDetector
        do { detector = try FaceDetector(model: detection, path: path, range: range) } catch {
            throw CommandFailure("\(dir)/\(range.fileName): \(error.description)", status: .badInput)
        }
        // Short range: the full-range model confirms each still's faces (FaceAnalyzer.verifier).
        var verifier: FaceDetector? = nil
        if range == .short {
            let second = try read(dir, FaceDetectorModel.full.fileName)
            do { verifier = try FaceDetector(model: second, path: path, range: .full) } catch {
                throw CommandFailure("\(dir)/\(FaceDetectorModel.full.fileName): \(error.description)", status: .badInput)
            }
        }
        do {
            return FaceAnalyzer(detector: detector, landmarker: try FaceLandmarker(meshModel: mesh, irisModel: iris, path: path),
                                verifier: verifier)
        } catch {
            // Which of the two files: the mesh alone loads when the iris model is the bad one.
            let meshLoads = (try? FaceLandmarker(meshModel: mesh, irisModel: nil, path: path)) != nil
            throw CommandFailure("\(dir)/\(meshLoads ? "iris_landmark" : "face_landmark").tflite: \(error.description)", status: .badInput)
        }
    }

    /// The segmentation models `level` needs.
    static func segmenter(_ level: SegmentationLevel, models option: String?, path: ExecutionPath = .integer) throws(CommandFailure) -> PersonSegmenter {
        let dir = try directory(option)
        let landscape = try read(dir, SegmentationModel.landscape.fileName)
        let general = level == .fast ? nil : try read(dir, SegmentationModel.general.fileName)
        do {
            return try PersonSegmenter(level: level, generalModel: general, landscapeModel: landscape, path: path)
        } catch {
            switch error {
            case .missingModel: throw CommandFailure("\(dir): \(error.message)", status: .config)
            case .model(let m, let e): throw CommandFailure("\(dir)/\(m.fileName): \(e.description)", status: .badInput)
            }
        }
    }
}
