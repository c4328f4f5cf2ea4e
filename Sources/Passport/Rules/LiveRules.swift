/// The live booth's rules: one frame's faces against the layout guide, evaluated under a profile.
///
/// `check` runs every frame and allocates nothing: it fills a `LiveCheck` of fixed fields. The
/// `Verdict` (every rule with its limit in words, for reports and sidecars) is built from that same
/// `LiveCheck`, so the two can never disagree.
public struct LiveRules: Sendable {
    public let profile: Profile

    public init(profile: Profile) { self.profile = profile }

    /// One measured rule: value and whether it passed (nil = not measured / not applicable).
    public struct Outcome: Sendable, Equatable {
        public var measured: Double
        public var passed: Bool
    }

    /// Every live rule's outcome for one frame.
    public struct LiveCheck: Sendable, Equatable {
        public var faceCount = 0
        public var widthRatio: Outcome? = nil
        public var tooSmall: Outcome? = nil
        public var tooLarge: Outcome? = nil
        public var offCentreX: Outcome? = nil
        public var offCentreY: Outcome? = nil
        public var pitch: Outcome? = nil
        public var yaw: Outcome? = nil
        public var roll: Outcome? = nil
        public var eyesOpen: Outcome? = nil
        public var mouthClosed: Outcome? = nil
        /// nil quality means the quality stage did not run: the shot is refused.
        public var quality: Outcome? = nil
        public var backgroundLight: Outcome? = nil
        public var backgroundPlain: Outcome? = nil
        /// The examiner's rules (nil when the face had no examiner measurements).
        public var examiner: ExaminerCheck? = nil
        /// How the profile treats glasses (picks the glasses instruction).
        public var glassesPolicy = ExaminerLimits.Glasses.refused

        public init() {}

        /// The one instruction, by priority (see `Instruction`).
        public var instruction: Instruction {
            if faceCount == 0 { return .noFace }
            if faceCount > 1 { return .multipleFaces }
            if tooSmall?.passed == false { return .moveCloser }
            if tooLarge?.passed == false { return .moveFurther }
            if offCentreX?.passed == false || offCentreY?.passed == false { return .centre }
            if pitch?.passed == false || yaw?.passed == false || roll?.passed == false { return .lookStraight }
            // The face rules sit between `lookStraight` and `qualityTooLow`: the first failing
            // one in `Instruction` order wins.
            var face: Instruction? = examiner?.instruction(glasses: glassesPolicy)
            if eyesOpen?.passed == false { face = min(face ?? .eyesClosed, .eyesClosed) }
            if mouthClosed?.passed == false { face = min(face ?? .mouthOpen, .mouthOpen) }
            if let face { return face }
            guard let q = quality else { return .cannotTakePhoto }
            if !q.passed { return .qualityTooLow }
            if backgroundLight?.passed == false || backgroundPlain?.passed == false { return .backgroundNotPlain }
            return .ready
        }

        public var passed: Bool { instruction == .ready }
    }

    /// Every rule for one frame, without allocating.
    public func check(faces: UnsafeBufferPointer<FaceMeasurement>, guide: LayoutGuide, background: BackgroundMeasurement? = nil,
                      replacingBackground: Bool = false) -> LiveCheck {
        var c = LiveCheck()
        c.faceCount = faces.count
        guard faces.count == 1 else { return c }
        let face = faces[0]
        let live = profile.live
        let g = guide.box
        let widthRatio = Double(face.box.width / g.width)
        c.tooSmall = Outcome(measured: widthRatio, passed: widthRatio >= 1 - live.faceWidthTolerance)
        c.tooLarge = Outcome(measured: widthRatio, passed: widthRatio <= 1 + live.faceWidthTolerance)
        let dx = Double(abs(face.box.center.x - g.center.x) / g.width)
        let dy = Double(abs(face.box.center.y - g.center.y) / g.height)
        c.offCentreX = Outcome(measured: dx, passed: dx <= live.centreTolerance)
        c.offCentreY = Outcome(measured: dy, passed: dy <= live.centreTolerance)
        c.pitch = Outcome(measured: face.pitch, passed: abs(face.pitch) < live.maxAbsPitch)
        c.yaw = Outcome(measured: face.yaw, passed: abs(face.yaw) < live.maxAbsYaw)
        c.roll = Outcome(measured: face.roll, passed: abs(face.roll) < live.maxAbsRoll)
        if live.eyesOpen, let e = face.eyeOpenness { c.eyesOpen = Outcome(measured: e, passed: e >= live.minEyeOpenness) }
        if let e = face.examiner {
            c.examiner = ExaminerCheck(e, limits: profile.examiner, mouthClosed: live.mouthClosed)
            c.glassesPolicy = profile.examiner.glasses
        } else if live.mouthClosed, let m = face.mouthOpenness {
            c.mouthClosed = Outcome(measured: m, passed: m <= live.maxMouthOpenness)
        }
        if let q = face.quality { c.quality = Outcome(measured: q, passed: q >= live.minQuality) }
        if live.plainBackground && !replacingBackground, let b = background {
            c.backgroundLight = Outcome(measured: b.meanLuma, passed: b.meanLuma >= live.minBackgroundLuma)
            c.backgroundPlain = Outcome(measured: b.deviation, passed: b.deviation <= live.maxBackgroundDeviation)
        }
        return c
    }

    /// Every rule with its limit in words: for reports, sidecars and tests.
    public func evaluate(faces: [FaceMeasurement], guide: LayoutGuide, background: BackgroundMeasurement? = nil,
                         replacingBackground: Bool = false) -> Verdict {
        let c = faces.withUnsafeBufferPointer {
            check(faces: $0, guide: guide, background: background, replacingBackground: replacingBackground)
        }
        return verdict(c)
    }

    /// The `Verdict` of a `LiveCheck`.
    public func verdict(_ c: LiveCheck) -> Verdict {
        let live = profile.live
        var rules: [RuleResult] = []
        func add(_ rule: String, _ o: Outcome?, _ limit: String, _ instruction: Instruction) {
            if let o { rules.append(RuleResult(rule: rule, measured: o.measured, limit: limit, passed: o.passed, instruction: instruction)) }
        }
        rules.append(RuleResult(rule: "face_count", measured: Double(c.faceCount), limit: "= 1", passed: c.faceCount == 1,
                                instruction: c.faceCount == 0 ? .noFace : .multipleFaces))
        guard c.faceCount == 1 else { return Verdict(profile: profile, rules: rules, instruction: c.instruction) }
        add("face_too_small", c.tooSmall, "≥ \(fmt(1 - live.faceWidthTolerance))", .moveCloser)
        add("face_too_large", c.tooLarge, "≤ \(fmt(1 + live.faceWidthTolerance))", .moveFurther)
        add("off_centre_x", c.offCentreX, "≤ \(fmt(live.centreTolerance))", .centre)
        add("off_centre_y", c.offCentreY, "≤ \(fmt(live.centreTolerance))", .centre)
        add("pitch", c.pitch, "|x| < \(fmt(live.maxAbsPitch))", .lookStraight)
        add("yaw", c.yaw, "|x| < \(fmt(live.maxAbsYaw))", .lookStraight)
        add("roll", c.roll, "|x| < \(fmt(live.maxAbsRoll))", .lookStraight)
        add("eyes_open", c.eyesOpen, "≥ \(fmt(live.minEyeOpenness))", .eyesClosed)
        add("mouth_closed", c.mouthClosed, "≤ \(fmt(live.maxMouthOpenness))", .mouthOpen)
        if let e = c.examiner { rules += e.results(profile.examiner) }
        if c.quality == nil {
            rules.append(RuleResult(rule: "quality", measured: -1, limit: "≥ \(fmt(live.minQuality))", passed: false, instruction: .cannotTakePhoto))
        }
        add("quality", c.quality, "≥ \(fmt(live.minQuality))", .qualityTooLow)
        add("background_light", c.backgroundLight, "≥ \(fmt(live.minBackgroundLuma))", .backgroundNotPlain)
        add("background_plain", c.backgroundPlain, "≤ \(fmt(live.maxBackgroundDeviation))", .backgroundNotPlain)
        return Verdict(profile: profile, rules: rules, instruction: c.instruction)
    }
}

/// Two decimals, for limits in words.
func fmt(_ x: Double) -> String {
    let v = (x * 100).rounded() / 100
    var s = "\(v)"
    if s.hasSuffix(".0") { s.removeLast(2) }
    return s
}
