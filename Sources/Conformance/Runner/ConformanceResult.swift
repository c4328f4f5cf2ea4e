/// The checksum of one kernel's reference output for one case, keyed `kernel WxH+slack`.
public struct ConformanceResult: Sendable, Equatable {
    public var kernel: String
    public var caseLabel: String
    public var checksum: UInt64

    public init(kernel: String, caseLabel: String, checksum: UInt64) {
        self.kernel = kernel
        self.caseLabel = caseLabel
        self.checksum = checksum
    }

    /// `kernel WxH+slack`, the golden file's key.
    public var key: String { kernel + " " + caseLabel }
}

/// What a conformance run found: checksums to compare across architectures, and every
/// variant-versus-reference difference (empty when all variants match).
public struct ConformanceRun: Sendable {
    public var results: [ConformanceResult] = []
    public var failures: [String] = []

    public init() {}

    public mutating func append(_ other: ConformanceRun) {
        results += other.results
        failures += other.failures
    }
}
