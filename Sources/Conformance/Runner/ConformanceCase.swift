/// One case of a kernel. Image kernels read it as a `width`×`height` image whose rows are `slack`
/// bytes longer than their pixels (odd slack gives odd strides); other kernels give the numbers
/// their own meaning (channels, pixels, a configuration index) and a readable `label`.
/// The same list runs on x86 and aarch64.
public struct ConformanceCase: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var slack: Int
    /// A kernel-specific fourth number (a configuration index), 0 when unused.
    public var extra: Int
    /// The label in checksum keys (no spaces).
    public var label: String

    public init(width: Int, height: Int, slack: Int) {
        self.width = width
        self.height = height
        self.slack = slack
        self.extra = 0
        self.label = "\(width)x\(height)+\(slack)"
    }

    public init(label: String, width: Int, height: Int = 1, slack: Int = 0, extra: Int = 0) {
        self.width = width
        self.height = height
        self.slack = slack
        self.extra = extra
        self.label = label
    }

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
