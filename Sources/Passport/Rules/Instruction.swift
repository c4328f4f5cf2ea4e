/// The one instruction the booth shows at a time. Cases are in priority order: when several
/// rules fail, the first failing case wins; `ready` shows only when everything passes.
public enum Instruction: Int, Sendable, CaseIterable, Comparable, Codable {
    case noFace
    case multipleFaces
    case moveCloser
    case moveFurther
    case centre
    case lookStraight
    case faceCovered
    case eyesHidden
    case removeGlasses
    case glassesGlare
    case headCovering
    case eyesClosed
    case mouthOpen
    case notNeutral
    case blurred
    case unevenLight
    case qualityTooLow
    case backgroundNotPlain
    case cannotTakePhoto
    case ready

    public static func < (a: Instruction, b: Instruction) -> Bool { a.rawValue < b.rawValue }

    /// The key under `[messages]` in a profile file.
    public var key: String {
        switch self {
        case .noFace: return "no_face"
        case .multipleFaces: return "multiple_faces"
        case .moveCloser: return "move_closer"
        case .moveFurther: return "move_further"
        case .centre: return "centre"
        case .lookStraight: return "look_straight"
        case .eyesClosed: return "eyes_closed"
        case .faceCovered: return "face_covered"
        case .eyesHidden: return "eyes_hidden"
        case .removeGlasses: return "remove_glasses"
        case .glassesGlare: return "glasses_glare"
        case .headCovering: return "head_covering"
        case .mouthOpen: return "mouth_open"
        case .notNeutral: return "not_neutral"
        case .blurred: return "blurred"
        case .unevenLight: return "uneven_light"
        case .qualityTooLow: return "quality_too_low"
        case .backgroundNotPlain: return "background_not_plain"
        case .cannotTakePhoto: return "cannot_take_photo"
        case .ready: return "ready"
        }
    }

    /// Text used when a profile gives none (the UK reference app's wording where it has one).
    public var defaultText: String {
        switch self {
        case .noFace: return "Please look into the camera"
        case .multipleFaces: return "Only one person, please"
        case .moveCloser: return "Please bring your face closer to the camera"
        case .moveFurther: return "Please hold the camera further from your face"
        case .centre: return "Please move your face to the centre of the frame"
        case .lookStraight: return "Please look straight at the camera"
        case .eyesClosed: return "Please open your eyes"
        case .faceCovered: return "Please take your hand away from your face"
        case .eyesHidden: return "Please remove your sunglasses and keep your eyes uncovered"
        case .removeGlasses: return "Please remove your glasses"
        case .glassesGlare: return "Please tilt your glasses to avoid reflections"
        case .headCovering: return "Please remove your hat or head covering"
        case .mouthOpen: return "Please close your mouth"
        case .notNeutral: return "Please keep a neutral expression"
        case .blurred: return "Please hold still"
        case .unevenLight: return "Please face the light evenly"
        case .qualityTooLow: return "Image quality too low"
        case .backgroundNotPlain: return "Please stand in front of a plain, light background"
        case .cannotTakePhoto: return "We cannot take your photo right now"
        case .ready: return "Please take your photo :]"
        }
    }
}
