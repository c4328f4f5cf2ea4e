import ImageFiles

/// A failure while running a command: printed as one line (`booth: …`, no usage text) and turned
/// into its exit status by `Booth.main()`.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    var status: ExitStatus

    init(_ description: String, status: ExitStatus = .failure) {
        self.description = description
        self.status = status
    }

    /// An image file error with the status that fits it: unreadable or unwritable files are I/O
    /// failures (74), corrupt, unsupported or oversized images bad input data (65).
    init(_ error: ImageFileError, context: String? = nil) {
        let text = context.map { "\($0): \(error.description)" } ?? error.description
        switch error {
        case .cannotOpen, .writeFailed: self.init(text, status: .io)
        case .corrupt, .unsupported: self.init(text, status: .badInput)
        }
    }

    /// Any error as a failure: a `CommandFailure` as it is, an image file error by its kind, anything
    /// else a runtime failure (1) with its description.
    init(_ error: any Error) {
        switch error {
        case let failure as CommandFailure: self = failure
        case let file as ImageFileError: self.init(file, context: nil)
        default: self.init("\(error)", status: .failure)
        }
    }

    /// A value from the command line outside its range (64).
    static func usage(_ description: String) -> CommandFailure {
        CommandFailure(description, status: .usage)
    }
}
