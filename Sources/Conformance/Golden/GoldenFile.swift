/// The committed x86 checksums (`Tests/ConformanceTests/golden.txt`) that the aarch64 runner
/// must reproduce. One line per kernel and case, `kernel WxH+slack 0123456789abcdef`; `#` starts
/// a comment. Parsed from bytes, so the Embedded runner needs no Foundation.
public struct GoldenFile: Sendable {
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var checksum: UInt64

        public init(key: String, checksum: UInt64) {
            self.key = key
            self.checksum = checksum
        }
    }

    public var entries: [Entry] = []

    public init(entries: [Entry]) { self.entries = entries }

    /// Parses golden text; malformed lines are reported in `problems`.
    public init(bytes: UnsafeBufferPointer<UInt8>, problems: inout [String]) {
        var lineStart = 0
        var lineNumber = 0
        while lineStart < bytes.count {
            var end = lineStart
            while end < bytes.count && bytes[end] != 10 { end += 1 }
            lineNumber += 1
            let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<end])
            lineStart = end + 1
            if line.isEmpty || line[0] == 35 /* # */ { continue }
            // The checksum is the last space-separated field; the key is everything before it.
            var split = line.count - 1
            while split >= 0 && line[split] != 32 { split -= 1 }
            guard split > 0, let value = GoldenFile.parseHex(UnsafeBufferPointer(rebasing: line[(split + 1)...])) else {
                problems.append("golden line \(lineNumber): expected `kernel case checksum`")
                continue
            }
            let key = String(decoding: UnsafeBufferPointer(rebasing: line[..<split]), as: UTF8.self)
            entries.append(Entry(key: key, checksum: value))
        }
    }

    /// Parses golden text held in a String (x86 tests).
    public init(text: String, problems: inout [String]) {
        var copy = Array(text.utf8)
        self = copy.withUnsafeMutableBufferPointer { GoldenFile(bytes: UnsafeBufferPointer($0), problems: &problems) }
    }

    /// The golden text for `results` (header comment plus one line each).
    public static func render(_ results: [ConformanceResult]) -> String {
        var text = "# Booth conformance checksums: FNV-1a 64 of each kernel's scalar-reference output per case,\n"
        text += "# computed on x86_64 by `swift test --filter ConformanceTests` and reproduced on aarch64 by\n"
        text += "# `scripts/arm/test`. Regenerate with scripts/arm/update-golden after a deliberate change.\n"
        for r in results { text += r.key + " " + hex(r.checksum) + "\n" }
        return text
    }

    /// Every way `results` disagree with this file: a different checksum, a case the file lacks,
    /// or a golden case that was not run.
    public func mismatches(_ results: [ConformanceResult]) -> [String] {
        var problems: [String] = []
        var seen = [Bool](repeating: false, count: entries.count)
        for r in results {
            let key = r.key
            if let i = index(of: key) {
                seen[i] = true
                if entries[i].checksum != r.checksum {
                    problems.append("\(key): checksum \(GoldenFile.hex(r.checksum)), golden \(GoldenFile.hex(entries[i].checksum))")
                }
            } else {
                problems.append("\(key): not in the golden file (scripts/arm/update-golden)")
            }
        }
        for (i, e) in entries.enumerated() where !seen[i] {
            problems.append("\(e.key): in the golden file but not run")
        }
        return problems
    }

    func index(of key: String) -> Int? {
        for (i, e) in entries.enumerated() where e.key.utf8.elementsEqual(key.utf8) { return i }
        return nil
    }

    /// 16 lower-case hex digits.
    public static func hex(_ value: UInt64) -> String {
        let digits: StaticString = "0123456789abcdef"
        var bytes = [UInt8](repeating: 48, count: 16)
        var v = value
        for i in stride(from: 15, through: 0, by: -1) {
            bytes[i] = digits.utf8Start[Int(v & 0xF)]
            v >>= 4
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func parseHex(_ field: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !field.isEmpty && field.count <= 16 else { return nil }
        var v: UInt64 = 0
        for c in field {
            let d: UInt8
            switch c {
            case 48...57: d = c - 48
            case 97...102: d = c - 87
            case 65...70: d = c - 55
            default: return nil
            }
            v = v << 4 | UInt64(d)
        }
        return v
    }
}
