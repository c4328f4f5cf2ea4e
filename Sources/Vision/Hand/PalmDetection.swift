/// One palm found by `PalmDetector`: the palm's box (without the fingers, as MediaPipe's palm
/// detector reports it) in image pixels, and its score (0...1).
public struct PalmDetection: Sendable, Equatable {
    public var box: Rect
    public var score: Float

    public init(box: Rect, score: Float) {
        self.box = box
        self.score = score
    }
}
