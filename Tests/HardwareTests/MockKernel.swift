import Hardware
#if canImport(Glibc)
import Glibc
#endif

/// A scriptable stand-in for the kernel behind `SystemCalls`. Handlers answer each call in the
/// kernel convention (result or -errno); `inject` queues errnos that the next calls of a kind
/// return before the handler is consulted (EINTR, EBUSY, ENODEV…). Used from one test at a time.
final class MockKernel: @unchecked Sendable {
    enum Call: Hashable { case open, close, ioctl, mmap, munmap, poll, read, write }

    var onOpen: (String, Int32) -> Int32 = { _, _ in -ENOENT }
    var onIoctl: (Int32, UInt, UnsafeMutableRawPointer?) -> Int32 = { _, _, _ in -ENOTTY }
    var onPoll: (UnsafeMutablePointer<pollfd>, Int, Int32) -> Int32 = { _, _, _ in 0 }
    var onRead: (Int32, UnsafeMutableRawPointer, Int) -> Int = { _, _, _ in 0 }
    var onWrite: (Int32, UnsafeRawPointer, Int) -> Int = { _, _, count in count }
    var onMmap: (Int, Int32) -> Int = { _, _ in -Int(ENOMEM) }

    private(set) var counts: [Call: Int] = [:]
    private(set) var closed: [Int32] = []
    private(set) var openedPaths: [String] = []
    private var injected: [Call: [Int32]] = [:]

    /// The next calls of `call` fail with these errnos, in order.
    func inject(_ call: Call, _ errnos: Int32...) { injected[call, default: []] += errnos }

    private func enter(_ call: Call) -> Int32? {
        counts[call, default: 0] += 1
        if var queue = injected[call], !queue.isEmpty {
            let e = queue.removeFirst()
            injected[call] = queue
            return -e
        }
        return nil
    }

    var syscalls: SystemCalls {
        SystemCalls(
            rawOpen: { path, flags, _ in
                let p = String(cString: path)
                self.openedPaths.append(p)
                if let e = self.enter(.open) { return e }
                return self.onOpen(p, flags)
            },
            rawClose: { fd in
                if let e = self.enter(.close) { return e }
                self.closed.append(fd)
                return 0
            },
            rawIoctl: { fd, request, arg in
                if let e = self.enter(.ioctl) { return e }
                return self.onIoctl(fd, request, arg)
            },
            rawMmap: { length, _, _, fd, _ in
                if let e = self.enter(.mmap) { return Int(e) }
                return self.onMmap(length, fd)
            },
            rawMunmap: { _, _ in
                if let e = self.enter(.munmap) { return e }
                return 0
            },
            rawPoll: { fds, count, timeout in
                if let e = self.enter(.poll) { return e }
                return self.onPoll(fds, count, timeout)
            },
            rawRead: { fd, buffer, count in
                if let e = self.enter(.read) { return Int(e) }
                return self.onRead(fd, buffer, count)
            },
            rawWrite: { fd, buffer, count in
                if let e = self.enter(.write) { return Int(e) }
                return self.onWrite(fd, buffer, count)
            })
    }
}
