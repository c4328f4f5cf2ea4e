#if canImport(Glibc)
import Glibc
#endif
import Posix
import Hardware
import ImageCore

/// Opens the board's devices: the camera, the screen, the buttons. Each maker throws a
/// `HardwareError` an operator can act on.
public enum Devices {
    /// The camera, wrapped so a failing or unplugged camera is reported through `onEvent` and
    /// reopened with back-off (`ReconnectingFrameSource`); the fakes go through the same path.
    /// `clock` paces the fakes and the back-off (the kiosk's clock, virtual in tests).
    public static func camera(_ board: Board, folderOverride: String? = nil, open: ReconnectingFrameSource.Opener? = nil,
                              clock: MonotonicClock = .system,
                              onEvent: @escaping (FrameSourceEvent) -> Void) -> ReconnectingFrameSource {
        let c = board.camera
        if let open {
            return ReconnectingFrameSource(name: "custom", previewWidth: c.previewWidth, previewHeight: c.previewHeight,
                                           backoff: .init(initialMilliseconds: 100, maximumMilliseconds: 1000), clock: clock,
                                           onEvent: onEvent, open: open)
        }
        return ReconnectingFrameSource(name: c.source.rawValue, previewWidth: c.previewWidth, previewHeight: c.previewHeight,
                                       clock: clock, onEvent: onEvent) { () throws(HardwareError) -> any FrameSource in
            try openCamera(board, folderOverride: folderOverride, captureStills: true, clock: clock)
        }
    }

    /// The board's camera opened once, without reconnects (for commands that fail rather than wait).
    public static func openCamera(_ board: Board, folderOverride: String? = nil, captureStills: Bool,
                                  clock: MonotonicClock = .system) throws(HardwareError) -> any FrameSource {
        let c = board.camera
        switch c.source {
        case .synthetic:
            return SyntheticSource(width: c.previewWidth, height: c.previewHeight, framesPerSecond: c.fps, clock: clock)
        case .folder:
            return try FolderReplaySource(folder: folderOverride ?? c.folder, previewWidth: c.previewWidth,
                                          previewHeight: c.previewHeight, framesPerSecond: c.fps,
                                          framesPerImage: max(1, Int(c.secondsPerImage * Double(c.fps))), clock: clock)
        case .libcamera:
            return try LibcameraSource(manager: try LibcameraManager(),
                                       configuration: .init(cameraID: c.id.isEmpty ? nil : c.id, previewWidth: c.previewWidth,
                                                            previewHeight: c.previewHeight, captureStills: captureStills))
        }
    }

    /// The screen.
    public static func display(_ board: Board, folderOverride: String? = nil) throws(HardwareError) -> DisplaySink {
        let d = board.display
        switch d.kind {
        case .null: return NullDisplay(width: 800, height: 480)
        case .png:
            let (w, h) = parseMode(d.mode) ?? (800, 480)
            let dir = folderOverride ?? d.folder
            if let e = Directories.make(dir) {
                throw .unsupported(device: "PNG display", detail: "cannot create \(dir): \(Directories.describe(errno: e))")
            }
            return PNGDisplay(directory: folderOverride ?? d.folder, width: w, height: h, everyNth: d.every)
        case .drm:
            let path = d.device.isEmpty ? try DRMProbe.defaultDisplay() : d.device
            let mode = parseMode(d.mode)
            return try DRMDisplay(configuration: .init(devicePath: path, connector: d.connector.isEmpty ? nil : d.connector,
                                                       modeWidth: mode?.0, modeHeight: mode?.1))
        }
    }

    /// The shutter; `script` overrides the board's scripted presses (seconds after start, on `clock`).
    public static func shutter(_ board: Board, script: [Double]? = nil, clock: MonotonicClock = .system) throws(HardwareError) -> ShutterButton {
        let g = board.gpio
        if let script { return ScriptedShutter(steps: script.map { .afterMilliseconds(UInt64($0 * 1000)) }, clock: clock) }
        switch g.shutter {
        case .script: return ScriptedShutter(steps: g.script.map { .afterMilliseconds(UInt64($0 * 1000)) }, clock: clock)
        case .keyboard: return try KeyboardShutter()
        case .gpio:
            return try gpioButton(board, line: g.shutterLine, led: g.ledLine >= 0 ? g.ledLine : nil, consumer: "booth-shutter")
        }
    }

    /// An optional extra button (hide background, debug panel) from the board, or nil.
    public static func extraButton(_ board: Board, line: Int, consumer: String) throws(HardwareError) -> ShutterButton? {
        guard board.gpio.shutter == .gpio, line >= 0 else { return nil }
        return try gpioButton(board, line: line, led: nil, consumer: consumer)
    }

    static func gpioButton(_ board: Board, line: Int, led: Int?, consumer: String) throws(HardwareError) -> ShutterButton {
        let g = board.gpio
        let chip = try GPIOChipLookup.resolve(g.chip)
        return try GPIOShutterButton(configuration: .init(
            button: GPIOLine(chipPath: chip, offset: UInt32(line)), debounceMicroseconds: UInt32(g.debounceMilliseconds * 1000),
            activeLow: g.activeLow, pullUp: g.activeLow, readyLight: led.map { GPIOLine(chipPath: chip, offset: UInt32($0)) },
            consumer: consumer))
    }

    static func parseMode(_ mode: String) -> (Int, Int)? {
        let p = mode.split(separator: "x")
        guard p.count == 2, let w = Int(p[0]), let h = Int(p[1]) else { return nil }
        return (w, h)
    }
}
