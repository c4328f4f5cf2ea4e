import Foundation

/// The sd_notify datagram protocol, implemented directly (no libsystemd link): one datagram of
/// newline-separated `KEY=value` assignments to the AF_UNIX socket named by `$NOTIFY_SOCKET`
/// (a leading `@` means the abstract namespace). Chosen over libsystemd so the binary has one
/// fewer shared library and the protocol is testable without systemd.
public final class SystemdNotifier: @unchecked Sendable {
    private let socketPath: String?
    private let fd: Int32
    /// Half of `$WATCHDOG_USEC`, when the service manager asked for watchdog pings.
    public let watchdogInterval: Duration?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        fd = socketPath == nil ? -1 : socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if let usec = environment["WATCHDOG_USEC"].flatMap({ UInt64($0) }), usec > 0,
           environment["WATCHDOG_PID"].flatMap({ Int32($0) }).map({ $0 == getpid() }) ?? true {
            watchdogInterval = .microseconds(Int64(usec / 2))
        } else {
            watchdogInterval = nil
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Whether a service manager is listening.
    public var isActive: Bool { fd >= 0 }

    public func ready(status: String? = nil) { send("READY=1" + (status.map { "\nSTATUS=" + $0 } ?? "")) }
    public func watchdog() { send("WATCHDOG=1") }
    public func status(_ text: String) { send("STATUS=" + text) }
    public func stopping() { send("STOPPING=1") }

    /// Sends one datagram; failures are ignored (the service manager may be gone at shutdown).
    public func send(_ message: String) {
        guard fd >= 0, let path = socketPath else { return }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else { return }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            if !abstract { raw[bytes.count] = 0 }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let payload = Array(message.utf8)
        _ = payload.withUnsafeBytes { p in
            withUnsafePointer(to: &addr) { a in
                a.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, p.baseAddress, p.count, Int32(MSG_NOSIGNAL), $0, length) }
            }
        }
    }
}
