/// One palm found by `PalmDetector`: the palm's box (without the fingers, as MediaPipe's palm
/// detector reports it) in image pixels, its score (0...1), the wrist and the middle finger's
/// knuckle (keypoints 0 and 2), and the hand landmark model's presence score for the hand's
/// region (nil when no verifier ran).
public struct PalmDetection: Sendable, Equatable {
    public var box: Rect
    public var score: Float
    public var wrist: Point2
    public var knuckle: Point2
    public var presence: Float?

    public init(box: Rect, score: Float, wrist: Point2, knuckle: Point2, presence: Float? = nil) {
        self.box = box
        self.score = score
        self.wrist = wrist
        self.knuckle = knuckle
        self.presence = presence
    }
}
