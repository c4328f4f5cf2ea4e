import ArgumentParser
import Kiosk

@main
struct Booth: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "booth",
        abstract: "Passport-photo and photo-booth kiosk, and the tools that share its vision core.",
        version: BoothVersion.string,
        // One command per line, so branches adding commands merge cleanly.
        subcommands: [
            AnalyzeCommand.self,
            CamerasCommand.self,
            DoctorCommand.self,
            FacesCommand.self,
            GreetCommand.self,
            ModelCommand.self,
            PassportCommand.self,
            RunCommand.self,
            SegmentCommand.self,
            StoreStressCommand.self,
        ])
}
