import ImageCore
import Passport
import Vision

/// The vision worker's per-frame work: faces (tracking), pose, the passport rules and their
/// hysteresis. Everything is allocated at start-up; `analyze` allocates nothing.
final class LiveVision {
    let tracker: FaceTracker
    let quality = CaptureQualityEstimator()
    let rules: LiveRules?
    /// The guide's hysteresis, from the profile's `[live] hold_ms` and `release_ms`.
    var hysteresis: Hysteresis
    private var measurements: [FaceMeasurement]
    /// The first face's iris contrast over the last frames (`IrisContrastWindow`: the per-frame
    /// reading jitters on a still face).
    private var irisWindow = IrisContrastWindow()
    private var state = LiveState()
    /// Whether the face detector ran on the last frame analysed (the mask's cadence reads it).
    private(set) var detectorRan = false

    init(tracker: FaceTracker, rules: LiveRules?) {
        self.tracker = tracker
        self.rules = rules
        let live = rules?.profile.live
        hysteresis = Hysteresis(holdMilliseconds: live?.holdMilliseconds ?? 300, releaseMilliseconds: live?.releaseMilliseconds ?? 200)
        measurements = []
        measurements.reserveCapacity(tracker.maxFaces)
    }

    /// Analyses one upright preview frame against the layout guide. `timings` gets the face step
    /// (as `.detect` on frames where the detector ran, else `.landmarks`), `.quality` and `.rules`.
    func analyze(_ image: Image, guide: LayoutGuide, timings: StageTimings) -> LiveState {
        let detectorRuns = tracker.detectorRuns
        let start = ContinuousClock.now, cpu = StageTimings.threadCPUNanoseconds()
        let n = tracker.process(image)
        detectorRan = tracker.detectorRuns != detectorRuns
        timings.record(detectorRan ? .detect : .landmarks, nanoseconds: (ContinuousClock.now - start).nanoseconds,
                       cpuNanoseconds: StageTimings.threadCPUNanoseconds() &- cpu)
        timings.measure(.quality) { measure(image, faces: n) }
        timings.measure(.rules) { decide(image, faces: n, guide: guide) }
        return state
    }

    /// Pose and capture quality of each tracked face, into `measurements`.
    private func measure(_ image: Image, faces n: Int) {
        measurements.removeAll(keepingCapacity: true)
        for i in 0..<n {
            // The examiner's measurements feed only the passport rules (none in booth mode).
            measurements.append(.live(image, face: tracker.face(i), estimator: quality, examiner: rules != nil))
        }
        if n > 0 { irisWindow.apply(to: &measurements[0]) } else { irisWindow.reset() }
    }

    /// The live state from `measurements`: the first face's figures, the rules and their hysteresis.
    private func decide(_ image: Image, faces n: Int, guide: LayoutGuide) {
        state.sequence = image.metadata.sequence
        state.analysedFrames &+= 1
        state.faceCount = n
        if let first = measurements.first {
            state.faceBox = first.box
            state.roll = first.roll; state.pitch = first.pitch; state.yaw = first.yaw
            state.quality = first.quality
        } else {
            state.faceBox = nil
        }
        if let rules {
            let check = measurements.withUnsafeBufferPointer { rules.check(faces: $0, guide: guide) }
            state.check = check
            state.green = hysteresis.update(passed: check.passed, at: image.metadata.timestampNanoseconds)
            state.instruction = state.green ? .ready : (check.passed ? state.instruction : check.instruction)
        } else {
            state.green = true
            state.instruction = n == 0 ? .noFace : .ready
        }
    }
}
