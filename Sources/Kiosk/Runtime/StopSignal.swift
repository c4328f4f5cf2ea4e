import Foundation
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

    public static func installHandlers() {
        let handler: @convention(c) (Int32) -> Void = { _ in ProcessSignals.stop.set() }
        signal(SIGTERM, handler)
        signal(SIGINT, handler)
        signal(SIGPIPE, SIG_IGN)
    }
}
