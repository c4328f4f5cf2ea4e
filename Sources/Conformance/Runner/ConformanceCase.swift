/// One input geometry: the kernel's nominal `width`×`height` and `slack` extra bytes per row
/// (odd slack gives odd strides). The same list runs on x86 and aarch64.
public struct ConformanceCase: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var slack: Int

    public init(width: Int, height: Int, slack: Int) {
        self.width = width
        self.height = height
        self.slack = slack
    }

    /// The label in checksum keys: `WxH+slack`.
    public var label: String { "\(width)x\(height)+\(slack)" }

    /// Widths below, at and above the vector widths in use (8, 16, 32 and 64 lanes), each with
    /// a packed and an odd stride, plus two frame-sized rows.
    public static var standard: [ConformanceCase] {
        var cases: [ConformanceCase] = []
        for w in [1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 129] {
            cases.append(ConformanceCase(width: w, height: 3, slack: 0))
            cases.append(ConformanceCase(width: w, height: 2, slack: 5))
        }
        cases.append(ConformanceCase(width: 640, height: 4, slack: 0))
        cases.append(ConformanceCase(width: 641, height: 5, slack: 13))
        return cases
    }
}
