import Vision

/// The examiner's rules for one face under a profile's `ExaminerLimits`: fixed fields, filled
/// without allocating (the kiosk runs it every frame); `results` lists them by name with their
/// limits in words for reports and sidecars. A rule the profile switches off stays nil.
public struct ExaminerCheck: Sendable, Equatable {
    public typealias Outcome = LiveRules.Outcome
    /// `mouth_closed`: inner-lip gap over face height.
    public var mouthClosed: Outcome? = nil
    /// `mouth_closed_slit`: dark slit between the lips.
    public var slit: Outcome? = nil
    /// `mouth_closed_teeth`: teeth-like share of the lips.
    public var teeth: Outcome? = nil
    /// `mouth_closed_teeth_line`: teeth between the lips along the lip line.
    public var teethLine: Outcome? = nil
    /// `mouth_closed_lip_height`: outer-lip height over mouth width.
    public var lipHeight: Outcome? = nil
    /// `mouth_closed_combined`: the three mouth measures together, each over its own limit.
    public var mouthCombined: Outcome? = nil
    /// `mouth_closed_refined_lips`: the lip gap on the attention mesh's refined lips (stills only).
    public var refinedLips: Outcome? = nil
    /// `mouth_closed_close_up_lips`: the refined lips' gap on close-ups of the lower face (stills only).
    public var closeUpLips: Outcome? = nil
    /// `expression_neutral`: smile score.
    public var expression: Outcome? = nil
    /// `expression_neutral_brows`: brow height over the eyes.
    public var brows: Outcome? = nil
    /// `eyes_visible`: luma around the eyes plus the contrast inside them, over the skin's.
    public var eyesVisible: Outcome? = nil
    /// `eyes_visible_iris`: sclera-over-iris contrast.
    public var iris: Outcome? = nil
    /// `no_glasses` (frame line) or `glasses_allowed` (glare), per profile.
    public var glasses: Outcome? = nil
    /// `face_uncovered`: non-skin share over the lower face.
    public var cover: Outcome? = nil
    /// `face_uncovered_object`: a white object on one side of the mouth.
    public var object: Outcome? = nil
    /// `face_uncovered_mouth`: a light object at the mouth (either side or the middle).
    public var mouthObject: Outcome? = nil
    /// `face_uncovered_chin`: a light object below the lips (a hanging cigarette).
    public var chinObject: Outcome? = nil
    /// `face_uncovered_veil`: a whitish veil over the lips and chin (smoke, vapour).
    public var veil: Outcome? = nil
    /// `face_uncovered_mouth_bar`: a light bar leaving the lips (a cigarette held in them).
    public var mouthBar: Outcome? = nil
    /// `face_uncovered_sides`: edges on one side of the lower face and not the other.
    public var sides: Outcome? = nil
    /// `face_uncovered_lips`: one half of the lips unlike the other (a hand over a mouth corner).
    public var lips: Outcome? = nil
    /// `face_uncovered_hand`: a palm found over the face (stills only).
    public var hand: Outcome? = nil
    /// `face_uncovered_jaw`: the hand model's presence beside the jaw (stills only).
    public var handAtJaw: Outcome? = nil
    /// `no_hands_in_frame`: a hand anywhere in the photo's frame (stills only).
    public var handInFrame: Outcome? = nil
    /// `face_uncovered_hand_mouth`: a hand found on a square round the mouth (stills only).
    public var handAtMouth: Outcome? = nil
    /// `face_uncovered_mouth_mesh`: the face mesh's presence on a close-up of the lower face (stills only).
    public var mouthMesh: Outcome? = nil
    /// `head_covering`: forehead skin share (top band when refused, lower band when allowed).
    public var headCovering: Outcome? = nil
    /// `sharpness`: focus detail.
    public var sharpness: Outcome? = nil
    /// `lighting`: darker over brighter face side.
    public var lighting: Outcome? = nil

    public init() {}

    public init(_ m: ExaminerMeasurements, limits e: ExaminerLimits, mouthClosed: Bool) {
        func below(_ v: Float, _ limit: Double) -> Outcome { Outcome(measured: Double(v), passed: Double(v) <= limit) }
        func above(_ v: Float, _ limit: Double) -> Outcome { Outcome(measured: Double(v), passed: Double(v) >= limit) }
        if mouthClosed {
            self.mouthClosed = below(m.lipGap, e.maxLipGap)
            slit = below(m.lipSlit, e.maxLipSlit)
            teeth = below(m.teeth, e.maxTeeth)
            teethLine = below(m.teethLine, e.maxTeethLine)
            lipHeight = below(m.lipAspect, e.maxLipAspect)
            mouthCombined = below(Self.mouthEvidence(m, e), e.maxMouthEvidence)
            if let g = m.refinedLipGap { refinedLips = below(g, e.maxRefinedLipGap) }
            if let g = m.closeUpLipGap { closeUpLips = below(g, e.maxCloseUpLipGap) }
        }
        if e.expressionNeutral {
            expression = below(m.smile, e.maxSmile)
            brows = below(m.browHeight, e.maxBrowHeight)
        }
        if e.eyesVisible {
            eyesVisible = above(m.eyeVisibility, e.minEyeVisibility)
            iris = above(m.irisContrast, e.minIrisContrast)
        }
        switch e.glasses {
        case .refused: glasses = below(m.frameLine, e.maxFrameLine)
        case .allowed: glasses = below(m.glare, e.maxGlare)
        }
        if e.faceUncovered {
            cover = below(m.cover, e.maxCover)
            object = below(m.sideWhite, e.maxObject)
            mouthObject = below(m.mouthWhite, e.maxMouthObject)
            chinObject = below(m.chinWhite, e.maxChinObject)
            veil = below(m.mouthVeil, e.maxMouthVeil)
            mouthBar = below(m.mouthBar, e.maxMouthBar)
            sides = below(m.sideEdges, e.maxSideEdges)
            lips = below(m.lipSides, e.maxLipSides)
            if let h = m.hand { hand = below(h, e.maxHand) }
            if let h = m.handAtJaw { handAtJaw = below(h, e.maxHandAtJaw) }
            if let h = m.handInFrame { handInFrame = below(h, e.maxHandInFrame) }
            if let h = m.handAtMouth { handAtMouth = below(h, e.maxHandAtMouth) }
            if let h = m.mouthMeshPresence { mouthMesh = above(h, e.minMouthMeshPresence) }
        }
        switch e.headCovering {
        case .refused: headCovering = above(m.foreheadTop, e.minForeheadTop)
        case .religiousOrMedical: headCovering = above(m.foreheadLow, e.minForeheadLow)
        }
        sharpness = above(m.sharpness, e.minSharpness)
        lighting = above(m.lightingBalance, e.minLightingBalance)
    }

    /// Lips slightly apart often bring each mouth measure close to its limit without passing it:
    /// lip gap, slit and teeth, each over its own limit (teeth counted up to twice theirs), added.
    /// Closed lips read about 0.2–1.3, lips apart 1.5 and more.
    static func mouthEvidence(_ m: ExaminerMeasurements, _ e: ExaminerLimits) -> Float {
        let gap = Double(m.lipGap) / max(1e-6, e.maxLipGap), slit = Double(m.lipSlit) / max(1e-6, e.maxLipSlit)
        let teeth = min(Double(m.teeth), 2 * e.maxTeeth) / max(1e-6, e.maxTeeth)
        return Float(gap + slit + teeth)
    }

    /// The highest-priority instruction among the failing rules (nil when all pass).
    public func instruction(glasses kind: ExaminerLimits.Glasses) -> Instruction? {
        if cover?.passed == false || object?.passed == false || mouthObject?.passed == false || chinObject?.passed == false || veil?.passed == false || sides?.passed == false || lips?.passed == false || hand?.passed == false
            || handAtJaw?.passed == false || handInFrame?.passed == false || handAtMouth?.passed == false
            || mouthMesh?.passed == false || mouthBar?.passed == false {
            return .faceCovered
        }
        if eyesVisible?.passed == false || iris?.passed == false { return .eyesHidden }
        if glasses?.passed == false { return kind == .refused ? .removeGlasses : .glassesGlare }
        if headCovering?.passed == false { return .headCovering }
        if mouthClosed?.passed == false || slit?.passed == false || teeth?.passed == false || teethLine?.passed == false
            || lipHeight?.passed == false || mouthCombined?.passed == false || refinedLips?.passed == false
            || closeUpLips?.passed == false {
            return .mouthOpen
        }
        if expression?.passed == false || brows?.passed == false { return .notNeutral }
        if sharpness?.passed == false { return .blurred }
        if lighting?.passed == false { return .unevenLight }
        return nil
    }

    /// Every rule that ran, by name, with its limit in words.
    public func results(_ e: ExaminerLimits) -> [RuleResult] {
        var rules: [RuleResult] = []
        func add(_ rule: String, _ o: Outcome?, _ limit: String, _ instruction: Instruction) {
            if let o { rules.append(RuleResult(rule: rule, measured: o.measured, limit: limit, passed: o.passed, instruction: instruction)) }
        }
        add("face_uncovered", cover, "≤ \(fmt3(e.maxCover))", .faceCovered)
        add("face_uncovered_object", object, "≤ \(fmt3(e.maxObject))", .faceCovered)
        add("face_uncovered_mouth", mouthObject, "≤ \(fmt3(e.maxMouthObject))", .faceCovered)
        add("face_uncovered_chin", chinObject, "≤ \(fmt3(e.maxChinObject))", .faceCovered)
        add("face_uncovered_veil", veil, "≤ \(fmt3(e.maxMouthVeil))", .faceCovered)
        add("face_uncovered_mouth_bar", mouthBar, "≤ \(fmt3(e.maxMouthBar))", .faceCovered)
        add("face_uncovered_sides", sides, "≤ \(fmt3(e.maxSideEdges))", .faceCovered)
        add("face_uncovered_lips", lips, "≤ \(fmt3(e.maxLipSides))", .faceCovered)
        add("face_uncovered_hand", hand, "≤ \(fmt3(e.maxHand))", .faceCovered)
        add("face_uncovered_jaw", handAtJaw, "≤ \(fmt3(e.maxHandAtJaw))", .faceCovered)
        add("no_hands_in_frame", handInFrame, "≤ \(fmt3(e.maxHandInFrame))", .faceCovered)
        add("face_uncovered_hand_mouth", handAtMouth, "≤ \(fmt3(e.maxHandAtMouth))", .faceCovered)
        add("face_uncovered_mouth_mesh", mouthMesh, "≥ \(fmt3(e.minMouthMeshPresence))", .faceCovered)
        add("eyes_visible", eyesVisible, "≥ \(fmt3(e.minEyeVisibility))", .eyesHidden)
        add("eyes_visible_iris", iris, "≥ \(fmt3(e.minIrisContrast))", .eyesHidden)
        switch e.glasses {
        case .refused: add("no_glasses", glasses, "≤ \(fmt3(e.maxFrameLine))", .removeGlasses)
        case .allowed: add("glasses_allowed", glasses, "≤ \(fmt3(e.maxGlare))", .glassesGlare)
        }
        switch e.headCovering {
        case .refused: add("head_covering", headCovering, "≥ \(fmt3(e.minForeheadTop))", .headCovering)
        case .religiousOrMedical: add("head_covering", headCovering, "≥ \(fmt3(e.minForeheadLow)) (religious/medical allowed)", .headCovering)
        }
        add("mouth_closed", mouthClosed, "≤ \(fmt3(e.maxLipGap))", .mouthOpen)
        add("mouth_closed_slit", slit, "≤ \(fmt3(e.maxLipSlit))", .mouthOpen)
        add("mouth_closed_teeth", teeth, "≤ \(fmt3(e.maxTeeth))", .mouthOpen)
        add("mouth_closed_teeth_line", teethLine, "≤ \(fmt3(e.maxTeethLine))", .mouthOpen)
        add("mouth_closed_lip_height", lipHeight, "≤ \(fmt3(e.maxLipAspect))", .mouthOpen)
        add("mouth_closed_combined", mouthCombined, "≤ \(fmt3(e.maxMouthEvidence))", .mouthOpen)
        add("mouth_closed_refined_lips", refinedLips, "≤ \(fmt3(e.maxRefinedLipGap))", .mouthOpen)
        add("mouth_closed_close_up_lips", closeUpLips, "≤ \(fmt3(e.maxCloseUpLipGap))", .mouthOpen)
        add("expression_neutral", expression, "≤ \(fmt3(e.maxSmile))", .notNeutral)
        add("expression_neutral_brows", brows, "≤ \(fmt3(e.maxBrowHeight))", .notNeutral)
        add("sharpness", sharpness, "≥ \(fmt3(e.minSharpness))", .blurred)
        add("lighting", lighting, "≥ \(fmt3(e.minLightingBalance))", .unevenLight)
        return rules
    }
}

/// Three decimals, for the examiner's smaller limits (a lip gap of 0.025 of the face height).
func fmt3(_ x: Double) -> String {
    let v = (x * 1000).rounded() / 1000
    var s = "\(v)"
    if s.hasSuffix(".0") { s.removeLast(2) }
    return s
}
