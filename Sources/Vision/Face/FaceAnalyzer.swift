import ImageCore
import NeuralCore

/// Faces in a still: tiled detection, then the mesh and iris on each detection. A detection
/// whose mesh reports no face (presence below the landmarker's threshold) is dropped, so is one
/// that the `verifier` (the full-range detector) does not confirm on a second look, and two
/// detections whose meshes land on the same face count once (see `sameFace`).
/// Allocates (stills and tools); video uses `FaceTracker`.
public final class FaceAnalyzer {
    public let detector: FaceDetector
    public let landmarker: FaceLandmarker
    /// Run the detector on tiles too (finds small faces in group photos).
    public var tiled = true
    /// Mesh passes on the mesh's own region after the first (detection-based) one. The first
    /// region comes from BlazeFace's coarse box and eye keypoints; each pass re-centres, re-scales
    /// and re-rotates it from the mesh itself (as tracking does from frame to frame). Measured on
    /// the 68-point fixtures (NME51 einstein / breakingbad / lfpw 0001): 0 passes 0.169 / 0.075 /
    /// 0.036, 1 pass 0.148 / 0.078 / 0.041, 2 passes 0.076 / 0.068 / 0.039, 3 passes 0.084 /
    /// 0.065 / 0.040 — two settle it.
    public var refinementPasses = FaceAnalyzer.defaultRefinementPasses
    public static let defaultRefinementPasses = 2
    /// A still has no temporal evidence, so it asks the mesh for more certainty than tracking
    /// does (0.5): real faces in the fixtures score ≥ 0.9, the false positives seen ≤ 0.76.
    public var minPresence: Float = FaceAnalyzer.defaultMinPresence
    public static let defaultMinPresence: Float = 0.8
    /// BlazeFace score a still's detection needs (MediaPipe: 0.5 short range, 0.6 full range; the
    /// detector's own threshold by default). Measured: 0.4 finds no more VOC faces but lets a dog's
    /// face through the mesh check.
    public var minDetectionScore: Float
    /// A second detector that must confirm each face found on tiles only
    /// (`FaceDetector.secondLookScore` at least `minVerification`), or nil. Faces that the
    /// detector also finds on the whole image need no second look. Why: the short-range BlazeFace
    /// scores the dog of the fixtures' `dogs.jpg` 0.73 on the float path and 0.77 on the integer
    /// path, on tiles only, and its mesh presence is borderline (0.94–0.95 on the boxes that come
    /// out of the tiles' weighted NMS, below the landmarker's threshold on one float box): whether
    /// the dog passed hung on which candidates crossed 0.5, not on the integer path's accuracy.
    /// The full-range model, looking again at 2× the face, scores that dog 0.02 (float 0.01) and
    /// the real faces of the fixtures ≥ 0.41. It is not asked about faces the whole image shows:
    /// heavily degraded real faces (a mask over 60 % of the face, an eye patch, 48° of yaw, strong
    /// noise; `QualityDegradationTests`) score 0.03–0.29 there too, and those come from the
    /// whole-image pass.
    public var verifier: FaceDetector?
    /// The second-look score a face needs when there is a `verifier`: between the non-faces seen
    /// (the dog 0.02; a blurred shoulder patch of the astronaut in `QualityCLITests`, 0.23 integer
    /// / 0.13 float, which the short-range model scores 0.57) and the lowest real face of the
    /// fixtures (0.41 float, 0.55 integer).
    public var minVerification: Float = FaceAnalyzer.defaultMinVerification
    public static let defaultMinVerification: Float = 0.3

    public init(detector: FaceDetector, landmarker: FaceLandmarker, verifier: FaceDetector? = nil) {
        self.detector = detector
        self.landmarker = landmarker
        self.verifier = verifier
        minDetectionScore = detector.model.minScore
    }

    /// Loads the face models from the store on `directory` (see `ModelStore.faceAnalyzer`): the
    /// `detector` BlazeFace (short range by default), the mesh and, with `iris`, the iris model.
    /// With `iris` false the iris model is not loaded: the mesh alone (pupils fall back to the
    /// eye-corner midpoints, see `FaceMesh.rightPupil`). The kiosk's live tracker runs so: no live
    /// rule reads the iris, and its two runs per frame were 2.3 ms of a 640×480 frame; stills keep
    /// it for the pupils. With `verify` (stills) and a short-range `detector`, the full-range model
    /// is loaded too as the `verifier`.
    public convenience init(modelDirectory directory: String, path: ExecutionPath = .float, iris: Bool = true,
                            detector range: FaceDetectorModel = .short, verify: Bool = true) throws(ModelStoreError) {
        let analyzer = try ModelStore(directory: directory).faceAnalyzer(path: path, iris: iris, detector: range, verify: verify)
        self.init(detector: analyzer.detector, landmarker: analyzer.landmarker, verifier: analyzer.verifier)
    }

    public func analyze(_ image: Image) -> [FaceObservation] {
        let liveScore = detector.minScore
        detector.minScore = minDetectionScore
        defer { detector.minScore = liveScore }
        let found = Self.detections(image, detector: detector, tiled: tiled, verifying: verifier != nil)
        let candidates = Self.meshes(image, found, landmarker: landmarker, refinementPasses: refinementPasses, minPresence: minPresence)
        return Self.accepted(candidates, minVerification: minVerification) { face in verifier?.secondLookScore(image, faceAt: face.box) }
    }

    /// `analyze` with the default settings and each model built for its own step only, dropped
    /// before the next is built: the `detector` finds the faces, the `landmarker` (mesh and iris)
    /// measures them, and the `verifier` is built only when a face found on tiles alone needs a
    /// second look. The same faces as `analyze` with the three models held (the steps are its
    /// own); a still's analysis then holds one model at a time instead of four.
    public static func analyzeInSteps(_ image: Image, detector: () throws -> FaceDetector, landmarker: () throws -> FaceLandmarker,
                                      verifier: (() throws -> FaceDetector)?) throws -> [FaceObservation] {
        let found: [(detection: FaceDetection, seenWhole: Bool)]
        do {
            let d = try detector()
            d.minScore = d.model.minScore
            found = detections(image, detector: d, tiled: true, verifying: verifier != nil)
        }
        let candidates = meshes(image, found, landmarker: try landmarker(), refinementPasses: defaultRefinementPasses,
                                minPresence: defaultMinPresence)
        var second: FaceDetector? = nil
        return try acceptedThrowing(candidates, minVerification: defaultMinVerification) { face in
            guard let verifier else { return nil }
            if second == nil { second = try verifier() }
            return second?.secondLookScore(image, faceAt: face.box)
        }
    }

    /// Step 1: the detections (tiled, or the whole image only), each with whether the whole-image
    /// pass found it too (only looked for when `verifying`: a face it finds needs no second look).
    static func detections(_ image: Image, detector: FaceDetector, tiled: Bool, verifying: Bool) -> [(detection: FaceDetection, seenWhole: Bool)] {
        var detections: [FaceDetection] = []
        var whole: [FaceDetection] = []
        if tiled {
            detections = detector.detectTiled(image)
            if verifying {
                whole.reserveCapacity(detector.maxFaces)
                detector.detect(image, into: &whole)
            }
        } else {
            detections.reserveCapacity(detector.maxFaces)
            detector.detect(image, into: &detections)
            whole = detections
        }
        // Seen whole: overlapping a whole-image detection by the NMS threshold (30 %).
        return detections.map { d in (d, verifying && whole.contains { $0.box.iou(d.box) >= detector.nmsThreshold }) }
    }

    /// Step 2: the mesh (refined `refinementPasses` times) on each detection, in order; those whose
    /// presence is under `minPresence` are dropped.
    static func meshes(_ image: Image, _ found: [(detection: FaceDetection, seenWhole: Bool)], landmarker: FaceLandmarker,
                       refinementPasses: Int, minPresence: Float) -> [(face: FaceObservation, seenWhole: Bool)] {
        var candidates: [(face: FaceObservation, seenWhole: Bool)] = []
        let mesh = FaceMesh()
        for (detection, seenWhole) in found {
            guard landmarker.process(image, region: detection.landmarkRegion, into: mesh) else { continue }
            mesh.confidence = detection.score
            // Refinement: the mesh again on its own region, as the tracker's next frame would use.
            let second = FaceMesh()
            for _ in 0..<refinementPasses {
                guard landmarker.process(image, region: mesh.trackingRegion, into: second) else { break }
                second.confidence = detection.score
                mesh.copy(from: second)
            }
            guard mesh.presence >= minPresence else { continue }
            candidates.append((FaceObservation(mesh), seenWhole))
        }
        return candidates
    }

    /// Step 3: in order, each face not seen whole that the verifier scores (`secondLook`; nil: no
    /// verifier) under `minVerification` is dropped, then each that is the same face as one kept.
    static func accepted(_ candidates: [(face: FaceObservation, seenWhole: Bool)], minVerification: Float,
                         secondLook: (FaceObservation) -> Float?) -> [FaceObservation] {
        var faces: [FaceObservation] = []
        for (face, seenWhole) in candidates {
            if !seenWhole, let score = secondLook(face), score < minVerification { continue }
            if faces.contains(where: { FaceAnalyzer.sameFace($0, face) }) { continue }
            faces.append(face)
        }
        return faces
    }

    /// `accepted` with a verifier that may fail to build.
    static func acceptedThrowing(_ candidates: [(face: FaceObservation, seenWhole: Bool)], minVerification: Float,
                                 secondLook: (FaceObservation) throws -> Float?) throws -> [FaceObservation] {
        var failure: (any Error)? = nil
        let faces = accepted(candidates, minVerification: minVerification) { face in
            guard failure == nil else { return nil }
            do { return try secondLook(face) } catch { failure = error; return nil }
        }
        if let failure { throw failure }
        return faces
    }
}

extension FaceAnalyzer {
    /// Two observations of one face: boxes overlapping by 30 %, or centres closer than a third
    /// of the smaller box (two detections of a tilted face can disagree on the box).
    static func sameFace(_ a: FaceObservation, _ b: FaceObservation) -> Bool {
        if a.box.iou(b.box) > 0.3 { return true }
        let dx = a.box.center.x - b.box.center.x, dy = a.box.center.y - b.box.center.y
        let size = min(a.box.width, b.box.width)
        return (dx * dx + dy * dy).squareRoot() < size / 3
    }
}
