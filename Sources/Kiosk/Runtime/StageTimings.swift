import Synchronization

/// Per-stage timings and frame counters for the debug panel and the once-a-minute log line.
/// Recording is allocation-free: fixed stages, in-place updates under a lock.
public final class StageTimings: Sendable {
    public enum Stage: Int, CaseIterable, Sendable {
        case capture, detect, landmarks, quality, segment, rules, render, display, still

        public var name: String {
            switch self {
            case .capture: return "capture"
            case .detect: return "detect"
            case .landmarks: return "landmarks"
            case .quality: return "quality"
            case .segment: return "segment"
            case .rules: return "rules"
            case .render: return "render"
            case .display: return "display"
            case .still: return "still"
            }
        }
    }

    private struct Sums {
        var totals = [UInt64](repeating: 0, count: Stage.allCases.count)
        var counts = [UInt64](repeating: 0, count: Stage.allCases.count)
        var last = [UInt64](repeating: 0, count: Stage.allCases.count)
    }

    /// Preallocated arrays behind a lock; updates mutate them in place (no allocation).
    private let sums = Mutex(Sums())

    public init() {}

    public func record(_ stage: Stage, nanoseconds: UInt64) {
        sums.withLock { s in
            s.totals[stage.rawValue] &+= nanoseconds
            s.counts[stage.rawValue] &+= 1
            s.last[stage.rawValue] = nanoseconds
        }
    }

    /// Times `body` as `stage`.
    @inline(__always)
    public func measure<R>(_ stage: Stage, _ body: () throws -> R) rethrows -> R {
        let start = ContinuousClock.now
        defer {
            record(stage, nanoseconds: (ContinuousClock.now - start).nanoseconds)
        }
        return try body()
    }

    /// The most recent time of `stage`, in milliseconds.
    public func lastMilliseconds(_ stage: Stage) -> Double { sums.withLock { Double($0.last[stage.rawValue]) / 1e6 } }

    /// Mean milliseconds and count since the previous `drain()`; resets the sums.
    public func drain() -> [(stage: Stage, meanMilliseconds: Double, count: UInt64)] {
        let (t, n) = sums.withLock { s in
            defer {
                for i in s.totals.indices { s.totals[i] = 0; s.counts[i] = 0 }
            }
            return (s.totals, s.counts)
        }
        return Stage.allCases.map { s in (s, n[s.rawValue] == 0 ? 0 : Double(t[s.rawValue]) / Double(n[s.rawValue]) / 1e6, n[s.rawValue]) }
    }
}

extension Duration {
    /// Whole nanoseconds (negative durations count as 0).
    var nanoseconds: UInt64 {
        let c = components
        return c.seconds < 0 ? 0 : UInt64(c.seconds) * 1_000_000_000 + UInt64(c.attoseconds / 1_000_000_000)
    }
}
