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
/// With the full-range detector (people standing back) a detection run looks at one square of the
/// frame's short side, in turn (left then right of a landscape frame, top then bottom of a portrait
/// one), instead of the whole frame letterboxed: a face then gets a third more input pixels (in a
/// 640×480 frame, 0.4 instead of 0.3 input pixels per frame pixel), which is what the einstein frame
/// of `make demo` (a face 42 px wide) needs to pass the model's 0.6 (whole frame: 0.44; its right
/// square: 0.70, integer path). Detections only add tracks, so a run that covers part of the frame
/// loses nothing.
///
/// Everything is allocated in `init` or on the first frame of a size; `process` then allocates
/// nothing (tested with malloc counts).
public final class FaceTracker {
    public let detector: FaceDetector
    public let landmarker: FaceLandmarker
    public let maxFaces: Int
    /// Run the detector every this many frames (besides when lost) to pick up new faces.
    public var detectionInterval = 30
    /// A detection run in this many slices (`FaceDetector.startDetection`, `SlicedRun`), one on
    /// every other frame, so no frame carries the whole model (1: the whole run on one frame).
    /// The faces found are the same; they are added when the last slice completes, up to
    /// 2·(slices − 1) frames after the frame the run sampled.
    public var detectionSlices = 1
    /// The kiosk's `detectionSlices`: the full-range detector (about 8.6 ms of a 640×480 frame's
    /// vision, downscale included, on the x86 dev machine) becomes three slices of about 3 ms.
    public static let liveDetectionSlices = 3

    /// Does the one-off work of sliced detection now (`FaceDetector.prepareSlicedDetection`: the
    /// model's step costs), so no live frame carries it; nothing when `detectionSlices` is 1.
    /// Call it after setting `detectionSlices`, before the first frame.
    ///
    /// Given the live frames' size and format, it also starts and drops one detection on a blank
    /// frame of them: the downscaled frame's buffer and the detector's `SlicedRun` (its cuts need
    /// the measured head cost, the downscale and input sampling of such a frame) are then made
    /// here, so the first live detection allocates nothing either. Nothing else may use the
    /// detector's arena meanwhile.
    ///
    /// With `halvesLargeFaces` set (before this call) and the frame size given, the halved frame's
    /// buffer is made here too.
    public func prepareDetectionSlices(frameWidth: Int? = nil, frameHeight: Int? = nil, format: PixelFormat = .i420) {
        if let w = frameWidth, let h = frameHeight, w > 0, h > 0 { _ = halfBuffer(width: w, height: h, format: format) }
        guard detectionSlices > 1 else { return }
        detector.prepareSlicedDetection()
        guard let w = frameWidth, let h = frameHeight, w > 0, h > 0 else { return }
        let blank = ImageBuffer(format: format, width: w, height: h)
        let turn = detectionTurn
        // Twice: the second run's head cost is measured warm, as on a live frame; the SlicedRun
        // is cut from it.
        for _ in 0..<2 {
            detector.discardSlicedRun()
            blank.withImage { startDetection($0) }
            detector.cancelDetection()
        }
        pendingDetection = nil
        detectionTurn = turn
    }
    /// Sample a large face's mesh input from the frame halved (`FaceLandmarker.process`'s `half`),
    /// made once per frame that needs it (`ResizeArea`'s exact halving, about 0.05 ms at 640×480)
    /// into a buffer made on the first such frame of a size: a sitter filling the passport oval
    /// (a mesh region of about 300 px, over 1.5 × 192) then costs one bilinear tap per mesh input
    /// pixel instead of 2×2. On for the kiosk (`VisionStep`); off by default, where the frame is
    /// sampled directly as before. Frames whose sides are not multiples of 4 (an I420 frame's
    /// chroma would not halve exactly) and formats other than I420 and Gray8 are sampled directly.
    public var halvesLargeFaces = false
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
    /// The frame halved for large faces' mesh input (`halvesLargeFaces`), and whether it holds
    /// the current frame.
    var half: ImageBuffer? = nil
    var halfCurrent = false
    var frameIndex = 0
    /// Which square the next full-range detection run looks at.
    var detectionTurn = 0
    /// A detection fell due (kept while the every-other-frame rule of sliced runs holds it back).
    var detectionDue = false
    /// The frame the last detector slice ran on.
    var lastSliceFrame = Int.min / 2
    /// The detection under way: the frame size it started on and its downscale factors.
    struct PendingDetection {
        var width, height: Int
        var sx, sy: Float
    }
    var pendingDetection: PendingDetection? = nil
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
        if pendingDetection != nil { detector.cancelDetection() }
        pendingDetection = nil
        detectionDue = false
        count = 0
        order.removeAll(keepingCapacity: true)
    }

    /// Tracks faces into `image`; returns how many are tracked.
    @discardableResult
    public func process(_ image: Image) -> Int {
        let dt = frameInterval(image.metadata.timestampNanoseconds)
        halfCurrent = false
        // 1. Follow each tracked face from its last landmarks.
        var tracked = 0
        for t in tracks where t.active {
            if landmark(image, region: t.raw.trackingRegion, into: t.scratch) {
                t.scratch.confidence = t.raw.confidence
                t.raw.copy(from: t.scratch)
                tracked += 1
            } else {
                t.active = false
            }
        }
        // 2. Detect when nothing is tracked, a face was lost, or at the interval; a sliced
        //    detection goes on every other frame until it completes.
        if frameIndex % max(detectionInterval, 1) == 0 { detectionDue = true }
        if tracked >= maxFaces { detectionDue = false }
        let sliceFree = detectionSlices <= 1 || frameIndex - lastSliceFrame >= 2
        var complete = false
        if let p = pendingDetection {
            if !detector.detectionUnderWay || p.width != image.width || p.height != image.height {
                detector.cancelDetection()
                pendingDetection = nil
            } else if sliceFree {
                detectorRuns += 1
                lastSliceFrame = frameIndex
                complete = continueDetection()
            }
        } else if sliceFree && tracked < maxFaces && (tracked == 0 || detectionDue || tracked < count) {
            detectionDue = false
            detectorRuns += 1
            lastSliceFrame = frameIndex
            startDetection(image)
            complete = continueDetection()
        }
        if complete {
            for d in detections {
                guard let free = tracks.firstIndex(where: { !$0.active }) else { break }
                if overlapsTrackedFace(d.box) { continue }
                let t = tracks[free]
                if landmark(image, region: d.landmarkRegion, into: t.raw) {
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

    /// The landmarker on `region`, from the frame halved when `halvesLargeFaces` and the region is
    /// large (the halved frame made on the first call of the frame that needs it).
    func landmark(_ image: Image, region: RotatedRect, into mesh: FaceMesh) -> Bool {
        guard FaceLandmarker.samplesFromHalf(region),
              let half = halfBuffer(width: image.width, height: image.height, format: image.format) else {
            return landmarker.process(image, region: region, into: mesh)
        }
        return half.withImage { h in
            if !halfCurrent {
                ResizeArea.run(image, h)
                halfCurrent = true
            }
            return landmarker.process(image, region: region, into: mesh, half: h)
        }
    }

    /// The buffer for a `width`×`height` frame halved (made, or remade for another size or format,
    /// here), or nil where frames are sampled directly: `halvesLargeFaces` off, sides not multiples
    /// of 4, or a format other than I420 and Gray8.
    func halfBuffer(width: Int, height: Int, format: PixelFormat) -> ImageBuffer? {
        guard halvesLargeFaces, format == .i420 || format == .gray8, width % 4 == 0, height % 4 == 0 else { return nil }
        if let h = half, h.width == width / 2, h.height == height / 2, h.format == format { return h }
        let h = ImageBuffer(format: format, width: width / 2, height: height / 2)
        half = h
        halfCurrent = false
        return h
    }

    /// The area-downscaled size of a `width`×`height` frame for the detector: the frame divided by
    /// the whole factor that brings `side` (the long side by default: the whole frame is
    /// letterboxed) nearest above the detector's input (`inputSize`, 128 for the short-range
    /// model; even sides); nil when `side` is under twice the input (the warp reads the frame
    /// directly then).
    public static func detectionSize(width: Int, height: Int, inputSize: Int = FaceDetectorModel.short.inputSize,
                                     side: Int? = nil) -> (width: Int, height: Int)? {
        let factor = (side ?? max(width, height)) / inputSize
        guard factor >= 2 else { return nil }
        return (max(2, (width / factor) & ~1), max(2, (height / factor) & ~1))
    }

    /// The region of a `width`×`height` frame the next detection run looks at: the whole frame
    /// (letterboxed) for the short-range detector; for the full-range one, squares of the short
    /// side in turn (see the type's notes), `turn` choosing which.
    public static func detectionRegion(width: Int, height: Int, model: FaceDetectorModel, turn: Int) -> RotatedRect {
        let w = Float(width), h = Float(height)
        guard model == .full, width != height else { return FaceDetector.letterbox(width: width, height: height) }
        let side = min(w, h)
        let first = turn % 2 == 0
        let center = w > h ? Point2(first ? side / 2 : w - side / 2, h / 2) : Point2(w / 2, first ? side / 2 : h - side / 2)
        return RotatedRect(center: center, width: side, height: side)
    }

    /// Starts a detection run (`detectionSlices` slices; `continueDetection` runs them), on the
    /// downscaled frame when it is large.
    func startDetection(_ image: Image) {
        let t0 = FaceDetector.threadNanoseconds()
        let region = FaceTracker.detectionRegion(width: image.width, height: image.height, model: detector.model, turn: detectionTurn)
        detectionTurn &+= 1
        let side = Int(max(region.width, region.height))
        guard let size = FaceTracker.detectionSize(width: image.width, height: image.height, inputSize: detector.inputSize,
                                                   side: min(side, max(image.width, image.height))) else {
            detector.startDetection(image, region: region, slices: max(detectionSlices, 1))
            pendingDetection = PendingDetection(width: image.width, height: image.height, sx: 1, sy: 1)
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
        let whole = region == FaceDetector.letterbox(width: image.width, height: image.height)
        let smallRegion = whole ? FaceDetector.letterbox(width: size.width, height: size.height)
            : RotatedRect(center: Point2(region.center.x / sx, region.center.y / sy), width: region.width / sx, height: region.height / sy)
        let prepared = FaceDetector.threadNanoseconds() - t0
        small.withImage { detector.startDetection($0, region: smallRegion, slices: max(detectionSlices, 1), preparedIn: prepared) }
        pendingDetection = PendingDetection(width: image.width, height: image.height, sx: sx, sy: sy)
    }

    /// Runs the next slice of the detection under way; when it completes, its faces (in frame
    /// pixels) are in `detections` and the result is true.
    func continueDetection() -> Bool {
        guard let p = pendingDetection else { return false }
        let minFaceSize = detector.minFaceSize
        detector.minFaceSize = minFaceSize / p.sx
        let complete = detector.continueDetection(into: &detections)
        detector.minFaceSize = minFaceSize
        guard complete else { return false }
        pendingDetection = nil
        guard p.sx != 1 || p.sy != 1 else { return true }
        for i in detections.indices {
            detections[i].box = Rect(x: detections[i].box.x * p.sx, y: detections[i].box.y * p.sy,
                                     width: detections[i].box.width * p.sx, height: detections[i].box.height * p.sy)
            for k in 0..<6 {
                let q = detections[i].keypoints[k]
                detections[i].keypoints[k] = Point2(q.x * p.sx, q.y * p.sy)
            }
        }
        return true
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
