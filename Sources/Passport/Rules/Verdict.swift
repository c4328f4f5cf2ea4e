/// One rule's outcome: what was measured, against what limit, and whether it passed.
public struct RuleResult: Sendable, Equatable, Codable {
    public enum Severity: String, Sendable, Codable { case required, warning }

    /// Stable identifier ("yaw", "face_width", "head_height", …).
    public var rule: String
    public var measured: Double
    /// The limit in words ("≤ 0.15", "0.80…1.20").
    public var limit: String
    public var passed: Bool
    public var severity: Severity
    /// The instruction this rule asks for when it fails.
    public var instruction: Instruction

    public init(rule: String, measured: Double, limit: String, passed: Bool, severity: Severity = .required,
                instruction: Instruction) {
        self.rule = rule; self.measured = measured; self.limit = limit; self.passed = passed
        self.severity = severity; self.instruction = instruction
    }
}

/// Every rule with its measurement, and the one instruction to show.
public struct Verdict: Sendable, Equatable, Codable {
    public var profile: String
    public var rules: [RuleResult]
    public var instruction: Instruction
    public var text: String

    /// True when every required rule passed.
    public var passed: Bool { instruction == .ready }

    public var failures: [RuleResult] { rules.filter { !$0.passed && $0.severity == .required } }

    /// A verdict whose instruction is the highest-priority one among the failing required rules.
    public init(profile: Profile, rules: [RuleResult]) {
        self.init(profile: profile, rules: rules,
                  instruction: rules.filter { !$0.passed && $0.severity == .required }.map(\.instruction).min() ?? .ready)
    }

    public init(profile: Profile, rules: [RuleResult], instruction: Instruction) {
        self.profile = profile.name
        self.rules = rules
        self.instruction = instruction
        text = profile.text(instruction)
    }
}
