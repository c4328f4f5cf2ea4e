import ImageCore
import ImageFiles
import Posix

/// `PNGDisplay`'s writer thread: compresses a packed RGB screen and writes it atomically, off
/// the render thread. One screen at a time: `submit` waits while the previous one is still being
/// written (at 15 fps with every 15th screen written, it never has to), so no screen asked for
/// is skipped. Buffers are allocated once; a write allocates only libpng's working memory.
final class PNGScreenWriter: @unchecked Sendable {
    /// The packed screen; the caller fills it only between `waitIdle()` and `submit`.
    let rgb: ImageBuffer
    private let encoded: UnsafeMutableRawBufferPointer
    private let condition = Condition()
    // Guarded by `condition`.
    private var pendingPath: String? = nil
    private var busy = false
    private var stopping = false
    private var failure: ImageFileError? = nil
    private var done = 0
    private var running = true

    init(width: Int, height: Int) {
        rgb = ImageBuffer(format: .rgb888, width: width, height: height)
        encoded = .allocate(byteCount: PNGCodec.maxEncodedSize(width: width, height: height, format: .rgb888), alignment: 16)
        // The thread (detached) holds the writer until `stop` ends it (the owner's deinit calls it).
        _ = PosixThread(name: "booth-png") { self.loop() }
    }

    deinit { encoded.deallocate() }

    /// Stops the thread after the screen in hand (if any) is written; the writer is released
    /// afterwards. Idempotent.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }

    /// Waits until no screen is being written; returns the failure of the last write, if any
    /// (reported once), and how many screens were written so far.
    func waitIdle() -> (written: Int, failure: ImageFileError?) {
        condition.lock()
        defer { condition.unlock() }
        while busy { condition.wait() }
        let f = failure
        failure = nil
        return (done, f)
    }

    /// Hands `rgb` (already filled) to the thread, to be written to `path`.
    func submit(path: String) {
        condition.lock()
        precondition(!busy, "PNGScreenWriter.submit while a screen is being written (call waitIdle first)")
        pendingPath = path
        busy = true
        condition.broadcast()
        condition.unlock()
    }

    private func loop() {
        condition.lock()
        while true {
            while pendingPath == nil && !stopping { condition.wait() }
            guard let path = pendingPath else { break }
            condition.unlock()
            let result = write(to: path)
            condition.lock()
            pendingPath = nil
            busy = false
            if case .failure(let e) = result { failure = e } else { done += 1 }
            condition.broadcast()
        }
        running = false
        condition.broadcast()
        condition.unlock()
    }

    private func write(to path: String) -> Result<Void, ImageFileError> {
        do throws(ImageFileError) {
            let size = try rgb.withImage { (packed) throws(ImageFileError) in try PNGCodec.encode(packed, into: encoded) }
            try FileIO.writeAtomically(UnsafeRawBufferPointer(rebasing: encoded[0..<size]), to: path)
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}
