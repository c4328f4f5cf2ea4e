import ImageCore

/// A moving test pattern with the frame's sequence number stamped into its pixels, at a set rate.
///
/// Pattern: a horizontal luma ramp that scrolls 4 px per frame, a bright vertical bar sweeping
/// across, constant-ish chroma. Stamp: the low 32 bits of the sequence as 32 blocks of 8×8 luma
/// pixels along the top-left (235 = bit set, 16 = clear), least significant bit first;
/// `decodeSequence` reads it back. Frames are drawn straight into the ring slot (no copy).
public final class SyntheticSource: FrameSource {
    public let name = "synthetic"
    public let previewWidth: Int
    public let previewHeight: Int
    /// Frames per second; nil delivers one frame on every `pump`, as fast as asked (tests, benchmarks).
    public let framesPerSecond: Int?
    private let clock: MonotonicClock
    private let sys: SystemCalls
    private let stillBuffer: ImageBuffer?
    private var sequence: UInt64 = 0
    private var pacer: FramePacer
    private var running = false
    private var stillWanted = false

    public init(width: Int = 640, height: Int = 480, framesPerSecond: Int? = 30,
                stillWidth: Int = 0, stillHeight: Int = 0,
                clock: MonotonicClock = .system, syscalls: SystemCalls = .live) {
        precondition(width >= 256 && height >= 8, "synthetic frames need room for the 256×8 sequence stamp")
        previewWidth = width
        previewHeight = height
        self.framesPerSecond = framesPerSecond
        pacer = FramePacer(framesPerSecond: framesPerSecond)
        self.clock = clock
        self.sys = syscalls
        stillBuffer = stillWidth >= 256 && stillHeight >= 8 ? ImageBuffer(format: .i420, width: stillWidth, height: stillHeight) : nil
    }

    public func start() throws(HardwareError) {
        running = true
        pacer.start(at: clock.now())
    }

    public func stop() { running = false }

    public func requestStill() throws(HardwareError) {
        guard stillBuffer != nil else { throw HardwareError.unsupported(device: "synthetic camera", detail: "no still size configured") }
        stillWanted = true
    }

    public func pump(timeoutMilliseconds: Int32, deliver: FrameDelivery, still: (Image) -> Void) throws(HardwareError) -> Int {
        guard running else { return 0 }
        guard pacer.waitForFrame(clock: clock, syscalls: sys, timeoutMilliseconds: timeoutMilliseconds) else { return 0 }
        let metadata = FrameMetadata(sequence: sequence, timestampNanoseconds: clock.now())
        let seq = sequence
        _ = deliver(metadata) { slot in Self.draw(into: slot, sequence: seq) }
        if stillWanted, let buffer = stillBuffer {
            stillWanted = false
            buffer.withImage(metadata: metadata) { image in
                Self.draw(into: image, sequence: seq)
                still(image)
            }
        }
        sequence += 1
        return 1
    }

    /// Draws the pattern for `sequence` into an I420 or NV12 image.
    public static func draw(into image: Image, sequence: UInt64) {
        let y = image.planes.0
        let shift = Int(truncatingIfNeeded: sequence &* 4)
        let bar = Int(truncatingIfNeeded: sequence &* 8) % max(image.width, 1)
        for row in 0..<y.height {
            let r = y.row(row)
            for x in 0..<y.width {
                r[x] = UInt8(truncatingIfNeeded: 16 + ((x + shift + row / 4) & 0x7F) * 3 / 2)
            }
            for x in bar..<min(bar + 16, y.width) { r[x] = 235 }
        }
        stamp(sequence: UInt32(truncatingIfNeeded: sequence), into: y)
        let chromaPlanes = image.format == .i420 ? [image.planes.1, image.planes.2] : [image.planes.1]
        for (i, p) in chromaPlanes.enumerated() {
            for row in 0..<p.height {
                let r = p.row(row)
                for x in 0..<p.rowBytes { r[x] = UInt8(truncatingIfNeeded: 128 + (i == 0 ? 20 : -20) + (row * 32 / max(p.height, 1))) }
            }
        }
    }

    static func stamp(sequence: UInt32, into y: Plane) {
        for bit in 0..<32 {
            let value: UInt8 = (sequence >> UInt32(bit)) & 1 == 1 ? 235 : 16
            for row in 0..<8 {
                let r = y.row(row)
                for x in (bit * 8)..<(bit * 8 + 8) { r[x] = value }
            }
        }
    }

    /// Reads the stamped sequence back (nil when the blocks are not clean stamps).
    public static func decodeSequence(from image: Image) -> UInt32? {
        let y = image.planes.0
        guard y.width >= 256, y.height >= 8 else { return nil }
        var value: UInt32 = 0
        for bit in 0..<32 {
            var sum = 0
            for row in 1..<7 { for x in (bit * 8 + 1)..<(bit * 8 + 7) { sum += Int(y.row(row)[x]) } }
            let mean = sum / 36
            if mean > 180 { value |= 1 << UInt32(bit) } else if mean > 70 { return nil }
        }
        return value
    }
}
