#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex (what `NSLock` was for the kiosk): `lock`/`unlock`, or `withLock`. The mutex
/// lives in its own allocation, so its address never moves.
public final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A mutex and a condition variable (what `NSCondition` was for the kiosk). Timed waits are on
/// the monotonic clock (NSCondition's were on the wall clock, which can jump).
public final class Condition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let cond: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        cond = .allocate(capacity: 1)
        cond.initialize(to: pthread_cond_t())
        var rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        #if !canImport(Darwin)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        #endif
        rc = pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
        precondition(rc == 0, "pthread_cond_init failed: \(rc)")
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits (the lock held) until signalled; may wake spuriously, so wait in a loop.
    public func wait() { pthread_cond_wait(cond, mutex) }

    /// Waits (the lock held) until signalled or the monotonic time `deadline` has passed; false
    /// when it woke because the time passed.
    public func wait(until deadline: MonotonicTime) -> Bool {
        #if canImport(Darwin)
        let now = MonotonicTime.now()
        guard deadline.nanoseconds > now.nanoseconds else { return false }
        let left = deadline.nanoseconds - now.nanoseconds
        var t = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
        return pthread_cond_timedwait_relative_np(cond, mutex, &t) != ETIMEDOUT
        #else
        var t = timespec(tv_sec: Int(deadline.nanoseconds / 1_000_000_000), tv_nsec: Int(deadline.nanoseconds % 1_000_000_000))
        return pthread_cond_timedwait(cond, mutex, &t) != ETIMEDOUT
        #endif
    }

    public func signal() { pthread_cond_signal(cond) }
    public func broadcast() { pthread_cond_broadcast(cond) }
}

/// A reading of CLOCK_MONOTONIC, in nanoseconds.
public struct MonotonicTime: Sendable, Comparable {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    public static func now() -> MonotonicTime {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return MonotonicTime(nanoseconds: UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec))
    }

    /// This time plus `d` (a negative `d` counts as zero).
    public func adding(_ d: Duration) -> MonotonicTime {
        let c = d.components
        guard c.seconds >= 0, c.attoseconds >= 0 else { return self }
        let ns = UInt64(c.seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let total = ns.overflow ? UInt64.max / 2 : ns.partialValue + UInt64(c.attoseconds / 1_000_000_000)
        return MonotonicTime(nanoseconds: nanoseconds &+ min(total, UInt64.max / 2))
    }

    /// Seconds from `earlier` to this time.
    public func seconds(since earlier: MonotonicTime) -> Double {
        Double(Int64(bitPattern: nanoseconds &- earlier.nanoseconds)) / 1e9
    }

    public static func < (a: MonotonicTime, b: MonotonicTime) -> Bool { a.nanoseconds < b.nanoseconds }
}

/// A counting semaphore (what `DispatchSemaphore` was for the commands): `wait` blocks until a
/// `signal` is there to take.
public final class Semaphore: @unchecked Sendable {
    private let condition = Condition()
    private var count: Int

    public init(value: Int = 0) { count = value }

    public func signal() {
        condition.lock()
        count += 1
        condition.signal()
        condition.unlock()
    }

    public func wait() {
        condition.lock()
        while count == 0 { condition.wait() }
        count -= 1
        condition.unlock()
    }
}
