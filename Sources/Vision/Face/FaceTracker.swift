import ImageCore

/// Faces through a video, as MediaPipe's face-mesh graph tracks them: each face's next mesh
/// region comes from its current landmarks (`FaceMesh.trackingRegion`); the detector runs only
/// when no face is tracked, when a face was lost (mesh presence below the landmarker's
/// `minPresence`), or every `detectionInterval` frames while fewer than `maxFaces` are tracked.
/// Landmarks (in face-size units) and angles are smoothed with One-Euro filters
/// (`OneEuroParameters.landmarks`, `.angles`); the next region uses the raw landmarks, so the
/// smoothing never delays tracking.
///
/// The detector sees the frame area-downscaled (ImageCore's `ResizeArea`) to about its own input
/// size first (`detectionImage`): the letterbox warp then reads one tap per input pixel instead of
/// up to 4×4, so a frame on which the tracker looks for more faces costs no more than a mesh run
/// (the whole-frame warp was 7.2 ms of an 8.5 ms spike at 640×480). Detections are scaled back.
///
/// Everything is allocated in `init` or on the first frame of a size; `process` then allocates
/// nothing (tested with malloc counts).
public final class FaceTracker {
    public let detector: FaceDetector
    public let landmarker: FaceLandmarker
    public let maxFaces: Int
    /// Run the detector every this many frames (besides when lost) to pick up new faces.
    public var detectionInterval = 30
    public var landmarkSmoothing = OneEuroParameters.landmarks
    public var angleSmoothing = OneEuroParameters.angles
    /// Smoothing on or off (off: the faces are the raw model output).
    public var smoothing = true

    final class Track {
        let raw = FaceMesh()
        let scratch = FaceMesh()
        let smoothed = FaceMesh()
        var filters: [OneEuroFilter]
        var angleFilters: [OneEuroFilter]
        var active = false
        init() {
            filters = Array(repeating: OneEuroFilter(), count: (FaceMeshTopology.vertexCount + 2 * (5 + 71)) * 3)
            angleFilters = Array(repeating: OneEuroFilter(), count: 3)
        }
        func reset() {
            for i in 0..<filters.count { filters[i].reset() }
            for i in 0..<3 { angleFilters[i].reset() }
        }
    }

    let tracks: [Track]
    var order: [Int]
    var detections: [FaceDetection]
    /// The frame downscaled for the detector (nil until a frame larger than twice its input).
    var small: ImageBuffer? = nil
    var frameIndex = 0
    var lastTimestamp: UInt64 = 0
    /// Number of faces tracked after the last `process`.
    public private(set) var count = 0
    /// Frames on which the detector ran (for tests and statistics).
    public private(set) var detectorRuns = 0

    public init(detector: FaceDetector, landmarker: FaceLandmarker, maxFaces: Int = 1) {
        precondition(maxFaces > 0, "maxFaces must be positive")
        self.detector = detector
        self.landmarker = landmarker
        self.maxFaces = maxFaces
        tracks = (0..<maxFaces).map { _ in Track() }
        order = []
        order.reserveCapacity(maxFaces)
        detections = []
        detections.reserveCapacity(max(detector.maxFaces, maxFaces))
    }

    /// Face `i` (0..<count) of the last frame, smoothed. Valid until the next `process`.
    public func face(_ i: Int) -> FaceMesh {
        precondition(i >= 0 && i < count, "face index out of range")
        let t = tracks[order[i]]
        return smoothing ? t.smoothed : t.raw
    }

    /// Forgets every face (the next frame runs the detector).
    public func reset() {
        for t in tracks { t.active = false }
        count = 0
        order.removeAll(keepingCapacity: true)
    }

    /// Tracks faces into `image`; returns how many are tracked.
    @discardableResult
    public func process(_ image: Image) -> Int {
        let dt = frameInterval(image.metadata.timestampNanoseconds)
        // 1. Follow each tracked face from its last landmarks.
        var tracked = 0
        for t in tracks where t.active {
            if landmarker.process(image, region: t.raw.trackingRegion, into: t.scratch) {
                t.scratch.confidence = t.raw.confidence
                t.raw.copy(from: t.scratch)
                tracked += 1
            } else {
                t.active = false
            }
        }
        // 2. Detect when nothing is tracked, a face was lost, or at the interval.
        let due = frameIndex % max(detectionInterval, 1) == 0
        if tracked < maxFaces && (tracked == 0 || due || tracked < count) {
            detectorRuns += 1
            detect(image)
            for d in detections {
                guard let free = tracks.firstIndex(where: { !$0.active }) else { break }
                if overlapsTrackedFace(d.box) { continue }
                let t = tracks[free]
                if landmarker.process(image, region: d.landmarkRegion, into: t.raw) {
                    t.raw.confidence = d.score
                    t.active = true
                    t.reset()
                    tracked += 1
                }
            }
        }
        // 3. Two tracks on one face: keep the more confident.
        for a in 0..<tracks.count where tracks[a].active {
            for b in (a + 1)..<max(tracks.count, a + 1) where tracks[b].active {
                if tracks[a].raw.boundingBox.iou(tracks[b].raw.boundingBox) > 0.5 {
                    if tracks[a].raw.presence >= tracks[b].raw.presence { tracks[b].active = false } else { tracks[a].active = false }
                }
            }
        }
        // 4. Smooth and list.
        order.removeAll(keepingCapacity: true)
        for (i, t) in tracks.enumerated() where t.active {
            if smoothing { smooth(t, dt: dt) }
            order.append(i)
        }
        count = order.count
        frameIndex += 1
        return count
    }

    /// The area-downscaled size of a `width`×`height` frame for the detector: the frame divided by
    /// the whole factor that brings its long side nearest above the detector's input (even sides);
    /// nil when the frame is under twice the input (the warp reads it directly then).
    public static func detectionSize(width: Int, height: Int) -> (width: Int, height: Int)? {
        let factor = max(width, height) / FaceDetector.inputSize
        guard factor >= 2 else { return nil }
        return (max(2, (width / factor) & ~1), max(2, (height / factor) & ~1))
    }

    /// Runs the detector into `detections`, on the downscaled frame when it is large.
    func detect(_ image: Image) {
        guard let size = FaceTracker.detectionSize(width: image.width, height: image.height) else {
            detector.detect(image, into: &detections)
            return
        }
        let small: ImageBuffer
        if let s = self.small, s.width == size.width, s.height == size.height, s.format == image.format {
            small = s
        } else {
            small = ImageBuffer(format: image.format, width: size.width, height: size.height)
            self.small = small
        }
        small.withImage { ResizeArea.run(image, $0) }
        let sx = Float(image.width) / Float(size.width), sy = Float(image.height) / Float(size.height)
        let minFaceSize = detector.minFaceSize
        detector.minFaceSize = minFaceSize / sx
        small.withImage { detector.detect($0, into: &detections) }
        detector.minFaceSize = minFaceSize
        for i in detections.indices {
            detections[i].box = Rect(x: detections[i].box.x * sx, y: detections[i].box.y * sy,
                                     width: detections[i].box.width * sx, height: detections[i].box.height * sy)
            for k in 0..<6 {
                let p = detections[i].keypoints[k]
                detections[i].keypoints[k] = Point2(p.x * sx, p.y * sy)
            }
        }
    }

    func overlapsTrackedFace(_ box: Rect) -> Bool {
        for t in tracks where t.active && t.raw.boundingBox.iou(box) > 0.3 { return true }
        return false
    }

    func frameInterval(_ timestamp: UInt64) -> Float {
        defer { lastTimestamp = timestamp }
        guard timestamp > lastTimestamp, lastTimestamp != 0 else { return 1.0 / 30 }
        return min(max(Float(timestamp - lastTimestamp) * 1e-9, 1e-3), 1)
    }

    func smooth(_ t: Track, dt: Float) {
        let raw = t.raw, out = t.smoothed
        let scale = max(raw.region.width, 1)  // face-size units
        let p = landmarkSmoothing
        var k = 0
        @inline(__always) func run(_ v: Point3) -> Point3 {
            let x = t.filters[k].filter(v.x / scale, dt: dt, p)
            let y = t.filters[k + 1].filter(v.y / scale, dt: dt, p)
            let z = t.filters[k + 2].filter(v.z / scale, dt: dt, p)
            k += 3
            return Point3(x * scale, y * scale, z * scale)
        }
        for i in 0..<raw.points.count { out.points[i] = run(raw.points[i]) }
        for i in 0..<5 { out.rightIris[i] = run(raw.rightIris[i]) }
        for i in 0..<5 { out.leftIris[i] = run(raw.leftIris[i]) }
        for i in 0..<71 { out.rightEyeContour[i] = run(raw.rightEyeContour[i]) }
        for i in 0..<71 { out.leftEyeContour[i] = run(raw.leftEyeContour[i]) }
        out.hasIris = raw.hasIris
        out.presence = raw.presence
        out.confidence = raw.confidence
        out.region = raw.region
        let a = angleSmoothing
        out.pose = FacePose(roll: t.angleFilters[0].filter(raw.pose.roll, dt: dt, a),
                            pitch: t.angleFilters[1].filter(raw.pose.pitch, dt: dt, a),
                            yaw: t.angleFilters[2].filter(raw.pose.yaw, dt: dt, a))
    }
}
