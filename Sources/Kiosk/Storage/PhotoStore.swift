import Foundation
import ImageFiles

/// Why a photo was not saved. Nothing partial is ever left visible.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    case diskNearlyFull(path: String, freeBytes: Int64, neededBytes: Int64)
    case cannotCreateDirectory(path: String, errno: Int32)
    /// The photo folder exists but is not a folder, or a probe file cannot be created in it.
    case notWritable(path: String, reason: String)
    case writeFailed(String)

    public var description: String {
        switch self {
        case .diskNearlyFull(let path, let free, let needed):
            return "\(path): disk nearly full (\(free / 1_048_576) MiB free, \(needed / 1_048_576) MiB needed); photo not taken"
        case .cannotCreateDirectory(let path, let e): return "\(path): cannot create directory: \(String(cString: strerror(e)))"
        case .notWritable(let path, let reason): return "\(path): photo folder not writable: \(reason)"
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
///
/// Order of a save: the sidecar first, then the JPEG (its rename publishes the photo), then
/// `latest.jpg`. A kill between the steps leaves at most a sidecar without its photo, or a
/// `latest.jpg` one photo behind; both are repaired when the store opens. The folder is checked
/// to be a writable folder when the store opens, and recreated before each save if it vanished.
public final class PhotoStore: @unchecked Sendable {
    public let root: String
    public let minimumFreeBytes: Int64
    private var counters: [String: Int] = [:]
    private let lock = NSLock()

    public init(root: String, minimumFreeBytes: Int64) throws(StorageError) {
        self.root = root
        self.minimumFreeBytes = minimumFreeBytes
        try makeDirectory(root)
        try PhotoStore.checkWritable(root)
        removeStaleFiles(in: root)
        repairLatestLink()
    }

    /// Whether `root` could hold photos, without creating or changing anything (for `booth doctor`):
    /// nil when it is (or its nearest existing parent is) a writable folder, else the reason.
    public static func problem(with root: String) -> String? {
        let path = nearestExisting(root)
        var st = stat()
        guard stat(path, &st) == 0 else { return "\(path): \(String(cString: strerror(errno)))" }
        if (st.st_mode & S_IFMT) != S_IFDIR { return "\(path) is not a folder" }
        if access(path, W_OK | X_OK) != 0 { return "\(path): \(String(cString: strerror(errno)))" }
        return nil
    }

    /// `path` itself when it exists, else its nearest existing parent (`.` or `/` at the latest).
    public static func nearestExisting(_ path: String) -> String {
        var p = path
        while access(p, F_OK) != 0 && errno == ENOENT {
            let parent = (p as NSString).deletingLastPathComponent
            let next = parent.isEmpty ? (p.hasPrefix("/") ? "/" : ".") : parent
            if next == p { break }
            p = next
        }
        return p
    }

    /// Free bytes for an unprivileged writer on the store's file system (0 when it cannot be read).
    public func freeBytes() -> Int64 {
        (try? availableBytes()) ?? 0
    }

    /// Free bytes on the store's file system, recreating the folder first if it vanished.
    public func availableBytes() throws(StorageError) -> Int64 {
        var s = statvfs()
        if statvfs(root, &s) != 0 {
            guard errno == ENOENT else { throw .notWritable(path: root, reason: String(cString: strerror(errno))) }
            try makeDirectory(root)
            guard statvfs(root, &s) == 0 else { throw .notWritable(path: root, reason: String(cString: strerror(errno))) }
        }
        return Int64(s.f_bavail) * Int64(s.f_frsize)
    }

    /// Checks there is room for `bytes` more plus the configured reserve (`minimumFreeBytes`; 0
    /// means only the bytes themselves must fit).
    public func checkSpace(for bytes: Int) throws(StorageError) {
        let free = try availableBytes()
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
        if access(dir, F_OK) != 0 { counters[dir] = nil }   // the folder vanished: number afresh
        try makeDirectory(dir)
        let n = nextNumber(in: dir)
        let base = dir + "/" + String(format: "booth-%@-%04d", clock, n)
        let photo = SavedPhoto(jpeg: base + ".jpg", sidecar: base + ".json")
        do {
            try FileIO.writeAtomically(sidecar, to: photo.sidecar, mode: 0o640)
            try FileIO.writeAtomically(jpeg, to: photo.jpeg, mode: 0o640)
        } catch {
            unlink(photo.sidecar)
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

    /// At start: `latest.jpg` names the newest complete photo (the highest number of the latest
    /// day), whatever a kill between the JPEG's rename and the link's left behind.
    private func repairLatestLink() {
        guard let days = try? FileManager.default.contentsOfDirectory(atPath: root) else { return }
        for day in days.filter(PhotoStore.isDayName).sorted().reversed() {
            guard let newest = photoNames(in: root + "/" + day).max(by: { PhotoStore.number($0) < PhotoStore.number($1) }) else { continue }
            let relative = day + "/" + newest
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/latest.jpg")) != relative {
                updateLatestLink(to: relative)
            }
            return
        }
    }

    private func photoNames(in dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasPrefix("booth-") && $0.hasSuffix(".jpg") }
    }

    /// NNNN of `booth-HHMMSS-NNNN.jpg`, or 0.
    private static func number(_ name: String) -> Int {
        let parts = name.dropLast(4).split(separator: "-")
        return parts.count == 3 ? Int(parts[2]) ?? 0 : 0
    }

    private static func isDayName(_ name: String) -> Bool {
        name.count == 10 && name.utf8.enumerated().allSatisfy { i, c in (i == 4 || i == 7) ? c == UInt8(ascii: "-") : (c >= 48 && c <= 57) }
    }

    /// The next free NNNN in a day directory: one more than the highest already there.
    private func nextNumber(in dir: String) -> Int {
        if let n = counters[dir] { counters[dir] = n + 1; return n }
        let highest = photoNames(in: dir).map(PhotoStore.number).max() ?? 0
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

    /// A folder in which a file can be created (a probe, removed at once): the only test that
    /// also catches read-only mounts and root's bypass of permission bits.
    private static func checkWritable(_ root: String) throws(StorageError) {
        var st = stat()
        guard stat(root, &st) == 0 else { throw .notWritable(path: root, reason: String(cString: strerror(errno))) }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw .notWritable(path: root, reason: "not a folder") }
        let probe = root + "/.booth-probe-\(getpid()).tmp"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .notWritable(path: root, reason: String(cString: strerror(errno))) }
        close(fd)
        unlink(probe)
    }

    /// Temporary files left by a power cut are never visible as photos, and a sidecar whose photo
    /// was never published is removed: both at start.
    private func removeStaleFiles(in dir: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        let set = Set(names)
        for name in names {
            let path = dir + "/" + name
            if name.hasPrefix(".") && name.hasSuffix(".tmp") { unlink(path); continue }
            if name.hasPrefix("booth-") && name.hasSuffix(".json") && !set.contains(String(name.dropLast(5)) + ".jpg") {
                unlink(path)
                continue
            }
            var st = stat()
            if PhotoStore.isDayName(name), stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { removeStaleFiles(in: path) }
        }
    }
}
