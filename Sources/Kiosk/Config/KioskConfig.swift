import Config
import Vision

/// `/etc/booth/booth.toml`: which board, which mode, which profile, where photos go.
public struct KioskConfig: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable { case passport, booth }
    /// Which face detector the live view runs (`detector` key): `auto` picks by mode.
    public enum Detector: String, Sendable, CaseIterable { case auto, short, full }

    /// A board name (looked up in the boards directory) or a path to a board file.
    public var board: String
    public var mode: Mode
    public var profile: String
    /// Booth mode: the background image; empty = keep the real background.
    public var background: String
    public var photoDirectory: String
    /// Seconds of 3-2-1 countdown before a booth-mode shot; 0 = none.
    public var countdown: Int
    public var reviewSeconds: Double
    public var hideBackground: Bool
    public var debug: Bool
    /// Refuse a shot when less than this many MiB would remain free.
    public var minimumFreeMiB: Int
    public var jpegQuality: Int
    public var detector: Detector = .auto

    public static let defaults = KioskConfig(
        board: "dev", mode: .passport, profile: "uk", background: "", photoDirectory: "/var/lib/booth/photos",
        countdown: 3, reviewSeconds: 3, hideBackground: true, debug: false, minimumFreeMiB: 64, jpegQuality: 92)

    /// The BlazeFace the live view runs: `detector = "short"` or `"full"` as set; `auto` (the
    /// default) runs the full-range model in booth mode (people stand back, groups; the short-range
    /// model loses a face at about 1.1 m in a 640×480 preview) and the short-range one in passport
    /// mode (one face at arm's length, where the short-range model is the better fit and cheaper).
    public var liveDetector: FaceDetectorModel {
        switch detector {
        case .short: return .short
        case .full: return .full
        case .auto: return mode == .booth ? .full : .short
        }
    }

    /// Where `booth run` and `booth doctor` read the config by default.
    public static let defaultPath = "/etc/booth/booth.toml"

    /// The config `booth run` and `booth doctor` both use: the file at `path`; when the default
    /// path is absent, the built-in defaults with photos under `out/photos` (a development
    /// machine). Any other path that cannot be read is an error.
    public static func load(_ path: String) throws(ConfigError) -> (config: KioskConfig, fromFile: Bool) {
        if let text = DataFiles.readText(path) { return (try parse(text, file: path), true) }
        guard path == defaultPath else { throw ConfigError(file: path, message: "cannot read the config file") }
        var c = defaults
        c.photoDirectory = "out/photos"
        return (c, false)
    }

    public static func parse(_ source: String, file: String) throws(ConfigError) -> KioskConfig {
        let r = try ConfigReader.parse(source, file: file)
        let d = defaults
        let c = KioskConfig(
            board: try r.string("board", default: d.board),
            mode: try r.choice("mode", default: d.mode),
            profile: try r.string("profile", default: d.profile),
            background: try r.string("background", default: d.background),
            photoDirectory: try r.string("photo_dir", default: d.photoDirectory),
            countdown: try r.int("countdown", default: d.countdown, in: 0...10),
            reviewSeconds: try r.double("review_seconds", default: d.reviewSeconds, in: 0...60),
            hideBackground: try r.bool("hide_background", default: d.hideBackground),
            debug: try r.bool("debug", default: d.debug),
            minimumFreeMiB: try r.int("min_free_mib", default: d.minimumFreeMiB, in: 0...1_000_000),
            jpegQuality: try r.int("jpeg_quality", default: d.jpegQuality, in: 50...100),
            detector: try r.choice("detector", default: d.detector))
        if c.photoDirectory.isEmpty || !c.photoDirectory.hasPrefix("/") && !c.photoDirectory.hasPrefix(".") {
            throw ConfigError(file: file, key: "photo_dir", message: "must be an absolute path (or start with ./)")
        }
        try r.finish()
        return c
    }
}
