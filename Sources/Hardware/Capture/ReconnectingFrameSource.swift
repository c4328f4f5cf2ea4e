import ImageCore
import Syscalls

/// What happened to the camera, for the kiosk to show ("Camera unavailable") and log.
public enum FrameSourceEvent: Sendable, Equatable {
    /// The running source failed; no frames until a reconnect succeeds.
    case lost(HardwareError)
    /// A reconnect attempt failed; the next one comes after `retryInMilliseconds`.
    case reconnectFailed(HardwareError, attempt: Int, retryInMilliseconds: UInt64)
    /// A source is open and streaming again (attempt 0 is the first start).
    case connected(attempt: Int)
}

/// Keeps a frame source alive: when the inner source fails (camera unplugged, ENODEV, a run of
/// failed frames) it reports `.lost`, drops the source, and re-opens it through `open` with
/// exponential back-off (initial delay doubling up to a maximum). `pump` never throws: while the
/// camera is away it waits and returns 0, so the kiosk keeps drawing "Camera unavailable".
public final class ReconnectingFrameSource: FrameSource {
    public struct Backoff: Sendable, Equatable {
        public var initialMilliseconds: UInt64
        public var maximumMilliseconds: UInt64
        public init(initialMilliseconds: UInt64 = 500, maximumMilliseconds: UInt64 = 8_000) {
            self.initialMilliseconds = initialMilliseconds
            self.maximumMilliseconds = maximumMilliseconds
        }
        /// Delay before attempt `n` (1-based) after a failure.
        public func delay(attempt n: Int) -> UInt64 {
            let shift = UInt64(min(max(n - 1, 0), 20))
            return min(initialMilliseconds << shift, maximumMilliseconds)
        }
    }

    public typealias Opener = () throws(HardwareError) -> any FrameSource

    public let name: String
    public var previewWidth: Int { source?.previewWidth ?? lastWidth }
    public var previewHeight: Int { source?.previewHeight ?? lastHeight }
    /// True while a source is streaming.
    public var isAvailable: Bool { source != nil }

    private let open: Opener
    private let backoff: Backoff
    private let clock: MonotonicClock
    private let sys: SystemCalls
    private let onEvent: (FrameSourceEvent) -> Void
    private var source: (any FrameSource)?
    private var attempt = 0
    private var nextAttemptAt: UInt64 = 0
    private var wanted = false
    private var lastWidth: Int
    private var lastHeight: Int

    public init(name: String, previewWidth: Int, previewHeight: Int, backoff: Backoff = Backoff(),
                clock: MonotonicClock = .system, syscalls: SystemCalls = .live,
                onEvent: @escaping (FrameSourceEvent) -> Void, open: @escaping Opener) {
        self.name = name
        self.lastWidth = previewWidth
        self.lastHeight = previewHeight
        self.backoff = backoff
        self.clock = clock
        self.sys = syscalls
        self.onEvent = onEvent
        self.open = open
    }

    /// Opens and starts the source. The first failure is thrown (the operator sees it at
    /// start-up); later failures are retried.
    public func start() throws(HardwareError) {
        wanted = true
        guard source == nil else { return }
        let s = try open()
        try s.start()
        adopt(s)
    }

    public func stop() {
        wanted = false
        source?.stop()
        source = nil
    }

    public func requestStill() throws(HardwareError) {
        guard let source else { throw HardwareError.cameraFailed(detail: "camera unavailable") }
        try source.requestStill()
    }

    private func adopt(_ s: any FrameSource) {
        source = s
        lastWidth = s.previewWidth
        lastHeight = s.previewHeight
        onEvent(.connected(attempt: attempt))
        attempt = 0
    }

    public func pump(timeoutMilliseconds: Int32, deliver: FrameDelivery, still: (Image) -> Void) -> Int {
        if let s = source {
            do {
                return try s.pump(timeoutMilliseconds: timeoutMilliseconds, deliver: deliver, still: still)
            } catch {
                s.stop()
                source = nil
                attempt = 1
                nextAttemptAt = clock.now() &+ backoff.delay(attempt: 1) &* 1_000_000
                onEvent(.lost(error))
                return 0
            }
        }
        guard wanted else { return 0 }
        let now = clock.now()
        if now < nextAttemptAt {
            let waitMs = Int32(clamping: (nextAttemptAt - now + 999_999) / 1_000_000)
            sys.sleep(milliseconds: timeoutMilliseconds < 0 ? waitMs : min(waitMs, timeoutMilliseconds))
            return 0
        }
        do throws(HardwareError) {
            let s = try open()
            try s.start()
            adopt(s)
        } catch {
            attempt += 1
            let delay = backoff.delay(attempt: attempt)
            nextAttemptAt = clock.now() &+ delay &* 1_000_000
            onEvent(.reconnectFailed(error, attempt: attempt - 1, retryInMilliseconds: delay))
        }
        return 0
    }
}
