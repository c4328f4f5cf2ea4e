import ArgumentParser
import Posix
#if canImport(Glibc)
import Glibc
#endif
import Kiosk

@main
struct Booth: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "booth",
        abstract: "Passport-photo and photo-booth kiosk, and the tools that share its vision core.",
        discussion: ExitStatus.table,
        version: BoothVersion.string,
        // One command per line, so branches adding commands merge cleanly.
        subcommands: [
            AnalyzeCommand.self,
            CamerasCommand.self,
            DoctorCommand.self,
            FacesCommand.self,
            FuzzCommand.self,
            GreetCommand.self,
            ModelCommand.self,
            PassportCommand.self,
            RunCommand.self,
            SegmentCommand.self,
            StoreStressCommand.self,
        ])

    /// Parses and runs a command. A `CommandFailure` is printed as one line (no usage text) and
    /// exits with its status from the `ExitStatus` table; parse errors exit 64 with the usage.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as CommandFailure {
            FileDescriptorIO.writeStandardError("booth: \(failure.description)\n")
            Glibc.exit(failure.status.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}
