import Config

/// What one board offers, read from `boards/NAME.toml`. Board facts live in data, never in code.
public struct Board: Sendable, Equatable {
    public enum CameraSource: String, Sendable, CaseIterable { case libcamera, folder, synthetic }
    public enum DisplayKind: String, Sendable, CaseIterable { case drm, png, null }
    public enum ShutterKind: String, Sendable, CaseIterable { case gpio, keyboard, script }

    public struct Camera: Sendable, Equatable {
        public var source: CameraSource
        public var id: String
        public var folder: String
        public var previewWidth: Int
        public var previewHeight: Int
        /// 0×0 means the sensor's (or replayed image's) full resolution.
        public var stillWidth: Int
        public var stillHeight: Int
        public var fps: Int
        public var rotation: Int
        public var mirrorPreview: Bool
        /// Folder camera: seconds each replayed image stays in front of the camera.
        public var secondsPerImage: Double
    }

    public struct Display: Sendable, Equatable {
        public var kind: DisplayKind
        public var device: String
        public var connector: String
        public var mode: String
        public var folder: String
        public var every: Int
    }

    public struct GPIO: Sendable, Equatable {
        public var shutter: ShutterKind
        public var chip: String
        public var shutterLine: Int
        public var activeLow: Bool
        public var debounceMilliseconds: Int
        /// -1 when absent.
        public var ledLine: Int
        public var hideBackgroundLine: Int
        public var debugLine: Int
        /// Seconds after start of each scripted press.
        public var script: [Double]
    }

    /// Seconds after start a scripted press may be given at (`gpio.script`, `booth run --shutter-script`):
    /// up to about 11 days, so every value converts to whole milliseconds without overflow.
    public static let scriptSecondsRange: ClosedRange<Double> = 0...1_000_000

    /// Width and height a `display.mode` may ask for.
    public static let displaySizeRange: ClosedRange<Int> = 16...8192

    public var name: String
    public var camera: Camera
    public var display: Display
    public var gpio: GPIO

    /// Reads a board file's text. Unknown keys and bad values are errors that name the key.
    public static func parse(_ source: String, file: String) throws(ConfigError) -> Board {
        let r = try ConfigReader.parse(source, file: file)
        let name = try r.string("name", default: "custom")

        let c = try r.table("camera") ?? ConfigReader(TOMLTable(), file: file, prefix: "camera")
        let src = try c.choice("source", default: CameraSource.libcamera)
        let preview = try c.doubles("preview", count: 2) ?? [640, 480]
        let still = try c.doubles("still", count: 2) ?? [0, 0]
        try check(preview[0] >= 64 && preview[1] >= 64 && preview[0] <= 4096 && preview[1] <= 4096 && preview.allSatisfy { $0 == $0.rounded() },
                  file, "camera.preview", "must be two whole numbers between 64 and 4096")
        try check(still.allSatisfy { $0 >= 0 && $0 <= 16384 && $0 == $0.rounded() }, file, "camera.still", "must be two whole numbers up to 16384")
        let rotation = try c.int("rotation", default: 0)
        try check([0, 90, 180, 270].contains(rotation), file, "camera.rotation", "must be 0, 90, 180 or 270; found \(rotation)")
        let camera = Camera(
            source: src, id: try c.string("id", default: ""), folder: try c.string("folder", default: ""),
            previewWidth: Int(preview[0]), previewHeight: Int(preview[1]),
            stillWidth: Int(still[0]), stillHeight: Int(still[1]),
            fps: try c.int("fps", default: 30, in: 1...120), rotation: rotation,
            mirrorPreview: try c.bool("mirror_preview", default: true),
            secondsPerImage: try c.double("seconds_per_image", default: 0, in: 0...3600))
        try check(src != .folder || !camera.folder.isEmpty, file, "camera.folder", "is required with source = \"folder\"")

        let d = try r.table("display") ?? ConfigReader(TOMLTable(), file: file, prefix: "display")
        let display = Display(
            kind: try d.choice("sink", default: DisplayKind.drm),
            device: try d.string("device", default: ""), connector: try d.string("connector", default: ""),
            mode: try d.string("mode", default: ""), folder: try d.string("folder", default: "out/screens"),
            every: try d.int("every", default: 30, in: 1...100_000))
        if !display.mode.isEmpty {
            let parts = display.mode.split(separator: "x")
            let r = Board.displaySizeRange
            try check(parts.count == 2 && parts.allSatisfy { Int($0).map(r.contains) ?? false }, file, "display.mode",
                      "must look like \"1280x720\", each side in \(r.lowerBound)...\(r.upperBound)")
        }

        let g = try r.table("gpio") ?? ConfigReader(TOMLTable(), file: file, prefix: "gpio")
        let gpio = GPIO(
            shutter: try g.choice("shutter", default: ShutterKind.gpio),
            chip: try g.string("chip", default: "/dev/gpiochip0"),
            shutterLine: try g.int("shutter_line", default: 17, in: 0...1023),
            activeLow: try g.bool("active_low", default: true),
            debounceMilliseconds: try g.int("debounce_ms", default: 30, in: 0...1000),
            ledLine: try g.int("led_line", default: -1, in: -1...1023),
            hideBackgroundLine: try g.int("hide_background_line", default: -1, in: -1...1023),
            debugLine: try g.int("debug_line", default: -1, in: -1...1023),
            script: try g.doubles("script") ?? [])
        try check(gpio.script.allSatisfy { $0.isFinite && scriptSecondsRange.contains($0) }, file, "gpio.script",
                  "press times must be seconds in 0...\(Int(scriptSecondsRange.upperBound))")
        let lines = [gpio.shutterLine, gpio.ledLine, gpio.hideBackgroundLine, gpio.debugLine].filter { $0 >= 0 }
        try check(gpio.shutter != .gpio || Set(lines).count == lines.count, file, "gpio", "two functions share one GPIO line")

        try r.finish()
        return Board(name: name, camera: camera, display: display, gpio: gpio)
    }

    private static func check(_ ok: Bool, _ file: String, _ key: String, _ message: String) throws(ConfigError) {
        if !ok { throw ConfigError(file: file, key: key, message: message) }
    }
}
