#if canImport(Glibc)
import Glibc
#endif
import ImageCore

/// What the screen shows besides the live preview: countdown, "taking photo", the review of the
/// last photo, a short message, and the toggles. Owned by the present stage, driven by the event
/// loop on its clock.
struct UIState {
    enum Phase: Equatable {
        case preview
        case countdown(started: ContinuousClock.Instant)
        case capturing(since: ContinuousClock.Instant)
        case review(until: ContinuousClock.Instant)
    }

    var phase: Phase = .preview
    /// Whether the screen shows the last photo large (`review`).
    var isReviewing: Bool {
        if case .review = phase { return true }
        return false
    }
    let reviewSeconds: Double
    let countdown: Int
    var hideBackground: Bool
    var debug: Bool
    var message: String?
    var messageUntil: ContinuousClock.Instant?
    var lastPhoto: ImageBuffer?
    var needsRedrawWithoutFrame = false
    /// Preview frames shown per second (smoothed), for the debug panel.
    var fps: Double = 0

    init(reviewSeconds: Double, countdown: Int, hideBackground: Bool, debug: Bool) {
        self.reviewSeconds = reviewSeconds
        self.countdown = countdown
        self.hideBackground = hideBackground
        self.debug = debug
    }

    /// The screen state a kiosk starts with under `config`.
    init(config: KioskConfig) {
        self.init(reviewSeconds: config.reviewSeconds, countdown: config.countdown, hideBackground: config.hideBackground,
                  debug: config.debug)
    }

    var canShoot: Bool { phase == .preview }

    /// Seconds left in the countdown (3, 2, 1), or nil.
    func countdownDigit(now: ContinuousClock.Instant) -> Int? {
        guard case .countdown(let started) = phase else { return nil }
        let elapsed = now - started
        return max(1, countdown - Int(elapsed.components.seconds))
    }

    mutating func startCountdown(now: ContinuousClock.Instant) { phase = .countdown(started: now) }

    mutating func capturing(now: ContinuousClock.Instant) { phase = .capturing(since: now) }

    /// Advances timed phases; returns true when the countdown has just ended (take the still now).
    mutating func tick(now: ContinuousClock.Instant) -> Bool {
        if let until = messageUntil, now >= until { message = nil; messageUntil = nil; needsRedrawWithoutFrame = true }
        switch phase {
        case .countdown(let started) where now - started >= .seconds(countdown):
            phase = .preview
            return true
        case .capturing(let since) where now - since >= Self.stillTimeout:
            phase = .preview                                   // the still never came
            flash("Camera unavailable", now: now)
        case .review(let until) where now >= until:
            phase = .preview
        default: break
        }
        return false
    }

    /// The next instant `tick` has something to do (a countdown ends, a message or the review
    /// expires, a still is given up on), or nil; the event loop sleeps no longer than this.
    func nextDeadline() -> ContinuousClock.Instant? {
        let phaseEnd: ContinuousClock.Instant?
        switch phase {
        case .preview: phaseEnd = nil
        case .countdown(let started): phaseEnd = started + .seconds(countdown)
        case .capturing(let since): phaseEnd = since + Self.stillTimeout
        case .review(let until): phaseEnd = until
        }
        switch (phaseEnd, messageUntil) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b): return b
        }
    }

    /// How long a requested still may take before the screen gives up on it.
    static let stillTimeout: Duration = .seconds(15)

    mutating func showResult(_ r: StillResult, now: ContinuousClock.Instant) {
        if let t = r.thumbnail { lastPhoto = t }
        if r.saved != nil {
            phase = .review(until: now + .milliseconds(Int(reviewSeconds * 1000)))
        } else {
            phase = .preview
            flash(r.message, now: now)
        }
        needsRedrawWithoutFrame = true
    }

    mutating func flash(_ text: String, now: ContinuousClock.Instant, seconds: Double = 2.5) {
        message = text
        messageUntil = now + .milliseconds(Int(seconds * 1000))
        needsRedrawWithoutFrame = true
    }
}
