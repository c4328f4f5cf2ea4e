import ImageCore
/// Preallocated results for one face, filled in place by `FaceLandmarker` and `FaceTracker`
/// (nothing here allocates after `init`). Copy out with `FaceObservation(self)` when needed.
///
/// Coordinates are image pixels (origin top-left); `z` is in the same pixel scale as `x`,
/// relative to the face's centre plane, smaller = nearer the camera.
public final class FaceMesh {
    /// The 468 mesh vertices (MediaPipe numbering).
    public internal(set) var points: [Point3]
    /// The iris model's five points per eye (centre first, then the iris contour), person's own sides.
    public internal(set) var rightIris: [Point3]
    public internal(set) var leftIris: [Point3]
    /// The iris model's 71 refined eye-contour and brow points per eye.
    public internal(set) var rightEyeContour: [Point3]
    public internal(set) var leftEyeContour: [Point3]
    /// Whether the iris points are valid for the current result.
    public internal(set) var hasIris = false
    /// Mesh model's face-presence probability (sigmoid of its logit).
    public internal(set) var presence: Float = 0
    /// Detector score of the detection this face came from (carried along while tracking).
    public internal(set) var confidence: Float = 0
    /// The region the mesh model looked at.
    public internal(set) var region = RotatedRect(center: Point2(0, 0), width: 0, height: 0)
    /// Head pose in radians (see `FacePose`).
    public internal(set) var pose = FacePose(roll: 0, pitch: 0, yaw: 0)

    public init() {
        points = Array(repeating: Point3(0, 0, 0), count: FaceMeshTopology.vertexCount)
        rightIris = Array(repeating: Point3(0, 0, 0), count: 5)
        leftIris = Array(repeating: Point3(0, 0, 0), count: 5)
        rightEyeContour = Array(repeating: Point3(0, 0, 0), count: 71)
        leftEyeContour = Array(repeating: Point3(0, 0, 0), count: 71)
    }

    /// The box around the mesh's face oval (forehead top to chin, ear to ear).
    public var boundingBox: Rect { Self.boundingBox(of: points) }

    /// The box around `points` (image pixels).
    public static func boundingBox(of points: [Point3]) -> Rect {
        var minX = Float.greatestFiniteMagnitude, minY = Float.greatestFiniteMagnitude
        var maxX = -Float.greatestFiniteMagnitude, maxY = -Float.greatestFiniteMagnitude
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// iBUG point `k` (0..<68), see `FaceMeshTopology.ibug68`.
    public func ibugPoint(_ k: Int) -> Point2 {
        let (a, b) = FaceMeshTopology.ibug68[k]
        return Point2((points[a].x + points[b].x) / 2, (points[a].y + points[b].y) / 2)
    }

    /// The person's right and left pupils: the iris centres, or the eye-corner midpoints when the
    /// iris model did not run.
    public var rightPupil: Point2 {
        if hasIris { return rightIris[0].xy }
        let a = points[FaceMeshTopology.rightEyeCorners.outer], b = points[FaceMeshTopology.rightEyeCorners.inner]
        return Point2((a.x + b.x) / 2, (a.y + b.y) / 2)
    }
    public var leftPupil: Point2 {
        if hasIris { return leftIris[0].xy }
        let a = points[FaceMeshTopology.leftEyeCorners.outer], b = points[FaceMeshTopology.leftEyeCorners.inner]
        return Point2((a.x + b.x) / 2, (a.y + b.y) / 2)
    }

    /// The next frame's mesh region, as MediaPipe's `face_landmark_landmarks_to_roi`: the box around
    /// all vertices, rotated by the outer eye corners (33 → 263), scaled 1.5×, squared.
    public var trackingRegion: RotatedRect { Self.trackingRegion(of: points) }

    /// `trackingRegion` for 468 mesh points (MediaPipe numbering, image pixels).
    public static func trackingRegion(of points: [Point3]) -> RotatedRect {
        let a = points[FaceMeshTopology.rightEyeCorners.outer].xy
        let b = points[FaceMeshTopology.leftEyeCorners.outer].xy
        return RotatedRect.aligned(box: boundingBox(of: points), from: a, to: b).scaled(by: 1.5)
    }

    func copy(from other: FaceMesh) {
        for i in 0..<points.count { points[i] = other.points[i] }
        for i in 0..<5 { rightIris[i] = other.rightIris[i]; leftIris[i] = other.leftIris[i] }
        for i in 0..<71 { rightEyeContour[i] = other.rightEyeContour[i]; leftEyeContour[i] = other.leftEyeContour[i] }
        hasIris = other.hasIris
        presence = other.presence
        confidence = other.confidence
        region = other.region
        pose = other.pose
    }
}
