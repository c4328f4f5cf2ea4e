/// The one instruction the booth shows at a time, in priority order (first wins).
public enum Instruction: Int, Sendable, CaseIterable, Comparable {
    case noFace
    case multipleFaces
    case moveCloser
    case moveFurther
    case centre
    case lookStraight
    case eyesClosed
    case mouthOpen
    case qualityTooLow
    case backgroundNotPlain
    case cannotTakePhoto
    case ready

    public static func < (a: Instruction, b: Instruction) -> Bool { a.rawValue < b.rawValue }
}
