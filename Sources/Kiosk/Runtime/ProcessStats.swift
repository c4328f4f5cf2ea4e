#if canImport(Glibc)
import Glibc
#endif
import Posix

/// Resident memory and open file descriptors of this process (from /proc), for the long-run
/// report and the stats line. Resident memory is also split by part (from /proc/self/smaps):
/// mapped files (the binary and shared libraries: the Swift runtime, libcamera, …), the malloc
/// heap, and anonymous mappings (model arenas and weights, the frame ring, big buffers — malloc
/// serves blocks of 256 KiB and more from their own mappings in the kiosk).
public struct ProcessStats: Sendable, Equatable, CustomStringConvertible {
    public var residentBytes: Int
    public var openFiles: Int
    /// Resident bytes of file-backed mappings, of `[heap]`, and of anonymous mappings (stacks
    /// included); 0 each when /proc/self/smaps cannot be read.
    public var fileBytes = 0
    public var heapBytes = 0
    public var anonymousBytes = 0

    public init(residentBytes: Int, openFiles: Int) {
        self.residentBytes = residentBytes
        self.openFiles = openFiles
    }

    public static func now() -> ProcessStats {
        var rss = 0
        if let text = FileDescriptorIO.readText("/proc/self/statm") {
            let parts = text.split(separator: " ")
            if parts.count > 1, let pages = Int(parts[1]) { rss = pages * Int(sysconf(Int32(_SC_PAGESIZE))) }
        }
        let fds = (try? Directories.contents(of: "/proc/self/fd").count) ?? 0
        var stats = ProcessStats(residentBytes: rss, openFiles: max(0, fds - 1))   // minus the directory listing's own fd
        // Read to the end: /proc files report size 0, and a one-shot read stops at a page.
        if let smaps = FileDescriptorIO.readText("/proc/self/smaps") { stats.addParts(smaps: smaps) }
        return stats
    }

    /// Adds each mapping's `Rss:` of `smaps` text to its part.
    public mutating func addParts(smaps: String) {
        enum Part { case file, heap, anonymous }
        var part = Part.anonymous
        for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.hasSuffix(":") {
                guard first == "Rss:", fields.count >= 2, let kb = Int(fields[1]) else { continue }
                switch part {
                case .file: fileBytes += kb << 10
                case .heap: heapBytes += kb << 10
                case .anonymous: anonymousBytes += kb << 10
                }
            } else {
                // A mapping's header: range, permissions, offset, device, inode, [path].
                let path = fields.count >= 6 ? fields[5] : ""
                part = path.hasPrefix("/") ? .file : path == "[heap]" ? .heap : .anonymous
            }
        }
    }

    public var description: String {
        let mib = { (b: Int) in String(cFormat: "%.1f", Double(b) / 1_048_576) }
        let parts = fileBytes + heapBytes + anonymousBytes > 0
            ? " (files \(mib(fileBytes)), heap \(mib(heapBytes)), anonymous \(mib(anonymousBytes)))" : ""
        return "rss \(mib(residentBytes)) MiB\(parts), \(openFiles) open files"
    }
}
