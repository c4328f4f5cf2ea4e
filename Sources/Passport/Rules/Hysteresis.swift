/// Keeps the guide from flickering at the edges: it turns green only after the verdict has passed
/// for `hold`, and back to red only after it has failed for `release` — a shorter failure (one
/// noisy frame) does not turn it red.
public struct Hysteresis: Sendable {
    public let holdNanoseconds: UInt64
    public let releaseNanoseconds: UInt64
    public private(set) var isGreen = false
    private var since: UInt64? = nil

    public init(holdMilliseconds: Int = 300, releaseMilliseconds: Int = 200) {
        holdNanoseconds = UInt64(holdMilliseconds) * 1_000_000
        releaseNanoseconds = UInt64(releaseMilliseconds) * 1_000_000
    }

    /// Feeds one verdict at time `t` (monotonic nanoseconds); returns whether the guide is green.
    @discardableResult
    public mutating func update(passed: Bool, at t: UInt64) -> Bool {
        if passed == isGreen {
            since = nil                               // agrees with the shown state
        } else if let start = since {
            if t &- start >= (isGreen ? releaseNanoseconds : holdNanoseconds) {
                isGreen = passed
                since = nil
            }
        } else {
            since = t
            if (isGreen ? releaseNanoseconds : holdNanoseconds) == 0 { isGreen = passed; since = nil }
        }
        return isGreen
    }

    public mutating func reset() { isGreen = false; since = nil }
}
