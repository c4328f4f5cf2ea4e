import ImageCore
import NeuralCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// BlazeFace on NeuralCore, short or full range (`FaceDetectorModel`): letterboxed square input
/// in [-1, 1] (black bars), fixed-size anchors, boxes and six keypoints decoded, scores through a
/// sigmoid (logits clipped at ±100), weighted NMS at IoU 0.3 — the settings of MediaPipe's
/// `face_detection_short_range.pbtxt` / `face_detection_full_range.pbtxt`.
///
/// Working range of the short-range model: it was trained for selfie distances (faces filling
/// roughly 10–75 % of its square input). Measured here on the astronaut portrait pasted into a
/// 640×480 frame and letterboxed whole: faces 66 px wide (brow-to-chin box) are found at score
/// 0.52, 55 px ones are not. With a 62° horizontal field of view (Pi camera module v2; v3 is
/// similar) a 14 cm wide face is 66 px at about 1.1 m, so the short-range live detector's range is
/// about 1.1 m at 640×480 (2.2 m at 1280×960 preview). The full-range model (192×192, 2304
/// anchors at stride 4) is MediaPipe's model for people standing back, up to about 5 m; see
/// `FaceDetectorTests` for the sizes measured here. Beyond the range faces are simply not
/// reported — no wrong boxes; once a face is found, `FaceTracker` follows it from its landmarks,
/// which hold down to smaller sizes. `detectTiled` (stills) runs the model on overlapping tiles
/// down to a quarter of the long side, which reaches faces of about 15 px per 1000 px of image
/// width with the short-range model (the VOC group photos' 37 px faces).
///
/// `detect` allocates nothing once `results` has capacity (reserve `maxFaces`).
public final class FaceDetector {
    /// Which BlazeFace this runs.
    public let model: FaceDetectorModel
    /// The model's square input side (128 short range, 192 full range).
    public var inputSize: Int { model.inputSize }

    public let interpreter: Interpreter
    let anchors: [FaceAnchor]
    /// Faces below this BlazeFace score are dropped (MediaPipe: 0.5 short range, 0.6 full range).
    public var minScore: Float
    /// Weighted-NMS overlap (MediaPipe: 0.3).
    public var nmsThreshold: Float = 0.3
    /// Faces narrower than this many source pixels are dropped.
    public var minFaceSize: Float = 0
    /// The most faces one call reports.
    public var maxFaces: Int = 16
    /// YCbCr matrix for I420/NV12 frames.
    public var matrix: YUVMatrix = .bt601Full

    var candidates: [FaceDetection]
    /// The sliced run of `startDetection` (made on first use) and the geometry of the one under way.
    var sliced: SlicedRun? = nil
    var slicesAsked = 0
    /// Each step's thread CPU time (`SlicedRun.measureStepCosts`), measured once.
    var measuredStepCosts: [Int]? = nil
    struct Pending {
        var originX, originY, side, imageWidth, imageHeight: Float
    }
    var pending: Pending? = nil

    /// Loads `bytes` as `model` (short range by default) for `path`; the shapes are checked.
    /// `shared`: the integer working memory of models run one after another with this one.
    public init(model bytes: [UInt8], path: ExecutionPath = .float, range model: FaceDetectorModel = .short,
                sharing shared: SharedArena? = nil) throws(ModelError) {
        self.model = model
        interpreter = try ModelCalibrations.interpreter(model: bytes, for: model.calibration, path: path, sharing: shared)
        anchors = FaceAnchors.make(for: model)
        minScore = model.minScore
        try interpreter.requireShapes(model.title, inputs: model.inputShapes, outputs: model.outputShapes)
        candidates = Array(repeating: FaceDetection(box: Rect(x: 0, y: 0, width: 0, height: 0), keypoints: .zero, score: 0),
                           count: anchors.count)
    }

    /// The square region that letterboxes the whole image into the model input (aspect kept,
    /// centred, black bars), as MediaPipe's ImageToTensor with keep_aspect_ratio.
    public static func letterbox(width: Int, height: Int) -> RotatedRect {
        let side = Float(max(width, height))
        return RotatedRect(center: Point2(Float(width) / 2, Float(height) / 2), width: side, height: side)
    }

    /// Faces in the whole image, best first, appended to `results` (which is emptied first).
    public func detect(_ image: Image, into results: inout [FaceDetection]) {
        detect(image, region: FaceDetector.letterbox(width: image.width, height: image.height), into: &results)
    }

    /// Faces in the square around `region` (axis-aligned; black where it leaves the image), best
    /// first, in image pixels, appended to `results` (which is emptied first).
    public func detect(_ image: Image, region: RotatedRect, into results: inout [FaceDetection]) {
        results.removeAll(keepingCapacity: true)
        let n = detectCandidates(image, region: region, keepTouchingEdges: true)
        WeightedNMS.run(&candidates, count: n, threshold: nmsThreshold, maxOutputs: maxFaces, into: &results)
    }

    /// Runs the model on `region` of `image` (axis-aligned; rotation ignored) and leaves the
    /// decoded candidates above `minScore` in `candidates[0..<n]`, in image pixels.
    /// With `keepTouchingEdges` false, candidates touching the region's border inside the image
    /// are dropped (a tile's cut faces; an overlapping tile sees them whole).
    ///
    /// Input preparation: `TensorSampler` letterboxes the square straight from the frame (any
    /// format, I420 included), bilinear with box-averaged taps when shrinking — close to
    /// MediaPipe's bilinear warp. (ImageCore's exact area resize into a small buffer first was
    /// measured too: on the fixtures it missed one of the 43 VOC faces that this finds, so it is
    /// not used here.)
    func detectCandidates(_ image: Image, region: RotatedRect, keepTouchingEdges: Bool) -> Int {
        if pending != nil { cancelDetection() }   // the input is rewritten: a sliced run under way is lost
        let size = inputSize
        let side = max(region.width, region.height)
        let square = RotatedRect(center: region.center, width: side, height: side)
        let originX = region.center.x - side / 2
        let originY = region.center.y - side / 2
        interpreter.withInput(0) { tensor in
            TensorSampler.sample(image, region: square, into: tensor, width: size, height: size,
                                 range: .minusOneToOne, border: .zero, matrix: matrix)
        }
        interpreter.run()
        let scale = side / Float(size)
        return decode(imageWidth: Float(image.width), imageHeight: Float(image.height), ax: scale, bx: originX, ay: scale, by: originY,
                      originX: originX, originY: originY, side: side, keepTouchingEdges: keepTouchingEdges)
    }

    /// Starts a detection in the square around `region` of `image` spread over `slices` calls of
    /// `continueDetection` (`SlicedRun`: the model's integer program in slices of about equal
    /// cost; the float path runs whole in the first call): the input is sampled now, so `image`
    /// may change before the run completes. The faces are those `detect(_:region:into:)` finds,
    /// bit for bit. A detection under way is dropped.
    ///
    /// `preparedIn`: thread CPU nanoseconds the caller spent on this frame preparing `image` (a
    /// downscale), which the first slice, run with it, makes up for.
    public func startDetection(_ image: Image, region: RotatedRect, slices: Int, preparedIn: Int = 0) {
        let t0 = FaceDetector.threadNanoseconds()
        let size = inputSize
        let side = max(region.width, region.height)
        let square = RotatedRect(center: region.center, width: side, height: side)
        interpreter.withInput(0) { tensor in
            TensorSampler.sample(image, region: square, into: tensor, width: size, height: size,
                                 range: .minusOneToOne, border: .zero, matrix: matrix)
        }
        if sliced == nil || slicesAsked != slices {
            // Slices of about equal time: each step's thread CPU time measured on this input, the
            // least of three runs (once, on the first sliced detection).
            let head = preparedIn + FaceDetector.threadNanoseconds() - t0
            if slices > 1 && measuredStepCosts == nil {
                measuredStepCosts = SlicedRun.measureStepCosts(interpreter, rounds: 3, clock: FaceDetector.threadNanoseconds)
            }
            let costs = slices > 1 ? measuredStepCosts : nil
            sliced = SlicedRun(interpreter, slices: slices, stepCosts: costs, headCost: head)
            slicesAsked = slices
        }
        pending = Pending(originX: region.center.x - side / 2, originY: region.center.y - side / 2, side: side,
                          imageWidth: Float(image.width), imageHeight: Float(image.height))
        sliced!.start()
    }

    /// Measures the model's step costs for `startDetection`'s slices now (three whole runs on a
    /// zero input, about three detector frames of CPU), so that the first sliced detection does not
    /// do it inside a live frame: call it before the live loop starts. Nothing else may use this
    /// detector's arena meanwhile. A detection under way is dropped. Costs do not depend on the
    /// input; measured once (later calls do nothing).
    public func prepareSlicedDetection() {
        guard measuredStepCosts == nil else { return }
        if pending != nil { cancelDetection() }
        interpreter.withInput(0) { $0.update(repeating: 0) }
        measuredStepCosts = SlicedRun.measureStepCosts(interpreter, rounds: 3, clock: FaceDetector.threadNanoseconds)
    }

    /// Drops the sliced run made by `startDetection` (and any detection under way); the next
    /// `startDetection` cuts a new one. For `FaceTracker.prepareDetectionSlices`.
    func discardSlicedRun() {
        cancelDetection()
        sliced = nil
        slicesAsked = 0
    }

    /// Whether `startDetection` has its `SlicedRun` made (by an earlier detection, or
    /// `FaceTracker.prepareDetectionSlices` with the frame size).
    public var slicedRunMade: Bool { sliced != nil }

    /// Whether the step costs for sliced detection are measured (`prepareSlicedDetection`, or the
    /// first sliced detection).
    public var sliceCostsMeasured: Bool { measuredStepCosts != nil }

    /// The calling thread's CPU time in nanoseconds.
    static func threadNanoseconds() -> Int {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return t.tv_sec * 1_000_000_000 + t.tv_nsec
    }

    /// The slices of `startDetection`'s run, as cut (nil before the first): their costs in
    /// thread CPU nanoseconds as measured, or estimated on the float path.
    public var sliceCosts: [Int]? { sliced?.sliceCosts }

    /// Whether a detection started by `startDetection` is under way.
    public var detectionUnderWay: Bool { pending != nil }

    /// Drops the detection under way, if any.
    public func cancelDetection() {
        sliced?.cancel()
        pending = nil
    }

    /// Runs the next slice of the detection under way; when it was the last, puts the faces in
    /// `results` (emptied first, best first, in the started image's pixels) and returns true.
    /// Run nothing that shares this detector's arena between `startDetection` and the first call.
    public func continueDetection(into results: inout [FaceDetection]) -> Bool {
        guard let p = pending, let sliced else { preconditionFailure("continueDetection without startDetection") }
        guard sliced.step() else { return false }
        pending = nil
        results.removeAll(keepingCapacity: true)
        let scale = p.side / Float(inputSize)
        let n = decode(imageWidth: p.imageWidth, imageHeight: p.imageHeight, ax: scale, bx: p.originX, ay: scale, by: p.originY,
                       originX: p.originX, originY: p.originY, side: p.side, keepTouchingEdges: true)
        WeightedNMS.run(&candidates, count: n, threshold: nmsThreshold, maxOutputs: maxFaces, into: &results)
        return true
    }

    /// Decodes the model's outputs; tensor pixel t maps to source `a·t + b` per axis.
    func decode(imageWidth imageW: Float, imageHeight imageH: Float, ax: Float, bx: Float, ay: Float, by: Float, originX: Float, originY: Float,
                side: Float, keepTouchingEdges: Bool) -> Int {
        let size = inputSize
        let square = RotatedRect(center: Point2(originX + side / 2, originY + side / 2), width: side, height: side)
        let logitLimit = -logf(1 / minScore - 1)  // score ≥ minScore ⇔ logit ≥ this
        let margin = square.width * 0.01
        return interpreter.withOutput(0) { boxes in
            interpreter.withOutput(1) { logits in
                var n = 0
                for i in 0..<anchors.count {
                    let logit = min(max(logits[i], -100), 100)
                    guard logit >= logitLimit else { continue }
                    let a = anchors[i]
                    let r = i * 16
                    // Regressors are in input pixels relative to the anchor centre.
                    let cx = bx + (a.x * Float(size) + boxes[r]) * ax
                    let cy = by + (a.y * Float(size) + boxes[r + 1]) * ay
                    let w = boxes[r + 2] * ax, h = boxes[r + 3] * ay
                    guard w >= minFaceSize, w > 0, h > 0 else { continue }
                    let box = Rect(x: cx - w / 2, y: cy - h / 2, width: w, height: h)
                    if !keepTouchingEdges {
                        let left = box.x < originX + margin && originX > 0
                        let top = box.y < originY + margin && originY > 0
                        let right = box.x + box.width > originX + square.width - margin && originX + square.width < imageW
                        let bottom = box.y + box.height > originY + square.height - margin && originY + square.height < imageH
                        if left || top || right || bottom { continue }
                    }
                    var keys = FaceKeypoints.zero
                    for k in 0..<6 {
                        keys[k] = Point2(bx + (a.x * Float(size) + boxes[r + 4 + 2 * k]) * ax,
                                         by + (a.y * Float(size) + boxes[r + 5 + 2 * k]) * ay)
                    }
                    candidates[n] = FaceDetection(box: box, keypoints: keys, score: 1 / (1 + expf(-logit)))
                    n += 1
                }
                return n
            }
        }
    }
}
