import ImageCore
import ImageFiles

/// A display that writes screens as PNG files: every `everyNth` presented frame (0 = never) and
/// whenever a snapshot was asked for, as `<directory>/screen-NNNNNN.png` (frame number),
/// written atomically. Used by the dev board and `make demo`.
public final class PNGDisplay: DisplaySink {
    public let name: String
    public let width: Int
    public let height: Int
    public let directory: String
    public let everyNth: Int
    public private(set) var presentedCount = 0
    /// Screens written so far, and the newest one's path (no list is kept: a kiosk runs for weeks).
    public private(set) var writtenCount = 0
    public private(set) var lastWritten: String? = nil
    private let buffer: ImageBuffer
    /// The screen packed as RGB for libpng, allocated once (not per write).
    private let rgb: ImageBuffer
    private var snapshotWanted = false

    public init(directory: String, width: Int = 800, height: Int = 480, everyNth: Int = 30) {
        self.directory = directory
        self.width = width
        self.height = height
        self.everyNth = everyNth
        name = "png \(directory)"
        buffer = ImageBuffer(format: .xrgb8888, width: width, height: height)
        rgb = ImageBuffer(format: .rgb888, width: width, height: height)
    }

    /// Writes the next presented frame whatever its number.
    public func requestSnapshot() { snapshotWanted = true }

    public func beginFrame() throws(HardwareError) -> Image { buffer.image() }

    public func present() throws(HardwareError) {
        defer { presentedCount += 1 }
        let due = everyNth > 0 && presentedCount % everyNth == 0
        guard due || snapshotWanted else { return }
        snapshotWanted = false
        let number = String(presentedCount)
        let path = directory + "/screen-" + String(repeating: "0", count: max(0, 6 - number.count)) + number + ".png"
        do {
            PNGCodec.packRGB(buffer.image(), into: rgb.image())
            try PNGWriter.write(rgb.image(), to: path)
        } catch {
            throw HardwareError.unsupported(device: "PNG display", detail: error.description)
        }
        writtenCount += 1
        lastWritten = path
    }
}
