/// Range checks for numbers taken from the command line, done before anything else runs, so no
/// value a user types can reach a `precondition` or a trapping conversion further in. Each failure
/// is one line naming the option and its allowed range (exit status 64).
enum OptionCheck {
    static func int(_ value: Int, _ option: String, in range: ClosedRange<Int>) throws(CommandFailure) {
        guard range.contains(value) else {
            throw .usage("\(option) must be in \(range.lowerBound)...\(range.upperBound); found \(value)")
        }
    }

    static func int(_ value: Int?, _ option: String, in range: ClosedRange<Int>) throws(CommandFailure) {
        if let value { try int(value, option, in: range) }
    }

    /// A finite number in `range` (NaN and ±infinity are refused).
    static func real<F: BinaryFloatingPoint>(_ value: F, _ option: String, in range: ClosedRange<F>) throws(CommandFailure) {
        guard value.isFinite, range.contains(value) else {
            throw .usage("\(option) must be a number in \(format(range.lowerBound))...\(format(range.upperBound)); found \(value)")
        }
    }

    static func real<F: BinaryFloatingPoint>(_ value: F?, _ option: String, in range: ClosedRange<F>) throws(CommandFailure) {
        if let value { try real(value, option, in: range) }
    }

    private static func format<F: BinaryFloatingPoint>(_ v: F) -> String {
        let d = Double(v)
        return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
    }
}
