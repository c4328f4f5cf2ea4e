import Synchronization
import Syscalls
#if canImport(Glibc)
import Glibc
#endif

/// The live kernel behind `SystemCalls` with faults injected: a call kind fails with an errno
/// after a number of calls that pass, for a number of calls (or until `clear`). The file and
/// socket calls of the save path and of sd_notify; everything else is the live kernel.
public final class FaultInjector: Sendable {
    public enum Call: Hashable, Sendable {
        case open, close, read, write, fsync, rename, unlink, fchmod, fstat, mkdir, statvfs, symlink, socket, sendto
    }

    struct Fault {
        var errno: Int32
        var skip: Int
        var times: Int?
    }

    struct State {
        var faults: [Call: Fault] = [:]
        var failed: [Call: Int] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// The next `times` calls of `call` (nil: all of them) after `skip` that pass fail with `errno`.
    public func fail(_ call: Call, with errno: Int32, after skip: Int = 0, times: Int? = nil) {
        state.withLock { $0.faults[call] = Fault(errno: errno, skip: skip, times: times) }
    }

    /// Removes every fault (the disk has room again, the device recovered).
    public func clear() { state.withLock { $0.faults = [:] } }

    /// How many calls of `call` were made to fail.
    public func failures(of call: Call) -> Int { state.withLock { $0.failed[call] ?? 0 } }

    /// -errno when this call of `call` is to fail, else nil (the live call runs).
    func check(_ call: Call) -> Int32? {
        state.withLock { s in
            guard var f = s.faults[call] else { return nil }
            if f.skip > 0 {
                f.skip -= 1
                s.faults[call] = f
                return nil
            }
            if let t = f.times {
                if t <= 1 { s.faults[call] = nil } else { f.times = t - 1; s.faults[call] = f }
            }
            s.failed[call, default: 0] += 1
            return -f.errno
        }
    }

    /// `SystemCalls.live` with this injector's faults in front of the calls it knows.
    public var syscalls: SystemCalls {
        let live = SystemCalls.live
        var s = live
        s.rawOpen = { p, f, m in self.check(.open) ?? live.rawOpen(p, f, m) }
        s.rawClose = { fd in
            // The descriptor is released even when close reports an error (as Linux does).
            if let e = self.check(.close) { _ = live.rawClose(fd); return e }
            return live.rawClose(fd)
        }
        s.rawRead = { fd, b, n in self.check(.read).map(Int.init) ?? live.rawRead(fd, b, n) }
        s.rawWrite = { fd, b, n in self.check(.write).map(Int.init) ?? live.rawWrite(fd, b, n) }
        s.rawFsync = { fd in self.check(.fsync) ?? live.rawFsync(fd) }
        s.rawRename = { a, b in self.check(.rename) ?? live.rawRename(a, b) }
        s.rawUnlink = { p in self.check(.unlink) ?? live.rawUnlink(p) }
        s.rawFchmod = { fd, m in self.check(.fchmod) ?? live.rawFchmod(fd, m) }
        s.rawFstat = { fd, st in self.check(.fstat) ?? live.rawFstat(fd, st) }
        s.rawMkdir = { p, m in self.check(.mkdir) ?? live.rawMkdir(p, m) }
        s.rawAvailableBytes = { p, out in self.check(.statvfs) ?? live.rawAvailableBytes(p, out) }
        s.rawSymlink = { t, p in self.check(.symlink) ?? live.rawSymlink(t, p) }
        s.rawSocket = { d, t, p in self.check(.socket) ?? live.rawSocket(d, t, p) }
        s.rawSendto = { fd, b, n, f, a, l in self.check(.sendto).map(Int.init) ?? live.rawSendto(fd, b, n, f, a, l) }
        return s
    }
}
