import ImageCore
import NeuralCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// BlazeFace short-range on NeuralCore: letterboxed 128×128 input in [-1, 1] (black bars),
/// 896 fixed-size anchors, boxes and six keypoints decoded, scores through a sigmoid (logits
/// clipped at ±100), weighted NMS at IoU 0.3 — the settings of MediaPipe's
/// `face_detection_short_range_common.pbtxt`.
///
/// Working range: the model was trained for selfie distances (faces filling roughly 10–75 % of
/// its square input). Measured here on the astronaut portrait pasted into a 640×480 frame and
/// letterboxed whole: faces 66 px wide (brow-to-chin box) are found at score 0.52, 55 px ones are
/// not. With a 62° horizontal field of view (Pi camera module v2; v3 is similar) a 14 cm wide face
/// is 66 px at about 1.1 m, so the live detector's range is about 1.1 m at 640×480 (2.2 m at
/// 1280×960 preview). Beyond it faces are simply not reported — no wrong boxes; once a face is
/// found, `FaceTracker` follows it from its landmarks, which hold down to smaller sizes.
/// `detectTiled` (stills) runs the model on overlapping tiles down to a quarter of the long side,
/// which reaches faces of about 15 px per 1000 px of image width (the VOC group photos' 37 px faces).
///
/// `detect` allocates nothing once `results` has capacity (reserve `maxFaces`).
public final class FaceDetector {
    public static let inputSize = 128

    public let interpreter: Interpreter
    let anchors: [FaceAnchor]
    /// Faces below this BlazeFace score are dropped (MediaPipe: 0.5).
    public var minScore: Float = 0.5
    /// Weighted-NMS overlap (MediaPipe: 0.3).
    public var nmsThreshold: Float = 0.3
    /// Faces narrower than this many source pixels are dropped.
    public var minFaceSize: Float = 0
    /// The most faces one call reports.
    public var maxFaces: Int = 16
    /// YCbCr matrix for I420/NV12 frames.
    public var matrix: YUVMatrix = .bt601Full

    var candidates: [FaceDetection]
    var small: ImageBuffer?

    public init(model bytes: [UInt8], path: ExecutionPath = .float) throws(ModelError) {
        interpreter = try Interpreter(model: bytes, path: path, calibration: .signedUnit)
        anchors = FaceAnchors.make()
        precondition(interpreter.inputShape(0) == [1, 128, 128, 3], "not the BlazeFace short-range model (input)")
        precondition(interpreter.outputShape(0) == [1, 896, 16] && interpreter.outputShape(1) == [1, 896, 1],
                     "not the BlazeFace short-range model (outputs)")
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
        results.removeAll(keepingCapacity: true)
        let n = detectCandidates(image, region: FaceDetector.letterbox(width: image.width, height: image.height),
                                 keepTouchingEdges: true)
        WeightedNMS.run(&candidates, count: n, threshold: nmsThreshold, maxOutputs: maxFaces, into: &results)
    }

    /// Runs the model on `region` of `image` (axis-aligned; rotation ignored) and leaves the
    /// decoded candidates above `minScore` in `candidates[0..<n]`, in image pixels.
    /// With `keepTouchingEdges` false, candidates touching the region's border inside the image
    /// are dropped (a tile's cut faces; an overlapping tile sees them whole).
    ///
    /// Input preparation: the part of the image under the square is area-resized with ImageCore's
    /// `ResizeArea` (fixed point, exact coverage) into a small buffer at the model's scale (same
    /// pixel format, e.g. I420 straight from the camera), which the sampler then letterboxes into
    /// the 128×128 float input, converting YCbCr as it reads. When the resize ratio is beyond the
    /// kernel's 32-bit limit, the sampler reads the source directly (box-averaging its taps).
    func detectCandidates(_ image: Image, region: RotatedRect, keepTouchingEdges: Bool) -> Int {
        let size = FaceDetector.inputSize
        let side = max(region.width, region.height)
        let originX = region.center.x - side / 2
        let originY = region.center.y - side / 2
        // Tensor pixel t ↦ source coordinate a·t + b, per axis.
        var ax = side / Float(size), bx = originX
        var ay = ax, by = originY
        let yuv = image.format == .i420 || image.format == .nv12
        var x0 = min(max(Int(originX.rounded()), 0), image.width - 1)
        var y0 = min(max(Int(originY.rounded()), 0), image.height - 1)
        if yuv { x0 &= ~1; y0 &= ~1 }
        let x1 = min(max(Int((originX + side).rounded()), x0 + 1), image.width)
        let y1 = min(max(Int((originY + side).rounded()), y0 + 1), image.height)
        let cropW = x1 - x0, cropH = y1 - y0
        let dw = max(1, Int((Float(cropW) / ax).rounded())), dh = max(1, Int((Float(cropH) / ay).rounded()))
        if FaceDetector.areaResizeFits(cropW, dw) && FaceDetector.areaResizeFits(cropH, dh, cropW, dw) && dw <= cropW && dh <= cropH {
            let small = scratch(format: image.format, width: dw, height: dh)
            ResizeArea.run(image.cropped(x: x0, y: y0, width: cropW, height: cropH), small)
            let kx = Float(cropW) / Float(dw), ky = Float(cropH) / Float(dh)  // source px per small px
            let square = RotatedRect(center: Point2((originX + side / 2 - Float(x0)) / kx, (originY + side / 2 - Float(y0)) / ky),
                                     width: side / kx, height: side / ky)
            interpreter.withInput(0) { tensor in
                TensorSampler.sample(small, region: square, into: tensor, width: size, height: size,
                                     range: .minusOneToOne, border: .zero, matrix: matrix)
            }
            ax = square.width / Float(size) * kx
            bx = Float(x0) + (square.center.x - square.width / 2) * kx
            ay = square.height / Float(size) * ky
            by = Float(y0) + (square.center.y - square.height / 2) * ky
        } else {
            let square = RotatedRect(center: Point2(originX + side / 2, originY + side / 2), width: side, height: side)
            interpreter.withInput(0) { tensor in
                TensorSampler.sample(image, region: square, into: tensor, width: size, height: size,
                                     range: .minusOneToOne, border: .zero, matrix: matrix)
            }
        }
        interpreter.run()
        return decode(image: image, ax: ax, bx: bx, ay: ay, by: by, originX: originX, originY: originY,
                      side: side, keepTouchingEdges: keepTouchingEdges)
    }

    /// `ResizeArea`'s limit: the product of both axes' units per destination pixel ≤ 2^23 − 1.
    static func areaResizeFits(_ source: Int, _ destination: Int, _ otherSource: Int = 1, _ otherDestination: Int = 1) -> Bool {
        func units(_ s: Int, _ d: Int) -> Int {
            var a = s, b = d
            while b != 0 { (a, b) = (b, a % b) }
            return s / a
        }
        return units(source, destination) * units(otherSource, otherDestination) <= 8_388_607
    }

    /// The small buffer for the area-resized input, kept between calls (reallocated only when the
    /// frame's format or the scale changes).
    func scratch(format: PixelFormat, width: Int, height: Int) -> Image {
        if let s = small, s.format == format, s.width == width, s.height == height { return s.image() }
        let buffer = ImageBuffer(format: format, width: width, height: height)
        small = buffer
        return buffer.image()
    }

    /// Decodes the model's outputs; tensor pixel t maps to source `a·t + b` per axis.
    func decode(image: Image, ax: Float, bx: Float, ay: Float, by: Float, originX: Float, originY: Float,
                side: Float, keepTouchingEdges: Bool) -> Int {
        let size = FaceDetector.inputSize
        let square = RotatedRect(center: Point2(originX + side / 2, originY + side / 2), width: side, height: side)
        let logitLimit = -logf(1 / minScore - 1)  // score ≥ minScore ⇔ logit ≥ this
        let imageW = Float(image.width), imageH = Float(image.height)
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
