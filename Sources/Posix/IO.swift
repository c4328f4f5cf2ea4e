#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole writes to a file descriptor and whole reads of small files (what `FileHandle` was for the
/// kiosk), straight through write(2)/read(2).
public enum FileDescriptorIO {
    /// Writes all of `text` to standard error (one write(2) unless the kernel takes less);
    /// errors are dropped, as a log line has nowhere else to go.
    public static func writeStandardError(_ text: String) {
        _ = writeAll(2, text)
    }

    /// Writes all of `text` to `fd`, retrying short writes and EINTR; false on any other error.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                done += n
            }
            return true
        }
    }

    /// Writes `text` to the file at `path` (which must exist: no O_CREAT), e.g. a /proc control
    /// file; false when it cannot be opened or written.
    @discardableResult
    public static func writeExisting(_ path: String, _ text: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return writeAll(fd, text)
    }

    /// The bytes of the file at `path`, read to its end (so /proc files, which report size 0,
    /// come whole); nil when it cannot be opened or read.
    public static func readAll(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = 16_384
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: chunk))
            let n = bytes.withUnsafeMutableBufferPointer { read(fd, $0.baseAddress! + start, chunk) }
            if n < 0 {
                if errno == EINTR { bytes.removeLast(chunk); continue }
                return nil
            }
            bytes.removeLast(chunk - n)
            if n == 0 { return bytes }
            chunk = min(chunk * 2, 1 << 20)
        }
    }

    /// The text of the file at `path` (`readAll`, decoded as UTF-8 with repairs).
    public static func readText(_ path: String) -> String? {
        readAll(path).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Folders through mkdir(2) and stat(2), with errno for the message.
public enum Directories {
    /// Whether `path` is a folder (following links).
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// `mkdir -p`: nil when `path` is a folder afterwards, else the errno of the step that failed
    /// (ENOTDIR when a file stands in its place). New folders get `mode` less the umask.
    public static func make(_ path: String, mode: mode_t = 0o777) -> Int32? {
        if mkdir(path, mode) == 0 { return nil }
        let e = errno
        if e == EEXIST { return isDirectory(path) ? nil : ENOTDIR }
        guard e == ENOENT else { return e }
        let parent = Path.deletingLastComponent(path)
        if parent.isEmpty || parent == path { return e }
        if let pe = make(parent, mode: mode) { return pe }
        if mkdir(path, mode) == 0 { return nil }
        return errno == EEXIST && isDirectory(path) ? nil : errno
    }

    /// The names in the folder `path` (not `.` and `..`), in the order readdir(3) gives them.
    public static func contents(of path: String) throws(SystemError) -> [String] {
        guard let dir = opendir(path) else { throw SystemError(errno: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The C library's text for `errno` ("No such file or directory").
    public static func describe(errno e: Int32) -> String { String(cString: strerror(e)) }
}

/// A failed system call's errno; its description is the C library's text for it.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public var errno: Int32
    public init(errno: Int32) { self.errno = errno }
    public var description: String { Directories.describe(errno: errno) }
}
