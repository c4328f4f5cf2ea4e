#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The One-Euro filter (Casiez, Roussel, Vogel, CHI 2012): a low-pass filter whose cutoff rises
/// with the signal's speed, so still landmarks stop jittering while fast moves pass with little
/// lag. One filter state per scalar; `FaceTracker` keeps one per landmark coordinate and angle.
///
/// `cutoff = minCutoff + beta · |smoothed derivative|`, the derivative itself low-passed at
/// `derivativeCutoff`; all in Hz, with values in whatever unit the caller feeds (the tracker
/// feeds landmark coordinates divided by the face's size, as MediaPipe's landmark smoothing does).
public struct OneEuroParameters: Sendable, Equatable {
    public var minCutoff: Float
    public var beta: Float
    public var derivativeCutoff: Float
    public init(minCutoff: Float, beta: Float, derivativeCutoff: Float = 1) {
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
    }
    /// MediaPipe's face-mesh landmark smoothing settings (min cutoff 0.05 Hz, beta 80,
    /// derivative cutoff 1 Hz), for coordinates in face-size units.
    public static let landmarks = OneEuroParameters(minCutoff: 0.05, beta: 80, derivativeCutoff: 1)
    /// Head angles in radians.
    public static let angles = OneEuroParameters(minCutoff: 0.5, beta: 2, derivativeCutoff: 1)
}

public struct OneEuroFilter: Sendable {
    var previous: Float = 0
    var derivative: Float = 0
    var primed = false

    public init() {}

    @inline(__always) static func alpha(cutoff: Float, dt: Float) -> Float {
        let tau = 1 / (2 * Float.pi * cutoff)
        return 1 / (1 + tau / dt)
    }

    /// Filters `value` sampled `dt` seconds after the previous one.
    @inline(__always)
    public mutating func filter(_ value: Float, dt: Float, _ p: OneEuroParameters) -> Float {
        guard primed else {
            primed = true
            previous = value
            derivative = 0
            return value
        }
        let raw = (value - previous) / dt
        derivative += OneEuroFilter.alpha(cutoff: p.derivativeCutoff, dt: dt) * (raw - derivative)
        let cutoff = p.minCutoff + p.beta * abs(derivative)
        previous += OneEuroFilter.alpha(cutoff: cutoff, dt: dt) * (value - previous)
        return previous
    }

    public mutating func reset() { primed = false }
}
