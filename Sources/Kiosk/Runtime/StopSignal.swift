#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Set by SIGTERM/SIGINT (or a test, or `--for`); every loop of the kiosk checks it.
public final class StopSignal: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public var isSet: Bool { flag.load(ordering: .acquiring) }
    public func set() { flag.store(true, ordering: .releasing) }
}

/// The process's stop signal, wired to SIGTERM and SIGINT by `installHandlers()`. The handler
/// only stores to an atomic, which is async-signal-safe.
public enum ProcessSignals {
    public static let stop = StopSignal()

    /// Call on the main thread before any other thread starts (threads inherit its mask).
    public static func installHandlers() {
        let handler: @convention(c) (Int32) -> Void = { _ in ProcessSignals.stop.set() }
        signal(SIGTERM, handler)
        signal(SIGINT, handler)
        signal(SIGPIPE, SIG_IGN)
        // A parent may start us with these blocked (a blocked mask survives exec): the kiosk would
        // then never see systemd's or an operator's stop. Unblock them.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
