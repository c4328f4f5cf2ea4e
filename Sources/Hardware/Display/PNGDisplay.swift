import ImageCore
import ImageFiles

/// A display that writes screens as PNG files: every `everyNth` presented frame (0 = never) and
/// whenever a snapshot was asked for, as `<directory>/screen-NNNNNN.png` (frame number),
/// written atomically. Used by the dev board and `make demo`.
///
/// `present` only packs the screen to RGB (a copy the next frame cannot overwrite); the PNG is
/// compressed once and written on a writer thread (`PNGScreenWriter`), off the render thread.
/// A write that fails is reported by the next `present` or `flush`.
public final class PNGDisplay: DisplaySink {
    public let name: String
    public let width: Int
    public let height: Int
    public let directory: String
    public let everyNth: Int
    public private(set) var presentedCount = 0
    /// Screens written so far (as of the last `present` or `flush`), and the newest one's path
    /// (no list is kept: a kiosk runs for weeks).
    public private(set) var writtenCount = 0
    public private(set) var lastWritten: String? = nil
    private let buffer: ImageBuffer
    private let writer: PNGScreenWriter
    private var snapshotWanted = false

    public init(directory: String, width: Int = 800, height: Int = 480, everyNth: Int = 30) {
        self.directory = directory
        self.width = width
        self.height = height
        self.everyNth = everyNth
        name = "png \(directory)"
        buffer = ImageBuffer(format: .xrgb8888, width: width, height: height)
        writer = PNGScreenWriter(width: width, height: height)
    }

    deinit { writer.stop() }

    /// Writes the next presented frame whatever its number.
    public func requestSnapshot() { snapshotWanted = true }

    /// Lends the screen buffer, owned by the display for its lifetime, to `draw`.
    public func drawFrame(_ draw: (Image) -> Void) throws(HardwareError) { buffer.withImage(draw) }

    public func present() throws(HardwareError) {
        defer { presentedCount += 1 }
        let due = everyNth > 0 && presentedCount % everyNth == 0
        guard due || snapshotWanted else { return }
        snapshotWanted = false
        let number = String(presentedCount)
        let path = directory + "/screen-" + String(repeating: "0", count: max(0, 6 - number.count)) + number + ".png"
        let previous = writer.waitIdle()
        writtenCount = previous.written
        buffer.withImage { screen in writer.rgb.withImage { rgb in PNGCodec.packRGB(screen, into: rgb) } }
        writer.submit(path: path)
        lastWritten = path
        if let failure = previous.failure { throw HardwareError.unsupported(device: "PNG display", detail: failure.description) }
    }

    /// Waits until every screen handed to the writer is on disk; throws the failure of a write
    /// not yet reported.
    public func flush() throws(HardwareError) {
        let state = writer.waitIdle()
        writtenCount = state.written
        if let failure = state.failure { throw HardwareError.unsupported(device: "PNG display", detail: failure.description) }
    }
}
