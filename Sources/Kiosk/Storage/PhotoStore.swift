import Foundation
import ImageFiles

/// Why a photo was not saved. Nothing partial is ever left visible.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    case diskNearlyFull(path: String, freeBytes: Int64, neededBytes: Int64)
    case cannotCreateDirectory(path: String, errno: Int32)
    case writeFailed(String)

    public var description: String {
        switch self {
        case .diskNearlyFull(let path, let free, let needed):
            return "\(path): disk nearly full (\(free / 1_048_576) MiB free, \(needed / 1_048_576) MiB needed); photo not taken"
        case .cannotCreateDirectory(let path, let e): return "\(path): cannot create directory: \(String(cString: strerror(e)))"
        case .writeFailed(let why): return why
        }
    }
}

/// A saved photo's paths.
public struct SavedPhoto: Sendable, Equatable {
    public var jpeg: String
    public var sidecar: String
}

/// Photos for pulling over scp: `ROOT/YYYY-MM-DD/booth-HHMMSS-NNNN.jpg` plus a `.json` sidecar
/// and a `ROOT/latest.jpg` symlink. Every file is written to a temporary name, fsync'd, renamed and
/// its directory fsync'd, so a power cut at any point leaves only complete photos. Files are 0640
/// and directories 0750; under a `booth-photos`-group directory with the setgid bit (see
/// systemd/booth.tmpfiles) they are readable by that group, the scp user's.
public final class PhotoStore: @unchecked Sendable {
    public let root: String
    public let minimumFreeBytes: Int64
    private var counters: [String: Int] = [:]
    private let lock = NSLock()

    public init(root: String, minimumFreeBytes: Int64) throws(StorageError) {
        self.root = root
        self.minimumFreeBytes = minimumFreeBytes
        try makeDirectory(root)
        removeStaleTemporaries(in: root)
    }

    /// Free bytes for an unprivileged writer on the store's file system.
    public func freeBytes() -> Int64 {
        var s = statvfs()
        guard statvfs(root, &s) == 0 else { return 0 }
        return Int64(s.f_bavail) * Int64(s.f_frsize)
    }

    /// Checks there is room for `bytes` more plus the configured reserve.
    public func checkSpace(for bytes: Int) throws(StorageError) {
        let free = freeBytes()
        let needed = Int64(bytes) + minimumFreeBytes
        if free < needed { throw .diskNearlyFull(path: root, freeBytes: free, neededBytes: needed) }
    }

    /// Saves one photo and its sidecar (JSON object bytes) taken at `date`.
    public func save(jpeg: [UInt8], sidecar: [UInt8], date: Date = Date()) throws(StorageError) -> SavedPhoto {
        lock.lock()
        defer { lock.unlock() }
        try checkSpace(for: jpeg.count + sidecar.count)
        var t = time_t(date.timeIntervalSince1970)
        var tmv = tm()
        localtime_r(&t, &tmv)
        let day = String(format: "%04d-%02d-%02d", Int(tmv.tm_year) + 1900, Int(tmv.tm_mon) + 1, Int(tmv.tm_mday))
        let clock = String(format: "%02d%02d%02d", Int(tmv.tm_hour), Int(tmv.tm_min), Int(tmv.tm_sec))
        let dir = root + "/" + day
        try makeDirectory(dir)
        let n = nextNumber(in: dir)
        let base = dir + "/" + String(format: "booth-%@-%04d", clock, n)
        let photo = SavedPhoto(jpeg: base + ".jpg", sidecar: base + ".json")
        do {
            try FileIO.writeAtomically(jpeg, to: photo.jpeg, mode: 0o640)
            try FileIO.writeAtomically(sidecar, to: photo.sidecar, mode: 0o640)
        } catch {
            throw .writeFailed(error.description)
        }
        updateLatestLink(to: day + "/" + (base as NSString).lastPathComponent + ".jpg")
        return photo
    }

    /// Points `ROOT/latest.jpg` at `relative` atomically (symlink to a temporary name, rename).
    private func updateLatestLink(to relative: String) {
        let tmp = root + "/.latest.jpg.tmp"
        unlink(tmp)
        guard symlink(relative, tmp) == 0 else { return }
        if rename(tmp, root + "/latest.jpg") != 0 { unlink(tmp); return }
        let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }

    /// The next free NNNN in a day directory: one more than the highest already there.
    private func nextNumber(in dir: String) -> Int {
        if let n = counters[dir] { counters[dir] = n + 1; return n }
        var highest = 0
        if let names = try? FileManager.default.contentsOfDirectory(atPath: dir) {
            for name in names where name.hasPrefix("booth-") && name.hasSuffix(".jpg") {
                // booth-HHMMSS-NNNN.jpg
                let parts = name.dropLast(4).split(separator: "-")
                if parts.count == 3, let k = Int(parts[2]) { highest = max(highest, k) }
            }
        }
        counters[dir] = highest + 2
        return highest + 1
    }

    private func makeDirectory(_ path: String) throws(StorageError) {
        if mkdir(path, 0o750) != 0 && errno != EEXIST {
            if errno == ENOENT {
                // Create parents (the root may be nested below an existing state directory).
                let parent = (path as NSString).deletingLastPathComponent
                if !parent.isEmpty && parent != path { try makeDirectory(parent) }
                if mkdir(path, 0o750) == 0 || errno == EEXIST { return }
            }
            throw .cannotCreateDirectory(path: path, errno: errno)
        }
    }

    /// Temporary files left by a power cut are never visible as photos; remove them at start.
    private func removeStaleTemporaries(in dir: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        for name in names {
            let path = dir + "/" + name
            if name.hasPrefix(".") && name.hasSuffix(".tmp") { unlink(path); continue }
            var st = stat()
            if name.count == 10, stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { removeStaleTemporaries(in: path) }
        }
    }
}
