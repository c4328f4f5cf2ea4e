#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Syscalls

/// Whole writes to a file descriptor and whole reads of small files (what `FileHandle` was for the
/// kiosk), through the package's one syscall layer (`SystemCalls`: EINTR retried, short writes
/// continued). `calls` is the live kernel unless a test passes its own.
public enum FileDescriptorIO {
    /// Writes all of `text` to standard error; errors are dropped, as a log line has nowhere
    /// else to go.
    public static func writeStandardError(_ text: String) {
        _ = writeAll(2, text)
    }

    /// Writes all of `text` to `fd`; false on an error other than EINTR.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ text: String, calls: SystemCalls = .live) -> Bool {
        var copy = text
        return copy.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
            do { try calls.write(fd, from: base, count: bytes.count); return true } catch { return false }
        }
    }

    /// Writes `text` to the file at `path` (which must exist: no O_CREAT), e.g. a /proc control
    /// file; false when it cannot be opened or written.
    @discardableResult
    public static func writeExisting(_ path: String, _ text: String, calls: SystemCalls = .live) -> Bool {
        guard let fd = try? calls.open(path, flags: O_WRONLY) else { return false }
        defer { try? calls.close(fd) }
        return writeAll(fd, text, calls: calls)
    }

    /// The bytes of the file at `path`, read to its end (so /proc files, which report size 0,
    /// come whole); nil when it cannot be opened or read.
    public static func readAll(_ path: String, calls: SystemCalls = .live) -> [UInt8]? {
        guard let fd = try? calls.open(path, flags: O_RDONLY) else { return nil }
        defer { try? calls.close(fd) }
        var bytes: [UInt8] = []
        var chunk = 16_384
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: chunk))
            let got = bytes.withUnsafeMutableBufferPointer { buffer -> Int? in
                (try? calls.read(fd, into: buffer.baseAddress! + start, count: chunk)) ?? nil
            }
            // nil: an error, or EAGAIN, which a blocking regular file does not give.
            guard let n = got else { return nil }
            bytes.removeLast(chunk - n)
            if n == 0 { return bytes }
            chunk = min(chunk * 2, 1 << 20)
        }
    }

    /// The text of the file at `path` (`readAll`, decoded as UTF-8 with repairs).
    public static func readText(_ path: String, calls: SystemCalls = .live) -> String? {
        readAll(path, calls: calls).map { String(decoding: $0, as: UTF8.self) }
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
        do throws(SystemCallError) { try create(path, mode: UInt32(mode)) } catch { return error.errno.rawValue }
        return isDirectory(path) ? nil : ENOTDIR
    }

    /// `mkdir -p` through `calls` (the kiosk's photo store passes its own): creates `path` and
    /// its missing parents with `mode` less the umask. Returns whether `path` itself was created
    /// (false: something already stood there, a folder or not); throws the first mkdir(2) that
    /// failed otherwise.
    @discardableResult
    public static func create(_ path: String, mode: UInt32, calls: SystemCalls = .live) throws(SystemCallError) -> Bool {
        do throws(SystemCallError) {
            try calls.mkdir(path, mode: mode)
            return true
        } catch where error.errno == .exists {
            return false
        } catch where error.errno == .noSuchFile {
            let parent = Path.deletingLastComponent(path)
            guard !parent.isEmpty && parent != path else { throw error }
            try create(parent, mode: mode, calls: calls)
            do throws(SystemCallError) {
                try calls.mkdir(path, mode: mode)
                return true
            } catch where error.errno == .exists {
                return false
            }
        }
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
