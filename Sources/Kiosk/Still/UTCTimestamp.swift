#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A sidecar's `taken` time: ISO 8601 in UTC to the second ("2026-11-25T14:20:07Z"), the text
/// `ISO8601DateFormatter` gives by default, from `gmtime_r`. The formatter loads ICU's calendar and
/// time-zone data on first use: 4.7 MiB of the kiosk's resident memory from its first photo on.
public enum UTCTimestamp {
    public static func iso8601(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var t = tm()
        guard gmtime_r(&seconds, &t) != nil else { return "1970-01-01T00:00:00Z" }
        func digits(_ v: Int32, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(digits(t.tm_year + 1900, 4))-\(digits(t.tm_mon + 1, 2))-\(digits(t.tm_mday, 2))"
            + "T\(digits(t.tm_hour, 2)):\(digits(t.tm_min, 2)):\(digits(t.tm_sec, 2))Z"
    }
}
