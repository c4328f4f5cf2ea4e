#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Posix
import Logging

/// swift-log handler writing one line per message to stderr. Under systemd (`$JOURNAL_STREAM`
/// names stderr) each line carries a `<N>` syslog priority prefix so journald records the level;
/// elsewhere lines read `LEVEL label: message key=value…`.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let toJournal: Bool

    public init(label: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.label = label
        var isJournal = false
        if let stream = environment["JOURNAL_STREAM"] {
            let parts = stream.split(separator: ":")
            var st = stat()
            if parts.count == 2, fstat(2, &st) == 0,
               UInt64(parts[0]) == UInt64(st.st_dev), UInt64(parts[1]) == UInt64(st.st_ino) {
                isJournal = true
            }
        }
        toJournal = isJournal
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        let fields = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let line: String
        if toJournal {
            line = "<\(Self.priority(event.level))>\(label): \(event.message)\(fields)\n"
        } else {
            line = "\(event.level.rawValue.uppercased()) \(label): \(event.message)\(fields)\n"
        }
        FileDescriptorIO.writeStandardError(line)
    }

    /// syslog priorities (sd-daemon.h).
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }
}
