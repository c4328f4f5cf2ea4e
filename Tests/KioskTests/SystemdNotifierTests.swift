import Foundation
import Kiosk
import TestSupport
import Testing

@Suite struct SystemdNotifierTests {
    /// A datagram socket standing in for systemd's notify socket.
    func listen(at path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        precondition(r == 0)
        var tv = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    func receive(_ fd: Int32) -> String {
        var buf = [UInt8](repeating: 0, count: 512)
        let n = recv(fd, &buf, buf.count, 0)
        return n > 0 ? String(decoding: buf.prefix(n), as: UTF8.self) : ""
    }

    @Test func sendsReadyWatchdogAndStopping() {
        let path = NSTemporaryDirectory() + "notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = listen(at: path)
        defer { close(fd); unlink(path) }
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "\(getpid())"])
        #expect(n.isActive)
        #expect(n.watchdogInterval == .seconds(1))
        n.ready(status: "camera ok")
        #expect(receive(fd) == "READY=1\nSTATUS=camera ok")
        n.watchdog()
        #expect(receive(fd) == "WATCHDOG=1")
        n.stopping()
        #expect(receive(fd) == "STOPPING=1")
    }

    @Test func inactiveWithoutASocketAndWatchdogForAnotherPID() {
        let n = SystemdNotifier(environment: ["WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"])
        #expect(!n.isActive)
        #expect(n.watchdogInterval == nil)
        n.ready()   // a no-op, not a crash
    }
}

/// sd_notify failures through `SystemCalls`: harmless (never thrown, never a crash), counted.
@Suite struct SystemdNotifierFaultTests {
    @Test func noSocketMeansInactiveAndEverySendCounted() {
        let faults = FaultInjector()
        faults.fail(.socket, with: EMFILE)
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/run/systemd/notify"], syscalls: faults.syscalls)
        #expect(!n.isActive)
        n.ready()
        n.watchdog()
        #expect(n.failedSends == 2)
    }

    @Test func aFailedDatagramIsCountedAndTheNextOneStillGoes() {
        let path = NSTemporaryDirectory() + "notify-fault-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = SystemdNotifierTests().listen(at: path)
        defer { close(fd); unlink(path) }
        let faults = FaultInjector()
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": path], syscalls: faults.syscalls)
        #expect(n.isActive)
        faults.fail(.sendto, with: ECONNREFUSED, times: 1)
        n.watchdog()
        #expect(n.failedSends == 1 && faults.failures(of: .sendto) == 1)
        n.stopping()
        #expect(SystemdNotifierTests().receive(fd) == "STOPPING=1")
        #expect(n.failedSends == 1)
    }

    @Test func aSocketPathTooLongIsCountedNotSent() {
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/" + String(repeating: "x", count: 200)])
        #expect(n.isActive)
        n.ready()
        #expect(n.failedSends == 1)
    }
}
