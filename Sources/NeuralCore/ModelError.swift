/// Why a model could not be loaded or run. A bad model file is an environment failure, so every
/// problem found in its bytes is one of these (never a crash); `description` is a sentence a kiosk
/// operator can act on.
public enum ModelError: Error, Equatable, Sendable {
    /// The file ends before a structure it declares (`what` names the structure).
    case truncated(String)
    /// A structure is present but inconsistent: an offset out of range, a bad count, a negative
    /// dimension, a tensor index past the table, shapes that do not fit the operator.
    case malformed(String)
    /// An operator this engine does not implement, named as the schema names it
    /// (e.g. `FULLY_CONNECTED`, `builtin 9`, or the custom code).
    case unsupportedOperator(String)
    /// Something the engine does not implement: a tensor type, an activation, a rank.
    case unsupported(String)
    /// The requested execution path is not available for this model (or not built yet).
    case pathUnavailable(String)
    /// A valid model, but not the one a stage expects: its input or output shapes differ.
    case wrongModel(String)

    public var description: String {
        switch self {
        case .truncated(let what): return "model file is truncated: " + what
        case .malformed(let what): return "model file is malformed: " + what
        case .unsupportedOperator(let name): return "unsupported operator in model: " + name
        case .unsupported(let what): return "unsupported model feature: " + what
        case .pathUnavailable(let what): return "execution path unavailable: " + what
        case .wrongModel(let what): return "not the expected model: " + what
        }
    }
}
