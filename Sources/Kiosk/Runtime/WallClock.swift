import Hardware

/// The machine's monotonic time (`ContinuousClock`, `CLOCK_MONOTONIC` for the fakes); `wait`
/// blocks on the stage signal until the deadline.
public final class WallClock: KioskClock {
    public init() {}

    public var now: ContinuousClock.Instant { .now }
    public var monotonic: MonotonicClock { .system }
    public var isVirtual: Bool { false }

    public func wait(until deadline: ContinuousClock.Instant, wakeup: StageSignal, generation: UInt64) {
        let left = deadline - .now
        guard left > .zero else { return }
        wakeup.wait(after: generation, timeout: left)
    }
}
