import Config

/// The examiner's rules of a profile (`[examiner]` in `profiles/NAME.toml`): which apply and
/// their limits on `ExaminerMeasurements`. The mouth rule is switched by `[live] mouth_closed`;
/// the others here. Defaults are the UK's.
public struct ExaminerLimits: Sendable, Equatable {
    /// Glasses: refused outright (UK, US), or allowed when the eyes stay visible and the lenses
    /// show no glare (ICAO, Schengen).
    public enum Glasses: String, Sendable, Equatable, CaseIterable { case refused, allowed }
    /// Head coverings: refused, or allowed for religious or medical reasons as long as the face
    /// stays visible from the chin to the forehead (the lower forehead band must show skin).
    public enum HeadCovering: String, Sendable, Equatable, CaseIterable {
        case refused
        case religiousOrMedical = "religious_or_medical"
    }

    /// `lipGap` (inner-lip gap over face height) at most this.
    public var maxLipGap = 0.024
    /// `lipSlit` (dark slit between the lips over face height) at most this.
    public var maxLipSlit = 0.025
    /// `teeth` (teeth-like share of the lips) at most this.
    public var maxTeeth = 0.02
    /// `teethLine` (teeth-like height along the lip line, in eye distances) at most this.
    public var maxTeethLine = 0.0095
    /// `lipAspect` (outer-lip height over mouth width) at most this.
    public var maxLipAspect = 0.47
    /// `refinedLipGap` (the lip gap on the attention mesh's refined lips; stills only) at most this.
    public var maxRefinedLipGap = 0.022
    /// `closeUpLipGap` (the same on close-ups of the lower face, three averaged; stills only) at most this.
    public var maxCloseUpLipGap = 0.025
    /// The three mouth measures, each over its limit, added (`mouth_closed_combined`) at most this.
    public var maxMouthEvidence = 1.7
    public var expressionNeutral = true
    /// `smile` (0 neutral … 1 broad smile) at most this.
    public var maxSmile = 0.68
    /// `browHeight` (upper lid below the brow, over the eye distance) at most this.
    public var maxBrowHeight = 0.335
    public var eyesVisible = true
    /// `eyeVisibility` (luma around the eyes plus the spread inside the eye openings, over the
    /// cheeks') at least this …
    public var minEyeVisibility = 0.71
    /// … and `irisContrast` (sclera over iris, over the skin) at least this.
    public var minIrisContrast = 0.08
    public var glasses = Glasses.refused
    /// Refused glasses: `frameLine` at most this.
    public var maxFrameLine = 0.3
    /// Allowed glasses: `glare` at most this.
    public var maxGlare = 0.02
    public var faceUncovered = true
    /// `cover` (largest non-skin share over nose, cheeks, mouth surround, chin) at most this.
    public var maxCover = 0.85
    /// `sideWhite` (near-white share of one side of the mouth and cheeks over the other's) at
    /// most this: a cigarette or another white object.
    public var maxObject = 0.05
    /// `mouthWhite` (near-white share of the box round the mouth, teeth left out) at most this:
    /// a cigarette, cigar or pipe at the lips.
    public var maxMouthObject = 0.03
    /// `chinWhite` (near-white share below the lips down to the chin) at most this: a cigarette
    /// hanging from the lips.
    public var maxChinObject = 0.05
    /// `mouthVeil` (the lips' and the chin area's luma over the cheeks' and nose's, the lower of
    /// the two) at most this: smoke or vapour in front of the mouth and chin.
    public var maxMouthVeil = 1.0
    /// `mouthBar` (a light bar leaving the lips, over the skin's luma) at most this: a cigarette
    /// held in the lips.
    public var maxMouthBar = 0.43
    /// `sideEdges` (edge share of one side over the other's) at most this: a hand's fingers.
    public var maxSideEdges = 0.55
    /// `lipSides` (one half of the lips' redness against the other's) at most this: a hand or
    /// an object over a mouth corner.
    public var maxLipSides = 0.85
    /// `hand` (share of a palm box over the face box; stills only) at most this.
    public var maxHand = 0.05
    /// `handAtJaw` (hand model's presence beside the jaw; stills only) at most this.
    public var maxHandAtJaw = 0.4
    /// `handInFrame` (hand model's presence on palms anywhere in the photo's frame; stills only)
    /// at most this.
    public var maxHandInFrame = 0.75
    /// `handAtMouth` (hand model's presence on palms found on a square round the mouth; stills
    /// only) at most this.
    public var maxHandAtMouth = 0.7
    /// `mouthMeshPresence` (the face mesh's presence on a close-up of the lower face; stills only)
    /// at least this.
    public var minMouthMeshPresence = 0.08
    public var headCovering = HeadCovering.refused
    /// Refused coverings: `foreheadTop` (skin share of the hairline band) at least this.
    public var minForeheadTop = 0.31
    /// Allowed coverings: `foreheadLow` (skin share above the brows) at least this.
    public var minForeheadLow = 0.15
    /// `sharpness` (focus detail) at least this.
    public var minSharpness = 6.5
    /// `lightingBalance` (darker over brighter face side) at least this.
    public var minLightingBalance = 0.5

    public init() {}

    /// Reads the `[examiner]` table (absent: the defaults).
    static func parse(_ t: ConfigReader?) throws(ConfigError) -> ExaminerLimits {
        var e = ExaminerLimits()
        guard let t else { return e }
        e.maxLipGap = try t.double("max_lip_gap", default: e.maxLipGap, in: 0...1)
        e.maxLipSlit = try t.double("max_lip_slit", default: e.maxLipSlit, in: 0...1)
        e.maxTeeth = try t.double("max_teeth", default: e.maxTeeth, in: 0...1)
        e.maxTeethLine = try t.double("max_teeth_line", default: e.maxTeethLine, in: 0...1)
        e.maxLipAspect = try t.double("max_lip_aspect", default: e.maxLipAspect, in: 0...2)
        e.maxRefinedLipGap = try t.double("max_refined_lip_gap", default: e.maxRefinedLipGap, in: 0...1)
        e.maxCloseUpLipGap = try t.double("max_close_up_lip_gap", default: e.maxCloseUpLipGap, in: 0...1)
        e.maxMouthEvidence = try t.double("max_mouth_evidence", default: e.maxMouthEvidence, in: 0...10)
        e.expressionNeutral = try t.bool("expression_neutral", default: e.expressionNeutral)
        e.maxSmile = try t.double("max_smile", default: e.maxSmile, in: 0...1)
        e.maxBrowHeight = try t.double("max_brow_height", default: e.maxBrowHeight, in: 0...2)
        e.eyesVisible = try t.bool("eyes_visible", default: e.eyesVisible)
        e.minEyeVisibility = try t.double("min_eye_visibility", default: e.minEyeVisibility, in: 0...4)
        e.minIrisContrast = try t.double("min_iris_contrast", default: e.minIrisContrast, in: -1...1)
        let glasses = try t.string("glasses", oneOf: Glasses.allCases.map(\.rawValue), default: e.glasses.rawValue)
        e.glasses = Glasses(rawValue: glasses) ?? .refused
        e.maxFrameLine = try t.double("max_frame_line", default: e.maxFrameLine, in: 0...1)
        e.maxGlare = try t.double("max_glare", default: e.maxGlare, in: 0...1)
        e.faceUncovered = try t.bool("face_uncovered", default: e.faceUncovered)
        e.maxCover = try t.double("max_cover", default: e.maxCover, in: 0...1)
        e.maxObject = try t.double("max_object", default: e.maxObject, in: 0...1)
        e.maxMouthObject = try t.double("max_mouth_object", default: e.maxMouthObject, in: 0...1)
        e.maxChinObject = try t.double("max_chin_object", default: e.maxChinObject, in: 0...1)
        e.maxMouthVeil = try t.double("max_mouth_veil", default: e.maxMouthVeil, in: 0...4)
        e.maxMouthBar = try t.double("max_mouth_bar", default: e.maxMouthBar, in: 0...4)
        e.maxSideEdges = try t.double("max_side_edges", default: e.maxSideEdges, in: 0...1)
        e.maxLipSides = try t.double("max_lip_sides", default: e.maxLipSides, in: 0...1)
        e.maxHand = try t.double("max_hand", default: e.maxHand, in: 0...1)
        e.maxHandAtJaw = try t.double("max_hand_at_jaw", default: e.maxHandAtJaw, in: 0...1)
        e.maxHandInFrame = try t.double("max_hand_in_frame", default: e.maxHandInFrame, in: 0...1)
        e.maxHandAtMouth = try t.double("max_hand_at_mouth", default: e.maxHandAtMouth, in: 0...1)
        e.minMouthMeshPresence = try t.double("min_mouth_mesh_presence", default: e.minMouthMeshPresence, in: 0...1)
        let covering = try t.string("head_covering", oneOf: HeadCovering.allCases.map(\.rawValue), default: e.headCovering.rawValue)
        e.headCovering = HeadCovering(rawValue: covering) ?? .refused
        e.minForeheadTop = try t.double("min_forehead_top", default: e.minForeheadTop, in: 0...1)
        e.minForeheadLow = try t.double("min_forehead_low", default: e.minForeheadLow, in: 0...1)
        e.minSharpness = try t.double("min_sharpness", default: e.minSharpness, in: 0...255)
        e.minLightingBalance = try t.double("min_lighting_balance", default: e.minLightingBalance, in: 0...1)
        return e
    }
}
