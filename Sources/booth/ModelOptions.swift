import ArgumentParser
import Foundation
import NeuralCore

/// The `--models` and `--path`/`--inference` options every model-using command shares.
enum ModelOptions {
    /// The models folder: the option, else `$BOOTH_MODELS`, else `./models`.
    static func directory(_ option: String?) -> String {
        option ?? ProcessInfo.processInfo.environment["BOOTH_MODELS"] ?? "models"
    }

    /// "float" or "integer" (or "int") as an `ExecutionPath`.
    static func executionPath(_ text: String, option: String = "--path") throws -> ExecutionPath {
        switch text {
        case "float": return .float
        case "integer", "int": return .integer
        default: throw CommandFailure.usage("\(option) must be float or integer; found \"\(text)\"")
        }
    }
}
