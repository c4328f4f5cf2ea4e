// The kiosk's per-frame vision work, built from the libraries the kiosk's vision thread calls:
// face tracking (the integer-path mesh without iris, the detector every 30 frames while a second
// face is looked for, in three slices on every other frame (`FaceTracker.detectionSlices`): short
// range in passport mode, full range in booth mode, as the kiosk's `auto`), pose and capture quality, in passport mode the examiner measurements and the live rules,
// and with the background hidden the fast person mask (landscape model, temporal stability) on
// every frame but the detector's (`MaskCadence`, as the kiosk's vision stage). The models share one integer working memory, as on the kiosk's vision thread
// (`SharedArena`). No overlay, no capture: `Kiosk.frame-*` covers the whole loop.
import Foundation
import ImageCore
import NeuralCore
import Passport
import Vision

final class VisionStep {
    let tracker: FaceTracker
    let quality = CaptureQualityEstimator()
    let rules: LiveRules?
    let segmenter: PersonSegmenter?
    let guide: LayoutGuide
    private var measurements: [FaceMeasurement] = []
    private var irisWindow = IrisContrastWindow()
    private var cadence = MaskCadence()
    /// The last mask made (the segmenter's buffer), shown on the detector's frames.
    private var lastMask: Plane? = nil
    /// The last frame's instruction (kept so the work cannot be optimised away).
    private(set) var instruction = Instruction.noFace

    init(models: String, profile: Profile?, hideBackground: Bool, width: Int, height: Int) throws {
        // The kiosk's `detector = "auto"`: short range in passport mode, full range in booth mode.
        let store = ModelStore(directory: models), shared = SharedArena(capacity: 16 << 20)
        let faces = try store.faceAnalyzer(path: .integer, iris: false, detector: profile == nil ? .full : .short, verify: false,
                                           sharing: shared)
        tracker = FaceTracker(detector: faces.detector, landmarker: faces.landmarker, maxFaces: 2)
        tracker.detectionSlices = FaceTracker.liveDetectionSlices   // as the kiosk
        // A sitter's face: the mesh input from the frame halved, as the kiosk
        // (BOOTH_HALVE_LARGE_FACES=0: from the frame itself with 2×2 taps, for same-run comparisons).
        tracker.halvesLargeFaces = ProcessInfo.processInfo.environment["BOOTH_HALVE_LARGE_FACES"] != "0"
        // The step costs measured and the sliced run made now, not in a live frame.
        tracker.prepareDetectionSlices(frameWidth: width, frameHeight: height, format: .i420)
        rules = profile.map { LiveRules(profile: $0) }
        if hideBackground {
            let s = try store.segmenter(.fast, sharing: shared)
            s.temporalStability = true
            segmenter = s
        } else {
            segmenter = nil
        }
        guide = LayoutGuide.centred(width: width, height: height)
        measurements.reserveCapacity(tracker.maxFaces)
    }

    /// One upright preview frame: faces, measurements, rules, mask.
    func run(_ frame: Image) -> Int {
        let detectorRuns = tracker.detectorRuns
        let n = tracker.process(frame)
        measurements.removeAll(keepingCapacity: true)
        for i in 0..<n {
            measurements.append(.live(frame, face: tracker.face(i), estimator: quality, examiner: rules != nil))
        }
        if n > 0 { irisWindow.apply(to: &measurements[0]) } else { irisWindow.reset() }   // as the kiosk's LiveVision
        if let rules {
            instruction = measurements.withUnsafeBufferPointer { rules.check(faces: $0, guide: guide) }.instruction
        }
        if let segmenter {
            if !cadence.segments(detectorRan: tracker.detectorRuns != detectorRuns, lastMaskUsable: lastMask != nil), let lastMask {
                return n + Int(lastMask.base.load(as: UInt8.self))
            }
            let mask = segmenter.segment(frame).plane
            lastMask = mask
            return n + Int(mask.base.load(as: UInt8.self))
        }
        return n
    }
}
