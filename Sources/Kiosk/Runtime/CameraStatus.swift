import Hardware
import Logging
import Synchronization

/// Whether the camera is streaming, and what happened to it (the last 32 events), from the
/// reconnecting source's events on the capture stage; the event loop reads it when woken.
final class CameraStatus: Sendable {
    private let available = Atomic<Bool>(true)
    private let history = Mutex(RecentHistory<String>(capacity: 32))

    var isAvailable: Bool { available.load(ordering: .acquiring) }
    var events: [String] { history.withLock { $0.elements } }

    func note(_ event: FrameSourceEvent, log: Logger) {
        switch event {
        case .lost(let e):
            available.store(false, ordering: .releasing)
            log.error("camera lost", metadata: ["error": "\(e)"])
            history.withLock { $0.append("lost: \(e)") }
        case .reconnectFailed(let e, let attempt, let retry):
            log.warning("camera reconnect failed", metadata: ["attempt": "\(attempt)", "retry_ms": "\(retry)", "error": "\(e)"])
            history.withLock { $0.append("reconnect failed (attempt \(attempt))") }
        case .connected(let attempt):
            available.store(true, ordering: .releasing)
            if attempt > 0 { log.notice("camera reconnected", metadata: ["attempt": "\(attempt)"]) }
            history.withLock { $0.append("connected (attempt \(attempt))") }
        }
    }
}
