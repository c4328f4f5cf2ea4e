#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The checked calls: one function per system call. Each retries `EINTR` and throws a
/// `SystemCallError` naming the call for any other failure. Nothing in the package calls the
/// `raw…` functions except these (and `SystemCalls+Files.swift`).
extension SystemCalls {
    /// Wraps `open(2)`. `O_CLOEXEC` is always added.
    public func open(_ path: String, flags: Int32, mode: UInt32 = 0) throws(SystemCallError) -> Int32 {
        while true {
            let r = path.withCString { rawOpen($0, flags | O_CLOEXEC, mode) }
            if r >= 0 { return r }
            if r == -EINTR { continue }
            throw SystemCallError(call: "open(\(path))", errno: Errno(rawValue: -r))
        }
    }

    /// Wraps `close(2)`. EINTR is not retried: on Linux the descriptor is released even then,
    /// and retrying could close a descriptor another thread has just been given.
    /// A failure is reported but the fd is gone either way.
    public func close(_ fd: Int32) throws(SystemCallError) {
        let r = rawClose(fd)
        if r >= 0 || r == -EINTR { return }
        throw SystemCallError(call: "close", errno: Errno(rawValue: -r))
    }

    /// Wraps `ioctl(2)` with a pointer argument. `name` is the request's macro name, used in errors.
    @discardableResult
    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, name: StaticString) throws(SystemCallError) -> Int32 {
        while true {
            let r = rawIoctl(fd, request, arg)
            if r >= 0 { return r }
            if r == -EINTR { continue }
            throw SystemCallError(call: "ioctl(\(name))", errno: Errno(rawValue: -r))
        }
    }

    /// Wraps `mmap(2)` (address hint NULL).
    public func mmap(length: Int, protection: Int32, flags: Int32, fd: Int32, offset: Int) throws(SystemCallError) -> UnsafeMutableRawPointer {
        while true {
            let r = rawMmap(length, protection, flags, fd, offset)
            if r >= 0, let p = UnsafeMutableRawPointer(bitPattern: r) { return p }
            if r == -Int(EINTR) { continue }
            throw SystemCallError(call: "mmap", errno: Errno(rawValue: r < 0 ? Int32(-r) : EINVAL))
        }
    }

    /// Wraps `munmap(2)`.
    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) throws(SystemCallError) {
        while true {
            let r = rawMunmap(address, length)
            if r >= 0 { return }
            if r == -EINTR { continue }
            throw SystemCallError(call: "munmap", errno: Errno(rawValue: -r))
        }
    }

    /// Wraps `poll(2)`. On EINTR the call is repeated with the same timeout (a signal may
    /// therefore lengthen the wait; callers poll with short timeouts). Returns the ready count.
    public func poll(_ fds: UnsafeMutablePointer<pollfd>, count: Int, timeoutMilliseconds: Int32) throws(SystemCallError) -> Int {
        while true {
            let r = rawPoll(fds, count, timeoutMilliseconds)
            if r >= 0 { return Int(r) }
            if r == -EINTR { continue }
            throw SystemCallError(call: "poll", errno: Errno(rawValue: -r))
        }
    }

    /// Waits for one descriptor to become readable. Returns the `revents` (0 on timeout).
    public func pollReadable(_ fd: Int32, timeoutMilliseconds: Int32) throws(SystemCallError) -> Int16 {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let n = try poll(&p, count: 1, timeoutMilliseconds: timeoutMilliseconds)
        return n == 0 ? 0 : p.revents
    }

    /// Wraps `read(2)`. Returns the byte count (0 = end of file). `EAGAIN` on a non-blocking
    /// descriptor is returned as `nil` rather than thrown.
    public func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemCallError) -> Int? {
        while true {
            let r = rawRead(fd, buffer, count)
            if r >= 0 { return r }
            if r == -Int(EINTR) { continue }
            if r == -Int(EAGAIN) { return nil }
            throw SystemCallError(call: "read", errno: Errno(rawValue: Int32(-r)))
        }
    }

    /// Wraps `write(2)`; writes all `count` bytes (looping on short writes).
    public func write(_ fd: Int32, from buffer: UnsafeRawPointer, count: Int) throws(SystemCallError) {
        var done = 0
        while done < count {
            let r = rawWrite(fd, buffer + done, count - done)
            if r >= 0 { done += r; continue }
            if r == -Int(EINTR) { continue }
            throw SystemCallError(call: "write", errno: Errno(rawValue: Int32(-r)))
        }
    }
}
