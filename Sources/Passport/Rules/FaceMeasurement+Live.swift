import ImageCore
import Vision

extension FaceMeasurement {
    /// One tracked face of a live frame: its box and pose, its capture quality from `estimator`
    /// and, when `examiner` is set (the passport rules need them), the examiner's measurements.
    /// The kiosk's vision stage and the frame benchmark both measure a frame with this.
    public static func live(_ image: Image, face: FaceMesh, estimator: CaptureQualityEstimator, examiner: Bool) -> FaceMeasurement {
        let q = estimator.evaluate(image, face: face)
        return FaceMeasurement(
            box: face.boundingBox, roll: Double(face.pose.roll), pitch: Double(face.pose.pitch), yaw: Double(face.pose.yaw),
            quality: Double(q.score), eyeOpenness: Double(q.eyeOpenness), mouthOpenness: Double(q.mouthOpenness),
            examiner: examiner ? ExaminerEstimator.measure(image, face: face, quality: q) : nil)
    }
}
