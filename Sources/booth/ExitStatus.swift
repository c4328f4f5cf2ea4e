/// The exit status of every `booth` command: one table, shown in `booth --help` and the README.
/// The values follow BSD `sysexits.h` where one fits.
enum ExitStatus: Int32, CaseIterable, Sendable {
    /// Done; for `passport`, the photo complies.
    case ok = 0
    /// A runtime failure: the kiosk stopped on a device error, a model could not run, a check failed.
    case failure = 1
    /// `passport`: the photo cannot comply with the profile (the failing rules are listed).
    case notCompliant = 2
    /// Bad command line: an unknown option, or a value outside its range (EX_USAGE).
    case usage = 64
    /// Bad input data: an image or model file that is corrupt, unsupported or too large (EX_DATAERR).
    case badInput = 65
    /// A file could not be read or written (EX_IOERR).
    case io = 74
    /// Bad configuration: a config, board or profile file, or a missing models folder (EX_CONFIG).
    case config = 78

    /// What the status means, one line.
    var meaning: String {
        switch self {
        case .ok: return "success (passport: the photo complies)"
        case .failure: return "runtime failure"
        case .notCompliant: return "passport: the photo cannot comply"
        case .usage: return "bad command line (option value out of range, unknown option)"
        case .badInput: return "bad input data (corrupt, unsupported or too large image or model)"
        case .io: return "a file could not be read or written"
        case .config: return "bad config, board or profile file, or models folder"
        }
    }

    /// The status a batch command (several inputs) ends with: its failures' common status, else 1;
    /// nil when nothing failed.
    static func combined(_ failures: [ExitStatus]) -> ExitStatus? {
        guard let first = failures.first else { return nil }
        return failures.allSatisfy { $0 == first } ? first : .failure
    }

    /// The table as `booth --help` shows it.
    static var table: String {
        "Exit status: " + allCases.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: "; ") + "."
    }
}
