/// One photo's result in a `BatchAnalyzer` run: what a ranking, a table and the JSON need (no
/// pixels).
public struct BatchOutcome: Sendable {
    /// The photo's place in the batch's file list.
    public var index: Int
    public var file: String
    public var faceCount = 0
    /// The largest face's quality (0 with no face).
    public var score: Float = 0
    /// The largest face's weakest quality component (nil with no face).
    public var weakest: QualityComponent?
    /// The JSON report (when the batch makes them).
    public var report: QualityReport?
    /// Why the photo failed (unreadable, or its annotation not written); nil when it succeeded.
    public var failure: (any Error)?
    /// The failure in one line, without the file name in front.
    public var message: String?

    public init(index: Int, file: String) {
        self.index = index
        self.file = file
    }

    /// Marks the photo failed with `error` (its description loses a leading "FILE: ").
    mutating func fail(_ error: any Error) {
        let text = "\(error)"
        failure = error
        message = text.hasPrefix(file + ": ") ? String(text.dropFirst(file.count + 2)) : text
    }

    /// Best first; photos without faces after those with faces; failures last; then input order.
    public static func ranked(_ a: BatchOutcome, _ b: BatchOutcome) -> Bool {
        func tier(_ o: BatchOutcome) -> Int { o.failure != nil ? 2 : (o.faceCount == 0 ? 1 : 0) }
        if tier(a) != tier(b) { return tier(a) < tier(b) }
        if a.score != b.score { return a.score > b.score }
        return a.index < b.index
    }
}
