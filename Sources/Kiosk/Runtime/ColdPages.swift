import Foundation
import Hardware

#if canImport(Glibc)
import Glibc
#endif

/// Unmaps the pages of the process's read-only file mappings (code and constant data of the
/// binary and its libraries) that hold nothing but the file's own bytes: they stay in the page
/// cache, and the ones still in use come back on their next touch (minor faults, no I/O). What
/// stays out is code and data the kiosk touched once and not since: start-up (argument parsing,
/// the config, the models' checks) and a still's own path. Those pages counted in the kiosk's
/// resident memory from their first touch on (files 24–26 MiB of a 46 MiB rest in booth mode),
/// though the kernel may drop them at any time under pressure; this drops them at known
/// quiet points instead (after start-up, between the steps of a still and after it).
///
/// Only private read-only mappings of a file (`r-xp`, `r--p`) with no anonymous pages are
/// touched: a relocated read-only segment (RELRO) holds private copies of its pages, which must
/// never go back to the file's bytes, so a mapping with any anonymous page is skipped. Writable
/// mappings, shared ones and the kernel's (`[vdso]`, `[stack]`) are never touched. Linux only
/// (`/proc/self/smaps`); elsewhere a no-op.
public enum ColdPages {
    /// Freed heap pages (`ProcessMemory.returnFreePages`) and then the cold file pages (`drop`) go
    /// back: between the steps of a still, whose next step stands on what is in use only.
    public static func returnUnused() {
        ProcessMemory.returnFreePages()
        drop()
    }

    /// Drops the pages (see above); returns how many KiB of them were resident before.
    @discardableResult
    public static func drop() -> Int {
#if os(Linux)
        guard let smaps = try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8) else { return 0 }
        var dropped = 0
        // One mapping: its header line, then "Key: value kB" lines.
        var current: (start: UInt, end: UInt, eligible: Bool, rss: Int, anonymous: Int)? = nil
        func finish() {
            guard let m = current, m.eligible, m.anonymous == 0, m.rss > 0, m.end > m.start,
                  let p = UnsafeMutableRawPointer(bitPattern: m.start) else { return }
            if madvise(p, Int(m.end - m.start), MADV_DONTNEED) == 0 { dropped += m.rss }
        }
        for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.hasSuffix(":") {
                guard current != nil, fields.count >= 2, let kib = Int(fields[1]) else { continue }
                if first == "Rss:" { current!.rss = kib } else if first == "Anonymous:" { current!.anonymous = kib }
                continue
            }
            // A header: "start-end perms offset dev inode [path]".
            let range = first.split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16), fields.count >= 2 else {
                continue
            }
            finish()
            let perms = Array(fields[1].utf8)
            let path = fields.count >= 6 ? fields[5] : ""
            let eligible = perms.count == 4 && perms[0] == UInt8(ascii: "r") && perms[1] == UInt8(ascii: "-")
                && perms[3] == UInt8(ascii: "p") && path.hasPrefix("/")
            current = (start, end, eligible, 0, 0)
        }
        finish()
        return dropped
#else
        return 0
#endif
    }
}
