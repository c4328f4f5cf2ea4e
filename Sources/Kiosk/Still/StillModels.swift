import Hardware
import ImageCore
import ImageFiles
import NeuralCore
import Passport
import Vision

/// The still path's models, built on the still thread when a still needs them and released when
/// it is done: the accurate segmenter (the segmentation model the still's aspect picks) and, in
/// passport mode, a face analyzer with the iris model. Idle between stills they took 9.4 MiB of
/// the kiosk's resident memory; now nothing stays (the files are read again per still, as the
/// face models always were: the segmentation files' bytes were 0.5 MiB kept for nothing).
///
/// `init` reads the files and builds every model once, so a bad model file stops the kiosk at
/// start-up with a clear error rather than at the first photo.
final class StillModels {
    let store: ModelStore
    let inference: ExecutionPath
    /// The live segmenter, lent once the live models are loaded: a still the landscape model
    /// segments runs it (under the live models' lock) instead of loading its own.
    var live: LiveSegmentation? = nil

    init(store: ModelStore, inference: ExecutionPath, faces: Bool) throws(KioskError) {
        self.store = store
        self.inference = inference
        // One model at a time, each one's pages returned before the next is built: the start-up
        // peak is the largest check's, not the sum (passport mode: 65.6 MiB with all of them held
        // at once, 45.6 this way; the float palm and hand models take 20 MiB each).
        _ = try segmenter()
        ProcessMemory.returnFreePages()
        if faces {
            _ = try analyzer()
            ProcessMemory.returnFreePages()
            try checkPalmModels()
            ProcessMemory.returnFreePages()
            _ = try refinedLips()
            ProcessMemory.returnFreePages()
        }
    }

    /// A new accurate segmenter (the caller drops it after the still); for an upright still of
    /// `width`×`height`, with only the model its aspect picks (the other one's weights and
    /// activation tables, 3 MiB, are never loaded), and for the landscape model the live one when
    /// it is lent (`live`: no model memory at all), the general one in the live models' working
    /// memory (call `returnLentPages` once it is done); with no size, both (the start-up check).
    func segmenter(width: Int? = nil, height: Int? = nil) throws(KioskError) -> PersonSegmenter {
        let only = width.flatMap { w in height.map { SegmentationModel.forAspect(width: w, height: $0) } }
        if only == .landscape, let live { return live.stillSegmenter() }
        do {
            // The general model in the live models' working memory when they are lent, each pass
            // under their lock (as the mesh and iris, palm and hand models of a still).
            if only == .general, let live, let arena = live.arena {
                let segmenter = try store.segmenter(.accurate, sharing: arena, only: .general)
                segmenter.exclusive = live.exclusive
                return segmenter
            }
            return try store.segmenter(.accurate, only: only)
        } catch {
            throw .models("still path: segmentation: \(error)")
        }
    }

    /// Builds the palm detector and the hand landmark model the passport maker builds per still
    /// (float path, from `store`), each alone and dropped, to check the files.
    private func checkPalmModels() throws(KioskError) {
        do {
            var bytes = try store.map(.handLandmark)
            _ = try HandLandmarkVerifier(taking: &bytes)
        } catch {
            throw .models("still path: palms: \(store.path(.handLandmark)): \(error)")
        }
        ProcessMemory.returnFreePages()
        do {
            var bytes = try store.map(.palmDetection)
            _ = try PalmDetector(taking: &bytes, verifier: nil)
        } catch {
            throw .models("still path: palms: \(store.path(.palmDetection)): \(error)")
        }
    }

    /// A new palm detector without its hand model (float path, from `store`) for the hand rules
    /// of a passport still; the hand model is built after it is dropped (`handLandmarkVerifier`).
    /// With the live models lent (`live`), it runs in their working memory, each pass under their
    /// lock: its float activations (4.0 MB; the hand model's 4.8 MB likewise) partly land on pages
    /// the live programs keep resident anyway, instead of all in an arena of its own.
    func palmDetector() throws(KioskError) -> PalmDetector {
        try inLiveMemory("palms", \.exclusive) { arena throws(ModelStoreError) in try store.palmDetectorAlone(sharing: arena) }
    }

    /// A still-only float model built by `build` in the live models' working memory when they are
    /// lent (`live`), its passes then under their lock (the model's `lock` property); else in an
    /// arena of its own (`build` given nil). A build error names the step (`what`).
    private func inLiveMemory<M: AnyObject>(_ what: String, _ lock: ReferenceWritableKeyPath<M, ((() -> Void) -> Void)?>,
                                            _ build: (SharedArena?) throws(ModelStoreError) -> M) throws(KioskError) -> M {
        do {
            let model = try build(live?.arena)
            if let live, live.arena != nil { model[keyPath: lock] = live.exclusive }
            return model
        } catch {
            throw .models("still path: \(what): \(error)")
        }
    }

    /// Notes the live models' resident memory before a still's models borrow it (see
    /// `LiveSegmentation.lend`); call it when a still starts.
    func lendLiveMemory() {
        live?.lend()
    }

    /// Returns the pages of the live models' memory that only the still's models used (see
    /// `LiveSegmentation.returnLentPages`); call it once they are dropped.
    func returnLentPages() {
        live?.returnLentPages()
    }

    /// A new hand landmark model (float path) that confirms the palm detector's palms; in the
    /// live models' working memory when they are lent (as `palmDetector`).
    func handLandmarkVerifier() throws(KioskError) -> HandLandmarkVerifier {
        try inLiveMemory("palms", \.exclusive) { arena throws(ModelStoreError) in try store.handLandmarkVerifier(sharing: arena) }
    }

    /// A new face analyzer with the iris model (pupils for the passport crop): the start-up check.
    func analyzer() throws(KioskError) -> FaceAnalyzer {
        do { return try store.faceAnalyzer(path: inference) } catch {
            throw .models("still path: faces: \(error)")
        }
    }

    /// The still's mesh model, with the iris model for the faces step (integer working memory
    /// shared by the two) or alone for the close-up of the lower face (`MouthCloseUp`). With the
    /// live models lent (`live`), that memory is theirs, each model pass under their lock, as the
    /// palm and hand models': the iris program's 2.3 MB of activations and scratch partly land on
    /// pages the live programs keep resident anyway; else an arena of its own.
    private func landmarker(iris: Bool) throws(ModelStoreError) -> FaceLandmarker {
        if let live, let arena = live.arena {
            let landmarker = try store.faceLandmarker(iris: iris, path: inference, sharing: arena)
            landmarker.exclusive = live.exclusive
            return landmarker
        }
        return try store.faceLandmarker(iris: iris, path: inference, sharing: SharedArena(capacity: 16 << 20))
    }

    /// The mesh model alone for the rule `face_uncovered_mouth_mesh`, built after the still's
    /// face models are gone.
    func mouthMesh() throws(KioskError) -> FaceLandmarker {
        do { return try landmarker(iris: false) } catch {
            throw .models("still path: mouth close-up: \(error)")
        }
    }

    /// The attention face mesh alone (float path) for the rule `mouth_closed_refined_lips`, built
    /// after the still's face models are gone and dropped after its one run; `init` builds it
    /// once, so a missing or wrong file stops the kiosk at start-up, not at the first photo.
    func refinedLips() throws(KioskError) -> RefinedLips {
        try inLiveMemory("refined lips", \.exclusive) { arena throws(ModelStoreError) in try store.refinedLips(sharing: arena) }
    }

    /// The faces of a passport still, the face models built one after the other, each dropped
    /// (and its pages returned) before the next is built (`FaceAnalyzer.analyzeInSteps`): the
    /// four together took 18.7 MiB at their build, the still's peak. The mesh and the iris model
    /// share one integer working memory (`SharedArena`: the landmarker runs them one after the
    /// other), and each file's bytes are released once parsed (`ModelStore.faceLandmarker`).
    func faces(in still: Image) throws(KioskError) -> [FaceObservation] {
        let inference = self.inference, store = self.store
        // The pages of the live memory only the still's face models used go back after them.
        defer { returnLentPages() }
        do {
            return try FaceAnalyzer.analyzeInSteps(
                still,
                detector: { ProcessMemory.returnFreePages(); return try store.faceDetector(.short, path: inference) },
                landmarker: {
                    StillMemoryProbe.mark("detector")
                    ProcessMemory.returnFreePages()
                    let landmarker = try self.landmarker(iris: true)
                    StillMemoryProbe.mark("mesh-iris-build")
                    return landmarker
                },
                verifier: {
                    StillMemoryProbe.mark("mesh-iris")
                    ProcessMemory.returnFreePages()
                    return try store.faceDetector(.full, path: inference)
                })
        } catch {
            throw .models("still path: faces: \(error)")
        }
    }
}
