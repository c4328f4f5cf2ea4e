#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// How commands print the libraries' report types: one compact JSON object per line (keys sorted,
/// slashes unescaped), a batch as an array with one element per line.
enum ReportJSON {
    static func object(_ value: some Encodable) throws(CommandFailure) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { return String(decoding: try encoder.encode(value), as: UTF8.self) } catch {
            throw CommandFailure("cannot encode the report: \(error)")
        }
    }

    static func array(_ values: [some Encodable]) throws(CommandFailure) -> String {
        var lines: [String] = []
        for v in values { lines.append(try object(v)) }
        return "[\n" + lines.joined(separator: ",\n") + "\n]"
    }
}
