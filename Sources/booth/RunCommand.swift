import ArgumentParser
import Config
import Foundation
import Kiosk
import Logging
import NeuralCore

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the kiosk: camera → faces → rules → screen, shutter → photo.",
        discussion: """
            Reads the config (--config, default /etc/booth/booth.toml; built-in defaults when absent), then the \
            board file it names. Options override the files. SIGTERM or SIGINT stops it cleanly.
            """)

    @Option(help: "The kiosk's config file.") var config = "/etc/booth/booth.toml"
    @Option(help: "Board name (boards/NAME.toml) or path; overrides the config.") var board: String?
    @Option(help: "passport or booth; overrides the config.") var mode: String?
    @Option(help: "Passport profile name or path; overrides the config.") var profile: String?
    @Option(help: "Photo directory; overrides the config.") var photos: String?
    @Option(help: "Booth mode: the image behind the people; overrides the config.") var background: String?
    @Flag(inversion: .prefixedNo, help: "Live preview with the background hidden; overrides the config.") var hideBackground: Bool?
    @Option(help: "Folder of images replayed as the camera (folder-camera boards).") var cameraFolder: String?
    @Option(help: "Where PNG screens go (PNG-screen boards).") var screens: String?
    @Option(help: "Scripted shutter presses, seconds after start, e.g. \"3,9\"; replaces the board's shutter.") var shutterScript: String?
    @Option(name: .customLong("for"), help: "Stop after this long: 90s, 10m, 2h.") var duration: String?
    @Option(help: "Seconds between stats lines.") var statsEvery: Int = 60
    @Option(help: "Inference path of the face stages: integer (the product's) or float (the reference).") var inference = "integer"

    func run() throws {
        LoggingSystem.bootstrap { JournalLogHandler(label: $0) }
        let log = Logger(label: "booth")
        var cfg: KioskConfig
        do {
            if let text = DataFiles.readText(config) { cfg = try KioskConfig.parse(text, file: config) } else {
                cfg = .defaults
                if config != "/etc/booth/booth.toml" { throw ValidationError("\(config): cannot read") }
                cfg.photoDirectory = "out/photos"
                log.notice("no config file: built-in defaults", metadata: ["config": "\(config)", "board": "\(cfg.board)"])
            }
            if let board { cfg.board = board }
            if let mode {
                guard let m = KioskConfig.Mode(rawValue: mode) else { throw ValidationError("--mode must be passport or booth") }
                cfg.mode = m
            }
            if let profile { cfg.profile = profile }
            if let photos { cfg.photoDirectory = photos }
            if let background { cfg.background = background }
            if let hideBackground { cfg.hideBackground = hideBackground }
            var options = KioskOptions(config: cfg, board: try BoardLibrary.load(cfg.board))
            options.cameraFolder = cameraFolder
            options.screensDirectory = screens
            if let shutterScript {
                options.shutterScript = try shutterScript.split(separator: ",").map {
                    guard let s = Double($0.trimmingCharacters(in: .whitespaces)), s >= 0 else {
                        throw ValidationError("--shutter-script: \"\($0)\" is not a number of seconds")
                    }
                    return s
                }
            }
            if let duration { options.duration = try parseDuration(duration) }
            options.reportInterval = .seconds(max(1, statsEvery))
            options.inference = try ModelOptions.executionPath(inference, option: "--inference")

            ProcessSignals.installHandlers()
            let kiosk = try KioskRuntime(options: options, logger: log)
            let summary = kiosk.run(stop: ProcessSignals.stop)
            log.info("stopped", metadata: [
                "published": "\(summary.framesPublished)", "dropped": "\(summary.framesDropped)",
                "analysed": "\(summary.framesAnalysed)", "shown": "\(summary.framesShown)", "photos": "\(summary.photos.count)",
                "start": "\(summary.start)", "end": "\(summary.end)",
            ])
            for p in summary.photos { print(p.jpeg) }
        } catch let e as ConfigError {
            log.critical("\(e)")
            throw ExitCode(78)   // EX_CONFIG
        } catch let e as KioskError {
            log.critical("\(e)")
            throw ExitCode(1)
        }
    }

    func parseDuration(_ text: String) throws -> Duration {
        let units: [(String, Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        for (suffix, ms) in units where text.hasSuffix(suffix) {
            if let n = Double(text.dropLast(suffix.count)), n > 0 { return .milliseconds(Int64(n * Double(ms))) }
        }
        if let n = Double(text), n > 0 { return .milliseconds(Int64(n * 1000)) }
        throw ValidationError("--for: \"\(text)\" is not a duration like 30s, 10m or 2h")
    }
}
