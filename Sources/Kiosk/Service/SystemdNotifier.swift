#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Hardware
import Synchronization

/// The sd_notify datagram protocol, implemented directly (no libsystemd link): one datagram of
/// newline-separated `KEY=value` assignments to the AF_UNIX socket named by `$NOTIFY_SOCKET`
/// (a leading `@` means the abstract namespace). Chosen over libsystemd so the binary has one
/// fewer shared library and the protocol is testable without systemd.
///
/// The socket and each datagram go through `SystemCalls`; a failure of either is harmless by
/// design (counted in `failedSends`, never thrown): the kiosk keeps running when the service
/// manager has gone away or the socket cannot be made.
public final class SystemdNotifier: @unchecked Sendable {
    private let socketPath: String?
    private let fd: Int32
    private let sys: SystemCalls
    private let failures = Atomic<Int>(0)
    /// Half of `$WATCHDOG_USEC`, when the service manager asked for watchdog pings.
    public let watchdogInterval: Duration?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, syscalls: SystemCalls = .live) {
        sys = syscalls
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        fd = socketPath == nil ? -1 : (try? syscalls.socket(domain: AF_UNIX, type: Int32(SOCK_DGRAM.rawValue))) ?? -1
        if let usec = environment["WATCHDOG_USEC"].flatMap({ UInt64($0) }), usec > 0,
           environment["WATCHDOG_PID"].flatMap({ Int32($0) }).map({ $0 == getpid() }) ?? true {
            watchdogInterval = .microseconds(Int64(usec / 2))
        } else {
            watchdogInterval = nil
        }
    }

    deinit { if fd >= 0 { try? sys.close(fd) } }

    /// Datagrams that could not be sent (no socket, or `sendto` failed).
    public var failedSends: Int { failures.load(ordering: .relaxed) }

    /// Whether a service manager is listening (`$NOTIFY_SOCKET` is set and the socket was made).
    public var isActive: Bool { fd >= 0 }

    public func ready(status: String? = nil) { send("READY=1" + (status.map { "\nSTATUS=" + $0 } ?? "")) }
    public func watchdog() { send("WATCHDOG=1") }
    public func status(_ text: String) { send("STATUS=" + text) }
    public func stopping() { send("STOPPING=1") }

    /// Sends one datagram; failures are counted, not thrown (the service manager may be gone at
    /// shutdown).
    public func send(_ message: String) {
        guard let path = socketPath else { return }
        guard fd >= 0 else { failures.add(1, ordering: .relaxed); return }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else { failures.add(1, ordering: .relaxed); return }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            if !abstract { raw[bytes.count] = 0 }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let payload = Array(message.utf8)
        let sent = payload.withUnsafeBytes { p in
            withUnsafePointer(to: &addr) { a in
                a.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    (try? sys.sendto(fd, p, flags: Int32(MSG_NOSIGNAL), address: $0, length: length)) != nil
                }
            }
        }
        if !sent { failures.add(1, ordering: .relaxed) }
    }
}
