import Foundation

/// Resident memory and open file descriptors of this process (from /proc), for the long-run
/// report and the minute log line.
public struct ProcessStats: Sendable, Equatable, CustomStringConvertible {
    public var residentBytes: Int
    public var openFiles: Int

    public static func now() -> ProcessStats {
        var rss = 0
        if let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
            let parts = text.split(separator: " ")
            if parts.count > 1, let pages = Int(parts[1]) { rss = pages * Int(sysconf(Int32(_SC_PAGESIZE))) }
        }
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        return ProcessStats(residentBytes: rss, openFiles: max(0, fds - 1))   // minus the directory listing's own fd
    }

    public var description: String { String(format: "rss %.1f MiB, %d open files", Double(residentBytes) / 1_048_576, openFiles) }
}
