import Foundation
import TestSupport
import Testing

/// Every number a user can give `booth` — options and TOML keys — fed extreme values: the process
/// must end with a status from the exit-code table, never a signal (a Swift trap), and a value
/// outside the allowed range must be refused in one line naming the option or key.
@Suite(.serialized) struct NumericInputTests {
    /// ±0, negatives, huge, infinities, NaN, subnormal, and one ordinary value.
    static let extremes = ["0", "-0", "-1", "1", "0.5", "1e19", "99999999999999999999", "inf", "-inf", "nan",
                           "1e308", "-1e308", "4.9e-324"]

    struct OptionCase: CustomTestStringConvertible, Sendable {
        var option: String
        /// The command line before the option; chosen so an accepted value ends the command at once
        /// (a missing input, config or model file) instead of running it.
        var arguments: [String]
        /// Whether the value (as a number) is in the option's allowed range.
        var accepts: @Sendable (Double) -> Bool
        var testDescription: String { option }
    }

    static func integer(_ range: ClosedRange<Double>) -> @Sendable (Double) -> Bool {
        { $0.isFinite && $0 == $0.rounded() && range.contains($0) }
    }

    static func real(_ range: ClosedRange<Double>) -> @Sendable (Double) -> Bool {
        { $0.isFinite && range.contains($0) }
    }

    static let missing = "/nonexistent/booth-input.jpg"

    static let options: [OptionCase] = [
        OptionCase(option: "--quality", arguments: ["greet", "--background", "white", missing, "-o", "/nonexistent/o.jpg"], accepts: integer(1...100)),
        OptionCase(option: "--frames", arguments: ["greet", "--background", "white", "--input", "/nonexistent/frames", "--level", "fast", "-o", "/nonexistent/out"],
                   accepts: integer(1...10_000_000)),
        OptionCase(option: "--stats-every", arguments: ["run", "--config", "/nonexistent/booth.toml"], accepts: integer(1...86_400)),
        OptionCase(option: "--shutter-script", arguments: ["run", "--config", "/nonexistent/booth.toml"], accepts: real(0...1_000_000)),
        OptionCase(option: "--for", arguments: ["run", "--config", "/nonexistent/booth.toml"], accepts: real(0.001...366 * 86_400)),
        OptionCase(option: "--jobs", arguments: ["analyze", missing], accepts: integer(1...256)),
        OptionCase(option: "--runs", arguments: ["model", "bench", "/nonexistent/model.tflite"], accepts: integer(1...1_000_000)),
        OptionCase(option: "--min-face-size", arguments: ["faces", missing], accepts: real(0...65_536)),
        OptionCase(option: "--min-score", arguments: ["faces", missing], accepts: real(0...1)),
        OptionCase(option: "--min-presence", arguments: ["faces", missing], accepts: real(0...1)),
        OptionCase(option: "--count", arguments: ["_store-stress", "--dir", "/proc/booth-no-such-dir/photos"], accepts: integer(0...9.2e18)),
    ]

    @Test(arguments: options)
    func everyNumericOptionTakesExtremeValuesWithoutATrap(_ c: OptionCase) throws {
        for value in Self.extremes {
            let r = try BoothCLI.run(c.arguments + ["\(c.option)=\(value)"])
            let what = "\(c.option)=\(value): exited \(r.exited) status \(r.status): \(r.stderr)"
            #expect(r.exited, "killed by a signal: \(what)")
            #expect(BoothCLI.documentedStatuses.contains(r.status), "\(what)")
            let number = Double(value) ?? .nan
            if c.accepts(number) {
                #expect(r.status != 64, "an allowed value was refused: \(what)")
            } else {
                #expect(r.status == 64, "an out-of-range value was not refused as usage: \(what)")
                #expect(r.stderr.contains(c.option), "the error does not name the option: \(what)")
            }
        }
    }

    @Test func theCrashesOfTheIssueAreOneLineUsageErrors() throws {
        let dir = makeTemporaryDirectory()
        let runs: [[String]] = [
            ["greet", "--background", "white", Self.missing, "--quality=0", "-o", dir + "/out.jpg"],
            ["greet", "--background", "white", Self.missing, "--quality=101", "-o", dir + "/out.jpg"],
            ["greet", "--background", "white", Self.missing, "--quality=-5", "-o", dir + "/out.jpg"],
            ["run", "--board", "dev", "--shutter-script", "inf"],
            ["run", "--board", "dev", "--shutter-script", "1e19"],
            ["run", "--board", "dev", "--for", "inf"],
            ["run", "--board", "dev", "--for", "1e30s"],
        ]
        for args in runs {
            let r = try BoothCLI.run(args)
            #expect(r.exited && r.status == 64, "\(args): \(r.exited) \(r.status) \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
        }
    }

    // MARK: TOML keys

    struct KeyCase: CustomTestStringConvertible, Sendable {
        /// `booth.toml` key, or `[table] key` of the board file.
        var file: String
        var table: String
        var key: String
        /// Renders the value as TOML (most keys take it bare; some want two numbers).
        var render: @Sendable (String) -> String
        var accepts: @Sendable (Double) -> Bool
        var testDescription: String { "\(file) \(table.isEmpty ? "" : table + ".")\(key)" }
    }

    static func bare(_ v: String) -> String { v }
    static func pair(_ v: String) -> String { "[\(v), \(v)]" }
    static func list(_ v: String) -> String { "[\(v)]" }
    static func mode(_ v: String) -> String { "\"\(v)x\(v)\"" }

    static let keys: [KeyCase] = [
        KeyCase(file: "config", table: "", key: "countdown", render: bare, accepts: integer(0...10)),
        KeyCase(file: "config", table: "", key: "review_seconds", render: bare, accepts: real(0...60)),
        KeyCase(file: "config", table: "", key: "min_free_mib", render: bare, accepts: integer(0...1_000_000)),
        KeyCase(file: "config", table: "", key: "jpeg_quality", render: bare, accepts: integer(50...100)),
        KeyCase(file: "board", table: "camera", key: "preview", render: pair, accepts: integer(64...4096)),
        KeyCase(file: "board", table: "camera", key: "still", render: pair, accepts: integer(0...16384)),
        KeyCase(file: "board", table: "camera", key: "fps", render: bare, accepts: integer(1...120)),
        KeyCase(file: "board", table: "camera", key: "rotation", render: bare, accepts: { $0 == 0 }),
        KeyCase(file: "board", table: "camera", key: "seconds_per_image", render: bare, accepts: real(0...3600)),
        KeyCase(file: "board", table: "display", key: "every", render: bare, accepts: integer(1...100_000)),
        KeyCase(file: "board", table: "display", key: "mode", render: mode, accepts: integer(16...8192)),
        KeyCase(file: "board", table: "gpio", key: "shutter_line", render: bare, accepts: integer(0...1023)),
        KeyCase(file: "board", table: "gpio", key: "debounce_ms", render: bare, accepts: integer(0...1000)),
        KeyCase(file: "board", table: "gpio", key: "led_line", render: bare, accepts: integer(-1...1023)),
        KeyCase(file: "board", table: "gpio", key: "hide_background_line", render: bare, accepts: integer(-1...1023)),
        KeyCase(file: "board", table: "gpio", key: "debug_line", render: bare, accepts: integer(-1...1023)),
        KeyCase(file: "board", table: "gpio", key: "script", render: list, accepts: real(0...1_000_000)),
    ]

    /// The board of these tests: nothing but fakes, so `doctor` checks only the files.
    static func boardText(_ table: String, _ line: String) -> String {
        var tables = ["camera": ["source = \"synthetic\""], "display": ["sink = \"null\""], "gpio": ["shutter = \"script\""]]
        if !table.isEmpty { tables[table, default: []].append(line) }
        return "name = \"extremes\"\n" + ["camera", "display", "gpio"].map { "[\($0)]\n" + tables[$0]!.joined(separator: "\n") }
            .joined(separator: "\n") + "\n"
    }

    /// `booth doctor` reads the config and board as `run` does (the same loader); every value is
    /// either accepted or refused with a line naming the key, and never traps.
    @Test(arguments: keys)
    func everyNumericKeyTakesExtremeValuesWithoutATrap(_ c: KeyCase) throws {
        let dir = makeTemporaryDirectory()
        for value in Self.extremes {
            let line = "\(c.key) = \(c.render(value))"
            try Self.boardText(c.file == "board" ? c.table : "", line).write(toFile: dir + "/board.toml", atomically: true, encoding: .utf8)
            let config = "board = \"\(dir)/board.toml\"\nphoto_dir = \"\(dir)/photos\"\nmode = \"booth\"\n" + (c.file == "config" ? line + "\n" : "")
            try config.write(toFile: dir + "/booth.toml", atomically: true, encoding: .utf8)
            let r = try BoothCLI.run(["doctor", "--config", dir + "/booth.toml"])
            let what = "\(c.testDescription) = \(c.render(value)): exited \(r.exited) status \(r.status): \(r.stdout) \(r.stderr)"
            #expect(r.exited, "killed by a signal: \(what)")
            #expect(BoothCLI.documentedStatuses.contains(r.status), "\(what)")
            let refusedLine = r.stdout.split(separator: "\n").first { $0.hasPrefix("FAIL") && ($0.contains(" config ") || $0.contains(" board ")) }
            if c.accepts(Double(value) ?? .nan) {
                #expect(refusedLine == nil, "an allowed value was refused: \(what)")
            } else {
                #expect(refusedLine?.contains(c.key) ?? false, "not refused with the key named: \(what)")
            }
        }
    }

    /// The crash of the issue: a board scripting a press at 1e308 s trapped in `run` while `doctor`
    /// called it ok. Both now refuse it, naming the key.
    @Test func aScriptedPressTooFarAwayIsAConfigError() throws {
        let dir = makeTemporaryDirectory()
        try Self.boardText("gpio", "script = [1e308]").write(toFile: dir + "/board.toml", atomically: true, encoding: .utf8)
        let run = try BoothCLI.run(["run", "--board", dir + "/board.toml", "--photos", dir + "/photos", "--for", "1s"])
        #expect(run.exited && run.status == 78, "\(run.exited) \(run.status) \(run.stderr)")
        #expect(run.stderr.contains("gpio.script"), "\(run.stderr)")
        try "board = \"\(dir)/board.toml\"\nphoto_dir = \"\(dir)/photos\"\n".write(toFile: dir + "/booth.toml", atomically: true, encoding: .utf8)
        let doctor = try BoothCLI.run(["doctor", "--config", dir + "/booth.toml"])
        #expect(doctor.exited && doctor.status == 1, "\(doctor.status) \(doctor.stdout)")
        #expect(doctor.stdout.contains("FAIL") && doctor.stdout.contains("gpio.script"), "\(doctor.stdout)")
    }
}

/// A short run of the long-run fuzz (Fuzz/run runs 10⁶ inputs per target): mutated images and
/// TOML files end in a result or a typed error, never a trap.
@Suite struct FuzzSmokeTests {
    @Test(arguments: ["images", "toml"])
    func aShortFuzzRunEndsCleanly(_ target: String) throws {
        let r = try BoothCLI.run(["_fuzz", target, "--count", "20000", "--seed", "7"])
        #expect(r.exited && r.status == 0, "\(r.status) \(r.stderr.prefix(2000))")
        #expect(r.stdout.contains("done, 20000 inputs") && r.stdout.contains("0 crashes"), "\(r.stdout)")
    }
}
