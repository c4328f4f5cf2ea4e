import Passport
import Vision

/// What the vision worker last concluded, for the screen and the shutter. A plain value: the
/// worker publishes it under a lock, the main loop copies it out.
public struct LiveState: Sendable, Equatable {
    /// Sequence of the analysed frame.
    public var sequence: UInt64 = 0
    public var faceCount = 0
    /// The first face's box, in upright frame coordinates.
    public var faceBox: Rect? = nil
    public var roll = 0.0
    public var pitch = 0.0
    public var yaw = 0.0
    public var quality: Double? = nil
    /// Passport mode: every rule's outcome, and the guide's colour after hysteresis.
    public var check = LiveRules.LiveCheck()
    public var green = false
    public var instruction: Instruction = .noFace
    public var analysedFrames: UInt64 = 0

    public init() {}
}
