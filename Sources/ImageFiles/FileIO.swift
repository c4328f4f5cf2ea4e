import Syscalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and atomic whole-file writes, with errors that name the file. Every call goes
/// through `SystemCalls` (`.live` unless a test passes one that fails: ENOSPC, EIO).
public enum FileIO {
    /// Files larger than this are refused as images (a 12 MP PNG is well under it).
    public static let maximumImageFileBytes = 256 << 20

    /// Reads all of `path`.
    public static func read(_ path: String, limit: Int = maximumImageFileBytes,
                            syscalls sys: SystemCalls = .live) throws(ImageFileError) -> [UInt8] {
        let fd: Int32
        do { fd = try sys.open(path, flags: O_RDONLY) } catch { throw .cannotOpen(path: path, errno: error.errno.rawValue) }
        defer { try? sys.close(fd) }
        let st: stat
        do { st = try sys.fstat(fd, name: path) } catch { throw .cannotOpen(path: path, errno: error.errno.rawValue) }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw .cannotOpen(path: path, errno: EISDIR) }
        let size = Int(st.st_size)
        if size > limit { throw .unsupported(path: path, reason: "file is \(size) bytes, more than \(limit)") }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let read = bytes.withUnsafeMutableBytes { buf -> Result<Int?, SystemCallError> in
                guard let base = buf.baseAddress else { return .success(0) }
                do throws(SystemCallError) { return .success(try sys.read(fd, into: base + done, count: size - done)) } catch { return .failure(error) }
            }
            let n: Int?
            do throws(SystemCallError) { n = try read.get() } catch { throw .cannotOpen(path: path, errno: error.errno.rawValue) }
            guard let n, n > 0 else { break }   // end of file (EAGAIN cannot happen on a regular file)
            done += n
        }
        if done < size { bytes.removeLast(size - done) }
        return bytes
    }

    /// Writes `bytes` to `path` so that `path` is either its old content or the whole new content,
    /// even across a power cut: a temporary file in the same directory, fsync, rename over `path`,
    /// fsync of the directory. On any failure the temporary file is removed and nothing else changes.
    public static func writeAtomically(_ bytes: UnsafeRawBufferPointer, to path: String, mode: mode_t = 0o644,
                                       syscalls sys: SystemCalls = .live) throws(ImageFileError) {
        do {
            try publish(bytes, to: path, mode: mode, syscalls: sys)
        } catch {
            throw .writeFailed(path: path, reason: errnoText(error.errno.rawValue) + " (\(error.call))")
        }
    }

    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644,
                                       syscalls sys: SystemCalls = .live) throws(ImageFileError) {
        let result = bytes.withUnsafeBytes { buf -> Result<Void, ImageFileError> in
            do throws(ImageFileError) { try writeAtomically(buf, to: path, mode: mode, syscalls: sys); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }

    /// `writeAtomically` reporting the failed system call and its errno, for callers that treat
    /// a full disk (`error.errno.isDiskFull`) apart from other failures (`PhotoStore`).
    ///
    /// Steps: open a temporary `.<name>.<pid>.tmp` beside `path`, fchmod (independent of the
    /// umask), write, fsync, close, rename over `path`, fsync the directory. A failure before the
    /// rename removes the temporary file and leaves `path` as it was. A failure of the directory's
    /// fsync comes after the rename: `path` then has the new content but it may not survive a
    /// power cut, and the caller is told so by the error (it may remove `path`).
    public static func publish(_ bytes: UnsafeRawBufferPointer, to path: String, mode: mode_t = 0o644,
                               syscalls sys: SystemCalls = .live) throws(SystemCallError) {
        let dir = directory(of: path)
        let tmp = "\(dir)/.\(basename(of: path)).\(getpid()).tmp"
        let fd = try sys.open(tmp, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: UInt32(mode))
        var open = true
        var renamed = false
        defer {
            if open { try? sys.close(fd) }
            if !renamed { try? sys.unlink(tmp) }
        }
        try sys.fchmod(fd, mode: UInt32(mode), name: tmp)
        if let base = bytes.baseAddress { try sys.write(fd, from: base, count: bytes.count) }
        try sys.fsync(fd, name: tmp)
        open = false
        try sys.close(fd)
        try sys.rename(tmp, to: path)
        renamed = true
        try syncDirectory(dir, syscalls: sys)
    }

    /// fsync of a directory, so a rename or unlink in it survives a power cut.
    public static func syncDirectory(_ dir: String, syscalls sys: SystemCalls = .live) throws(SystemCallError) {
        let dfd = try sys.open(dir, flags: O_RDONLY | O_DIRECTORY)
        defer { try? sys.close(dfd) }
        try sys.fsync(dfd, name: dir)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func basename(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    static func errnoText(_ e: Int32) -> String {
        if e == ENOSPC { return "no space left on device" }
        guard let s = strerror(e) else { return "errno \(e)" }
        return String(cString: s)
    }
}
