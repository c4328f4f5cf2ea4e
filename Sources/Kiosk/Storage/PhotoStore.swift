#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Posix
import Hardware
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
///
/// Every call of the save path goes through `SystemCalls`, so tests inject ENOSPC and EIO at any
/// step: a full disk is `StorageError.diskNearlyFull`, any other failure `.writeFailed` naming the
/// photo and the failed call; either way neither the photo nor its sidecar is left behind.
public final class PhotoStore: @unchecked Sendable {
    public let root: String
    public let minimumFreeBytes: Int64
    private let sys: SystemCalls
    private var counters: [String: Int] = [:]
    private let lock = Lock()

    public init(root: String, minimumFreeBytes: Int64, syscalls: SystemCalls = .live) throws(StorageError) {
        self.root = root
        self.minimumFreeBytes = minimumFreeBytes
        sys = syscalls
        try makeDirectory(root)
        try checkWritable(root)
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
            let parent = Path.deletingLastComponent(p)
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
        do throws(SystemCallError) {
            return Int64(clamping: try sys.availableBytes(onFileSystemOf: root))
        } catch where error.errno == .noSuchFile {
            try makeDirectory(root)
            do throws(SystemCallError) { return Int64(clamping: try sys.availableBytes(onFileSystemOf: root)) } catch {
                throw .notWritable(path: root, reason: error.errno.description)
            }
        } catch {
            throw .notWritable(path: root, reason: error.errno.description)
        }
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
        let day = String(cFormat: "%04ld-%02ld-%02ld", Int(tmv.tm_year) + 1900, Int(tmv.tm_mon) + 1, Int(tmv.tm_mday))
        let clock = String(cFormat: "%02ld%02ld%02ld", Int(tmv.tm_hour), Int(tmv.tm_min), Int(tmv.tm_sec))
        let dir = root + "/" + day
        if try makeDirectory(dir) { counters[dir] = nil }   // a new (or vanished) folder: number afresh
        let n = nextNumber(in: dir)
        let base = dir + "/" + "booth-" + clock + String(cFormat: "-%04ld", n)
        let photo = SavedPhoto(jpeg: base + ".jpg", sidecar: base + ".json")
        do throws(SystemCallError) {
            try write(sidecar, to: photo.sidecar)
            try write(jpeg, to: photo.jpeg)
        } catch {
            // Nothing of this shot stays: the sidecar, and the JPEG if its directory's fsync
            // failed after the rename (its number is new, so no older photo is touched).
            try? sys.unlink(photo.jpeg)
            try? sys.unlink(photo.sidecar)
            if error.errno.isDiskFull {
                let free = (try? sys.availableBytes(onFileSystemOf: root)).map { Int64(clamping: $0) } ?? 0
                throw .diskNearlyFull(path: root, freeBytes: free, neededBytes: Int64(jpeg.count + sidecar.count) + minimumFreeBytes)
            }
            throw .writeFailed("\(photo.jpeg): photo not saved: \(error)")
        }
        updateLatestLink(to: day + "/" + Path.lastComponent(base) + ".jpg")
        return photo
    }

    /// One file of a photo, published atomically with mode 0640 (`FileIO.publish`).
    private func write(_ bytes: [UInt8], to path: String) throws(SystemCallError) {
        let result = bytes.withUnsafeBytes { buf -> Result<Void, SystemCallError> in
            do throws(SystemCallError) { try FileIO.publish(buf, to: path, mode: 0o640, syscalls: sys); return .success(()) } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Points `ROOT/latest.jpg` at `relative` atomically (symlink to a temporary name, rename).
    /// A failure leaves the link one photo behind, which the next start repairs: the photo itself
    /// is already saved, so it is not reported.
    private func updateLatestLink(to relative: String) {
        let tmp = root + "/.latest.jpg.tmp"
        try? sys.unlink(tmp)
        do throws(SystemCallError) {
            try sys.symlink(relative, at: tmp)
            try sys.rename(tmp, to: root + "/latest.jpg")
            try FileIO.syncDirectory(root, syscalls: sys)
        } catch {
            try? sys.unlink(tmp)
        }
    }

    /// At start: `latest.jpg` names the newest complete photo (the highest number of the latest
    /// day), whatever a kill between the JPEG's rename and the link's left behind.
    private func repairLatestLink() {
        guard let days = try? Directories.contents(of: root) else { return }
        for day in days.filter(PhotoStore.isDayName).sorted().reversed() {
            guard let newest = photoNames(in: root + "/" + day).max(by: { PhotoStore.number($0) < PhotoStore.number($1) }) else { continue }
            let relative = day + "/" + newest
            if Self.linkTarget(root + "/latest.jpg") != relative {
                updateLatestLink(to: relative)
            }
            return
        }
    }

    private func photoNames(in dir: String) -> [String] {
        ((try? Directories.contents(of: dir)) ?? []).filter { $0.hasPrefix("booth-") && $0.hasSuffix(".jpg") }
    }

    /// What the symbolic link `path` names (readlink(2)), or nil.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let n = buffer.withUnsafeMutableBytes { readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        return n < 0 ? nil : String(decoding: buffer[..<n], as: UTF8.self)
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

    /// Creates `path` (and missing parents) with mode 0750. Returns whether it was created
    /// (false: it existed).
    @discardableResult
    private func makeDirectory(_ path: String) throws(StorageError) -> Bool {
        do throws(SystemCallError) {
            return try Directories.create(path, mode: 0o750, calls: sys)
        } catch {
            throw .cannotCreateDirectory(path: path, errno: error.errno.rawValue)
        }
    }

    /// A folder in which a file can be created (a probe, removed at once): the only test that
    /// also catches read-only mounts and root's bypass of permission bits.
    private func checkWritable(_ root: String) throws(StorageError) {
        do throws(SystemCallError) {
            let dfd = try sys.open(root, flags: O_RDONLY | O_DIRECTORY)
            try? sys.close(dfd)
        } catch where error.errno == .notDirectory {
            throw .notWritable(path: root, reason: "not a folder")
        } catch {
            throw .notWritable(path: root, reason: String(cString: strerror(error.errno.rawValue)))
        }
        let probe = root + "/.booth-probe-\(getpid()).tmp"
        do throws(SystemCallError) {
            let fd = try sys.open(probe, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
            try? sys.close(fd)
            try? sys.unlink(probe)
        } catch {
            throw .notWritable(path: root, reason: String(cString: strerror(error.errno.rawValue)))
        }
    }

    /// Temporary files left by a power cut are never visible as photos, and a sidecar whose photo
    /// was never published is removed: both at start.
    private func removeStaleFiles(in dir: String) {
        guard let names = try? Directories.contents(of: dir) else { return }
        let set = Set(names)
        for name in names {
            let path = dir + "/" + name
            if name.hasPrefix(".") && name.hasSuffix(".tmp") { try? sys.unlink(path); continue }
            if name.hasPrefix("booth-") && name.hasSuffix(".json") && !set.contains(String(name.dropLast(5)) + ".jpg") {
                try? sys.unlink(path)
                continue
            }
            var st = stat()
            if PhotoStore.isDayName(name), stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { removeStaleFiles(in: path) }
        }
    }
}
