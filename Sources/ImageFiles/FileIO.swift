#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and atomic whole-file writes, with errors that name the file.
public enum FileIO {
    /// Files larger than this are refused as images (a 12 MP PNG is well under it).
    public static let maximumImageFileBytes = 256 << 20

    /// Reads all of `path`.
    public static func read(_ path: String, limit: Int = maximumImageFileBytes) throws(ImageFileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw .cannotOpen(path: path, errno: errno) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) != 0 { throw .cannotOpen(path: path, errno: errno) }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw .cannotOpen(path: path, errno: EISDIR) }
        let size = Int(st.st_size)
        if size > limit { throw .unsupported(path: path, reason: "file is \(size) bytes, more than \(limit)") }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { buf in Glibc.read(fd, buf.baseAddress! + done, size - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .cannotOpen(path: path, errno: errno)
            }
            if n == 0 { break }
            done += n
        }
        if done < size { bytes.removeLast(size - done) }
        return bytes
    }

    /// Writes `bytes` to `path` so that `path` is either its old content or the whole new content,
    /// even across a power cut: a temporary file in the same directory, fsync, rename over `path`,
    /// fsync of the directory. On any failure the temporary file is removed and nothing else changes.
    public static func writeAtomically(_ bytes: UnsafeRawBufferPointer, to path: String, mode: mode_t = 0o644) throws(ImageFileError) {
        let dir = directory(of: path)
        let tmp = "\(dir)/.\(basename(of: path)).\(getpid()).tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        if fd < 0 { throw .writeFailed(path: path, reason: errnoText(errno)) }
        _ = fchmod(fd, mode)   // independent of the process umask
        var ok = false
        defer {
            if !ok { unlink(tmp) }
        }
        var done = 0
        while done < bytes.count {
            let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                let e = errno
                close(fd)
                throw .writeFailed(path: path, reason: errnoText(e))
            }
            done += n
        }
        if fsync(fd) != 0 {
            let e = errno
            close(fd)
            throw .writeFailed(path: path, reason: errnoText(e))
        }
        if close(fd) != 0 { throw .writeFailed(path: path, reason: errnoText(errno)) }
        if rename(tmp, path) != 0 { throw .writeFailed(path: path, reason: errnoText(errno)) }
        ok = true
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            _ = fsync(dfd)
            close(dfd)
        }
    }

    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(ImageFileError) {
        let result: Result<Void, ImageFileError> = bytes.withUnsafeBytes { buf in
            do throws(ImageFileError) { try writeAtomically(buf, to: path, mode: mode); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
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
