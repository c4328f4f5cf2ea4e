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

    /// A value from the command line outside its range (64).
    static func usage(_ description: String) -> CommandFailure {
        CommandFailure(description, status: .usage)
    }
}
