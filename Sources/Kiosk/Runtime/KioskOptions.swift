import Hardware
import NeuralCore
import Vision

/// What `booth run` was asked to do beyond the config and board files.
public struct KioskOptions {
    public var config: KioskConfig
    public var board: Board
    /// Stop after this long on `clock` (`--for`); nil = until SIGTERM/SIGINT.
    public var duration: Duration?
    /// Overrides of the board's fake devices, for demos and tests.
    public var cameraFolder: String?
    public var screensDirectory: String?
    public var shutterScript: [Double]?
    /// How often the stats line is logged.
    public var reportInterval: Duration = .seconds(60)
    /// Inference path of the live face stages.
    public var inference: ExecutionPath = .integer
    /// Replaces the board's camera (tests inject failing cameras here); still wrapped for reconnects.
    /// Pace a fake camera made here with `clock.monotonic`.
    public var openCamera: ReconnectingFrameSource.Opener?
    /// The time the event loop runs on: the wall clock (stages on their own threads), or a
    /// `VirtualClock` (stages stepped inline on the loop's thread; the end-to-end tests).
    public var clock: any KioskClock = WallClock()

    public init(config: KioskConfig, board: Board) {
        self.config = config
        self.board = board
    }
}
