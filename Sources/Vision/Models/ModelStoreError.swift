import NeuralCore

/// Why the store could not hand out a model: each case names the folder or file, and says which
/// kind of failure it is (`status` in the CLI: config 78, I/O 74, bad data 65).
public enum ModelStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A folder named by `--models` or `$BOOTH_MODELS` (`source`) is not a folder.
    case notAFolder(String, source: String)
    /// No folder of the search path holds every model; `lacking`: the files missing from the
    /// first of them that exists (empty when none does).
    case notFound(searched: [String], lacking: [String])
    /// The folder lacks this file.
    case missing(String)
    /// The file is there but cannot be read (permissions, I/O error, over the size limit).
    case unreadable(String)
    /// The file is read but is not a usable model, or not the model its stage expects.
    case invalid(String, ModelError)

    public var description: String {
        switch self {
        case .notAFolder(let dir, let source):
            return "\(source) \(dir) is not a folder (run scripts/fetch-models, or give --models DIR)"
        case .notFound(let searched, let lacking):
            return "models not found in \(searched.joined(separator: ", ")) (run scripts/fetch-models, or give --models DIR)"
                + (lacking.isEmpty ? "" : "; missing " + lacking.joined(separator: ", "))
        case .missing(let path): return "\(path): missing (run scripts/fetch-models)"
        case .unreadable(let path): return "\(path): cannot be read"
        case .invalid(let path, let error): return "\(path): \(error.description)"
        }
    }

    /// The kind of failure, for exit statuses.
    public enum Kind: Sendable { case config, io, badData }

    public var kind: Kind {
        switch self {
        case .notAFolder, .notFound, .missing: return .config
        case .unreadable: return .io
        case .invalid: return .badData
        }
    }
}
