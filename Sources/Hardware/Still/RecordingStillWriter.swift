import ImageCore
import ImageFiles
import Synchronization

/// The fake `StillWriter`: remembers every still it is given (size, format, sequence, a luma
/// checksum) and returns a short deterministic stand-in for the file, without a codec. Tests
/// make it fail the next `n` writes with `failNext(_:)` to drive the kiosk's "could not encode"
/// path. Safe to read from another thread while the still worker writes.
public final class RecordingStillWriter: StillWriter, Sendable {
    public struct Record: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var format: PixelFormat
        public var sequence: UInt64
        /// Sum of the luma plane's visible bytes (wrapping): tells stills apart.
        public var lumaSum: UInt64
    }

    private struct State {
        var records: [Record] = []
        var failures = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// The stills written so far, oldest first (failed writes are not recorded).
    public var records: [Record] { state.withLock { $0.records } }

    /// Makes the next `count` writes throw `ImageFileError.writeFailed`.
    public func failNext(_ count: Int) { state.withLock { $0.failures = count } }

    public func write(_ still: Image) throws(ImageFileError) -> [UInt8] {
        let fail = state.withLock { s in
            guard s.failures > 0 else { return false }
            s.failures -= 1
            return true
        }
        if fail { throw .writeFailed(path: "<memory>", reason: "RecordingStillWriter told to fail") }
        let luma = still.luma
        var sum: UInt64 = 0
        for y in 0..<luma.height {
            let row = luma.row(y)
            for x in 0..<luma.rowBytes { sum &+= UInt64(row[x]) }
        }
        let record = Record(width: still.width, height: still.height, format: still.format,
                            sequence: still.metadata.sequence, lumaSum: sum)
        state.withLock { $0.records.append(record) }
        return Array("BOOTH-FAKE-STILL \(record.width)x\(record.height) #\(record.sequence) \(record.lumaSum)\n".utf8)
    }
}
