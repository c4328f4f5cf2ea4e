/// A TOML error with the file, line and what was wrong.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var key: String?
    public var message: String

    public init(file: String, line: Int? = nil, key: String? = nil, message: String) {
        self.file = file; self.line = line; self.key = key; self.message = message
    }

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let key { s += ": '\(key)'" }
        return s + ": " + message
    }
}

/// Parses the TOML subset Booth uses: `[table]` and `[dotted.table]` headers, `key = value` with
/// bare, quoted or dotted keys, basic and literal strings, integers (with `_`, hex), floats,
/// booleans, arrays (may span lines), inline tables, and comments. Duplicate keys are errors.
/// Not supported (an error, never silently misread): arrays of tables, multi-line strings, dates.
public struct TOMLParser {
    private let file: String
    private let text: [UInt8]
    private var i = 0
    private var line = 1

    public static func parse(_ source: String, file: String) throws(ConfigError) -> TOMLTable {
        var p = TOMLParser(file: file, text: Array(source.utf8))
        return try p.document()
    }

    private init(file: String, text: [UInt8]) { self.file = file; self.text = text }

    private func fail(_ message: String, key: String? = nil) -> ConfigError {
        ConfigError(file: file, line: line, key: key, message: message)
    }

    private var atEnd: Bool { i >= text.count }
    private var peek: UInt8 { i < text.count ? text[i] : 0 }

    private mutating func skipSpaces() { while peek == 0x20 || peek == 0x09 { i += 1 } }

    /// Skips spaces, comments and newlines (inside arrays and between statements).
    private mutating func skipBlank() {
        while !atEnd {
            skipSpaces()
            if peek == 0x23 { while !atEnd && peek != 0x0A { i += 1 } }
            if peek == 0x0D { i += 1 }
            if peek == 0x0A { i += 1; line += 1; continue }
            if peek == 0x20 || peek == 0x09 || peek == 0x23 || peek == 0x0D { continue }
            break
        }
    }

    private mutating func endOfLine() throws(ConfigError) {
        skipSpaces()
        if peek == 0x23 { while !atEnd && peek != 0x0A { i += 1 } }
        if peek == 0x0D { i += 1 }
        if atEnd { return }
        guard peek == 0x0A else { throw fail("unexpected text after value") }
    }

    private mutating func document() throws(ConfigError) -> TOMLTable {
        var root = TOMLTable()
        var current: [String] = []
        var definedTables = Set<String>()
        while true {
            skipBlank()
            if atEnd { return root }
            if peek == 0x5B {
                i += 1
                if peek == 0x5B { throw fail("arrays of tables ([[...]]) are not supported") }
                skipSpaces()
                current = try keyPath()
                skipSpaces()
                guard peek == 0x5D else { throw fail("expected ']' after table name") }
                i += 1
                let name = current.joined(separator: ".")
                if definedTables.contains(name) { throw fail("table defined twice", key: name) }
                definedTables.insert(name)
                try Self.insert(.table(TOMLTable()), at: current, into: &root, allowExistingTable: true, fail: fail(_:key:))
                try endOfLine()
            } else {
                let path = try keyPath()
                skipSpaces()
                guard peek == 0x3D else { throw fail("expected '=' after key", key: path.joined(separator: ".")) }
                i += 1
                skipSpaces()
                let v: TOMLValue
                do { v = try value() } catch {
                    // A bad value names its key, as every other config error does.
                    var named = error
                    if named.key == nil { named.key = (current + path).joined(separator: ".") }
                    throw named
                }
                try Self.insert(v, at: current + path, into: &root, allowExistingTable: false, fail: fail(_:key:))
                try endOfLine()
            }
        }
    }

    private static func insert(_ v: TOMLValue, at path: [String], into table: inout TOMLTable, allowExistingTable: Bool,
                               fail: (String, String?) -> ConfigError) throws(ConfigError) {
        let key = path[0]
        if path.count == 1 {
            if let existing = table[key] {
                if allowExistingTable, case .table = existing, case .table = v { return }
                throw fail("duplicate key", path.joined(separator: "."))
            }
            table[key] = v
            return
        }
        var sub: TOMLTable
        switch table[key] {
        case nil: sub = TOMLTable()
        case .table(let t): sub = t
        default: throw fail("key is not a table", key)
        }
        try insert(v, at: Array(path.dropFirst()), into: &sub, allowExistingTable: allowExistingTable, fail: fail)
        table[key] = .table(sub)
    }

    private mutating func keyPath() throws(ConfigError) -> [String] {
        var parts: [String] = []
        while true {
            skipSpaces()
            if peek == 0x22 || peek == 0x27 {
                guard case .string(let s) = try value() else { throw fail("bad key") }
                parts.append(s)
            } else {
                let start = i
                while !atEnd, Self.isBare(peek) { i += 1 }
                guard i > start else { throw fail("expected a key") }
                parts.append(String(decoding: text[start..<i], as: UTF8.self))
            }
            skipSpaces()
            if peek == 0x2E { i += 1; continue }
            return parts
        }
    }

    private static func isBare(_ c: UInt8) -> Bool {
        (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || (0x30...0x39).contains(c) || c == 0x5F || c == 0x2D
    }

    private mutating func value() throws(ConfigError) -> TOMLValue {
        switch peek {
        case 0x22: // basic string
            if i + 2 < text.count, text[i + 1] == 0x22, text[i + 2] == 0x22 { throw fail("multi-line strings are not supported") }
            i += 1
            var out: [UInt8] = []
            while true {
                guard !atEnd, peek != 0x0A else { throw fail("unterminated string") }
                let c = peek; i += 1
                if c == 0x22 { break }
                if c == 0x5C {
                    let e = peek; i += 1
                    switch e {
                    case 0x22: out.append(0x22)
                    case 0x5C: out.append(0x5C)
                    case 0x6E: out.append(0x0A)
                    case 0x74: out.append(0x09)
                    case 0x72: out.append(0x0D)
                    case 0x75, 0x55:
                        let n = e == 0x75 ? 4 : 8
                        guard i + n <= text.count, let code = UInt32(String(decoding: text[i..<i + n], as: UTF8.self), radix: 16),
                              let scalar = Unicode.Scalar(code) else { throw fail("bad unicode escape") }
                        i += n
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default: throw fail("bad escape in string")
                    }
                } else { out.append(c) }
            }
            return .string(String(decoding: out, as: UTF8.self))
        case 0x27: // literal string
            i += 1
            let start = i
            while !atEnd, peek != 0x27, peek != 0x0A { i += 1 }
            guard peek == 0x27 else { throw fail("unterminated string") }
            let s = String(decoding: text[start..<i], as: UTF8.self)
            i += 1
            return .string(s)
        case 0x5B: // array
            i += 1
            var items: [TOMLValue] = []
            while true {
                skipBlank()
                if peek == 0x5D { i += 1; return .array(items) }
                items.append(try value())
                skipBlank()
                if peek == 0x2C { i += 1; continue }
                guard peek == 0x5D else { throw fail("expected ',' or ']' in array") }
            }
        case 0x7B: // inline table
            i += 1
            var t = TOMLTable()
            skipSpaces()
            if peek == 0x7D { i += 1; return .table(t) }
            while true {
                let path = try keyPath()
                skipSpaces()
                guard peek == 0x3D else { throw fail("expected '=' in inline table") }
                i += 1
                skipSpaces()
                try Self.insert(try value(), at: path, into: &t, allowExistingTable: false, fail: fail(_:key:))
                skipSpaces()
                if peek == 0x2C { i += 1; skipSpaces(); continue }
                guard peek == 0x7D else { throw fail("expected ',' or '}' in inline table") }
                i += 1
                return .table(t)
            }
        default:
            let start = i
            while !atEnd, !(peek == 0x2C || peek == 0x5D || peek == 0x7D || peek == 0x23 || peek == 0x0A || peek == 0x0D
                            || peek == 0x20 || peek == 0x09) { i += 1 }
            let word = String(decoding: text[start..<i], as: UTF8.self)
            if word == "true" { return .boolean(true) }
            if word == "false" { return .boolean(false) }
            if word.isEmpty { throw fail("expected a value") }
            let clean = word.replacingUnderscores()
            if clean.hasPrefix("0x"), let v = Int64(clean.dropFirst(2), radix: 16) { return .integer(v) }
            if let v = Int64(clean) { return .integer(v) }
            if clean.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let d = Double(clean), d.isFinite { return .float(d) }
            if clean == "inf" || clean == "+inf" { return .float(.infinity) }
            if clean == "-inf" { return .float(-.infinity) }
            if clean == "nan" || clean == "+nan" || clean == "-nan" { return .float(.nan) }
            throw fail("not a TOML value: \(word)")
        }
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        var s = ""
        for c in self where c != "_" { s.append(c) }
        return s
    }
}
