/// A value of the TOML subset Booth's board, profile and config files use.
public indirect enum TOMLValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])
    case table([String: TOMLValue])
}
