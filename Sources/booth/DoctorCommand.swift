import ArgumentParser
import Posix
import Kiosk

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check models, camera, display, GPIO lines, photo directory and config; one line each.")

    @Option(help: "The kiosk's config file.")
    var config = "/etc/booth/booth.toml"

    func run() throws {
        let checks = Doctor(configPath: config).run()
        let width = checks.map(\.name.count).max() ?? 0
        for c in checks {
            print("\(c.ok ? "ok  " : "FAIL") \(Text.padded(c.name, to: width))  \(c.detail)")
        }
        if checks.contains(where: { !$0.ok }) { throw ExitCode(1) }
    }
}
