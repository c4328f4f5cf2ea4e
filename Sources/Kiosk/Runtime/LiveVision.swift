import ImageCore
import Passport
import Vision

/// The vision worker's per-frame work: faces (tracking), pose, the passport rules and their
/// hysteresis. Everything is allocated at start-up; `analyze` allocates nothing.
final class LiveVision {
    let tracker: FaceTracker
    let quality = CaptureQualityEstimator()
    let rules: LiveRules?
    var hysteresis = Hysteresis(holdMilliseconds: 300, releaseMilliseconds: 200)
    private var measurements: [FaceMeasurement]
    private var state = LiveState()

    init(tracker: FaceTracker, rules: LiveRules?) {
        self.tracker = tracker
        self.rules = rules
        measurements = []
        measurements.reserveCapacity(tracker.maxFaces)
    }

    /// Analyses one upright preview frame against the layout guide.
    func analyze(_ image: Image, guide: LayoutGuide) -> LiveState {
        let n = tracker.process(image)
        measurements.removeAll(keepingCapacity: true)
        for i in 0..<n {
            let face = tracker.face(i)
            let q = quality.evaluate(image, face: face)
            measurements.append(FaceMeasurement(
                box: face.boundingBox, roll: Double(face.pose.roll), pitch: Double(face.pose.pitch), yaw: Double(face.pose.yaw),
                quality: Double(q.score), eyeOpenness: Double(q.eyeOpenness), mouthOpenness: Double(q.mouthOpenness),
                examiner: ExaminerEstimator.measure(image, face: face, quality: q)))
        }
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
        return state
    }
}
