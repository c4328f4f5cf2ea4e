import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Per-stage timings and frame counters for the debug panel and the stats line. Each stage keeps
/// wall time (what the screen waits for) and the calling thread's CPU time (what the stage costs,
/// unaffected by other processes on a shared machine), plus a CPU-time histogram so the stats line
/// can give the median and the worst frame. Recording is allocation-free: fixed stages, in-place
/// updates under a lock.
public final class StageTimings: Sendable {
    public enum Stage: Int, CaseIterable, Sendable {
        /// `vision` is a frame's whole vision step (faces, rules, mask); `detect` is the face step
        /// of a frame on which the detector ran (its mesh runs included), `landmarks` the face step
        /// of every other frame.
        case capture, detect, landmarks, quality, segment, rules, vision, render, display, still

        public var name: String {
            switch self {
            case .capture: return "capture"
            case .detect: return "detect"
            case .landmarks: return "landmarks"
            case .quality: return "quality"
            case .segment: return "segment"
            case .rules: return "rules"
            case .vision: return "vision"
            case .render: return "render"
            case .display: return "display"
            case .still: return "still"
            }
        }
    }

    /// One stage's figures since the previous `drain()`.
    public struct Summary: Sendable {
        public var stage: Stage
        public var count: UInt64
        /// Mean wall-clock milliseconds.
        public var meanMilliseconds: Double
        /// Mean, median and largest CPU milliseconds of the recording thread.
        public var meanCPUMilliseconds: Double
        public var medianCPUMilliseconds: Double
        public var maxCPUMilliseconds: Double
    }

    /// Histogram bins of CPU time: 50 µs wide, the last one open-ended (≥ 25.55 ms).
    static let binNanoseconds: UInt64 = 50_000
    static let binCount = 512

    private struct Sums {
        var totals = [UInt64](repeating: 0, count: Stage.allCases.count)
        var cpuTotals = [UInt64](repeating: 0, count: Stage.allCases.count)
        var cpuMax = [UInt64](repeating: 0, count: Stage.allCases.count)
        var counts = [UInt64](repeating: 0, count: Stage.allCases.count)
        var last = [UInt64](repeating: 0, count: Stage.allCases.count)
        var histogram = [UInt32](repeating: 0, count: Stage.allCases.count * StageTimings.binCount)
    }

    /// Preallocated arrays behind a lock; updates mutate them in place (no allocation).
    private let sums = Mutex(Sums())

    public init() {}

    /// Records one run of `stage`: wall time, and the CPU time of the thread that ran it (nil when
    /// not measured; the stage's CPU figures then count it as 0).
    public func record(_ stage: Stage, nanoseconds: UInt64, cpuNanoseconds: UInt64? = nil) {
        let cpu = cpuNanoseconds ?? 0
        let bin = min(Int(cpu / Self.binNanoseconds), Self.binCount - 1)
        sums.withLock { s in
            let i = stage.rawValue
            s.totals[i] &+= nanoseconds
            s.cpuTotals[i] &+= cpu
            s.cpuMax[i] = max(s.cpuMax[i], cpu)
            s.counts[i] &+= 1
            s.last[i] = nanoseconds
            s.histogram[i * Self.binCount + bin] &+= 1
        }
    }

    /// Times `body` as `stage` (wall and thread CPU time).
    @inline(__always)
    public func measure<R>(_ stage: Stage, _ body: () throws -> R) rethrows -> R {
        let start = ContinuousClock.now
        let cpu = Self.threadCPUNanoseconds()
        defer {
            let used = Self.threadCPUNanoseconds() &- cpu
            record(stage, nanoseconds: (ContinuousClock.now - start).nanoseconds, cpuNanoseconds: used)
        }
        return try body()
    }

    /// CPU time of the calling thread (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, a vDSO call).
    @inline(__always)
    public static func threadCPUNanoseconds() -> UInt64 {
        var ts = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0 else { return 0 }
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// The most recent time of `stage`, in milliseconds.
    public func lastMilliseconds(_ stage: Stage) -> Double { sums.withLock { Double($0.last[stage.rawValue]) / 1e6 } }

    /// Every stage's figures since the previous `drain()`; resets them.
    public func drain() -> [Summary] {
        sums.withLock { s in
            defer {
                for i in s.totals.indices { s.totals[i] = 0; s.cpuTotals[i] = 0; s.cpuMax[i] = 0; s.counts[i] = 0 }
                for i in s.histogram.indices { s.histogram[i] = 0 }
            }
            return Stage.allCases.map { stage in
                let i = stage.rawValue, n = s.counts[i]
                guard n > 0 else {
                    return Summary(stage: stage, count: 0, meanMilliseconds: 0, meanCPUMilliseconds: 0,
                                   medianCPUMilliseconds: 0, maxCPUMilliseconds: 0)
                }
                // The median: the bin holding the (n+1)/2-th run, reported at its centre.
                var seen: UInt64 = 0, median = Self.binCount - 1
                for b in 0..<Self.binCount {
                    seen += UInt64(s.histogram[i * Self.binCount + b])
                    if seen * 2 >= n { median = b; break }
                }
                return Summary(stage: stage, count: n, meanMilliseconds: Double(s.totals[i]) / Double(n) / 1e6,
                               meanCPUMilliseconds: Double(s.cpuTotals[i]) / Double(n) / 1e6,
                               medianCPUMilliseconds: (Double(median) + 0.5) * Double(Self.binNanoseconds) / 1e6,
                               maxCPUMilliseconds: Double(s.cpuMax[i]) / 1e6)
            }
        }
    }
}

extension Duration {
    /// Whole nanoseconds (negative durations count as 0).
    var nanoseconds: UInt64 {
        let c = components
        return c.seconds < 0 ? 0 : UInt64(c.seconds) * 1_000_000_000 + UInt64(c.attoseconds / 1_000_000_000)
    }
}
