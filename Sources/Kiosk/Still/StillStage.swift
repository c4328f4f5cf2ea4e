#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Hardware
import ImageCore
import Synchronization

/// Still: finishes and saves each still off the preview path. The event loop says what the booth
/// knew and showed at the press (`expect`), the capture stage hands over the upright still
/// (`submit`), a step processes it, and the result waits for the loop (`takeResult`). One still
/// at a time: the loop does not request another while one is in flight.
final class StillStage: KioskStage {
    private struct Slots {
        var expected: (live: LiveState, hideBackground: Bool)? = nil
        var job: StillJob? = nil
        var result: StillResult? = nil
    }

    let name = "still"
    let processor: StillProcessor
    let links: StageLinks
    /// Notified when a still arrives (the still thread waits on it).
    let stillArrived = StageSignal()
    private let slots = Mutex(Slots())

    init(processor: StillProcessor, links: StageLinks) {
        self.processor = processor
        self.links = links
    }

    /// Nothing to check: the store and the still models were checked when they were built (a
    /// disk that fills up later is reported per press, not at start-up).
    func configure() throws(KioskError) {}

    func start() throws(KioskError) {}

    /// Event loop: a still was requested; remember the live state and the screen at the press.
    func expect(live: LiveState, hideBackground: Bool) {
        slots.withLock { $0.expected = (live, hideBackground) }
    }

    /// Capture stage: the upright still arrived.
    func submit(_ image: ImageBuffer, metadata: FrameMetadata) {
        slots.withLock { s in
            let e = s.expected
            s.job = StillJob(image: image, metadata: metadata, live: e?.live ?? LiveState(), hideBackground: e?.hideBackground ?? false,
                             date: Date())
            s.expected = nil
        }
        stillArrived.notify()
    }

    /// Processes a still if one is waiting (waiting up to `timeoutMilliseconds` for one).
    func step(timeoutMilliseconds: Int32) -> Bool {
        let seen = stillArrived.generation
        var job = slots.withLock { s in s.job.take() }
        if job == nil, timeoutMilliseconds > 0 {
            stillArrived.wait(after: seen, timeout: .milliseconds(timeoutMilliseconds))
            job = slots.withLock { s in s.job.take() }
        }
        // Taken out of the optional, so that the job below holds the only reference to its still.
        guard var job = job.take() else { return false }
        let processor = self.processor
        // Heap pages the live path freed since the last still go back first: the still's peak
        // stands on what is in use, not on what the allocator kept.
        ProcessMemory.returnFreePages()
        let result = links.timings.measure(.still) { processor.process(&job) }
        ProcessMemory.returnFreePages()   // the still's models, dropped
        slots.withLock { $0.result = result }
        links.wakeup.notify()
        return true
    }

    /// Event loop: the finished still, once.
    func takeResult() -> StillResult? { slots.withLock { s in s.result.take() } }

    func stop() { stillArrived.notify() }
}
