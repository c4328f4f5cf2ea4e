/// What the camera says about a frame: it travels with the pixels, never in a side table.
public struct FrameMetadata: Sendable, Equatable {
    /// Monotonic sequence number from the source (gaps mean the source dropped frames).
    public var sequence: UInt64
    /// Capture time in nanoseconds on CLOCK_MONOTONIC (or CLOCK_BOOTTIME as libcamera gives it).
    public var timestampNanoseconds: UInt64
    /// Exposure time in microseconds, when the source reports it.
    public var exposureMicroseconds: UInt32?

    public init(sequence: UInt64 = 0, timestampNanoseconds: UInt64 = 0, exposureMicroseconds: UInt32? = nil) {
        self.sequence = sequence
        self.timestampNanoseconds = timestampNanoseconds
        self.exposureMicroseconds = exposureMicroseconds
    }
}
