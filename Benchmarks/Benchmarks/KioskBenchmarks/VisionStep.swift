// The kiosk's per-frame vision work, built from the libraries the kiosk's vision thread calls:
// face tracking (the integer-path mesh without iris, the detector every 30 frames while a second
// face is looked for), pose and capture quality, in passport mode the examiner measurements and
// the live rules, and with the background hidden the fast person mask (landscape model, temporal
// stability). No overlay, no capture: `Kiosk.frame-*` covers the whole loop.
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
    /// The last frame's instruction (kept so the work cannot be optimised away).
    private(set) var instruction = Instruction.noFace

    init(models: String, profile: Profile?, hideBackground: Bool, width: Int, height: Int) throws {
        let faces = try FaceAnalyzer(modelDirectory: models, path: .integer, iris: false)
        tracker = FaceTracker(detector: faces.detector, landmarker: faces.landmarker, maxFaces: 2)
        rules = profile.map { LiveRules(profile: $0) }
        if hideBackground {
            let model = [UInt8](try Data(contentsOf: URL(fileURLWithPath: models + "/selfie_segmentation_landscape.tflite")))
            let s = try PersonSegmenter(level: .fast, generalModel: nil, landscapeModel: model)
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
        let n = tracker.process(frame)
        measurements.removeAll(keepingCapacity: true)
        for i in 0..<n {
            let face = tracker.face(i)
            let q = quality.evaluate(frame, face: face)
            measurements.append(FaceMeasurement(
                box: face.boundingBox, roll: Double(face.pose.roll), pitch: Double(face.pose.pitch), yaw: Double(face.pose.yaw),
                quality: Double(q.score), eyeOpenness: Double(q.eyeOpenness), mouthOpenness: Double(q.mouthOpenness),
                examiner: rules == nil ? nil : ExaminerEstimator.measure(frame, face: face, quality: q)))
        }
        if let rules {
            instruction = measurements.withUnsafeBufferPointer { rules.check(faces: $0, guide: guide) }.instruction
        }
        if let segmenter {
            return n + Int(segmenter.segment(frame).plane.base.load(as: UInt8.self))
        }
        return n
    }
}
