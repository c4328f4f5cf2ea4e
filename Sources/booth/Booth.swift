import ArgumentParser
import Kiosk

@main
struct Booth: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "booth",
        abstract: "Passport-photo and photo-booth kiosk, and the tools that share its vision core.",
        version: BoothVersion.string,
        subcommands: [FacesCommand.self])
}
