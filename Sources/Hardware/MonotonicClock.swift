#if canImport(Glibc)
import Glibc
import Syscalls
#endif

/// Time for the fakes' schedules: CLOCK_MONOTONIC in nanoseconds, replaceable in tests.
public struct MonotonicClock: Sendable {
    public var now: @Sendable () -> UInt64

    public init(now: @escaping @Sendable () -> UInt64) { self.now = now }

    /// `clock_gettime(CLOCK_MONOTONIC)`.
    public static let system = MonotonicClock {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

extension SystemCalls {
    /// Sleeps by polling no descriptors (`poll(NULL, 0, ms)`), through the syscall layer.
    func sleep(milliseconds: Int32) {
        guard milliseconds > 0 else { return }
        var none = pollfd()
        _ = try? poll(&none, count: 0, timeoutMilliseconds: milliseconds)
    }
}
