import ImageCore
import NeuralCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// MediaPipe's hand landmark model (`hand_landmark_lite.tflite` of the mediapipe 0.10.14 wheel),
/// used only for its hand-presence output: it confirms a palm the palm detector found, as
/// MediaPipe's hand tracking does (`hand_landmark_cpu.pbtxt`: presence ≥ 0.5). The palm detector
/// alone also fires on faces, necks and beards.
///
/// The region is MediaPipe's `palm_detection_detection_to_roi`: the palm box turned so that the
/// wrist (keypoint 0) is below the middle finger's knuckle (keypoint 2), moved half its height
/// towards the fingers, squared on its long side and enlarged 2.6×; 224×224, RGB in [0, 1],
/// edges replicated. Float path, as the palm detector.
public final class HandLandmarkVerifier {
    public static let inputSize = 224
    /// The model's shapes (checked at load): landmarks, presence, handedness, world landmarks.
    public static let inputShapes = [[1, inputSize, inputSize, 3]]
    public static let outputShapes = [[1, 63], [1, 1], [1, 1], [1, 63]]
    /// Output index of the hand-presence score (already a probability: the model ends in LOGISTIC).
    static let presenceOutput = 1

    public let interpreter: Interpreter
    /// Runs each model pass (input, run, output read) when set: for a model whose arena is shared
    /// with interpreters on another thread, the caller's lock around the pass (as
    /// `PersonSegmenter.exclusive`).
    public var exclusive: ((() -> Void) -> Void)? = nil
    /// Presence at least this confirms a palm. MediaPipe's hand tracking uses 0.5; on the tuning
    /// half of the examiner set the palms found on faces, necks and beards without a hand reach
    /// 0.71, real hands 0.99 (the pasted hand cut-out 0.53–0.99), so the examiner asks for 0.8.
    public var minPresence: Float = 0.8

    /// Loads `bytes` (`ModelFile.handLandmark`) for the float path, keeping no float weights
    /// beside the program's packed ones, with its activations in `shared` when given (see
    /// `PalmDetector.init`); the shapes are checked.
    public convenience init(model bytes: [UInt8], sharing shared: SharedArena? = nil) throws(ModelError) {
        var copy = ModelBytes(bytes)
        try self.init(taking: &copy, sharing: shared)
    }

    /// As `init(model:sharing:)`, taking the file's `bytes` (a mapping: `ModelStore.map`): released
    /// as soon as they are parsed (`bytes` is left empty; `Interpreter(taking:)`), before the
    /// weights are packed.
    public init(taking bytes: inout ModelBytes, sharing shared: SharedArena? = nil) throws(ModelError) {
        interpreter = try Interpreter(taking: &bytes, path: .float, sharing: shared, keepingWeights: false)
        try interpreter.requireShapes("MediaPipe hand landmark model", inputs: Self.inputShapes, outputs: Self.outputShapes)
    }

    /// The hand's region from a palm box and its wrist and middle-knuckle keypoints.
    public static func region(palm box: Rect, wrist: Point2, knuckle: Point2) -> RotatedRect {
        var vx = wrist.x - knuckle.x, vy = wrist.y - knuckle.y
        let n = (vx * vx + vy * vy).squareRoot()
        if n > 0 { vx /= n; vy /= n } else { vx = 0; vy = 1 }
        let side = 2.6 * max(box.width, box.height)
        let c = box.center
        return RotatedRect(center: Point2(c.x - 0.5 * box.height * vx, c.y - 0.5 * box.height * vy), width: side, height: side,
                           rotation: atan2f(-vx, vy))
    }

    /// The hand-presence score (0...1) of `region`.
    public func presence(_ image: Image, region: RotatedRect) -> Float {
        let size = Self.inputSize
        var score: Float = 0
        let pass = {
            self.interpreter.withInput(0) { tensor in
                TensorSampler.sample(image, region: region, into: tensor, width: size, height: size, range: .zeroToOne, border: .replicate)
            }
            self.interpreter.run()
            score = self.interpreter.withOutput(Self.presenceOutput) { $0[0] }
        }
        if let exclusive { exclusive(pass) } else { pass() }
        return score
    }
}
