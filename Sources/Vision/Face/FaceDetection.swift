/// BlazeFace's six keypoints, in image pixels. "Right"/"left" are the person's own.
public struct FaceKeypoints: Sendable, Equatable {
    public var rightEye: Point2
    public var leftEye: Point2
    public var noseTip: Point2
    public var mouth: Point2
    public var rightEarTragion: Point2
    public var leftEarTragion: Point2

    public init(rightEye: Point2, leftEye: Point2, noseTip: Point2, mouth: Point2, rightEarTragion: Point2, leftEarTragion: Point2) {
        self.rightEye = rightEye
        self.leftEye = leftEye
        self.noseTip = noseTip
        self.mouth = mouth
        self.rightEarTragion = rightEarTragion
        self.leftEarTragion = leftEarTragion
    }

    static let zero = FaceKeypoints(rightEye: Point2(0, 0), leftEye: Point2(0, 0), noseTip: Point2(0, 0),
                                    mouth: Point2(0, 0), rightEarTragion: Point2(0, 0), leftEarTragion: Point2(0, 0))

    /// Keypoint `i` in BlazeFace's output order (0 right eye … 5 left ear tragion).
    subscript(i: Int) -> Point2 {
        get {
            switch i {
            case 0: return rightEye
            case 1: return leftEye
            case 2: return noseTip
            case 3: return mouth
            case 4: return rightEarTragion
            default: return leftEarTragion
            }
        }
        set {
            switch i {
            case 0: rightEye = newValue
            case 1: leftEye = newValue
            case 2: noseTip = newValue
            case 3: mouth = newValue
            case 4: rightEarTragion = newValue
            default: leftEarTragion = newValue
            }
        }
    }
}

/// One detected face: box and keypoints in image pixels (origin top-left), and BlazeFace's
/// score (sigmoid of its logit, 0...1).
public struct FaceDetection: Sendable, Equatable {
    public var box: Rect
    public var keypoints: FaceKeypoints
    public var score: Float

    public init(box: Rect, keypoints: FaceKeypoints, score: Float) {
        self.box = box
        self.keypoints = keypoints
        self.score = score
    }

    /// The region the mesh model looks at, as MediaPipe's `face_detection_front_detection_to_roi`
    /// makes it: the box rotated so the eye line is horizontal, scaled 1.5×, squared on its long side.
    public var landmarkRegion: RotatedRect {
        RotatedRect.aligned(box: box, from: keypoints.rightEye, to: keypoints.leftEye).scaled(by: 1.5)
    }
}
