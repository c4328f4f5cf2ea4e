#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The named parts of a capture-quality score, each 0 (bad) … 1 (good).
public enum QualityComponent: String, Sendable, CaseIterable, Codable {
    /// Focus: Laplacian energy of the face's detailed blocks above its flat blocks, at a fixed face scale.
    case sharpness
    /// Lighting: face luma level, clipping, left/right balance, harsh shadows, contrast.
    case exposure
    /// Sensor noise: Laplacian energy of the face's flattest blocks, relative to its brightness.
    case noise
    /// Distance from a frontal view (yaw and pitch; roll is in-plane and not counted).
    case pose
    /// Eyes open (the less open eye), from the eyelid landmarks.
    case eyesOpen
    /// Mouth closed and expression neutral (no open mouth, no broad smile), from the lip landmarks.
    case mouthNeutral
    /// Nothing over the face: mesh presence, no flat cover around the eyes or over nose, mouth
    /// and chin, and nose and mouth regions coloured like the skin of the forehead.
    case occlusion
    /// Face size in source pixels (the distance between the eyes).
    case resolution
}

/// One value per `QualityComponent`.
public struct QualityComponents: Sendable, Equatable, Codable {
    public var sharpness: Float = 1
    public var exposure: Float = 1
    public var noise: Float = 1
    public var pose: Float = 1
    public var eyesOpen: Float = 1
    public var mouthNeutral: Float = 1
    public var occlusion: Float = 1
    public var resolution: Float = 1

    public init() {}

    public subscript(_ c: QualityComponent) -> Float {
        get {
            switch c {
            case .sharpness: return sharpness
            case .exposure: return exposure
            case .noise: return noise
            case .pose: return pose
            case .eyesOpen: return eyesOpen
            case .mouthNeutral: return mouthNeutral
            case .occlusion: return occlusion
            case .resolution: return resolution
            }
        }
        set {
            switch c {
            case .sharpness: sharpness = newValue
            case .exposure: exposure = newValue
            case .noise: noise = newValue
            case .pose: pose = newValue
            case .eyesOpen: eyesOpen = newValue
            case .mouthNeutral: mouthNeutral = newValue
            case .occlusion: occlusion = newValue
            case .resolution: resolution = newValue
            }
        }
    }

    /// The component with the lowest value (the first in declaration order on a tie).
    public var weakest: QualityComponent {
        var best = QualityComponent.sharpness
        for c in QualityComponent.allCases where self[c] < self[best] { best = c }
        return best
    }
}

/// Raw measurements behind the components (for debugging, reports and calibration).
public struct QualityMeasurements: Sendable, Equatable, Codable {
    /// RMS Laplacian (8-bit units) of the face's most detailed blocks above its flattest, at the
    /// 128-px face scale.
    public var detail: Float = 0
    /// Chroma noise standard deviation (8-bit units, per U/V plane at the 64-px chroma scale of
    /// the face patch), from the flattest chroma blocks.
    public var noiseSigma: Float = 0
    /// Mean luma of forehead and cheeks, 0...255.
    public var skinLuma: Float = 0
    /// Standard deviation of luma over the face interior.
    public var faceContrast: Float = 0
    /// Fraction of skin pixels at ≤ 8 or ≥ 247.
    public var clipped: Float = 0
    /// |left − right| / max(left, right) of the cheek lumas.
    public var imbalance: Float = 0
    /// Luma standard deviation over mean across forehead and cheeks.
    public var shading: Float = 0
    /// Mean per-pixel colour distance of the nose and of the mouth-and-chin region from the
    /// skin reference (forehead and the bridge between the eyes): `(|ΔY| + 2(|ΔU| + |ΔV|)) / Y_ref`.
    public var noseDistance: Float = 0
    public var mouthDistance: Float = 0
    /// Eye aspect ratios (lid gap / eye width, 3D), person's right and left.
    public var rightEyeAspect: Float = 0
    public var leftEyeAspect: Float = 0
    /// Share (0...1) of flat, unclipped pixels (`FlatPixelCount`) in the box around each eye,
    /// person's right and left, and in the nose-mouth-chin region; the flatness threshold
    /// follows the face's own texture (`faceGradient`).
    public var rightEyeFlat: Float = 0
    public var leftEyeFlat: Float = 0
    public var mouthFlat: Float = 0
    public var lowerFaceFlat: Float = 0
    /// Mean central-difference gradient (8-bit units) over the face interior at the 128-px scale.
    public var faceGradient: Float = 0
    /// The pose the score used (radians).
    public var yaw: Float = 0
    public var pitch: Float = 0
    /// Inner-lip gap / mouth width (3D).
    public var mouthAspect: Float = 0
    /// Mouth-corner lift above the lip centre / mouth width (positive: corners up).
    public var cornerLift: Float = 0
    /// Distance between the eye centres in source pixels (3D).
    public var interocular: Float = 0

    public init() {}
}

/// The capture quality of one face: a score in 0...1 that compares captures of the same subject
/// (like Vision's face capture quality), its components, and the expression values the passport
/// rules read.
///
/// ## How the components combine
/// `score = Π cᵢ^wᵢ` — a weighted geometric mean of the components raised to `Σ wᵢ = 1.85`
/// (`totalWeight`), i.e. a product of powers.
/// - A product, not a sum: a component near 0 pulls the whole score towards 0 (a face with
///   covered eyes or plainly out of focus is a poor capture however good the rest is), and each
///   component's relative change moves the score by the same relative amount whatever the others
///   are, so a degradation orders captures of the same subject the same way in any conditions.
/// - Each component is a smooth, strictly monotone function of its measurement (no plateaus, no
///   thresholds), so a stronger degradation always lowers its component.
/// - Weights (`weight(_:)`): sharpness 0.35, pose 0.35, occlusion 0.35, exposure 0.3, noise
///   0.15, eyes open 0.15, mouth neutral 0.1, resolution 0.1. Focus, pose, covers and lighting
///   are what spoil a photo of a person; noise is partly confounded with fine texture;
///   expression and size matter less to a capture's technical quality (size is already
///   normalised away by measuring at a fixed face scale).
/// - Why they sum to 1.85 rather than 1: the score is also read against absolute limits (the
///   UK rule, quality ≥ 0.2). For one deal-breaking component at about 0.01 (a face plainly out
///   of focus, covered, far off frontal or badly lit) to take a good capture (≈ 0.65) under 0.2
///   on its own, its weight must be at least ln(0.2 / 0.65) / ln(0.01) ≈ 0.26. Four such
///   components at 0.3–0.35 already sum past 1, so normalising to 1 would leave noise, eyes,
///   mouth and size almost no say. A power of the weighted mean keeps the order of any two
///   captures (a monotone transform), which is what the degradation tests check.
public struct CaptureQuality: Sendable, Equatable, Codable {
    public var score: Float
    public var components: QualityComponents
    /// 0 = closed … 1 = wide open: the less open of the two eyes.
    public var eyeOpenness: Float
    /// 0 = closed … 1 = wide open.
    public var mouthOpenness: Float
    /// 0 = neutral … 1 = broad smile.
    public var smile: Float
    public var measurements: QualityMeasurements

    public init(components: QualityComponents, eyeOpenness: Float, mouthOpenness: Float, smile: Float,
                measurements: QualityMeasurements) {
        self.components = components
        self.eyeOpenness = eyeOpenness
        self.mouthOpenness = mouthOpenness
        self.smile = smile
        self.measurements = measurements
        self.score = CaptureQuality.combine(components)
    }

    /// The components' weights (they sum to `totalWeight`, 1.85).
    public static func weight(_ c: QualityComponent) -> Float {
        switch c {
        case .sharpness: return 0.35
        case .exposure: return 0.3
        case .noise: return 0.15
        case .pose: return 0.35
        case .eyesOpen: return 0.15
        case .mouthNeutral: return 0.1
        case .occlusion: return 0.35
        case .resolution: return 0.1
        }
    }

    /// Σ weights: the weighted geometric mean is raised to this power (see the type's notes).
    public static let totalWeight: Float = 1.85

    /// `Π cᵢ^wᵢ` over the components (each floored at 1e-4 so a zero stays finite).
    public static func combine(_ components: QualityComponents) -> Float {
        var log: Float = 0
        for c in QualityComponent.allCases {
            log += weight(c) * logf(max(1e-4, min(1, components[c])))
        }
        return expf(log)
    }
}
