import ImageCore
import Vision

/// What the rules need to know about one face, in frame pixels and radians. Built from a
/// `FaceObservation` and its capture quality; optional values are left out of the verdict when
/// the vision stage could not measure them.
public struct FaceMeasurement: Sendable, Equatable {
    public var box: Rect
    public var roll: Double
    public var pitch: Double
    public var yaw: Double
    /// Capture quality, 0...1.
    public var quality: Double?
    /// 0 = closed … 1 = wide open (the less open of the two eyes).
    public var eyeOpenness: Double?
    /// 0 = closed … 1 = wide open (used by `mouth_closed` only when `examiner` is nil).
    public var mouthOpenness: Double?
    /// The examiner's measurements (mouth, expression, eyes, glasses, covers, focus, light).
    public var examiner: ExaminerMeasurements?

    public init(box: Rect, roll: Double = 0, pitch: Double = 0, yaw: Double = 0, quality: Double? = nil,
                eyeOpenness: Double? = nil, mouthOpenness: Double? = nil, examiner: ExaminerMeasurements? = nil) {
        self.box = box; self.roll = roll; self.pitch = pitch; self.yaw = yaw
        self.quality = quality; self.eyeOpenness = eyeOpenness; self.mouthOpenness = mouthOpenness
        self.examiner = examiner
    }
}

/// Luma statistics of the region the person mask calls background.
public struct BackgroundMeasurement: Sendable, Equatable {
    public var meanLuma: Double
    public var deviation: Double
    /// Fraction of the frame that is background.
    public var coverage: Double

    public init(meanLuma: Double, deviation: Double, coverage: Double) {
        self.meanLuma = meanLuma; self.deviation = deviation; self.coverage = coverage
    }
}

/// The oval layout guide drawn on screen, as its bounding box in frame coordinates.
public struct LayoutGuide: Sendable, Equatable {
    public var box: Rect
    public init(box: Rect) { self.box = box }

    /// A guide centred in a `width`×`height` frame, `fraction` of the frame height tall, with a
    /// face-shaped 3:4 aspect.
    public static func centred(width: Int, height: Int, fraction: Float = 0.55) -> LayoutGuide {
        let h = Float(height) * fraction, w = h * 0.75
        return LayoutGuide(box: Rect(x: (Float(width) - w) / 2, y: (Float(height) - h) / 2 - Float(height) * 0.03, width: w, height: h))
    }
}

extension FaceMeasurement {
    /// The rules' view of a `FaceObservation` and (when the quality stage ran) its capture quality
    /// and examiner measurements.
    public init(_ face: FaceObservation, quality: CaptureQuality?, examiner: ExaminerMeasurements? = nil) {
        self.init(box: face.box, roll: Double(face.roll), pitch: Double(face.pitch), yaw: Double(face.yaw),
                  quality: quality.map { Double($0.score) }, eyeOpenness: quality.map { Double($0.eyeOpenness) },
                  mouthOpenness: quality.map { Double($0.mouthOpenness) }, examiner: examiner)
    }
}

extension BackgroundMeasurement {
    /// Luma statistics of what `mask` (0 background … 255 person, frame-sized) calls background
    /// in an RGB888 frame: the inverted mask's region must be light and uniform.
    public init(_ rgb: Image, mask: Plane) {
        let s = PassportPhotoMaker.backgroundStatistics(rgb, mask: mask)
        self.init(meanLuma: s.meanLuma, deviation: s.deviation, coverage: s.coverage)
    }
}
