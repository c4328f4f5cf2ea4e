import Syscalls

/// A shutter pressed by a script: at given times after start, or when given frames arrive.
/// Each step yields a press then a release. Used by `make demo` and end-to-end tests.
public final class ScriptedShutter: ShutterButton {
    public enum Step: Sendable, Equatable {
        /// Press this many milliseconds after the shutter was created.
        case afterMilliseconds(UInt64)
        /// Press once the frame with this sequence number (or a later one) was seen; see `noteFrame`.
        case atFrame(UInt64)
    }

    public let name = "script"
    public let steps: [Step]
    private let clock: MonotonicClock
    private let sys: SystemCalls
    private let start: UInt64
    private var next = 0
    private var pendingRelease: UInt64?
    private var lastFrame: UInt64?

    public init(steps: [Step], clock: MonotonicClock = .system, syscalls: SystemCalls = .live) {
        self.steps = steps
        self.clock = clock
        self.sys = syscalls
        self.start = clock.now()
    }

    /// Tells the script which frame is current (the kiosk calls this per frame).
    public func noteFrame(sequence: UInt64) { lastFrame = sequence }

    /// True once every step has fired.
    public var isFinished: Bool { next >= steps.count && pendingRelease == nil }

    public func nextEvent(timeoutMilliseconds: Int32) throws(HardwareError) -> ShutterEvent? {
        if let t = pendingRelease {
            pendingRelease = nil
            return .released(timestampNanoseconds: t)
        }
        guard next < steps.count else {
            sys.sleep(milliseconds: timeoutMilliseconds < 0 ? 1000 : timeoutMilliseconds)
            return nil
        }
        let now = clock.now()
        switch steps[next] {
        case .afterMilliseconds(let ms):
            let due = start &+ ms &* 1_000_000
            if now < due {
                let remaining = Int32(clamping: (due - now + 999_999) / 1_000_000)
                let wait = timeoutMilliseconds < 0 ? remaining : min(remaining, timeoutMilliseconds)
                sys.sleep(milliseconds: wait)
                if clock.now() < due { return nil }
            }
        case .atFrame(let frame):
            guard let seen = lastFrame, seen >= frame else {
                sys.sleep(milliseconds: timeoutMilliseconds < 0 ? 10 : min(timeoutMilliseconds, 10))
                return nil
            }
        }
        next += 1
        let t = clock.now()
        pendingRelease = t
        return .pressed(timestampNanoseconds: t)
    }

    public func setReadyLight(_ on: Bool) throws(HardwareError) {}
}
