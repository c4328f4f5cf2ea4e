import NeuralCore

/// The vision stages built from the store's files, every failure naming the file.
extension ModelStore {
    /// The face analyzer: the `detector` BlazeFace (short range by default), the mesh and (with
    /// `iris`) the iris model. Without the iris model pupils fall back to the eye-corner midpoints
    /// (see `FaceMesh.rightPupil`): the kiosk's live tracker runs so, stills keep it for the
    /// pupils. With `verify` and the short-range detector, the full-range model confirms each
    /// face on a second look (`FaceAnalyzer.verifier`; stills and tools). With `shared` every
    /// model's integer working memory is that one block (`SharedArena`: run them on one thread).
    public func faceAnalyzer(path execution: ExecutionPath, iris: Bool = true, detector range: FaceDetectorModel = .short,
                             verify: Bool = true, sharing shared: SharedArena? = nil) throws(ModelStoreError) -> FaceAnalyzer {
        // Each file is read just before its model is built (and dropped after), so at most one
        // file's bytes are held while a model is packed.
        let detector = try faceDetector(range, path: execution, sharing: shared)
        let verifier = verify && range == .short ? try faceDetector(.full, path: execution, sharing: shared) : nil
        return FaceAnalyzer(detector: detector, landmarker: try faceLandmarker(iris: iris, path: execution, sharing: shared),
                            verifier: verifier)
    }

    /// One BlazeFace model (`range`), alone (`FaceAnalyzer.analyzeInSteps`).
    public func faceDetector(_ range: FaceDetectorModel, path execution: ExecutionPath,
                             sharing shared: SharedArena? = nil) throws(ModelStoreError) -> FaceDetector {
        let bytes = try read(range.file)
        do { return try FaceDetector(model: bytes, path: execution, range: range, sharing: shared) } catch {
            throw .invalid(path(range.file), error)
        }
    }

    /// The mesh and (with `iris`) the iris model, alone (`FaceAnalyzer.analyzeInSteps`).
    public func faceLandmarker(iris: Bool = true, path execution: ExecutionPath,
                               sharing shared: SharedArena? = nil) throws(ModelStoreError) -> FaceLandmarker {
        // Each file is mapped just before its model is built and unmapped as soon as it is parsed
        // (`ModelCalibrations.interpreter(taking:)`, `map`), so each file's pages are gone before
        // its weights are packed. The iris model first: its build (2.6 MB of float weights, the
        // larger of the two) then has no packed mesh program beside it, and the mesh's smaller
        // build has the iris program's packed weights beside it instead.
        var irisModel: Interpreter? = nil
        if iris {
            var bytes = try map(.irisLandmark)
            do { irisModel = try ModelCalibrations.interpreter(taking: &bytes, for: .irisLandmark, path: execution, sharing: shared) } catch {
                throw .invalid(path(.irisLandmark), error)
            }
        }
        var bytes = try map(.faceLandmark)
        let mesh: Interpreter
        do { mesh = try ModelCalibrations.interpreter(taking: &bytes, for: .faceLandmark, path: execution, sharing: shared) } catch {
            throw .invalid(path(.faceLandmark), error)
        }
        do {
            return try FaceLandmarker(mesh: mesh, iris: irisModel)
        } catch {
            // Which of the two files: the mesh alone passes when the iris model is the bad one.
            let meshPasses = (try? FaceLandmarker(mesh: mesh, iris: nil)) != nil
            throw .invalid(path(meshPasses ? .irisLandmark : .faceLandmark), error)
        }
    }

    /// The person segmenter at `level`, with the models the level needs (`fast`: the landscape
    /// model; `balanced` and `accurate`: both, or `only` the one named); `shared` as for `faceAnalyzer`.
    public func segmenter(_ level: SegmentationLevel, path execution: ExecutionPath = .integer,
                          sharing shared: SharedArena? = nil, only: SegmentationModel? = nil) throws(ModelStoreError) -> PersonSegmenter {
        let landscape = only == .general ? nil : try read(SegmentationModel.landscape.file)
        let general = level == .fast || only == .landscape ? nil : try read(SegmentationModel.general.file)
        do {
            return try PersonSegmenter(level: level, generalModel: general, landscapeModel: landscape, path: execution, sharing: shared,
                                       only: only)
        } catch {
            switch error {
            case .missingModel(let m): throw .missing(path(m.file))
            case .model(let m, let e): throw .invalid(path(m.file), e)
            }
        }
    }

    /// The palm detector the examiner runs on stills for a hand at the face, with the hand
    /// landmark model confirming each palm (float path; see `PalmDetector`).
    /// The two share one activation block (they run one after the other: `SharedArena`), and
    /// keep only their packed float weights.
    public func palmDetector() throws(ModelStoreError) -> PalmDetector {
        let arena = SharedArena(capacity: Self.palmArenaCapacity)
        // Each file is mapped just before its model is built, so the first one is unmapped
        // when the second is mapped.
        let verifier: HandLandmarkVerifier
        var hand = try map(.handLandmark)
        do { verifier = try HandLandmarkVerifier(taking: &hand, sharing: arena) } catch { throw .invalid(path(.handLandmark), error) }
        var palms = try map(.palmDetection)
        do { return try PalmDetector(taking: &palms, verifier: verifier, sharing: arena) } catch {
            throw .invalid(path(.palmDetection), error)
        }
    }

    /// The palm detector alone (no hand model: its palms are unconfirmed), for a caller that runs
    /// the hand model after dropping it (`PalmDetector.palmsOverFace`, `handLandmarkVerifier`).
    /// `shared`: its activations' memory (default: an arena of its own).
    public func palmDetectorAlone(sharing shared: SharedArena? = nil) throws(ModelStoreError) -> PalmDetector {
        var palms = try map(.palmDetection)
        do {
            return try PalmDetector(taking: &palms, verifier: nil, sharing: shared ?? SharedArena(capacity: Self.palmArenaCapacity))
        } catch {
            throw .invalid(path(.palmDetection), error)
        }
    }

    /// The hand landmark model that confirms palms (float path), alone; `shared`: its activations'
    /// memory (default: an arena of its own).
    public func handLandmarkVerifier(sharing shared: SharedArena? = nil) throws(ModelStoreError) -> HandLandmarkVerifier {
        var hand = try map(.handLandmark)
        do { return try HandLandmarkVerifier(taking: &hand, sharing: shared ?? SharedArena(capacity: Self.palmArenaCapacity)) } catch {
            throw .invalid(path(.handLandmark), error)
        }
    }

    /// The attention face mesh for the refined lips of a still (float path: its custom transform
    /// operators have no integer form; see `RefinedLips`), for `mouth_closed_refined_lips`.
    public func refinedLips(sharing shared: SharedArena? = nil) throws(ModelStoreError) -> RefinedLips {
        var bytes = try map(.faceLandmarkWithAttention)
        do { return try RefinedLips(taking: &bytes, sharing: shared ?? SharedArena(capacity: Self.palmArenaCapacity)) } catch {
            throw .invalid(path(.faceLandmarkWithAttention), error)
        }
    }

    /// Bytes reserved for the palm and hand models' shared activations (address space only: the
    /// pages the larger plan never touches stay out of resident memory).
    static let palmArenaCapacity = 32 << 20
}
