import Syscalls

/// Paces a fake camera at a frame rate: the next frame is due one period after the last, and a
/// source that fell behind by more than a period starts afresh instead of bursting to catch up.
struct FramePacer {
    let framesPerSecond: Int?
    private var due: UInt64 = 0

    init(framesPerSecond: Int?) { self.framesPerSecond = framesPerSecond }

    mutating func start(at now: UInt64) { due = now }

    /// Sleeps until the next frame is due, waiting at most `timeoutMilliseconds` (-1 = as long as
    /// needed); returns whether a frame is due now (always true without a frame rate).
    mutating func waitForFrame(clock: MonotonicClock, syscalls sys: SystemCalls, timeoutMilliseconds: Int32) -> Bool {
        guard let fps = framesPerSecond else { return true }
        let period = 1_000_000_000 / UInt64(max(fps, 1))
        var now = clock.now()
        if now < due {
            let waitMs = Int32(clamping: (due - now + 999_999) / 1_000_000)
            sys.sleep(milliseconds: timeoutMilliseconds < 0 ? waitMs : min(waitMs, timeoutMilliseconds))
            now = clock.now()
            if now < due { return false }
        }
        due = now - due > period ? now &+ period : due &+ period
        return true
    }
}
