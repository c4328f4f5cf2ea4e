import ImageCore

/// A display that shows nothing: one XRGB8888 buffer to draw into, frames counted.
/// For benchmarks and headless runs.
public final class NullDisplay: DisplaySink {
    public let name = "null"
    public let width: Int
    public let height: Int
    public private(set) var presentedCount = 0
    private let buffer: ImageBuffer

    public init(width: Int = 800, height: Int = 480) {
        self.width = width
        self.height = height
        buffer = ImageBuffer(format: .xrgb8888, width: width, height: height)
    }

    /// Lends the screen buffer, owned by the display for its lifetime, to `draw`.
    public func drawFrame(_ draw: (Image) -> Void) throws(HardwareError) { buffer.withImage(draw) }
    public func present() throws(HardwareError) { presentedCount += 1 }
}
