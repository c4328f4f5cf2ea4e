import ImageCore
import NeuralCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The 468-point face mesh and the iris model, on NeuralCore, as MediaPipe's face-landmark and
/// iris graphs run them:
/// - mesh: the face region (from a detection or the previous frame, see `FaceMesh.trackingRegion`)
///   warped upright into 192×192, values in [0, 1], edge pixels replicated; outputs 468×xyz in
///   input pixels, mapped back through the region; z scaled like x. Presence = sigmoid(logit).
/// - iris: for each eye, a square region on the eye corners (33/133 and 362/263) rotated by
///   them, 2.3× their distance, warped into 64×64 in [0, 1]; the eye on the image's right is
///   mirrored first (the model knows left eyes only) and its outputs mirrored back.
///
/// `process` allocates nothing.
public final class FaceLandmarker {
    public static let meshInputSize = 192
    public static let irisInputSize = 64
    public static let irisScale: Float = 2.3

    public let mesh: Interpreter
    public let iris: Interpreter?
    /// Below this presence the face counts as lost (MediaPipe's tracking threshold: 0.5).
    public var minPresence: Float = 0.5
    /// YCbCr matrix for I420/NV12 frames.
    public var matrix: YUVMatrix = .bt601Full
    /// Runs each model pass (input, run, outputs read: the mesh, then each eye's iris) when set:
    /// for models whose working memory is shared with interpreters on another thread, the caller's
    /// lock around the pass (as `PersonSegmenter.exclusive`; a kiosk still's landmarker in the
    /// live models' memory).
    public var exclusive: ((() -> Void) -> Void)? = nil
    let meshOutput: Int, presenceOutput: Int
    let irisContourOutput: Int, irisOutput: Int

    /// The mesh model's outputs: 468 × xyz, and the face-presence logit.
    static let meshOutputs = [[1, 1, 1, 1404], [1, 1, 1, 1]]
    /// The iris model's outputs: 71 contour points × xyz, and 5 iris points × xyz.
    static let irisOutputs = [[1, 213], [1, 15]]

    /// `shared`: the integer working memory of models run one after another with these (`SharedArena`).
    public convenience init(meshModel: [UInt8], irisModel: [UInt8]?, path: ExecutionPath = .float,
                            sharing shared: SharedArena? = nil) throws(ModelError) {
        let mesh = try ModelCalibrations.interpreter(model: meshModel, for: .faceLandmark, path: path, sharing: shared)
        let iris = try irisModel.map { (bytes) throws(ModelError) -> Interpreter in
            try ModelCalibrations.interpreter(model: bytes, for: .irisLandmark, path: path, sharing: shared)
        }
        try self.init(mesh: mesh, iris: iris)
    }

    /// The landmarker of models already built (`ModelCalibrations.interpreter`), e.g. each from a
    /// file read just before it and released at its parse (`ModelStore.faceLandmarker`); their
    /// shapes are checked here.
    public init(mesh: Interpreter, iris: Interpreter?) throws(ModelError) {
        self.mesh = mesh
        self.iris = iris
        // Shapes checked at load (either output order): a wrong model is a thrown error, not a trap.
        meshOutput = mesh.outputCount == 2 && mesh.outputShape(0).last == 1404 ? 0 : 1
        presenceOutput = 1 - meshOutput
        try mesh.requireShapes("face mesh", inputs: [[1, 192, 192, 3]],
                               outputs: meshOutput == 0 ? FaceLandmarker.meshOutputs : FaceLandmarker.meshOutputs.reversed())
        if let iris {
            irisContourOutput = iris.outputCount == 2 && iris.outputShape(0).last == 213 ? 0 : 1
            irisOutput = 1 - irisContourOutput
            try iris.requireShapes("iris", inputs: [[1, 64, 64, 3]],
                                   outputs: irisContourOutput == 0 ? FaceLandmarker.irisOutputs : FaceLandmarker.irisOutputs.reversed())
        } else {
            irisContourOutput = 0
            irisOutput = 1
        }
    }

    /// Whether the mesh input of `region` should be sampled from the frame halved (`process`'s
    /// `half`): the region shrinks by more than 1.5× along an axis, where sampling the frame itself
    /// averages 2×2 (or more) bilinear taps per input pixel.
    public static func samplesFromHalf(_ region: RotatedRect) -> Bool {
        max(region.width, region.height) > 1.5 * Float(meshInputSize)
    }

    /// Runs the mesh (and iris) on `region` of `image` into `face`. Returns whether the face is
    /// present (presence ≥ `minPresence`); the points are written either way.
    ///
    /// `half`: `image` area-halved (each output the mean of a 2×2 block, ImageCore's `ResizeArea`;
    /// the live tracker's, `FaceTracker.halvesLargeFaces`). When given and the region is large
    /// (`samplesFromHalf`), the mesh input is sampled from it with one bilinear tap per input pixel
    /// (the region's coordinates halved) instead of from `image` with 2×2 taps: a quarter of the
    /// reads, the same prefilter width (a 2-pixel box), for a face that fills a passport oval. The
    /// points are mapped back through `region` as always. The iris (stills) reads `image`.
    @discardableResult
    public func process(_ image: Image, region: RotatedRect, into face: FaceMesh, half: Image? = nil) -> Bool {
        let source = half.flatMap { FaceLandmarker.samplesFromHalf(region) ? $0 : nil }
        if let exclusive {
            exclusive { runMesh(image, region: region, into: face, half: source) }
        } else {
            runMesh(image, region: region, into: face, half: source)
        }
        face.hasIris = false
        if iris != nil {
            if let exclusive {
                exclusive { runIris(image, face: face, rightEye: true) }
                exclusive { runIris(image, face: face, rightEye: false) }
            } else {
                runIris(image, face: face, rightEye: true)
                runIris(image, face: face, rightEye: false)
            }
            face.hasIris = true
        }
        face.pose = FacePose(mesh: face.points)
        return face.presence >= minPresence
    }

    /// The mesh pass: input (from `half`, the frame halved, when given), run, the points and
    /// presence into `face`.
    func runMesh(_ image: Image, region: RotatedRect, into face: FaceMesh, half: Image? = nil) {
        let size = FaceLandmarker.meshInputSize
        // Pixel-centre coordinates: half pixel k covers frame pixels 2k and 2k + 1, so a frame
        // point (x, y) is (x/2, y/2) there.
        let (source, sampled) = half.map {
            ($0, RotatedRect(center: Point2(region.center.x / 2, region.center.y / 2),
                             width: region.width / 2, height: region.height / 2, rotation: region.rotation))
        } ?? (image, region)
        mesh.withInput(0) { tensor in
            TensorSampler.sample(source, region: sampled, into: tensor, width: size, height: size,
                                 range: .zeroToOne, border: .replicate, matrix: matrix)
        }
        mesh.run()
        face.region = region
        face.presence = mesh.withOutput(presenceOutput) { 1 / (1 + expf(-min(max($0[0], -100), 100))) }
        let c = cosf(region.rotation), s = sinf(region.rotation)
        let kx = region.width / Float(size), ky = region.height / Float(size)
        mesh.withOutput(meshOutput) { out in
            for i in 0..<FaceMeshTopology.vertexCount {
                let dx = (out[3 * i] - Float(size) / 2) * kx
                let dy = (out[3 * i + 1] - Float(size) / 2) * ky
                face.points[i] = Point3(region.center.x + c * dx - s * dy,
                                        region.center.y + s * dx + c * dy,
                                        out[3 * i + 2] * kx)
            }
        }
    }

    /// The iris model's region for one eye (person's own side), MediaPipe's
    /// `iris_landmark_landmarks_to_roi`: box around the two corners, rotated along them
    /// (image-left corner first), scaled 2.3×, squared.
    public static func eyeRegion(_ points: [Point3], rightEye: Bool) -> RotatedRect {
        // Person's right eye: 33 (outer, image left) → 133; left eye: 362 (inner, image left) → 263.
        let a = rightEye ? points[33].xy : points[362].xy
        let b = rightEye ? points[133].xy : points[263].xy
        let box = Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
        return RotatedRect.aligned(box: box, from: a, to: b).scaled(by: irisScale)
    }

    func runIris(_ image: Image, face: FaceMesh, rightEye: Bool) {
        guard let iris else { return }
        let size = FaceLandmarker.irisInputSize
        let region = FaceLandmarker.eyeRegion(face.points, rightEye: rightEye)
        // MediaPipe mirrors its "right eye" (362/263, the person's left) for the left-eye-only model.
        let flip = !rightEye
        iris.withInput(0) { tensor in
            TensorSampler.sample(image, region: region, into: tensor, width: size, height: size,
                                 range: .zeroToOne, border: .replicate, flipHorizontally: flip, matrix: matrix)
        }
        iris.run()
        let c = cosf(region.rotation), s = sinf(region.rotation)
        let k = region.width / Float(size)
        func project(_ x: Float, _ y: Float, _ z: Float) -> Point3 {
            let u = flip ? Float(size) - x : x
            let dx = (u - Float(size) / 2) * k, dy = (y - Float(size) / 2) * k
            return Point3(region.center.x + c * dx - s * dy, region.center.y + s * dx + c * dy, z * k)
        }
        iris.withOutput(irisOutput) { out in
            for i in 0..<5 {
                let p = project(out[3 * i], out[3 * i + 1], out[3 * i + 2])
                if rightEye { face.rightIris[i] = p } else { face.leftIris[i] = p }
            }
        }
        iris.withOutput(irisContourOutput) { out in
            for i in 0..<71 {
                let p = project(out[3 * i], out[3 * i + 1], out[3 * i + 2])
                if rightEye { face.rightEyeContour[i] = p } else { face.leftEyeContour[i] = p }
            }
        }
    }
}
