import Config

extension ConfigReader {
    /// One of an enum's cases by its raw value: the choices are the enum's own cases (no second
    /// list to drift from it), and a value outside them is the reader's error naming the key.
    func choice<T: RawRepresentable & CaseIterable>(_ key: String, default d: T) throws(ConfigError) -> T where T.RawValue == String {
        let s = try string(key, oneOf: T.allCases.map(\.rawValue), default: d.rawValue)
        for c in T.allCases where c.rawValue == s { return c }
        preconditionFailure("string(_:oneOf:default:) returned \(s), outside its choices")
    }
}
