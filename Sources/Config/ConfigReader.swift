/// Typed, strict reading of a parsed TOML table: every key read is recorded, and `finish()`
/// reports the first key nobody asked for, so a typo in a config file is an error naming the key,
/// not a silently ignored setting.
public final class ConfigReader {
    public let file: String
    private let table: TOMLTable
    private let prefix: String
    private var used = Set<String>()
    private var children: [ConfigReader] = []

    public init(_ table: TOMLTable, file: String, prefix: String = "") {
        self.table = table
        self.file = file
        self.prefix = prefix
    }

    /// Parses `source` and returns a reader over its root table.
    public static func parse(_ source: String, file: String) throws(ConfigError) -> ConfigReader {
        ConfigReader(try TOMLParser.parse(source, file: file), file: file)
    }

    private func name(_ key: String) -> String { prefix.isEmpty ? key : prefix + "." + key }

    private func error(_ key: String, _ message: String) -> ConfigError {
        ConfigError(file: file, key: name(key), message: message)
    }

    public func has(_ key: String) -> Bool { table[key] != nil }

    private func raw(_ key: String) -> TOMLValue? {
        used.insert(key)
        return table[key]
    }

    public func string(_ key: String) throws(ConfigError) -> String? {
        guard let v = raw(key) else { return nil }
        guard case .string(let s) = v else { throw error(key, "expected a string, found \(v.typeName)") }
        return s
    }

    public func string(_ key: String, default d: String) throws(ConfigError) -> String { try string(key) ?? d }

    public func string(_ key: String, oneOf choices: [String], default d: String) throws(ConfigError) -> String {
        let s = try string(key) ?? d
        guard choices.contains(s) else { throw error(key, "must be one of \(choices.joined(separator: ", ")); found \"\(s)\"") }
        return s
    }

    public func int(_ key: String, in range: ClosedRange<Int>? = nil) throws(ConfigError) -> Int? {
        guard let v = raw(key) else { return nil }
        guard case .integer(let n) = v else { throw error(key, "expected an integer, found \(v.typeName)") }
        if let range, !range.contains(Int(n)) { throw error(key, "must be in \(range.lowerBound)...\(range.upperBound); found \(n)") }
        return Int(n)
    }

    public func int(_ key: String, default d: Int, in range: ClosedRange<Int>? = nil) throws(ConfigError) -> Int {
        try int(key, in: range) ?? d
    }

    public func double(_ key: String, in range: ClosedRange<Double>? = nil) throws(ConfigError) -> Double? {
        guard let v = raw(key) else { return nil }
        let d: Double
        switch v {
        case .float(let f): d = f
        case .integer(let n): d = Double(n)
        default: throw error(key, "expected a number, found \(v.typeName)")
        }
        if !d.isFinite { throw error(key, "must be a finite number; found \(d)") }
        if let range, !range.contains(d) { throw error(key, "must be in \(range.lowerBound)...\(range.upperBound); found \(d)") }
        return d
    }

    public func double(_ key: String, default d: Double, in range: ClosedRange<Double>? = nil) throws(ConfigError) -> Double {
        try double(key, in: range) ?? d
    }

    public func bool(_ key: String) throws(ConfigError) -> Bool? {
        guard let v = raw(key) else { return nil }
        guard case .boolean(let b) = v else { throw error(key, "expected true or false, found \(v.typeName)") }
        return b
    }

    public func bool(_ key: String, default d: Bool) throws(ConfigError) -> Bool { try bool(key) ?? d }

    public func doubles(_ key: String, count: Int? = nil) throws(ConfigError) -> [Double]? {
        guard let v = raw(key) else { return nil }
        guard case .array(let items) = v else { throw error(key, "expected an array, found \(v.typeName)") }
        var out: [Double] = []
        for item in items {
            switch item {
            case .float(let f) where f.isFinite: out.append(f)
            case .float(let f): throw error(key, "must hold finite numbers; found \(f)")
            case .integer(let n): out.append(Double(n))
            default: throw error(key, "expected an array of numbers")
            }
        }
        if let count, out.count != count { throw error(key, "expected \(count) numbers, found \(out.count)") }
        return out
    }

    /// A reader over the sub-table `key`, or nil when absent. Its unused keys are reported by
    /// this reader's `finish()`.
    public func table(_ key: String) throws(ConfigError) -> ConfigReader? {
        guard let v = raw(key) else { return nil }
        guard case .table(let t) = v else { throw error(key, "expected a table, found \(v.typeName)") }
        let child = ConfigReader(t, file: file, prefix: name(key))
        children.append(child)
        return child
    }

    /// Throws for the first key (in file order) that was never read.
    public func finish() throws(ConfigError) {
        for key in table.keys where !used.contains(key) {
            throw error(key, "unknown key")
        }
        for child in children { try child.finish() }
    }
}
