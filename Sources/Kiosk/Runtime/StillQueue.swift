import Foundation
import ImageCore

/// Hands stills from the capture thread to the still worker, and results back to the main loop.
/// One still at a time: a press while a still is in flight is ignored by the UI state.
final class StillQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var expected: LiveState?
    private var expectedHide = false
    private var job: StillJob?
    private var result: StillResult?

    /// The main loop asked the camera for a still; remember what the booth knew and showed at the press.
    func expect(live: LiveState, hideBackground: Bool) {
        condition.lock(); expected = live; expectedHide = hideBackground; condition.unlock()
    }

    /// Capture thread: the still arrived.
    func submit(_ image: ImageBuffer, metadata: FrameMetadata) {
        condition.lock()
        job = StillJob(image: image, metadata: metadata, live: expected ?? LiveState(), hideBackground: expectedHide, date: Date())
        expected = nil
        condition.signal()
        condition.unlock()
    }

    /// Still thread: the next job, or nil after a short wait / when stopping.
    func next(stop: StopSignal) -> StillJob? {
        condition.lock()
        defer { condition.unlock() }
        while job == nil && !stop.isSet {
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.2))
        }
        let j = job
        job = nil
        return j
    }

    func finish(_ r: StillResult) {
        condition.lock(); result = r; condition.unlock()
    }

    /// Main loop: a finished still, once.
    func takeResult() -> StillResult? {
        condition.lock()
        defer { condition.unlock() }
        let r = result
        result = nil
        return r
    }

    func wake() {
        condition.lock(); condition.broadcast(); condition.unlock()
    }
}
