import Posix

/// Wakes a waiting stage or the event loop: a generation counter under a condition variable. A
/// stage that publishes something calls `notify`; a waiter remembers the generation it has seen
/// and sleeps until it moves or a timeout passes. Allocation-free.
public final class StageSignal: @unchecked Sendable {
    private let condition = Condition()
    private var count: UInt64 = 0

    public init() {}

    /// The current generation.
    public var generation: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Moves the generation and wakes every waiter.
    public func notify() {
        condition.lock()
        count &+= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the generation is past `seen` or `timeout` has passed; returns the generation.
    @discardableResult
    public func wait(after seen: UInt64, timeout: Duration) -> UInt64 {
        let limit = MonotonicTime.now().adding(timeout)
        condition.lock()
        defer { condition.unlock() }
        while count == seen {
            if !condition.wait(until: limit) { break }
        }
        return count
    }
}
