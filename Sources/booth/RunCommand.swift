import ArgumentParser
import Config
#if canImport(Glibc)
import Glibc
#endif
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

    @Option(help: "The kiosk's config file.") var config = KioskConfig.defaultPath
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
        // Numbers from the command line first: one line naming the option, exit 64.
        try OptionCheck.int(statsEvery, "--stats-every", in: 1...86_400)
        let script = try shutterScript.map(RunCommand.parseScript)
        let stopAfter = try duration.map(RunCommand.parseDuration)
        let execution = try ModelOptions.executionPath(inference, option: "--inference")
        var chosenMode: KioskConfig.Mode?
        if let mode {
            guard let m = KioskConfig.Mode(rawValue: mode) else { throw CommandFailure.usage("--mode must be passport or booth; found \"\(mode)\"") }
            chosenMode = m
        }

        LoggingSystem.bootstrap { JournalLogHandler(label: $0) }
        let log = Logger(label: "booth")
        var cfg: KioskConfig
        do {
            let loaded = try KioskConfig.load(config)
            cfg = loaded.config
            if !loaded.fromFile {
                log.notice("no config file: built-in defaults", metadata: ["config": "\(config)", "board": "\(cfg.board)"])
            }
            if let board { cfg.board = board }
            if let chosenMode { cfg.mode = chosenMode }
            if let profile { cfg.profile = profile }
            if let photos { cfg.photoDirectory = photos }
            if let background { cfg.background = background }
            if let hideBackground { cfg.hideBackground = hideBackground }
            var options = KioskOptions(config: cfg, board: try BoardLibrary.load(cfg.board))
            options.cameraFolder = cameraFolder
            options.screensDirectory = screens
            options.shutterScript = script
            options.duration = stopAfter
            options.reportInterval = .seconds(statsEvery)
            options.inference = execution

            ProcessSignals.installHandlers()
            let kiosk = try KioskRuntime(options: options, logger: log)
            let summary = kiosk.run(stop: ProcessSignals.stop)
            log.info("stopped", metadata: [
                "published": "\(summary.framesPublished)", "dropped": "\(summary.framesDropped)",
                "analysed": "\(summary.framesAnalysed)", "shown": "\(summary.framesShown)", "photos": "\(summary.photosSaved)",
                "start": "\(summary.start)", "end": "\(summary.end)",
            ])
            for p in summary.photos { print(p.jpeg) }
        } catch let e as ConfigError {
            log.critical("\(e)")
            throw ExitCode(ExitStatus.config.rawValue)
        } catch let e as KioskError {
            log.critical("\(e)")
            switch e {
            case .config, .models: throw ExitCode(ExitStatus.config.rawValue)
            case .storage: throw ExitCode(ExitStatus.io.rawValue)
            default: throw ExitCode(ExitStatus.failure.rawValue)
            }
        }
    }

    /// `--shutter-script "3,9"`: press times in seconds after start, each within the range a board
    /// file's `gpio.script` allows.
    static func parseScript(_ text: String) throws(CommandFailure) -> [Double] {
        let range = Board.scriptSecondsRange
        var out: [Double] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            // Spaces and tabs around the number, as CharacterSet.whitespaces trimmed them.
            let blank: (Character) -> Bool = { c in
                c == "\t" || c.unicodeScalars.allSatisfy { $0.properties.generalCategory == .spaceSeparator }
            }
            let item = String(part.drop(while: blank).reversed().drop(while: blank).reversed())
            guard let s = Double(item), s.isFinite, range.contains(s) else {
                throw .usage("--shutter-script: \"\(item)\" is not a number of seconds in 0...\(Int(range.upperBound))")
            }
            out.append(s)
        }
        return out
    }

    /// The longest `--for`: a year.
    static let maximumDurationMilliseconds: Double = 366 * 86_400_000

    /// `--for 90s|10m|2h|500ms|30` (plain numbers are seconds): more than 0 ms, at most a year.
    static func parseDuration(_ text: String) throws(CommandFailure) -> Duration {
        let units: [(String, Double)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        var milliseconds: Double?
        for (suffix, ms) in units where text.hasSuffix(suffix) {
            if let n = Double(text.dropLast(suffix.count)) { milliseconds = n * ms; break }
        }
        if milliseconds == nil, let n = Double(text) { milliseconds = n * 1000 }
        guard let ms = milliseconds, ms.isFinite, ms >= 1, ms <= maximumDurationMilliseconds else {
            throw .usage("--for: \"\(text)\" is not a duration from 1ms to 366 days, like 30s, 10m or 2h")
        }
        return .milliseconds(Int64(ms))
    }
}
