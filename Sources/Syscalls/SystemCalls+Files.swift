#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The checked file and socket calls of the save path and of sd_notify, shaped like those in
/// `SystemCalls+Calls.swift`: each retries `EINTR` and throws a `SystemCallError` naming the call
/// (and its path) for any other failure.
extension SystemCalls {
    /// Wraps `fsync(2)`; `name` (the file's path) is used in errors.
    public func fsync(_ fd: Int32, name: String) throws(SystemCallError) {
        try retrying("fsync(\(name))") { rawFsync(fd) }
    }

    /// Wraps `rename(2)`.
    public func rename(_ from: String, to: String) throws(SystemCallError) {
        try retrying("rename(\(from), \(to))") { from.withCString { f in to.withCString { rawRename(f, $0) } } }
    }

    /// Wraps `unlink(2)`.
    public func unlink(_ path: String) throws(SystemCallError) {
        try retrying("unlink(\(path))") { path.withCString { rawUnlink($0) } }
    }

    /// Wraps `fchmod(2)`; `name` (the file's path) is used in errors.
    public func fchmod(_ fd: Int32, mode: UInt32, name: String) throws(SystemCallError) {
        try retrying("fchmod(\(name))") { rawFchmod(fd, mode) }
    }

    /// Wraps `fstat(2)`; `name` (the file's path) is used in errors.
    public func fstat(_ fd: Int32, name: String) throws(SystemCallError) -> stat {
        var st = stat()
        try retrying("fstat(\(name))") { rawFstat(fd, &st) }
        return st
    }

    /// Wraps `mkdir(2)`.
    public func mkdir(_ path: String, mode: UInt32) throws(SystemCallError) {
        try retrying("mkdir(\(path))") { path.withCString { rawMkdir($0, mode) } }
    }

    /// Wraps `statvfs(3)`: the bytes an unprivileged writer may still use on `path`'s file system.
    public func availableBytes(onFileSystemOf path: String) throws(SystemCallError) -> UInt64 {
        var bytes: UInt64 = 0
        try retrying("statvfs(\(path))") { path.withCString { rawAvailableBytes($0, &bytes) } }
        return bytes
    }

    /// Wraps `symlink(2)`: a link at `path` pointing at `target`.
    public func symlink(_ target: String, at path: String) throws(SystemCallError) {
        try retrying("symlink(\(path))") { target.withCString { t in path.withCString { rawSymlink(t, $0) } } }
    }

    /// Wraps `socket(2)`. `SOCK_CLOEXEC` is always added.
    public func socket(domain: Int32, type: Int32, protocol proto: Int32 = 0) throws(SystemCallError) -> Int32 {
        let flags = type | Int32(SOCK_CLOEXEC.rawValue)
        while true {
            let r = rawSocket(domain, flags, proto)
            if r >= 0 { return r }
            if r == -EINTR { continue }
            throw SystemCallError(call: "socket", errno: Errno(rawValue: -r))
        }
    }

    /// Wraps `sendto(2)`: one datagram. Returns the bytes sent.
    @discardableResult
    public func sendto(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, flags: Int32,
                       address: UnsafePointer<sockaddr>, length: socklen_t) throws(SystemCallError) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        while true {
            let r = rawSendto(fd, base, bytes.count, flags, address, length)
            if r >= 0 { return r }
            if r == -Int(EINTR) { continue }
            throw SystemCallError(call: "sendto", errno: Errno(rawValue: Int32(-r)))
        }
    }

    /// Runs a call in the kernel convention (0 or -errno) until it is not interrupted.
    private func retrying(_ call: @autoclosure () -> String, _ body: () -> Int32) throws(SystemCallError) {
        while true {
            let r = body()
            if r >= 0 { return }
            if r == -EINTR { continue }
            throw SystemCallError(call: call(), errno: Errno(rawValue: -r))
        }
    }
}
