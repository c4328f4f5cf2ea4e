import Hardware
import Synchronization

/// Time that moves only when the kiosk's loop waits: each `wait` jumps to its deadline, at most
/// `step` ahead, so the inline stages (the folder camera's pacing, the scripted shutter, countdowns,
/// the review screen, reconnect back-off) see time pass in small even steps. For tests.
public final class VirtualClock: KioskClock {
    /// The largest jump of one `wait`: the loop's resolution on virtual time.
    public let step: Duration
    private let origin = ContinuousClock.now
    /// Nanoseconds since `origin`.
    private let elapsed = Atomic<Int64>(0)

    public init(step: Duration = .milliseconds(1)) {
        precondition(step > .zero, "a virtual clock must move forward")
        self.step = step
    }

    public var now: ContinuousClock.Instant { origin + .nanoseconds(elapsed.load(ordering: .acquiring)) }

    /// Monotonic nanoseconds from one second (the fakes treat 0 as "never").
    public var monotonic: MonotonicClock {
        MonotonicClock { [self] in UInt64(1_000_000_000 + elapsed.load(ordering: .acquiring)) }
    }

    public var isVirtual: Bool { true }

    /// Moves time forward by `duration` (a test may nudge the clock outside the loop).
    public func advance(by duration: Duration) {
        guard duration > .zero else { return }
        elapsed.add(Self.nanoseconds(duration), ordering: .acquiringAndReleasing)
    }

    public func wait(until deadline: ContinuousClock.Instant, wakeup: StageSignal, generation: UInt64) {
        advance(by: min(deadline - now, step))
    }

    static func nanoseconds(_ d: Duration) -> Int64 {
        let c = d.components
        return c.seconds &* 1_000_000_000 &+ c.attoseconds / 1_000_000_000
    }
}
