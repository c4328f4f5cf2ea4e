import Config
import Passport
import Testing
import Vision

/// The examiner's rules as rules: each measurement on the wrong side of its profile limit gives
/// its rule, its instruction in priority order, its name in the report; profiles switch rules.
@Suite struct ExaminerRulesTests {
    let guide = LayoutGuide(box: Rect(x: 220, y: 100, width: 200, height: 266))

    /// Measurements on the good side of every UK limit (halfway between the limit and ideal).
    func good(_ e: ExaminerLimits) -> ExaminerMeasurements {
        var m = ExaminerMeasurements()
        m.lipGap = Float(e.maxLipGap / 2); m.lipSlit = 0; m.teeth = 0; m.smile = 0
        m.eyeVisibility = Float(e.minEyeVisibility + 0.2); m.irisContrast = Float(e.minIrisContrast + 0.2)
        m.frameLine = Float(e.maxFrameLine / 2); m.glare = 0
        m.cover = 0; m.sideEdges = 0; m.sideWhite = 0; m.lipSides = 0; m.mouthVeil = 0.6
        m.foreheadTop = 1; m.foreheadLow = 1
        m.sharpness = Float(e.minSharpness * 2); m.lightingBalance = 0.95
        return m
    }

    func face(_ m: ExaminerMeasurements) -> FaceMeasurement {
        FaceMeasurement(box: guide.box, roll: 0.01, pitch: -0.05, yaw: 0.03, quality: 0.6, eyeOpenness: 0.8, mouthOpenness: 0.05, examiner: m)
    }

    func verdict(_ m: ExaminerMeasurements, profile: String = "uk") throws -> Verdict {
        try LiveRules(profile: shippedProfile(profile)).evaluate(faces: [face(m)], guide: guide)
    }

    @Test func everyRuleIsInTheReportAndPasses() throws {
        let e = try shippedProfile("uk").examiner
        let v = try verdict(good(e))
        #expect(v.passed, "\(v.failures)")
        for rule in ["mouth_closed", "mouth_closed_slit", "mouth_closed_teeth", "mouth_closed_teeth_line", "mouth_closed_lip_height",
                     "mouth_closed_combined",
                     "expression_neutral", "expression_neutral_brows", "eyes_visible", "eyes_visible_iris", "no_glasses",
                     "face_uncovered", "face_uncovered_object", "face_uncovered_mouth", "face_uncovered_chin", "face_uncovered_veil", "face_uncovered_sides", "head_covering", "sharpness", "lighting"] {
            #expect(v.rules.contains { $0.rule == rule }, "\(rule) missing from the report")
        }
    }

    @Test func eachMeasurementPastItsLimitGivesItsInstruction() throws {
        let e = try shippedProfile("uk").examiner
        let g = good(e)
        func check(_ change: (inout ExaminerMeasurements) -> Void, _ rule: String, _ expected: Instruction) throws {
            var m = g
            change(&m)
            let v = try verdict(m)
            #expect(v.instruction == expected, "\(rule): \(v.instruction)")
            #expect(v.rules.first { $0.rule == rule }?.passed == false, "\(rule) did not fail")
        }
        try check({ $0.lipGap = Float(e.maxLipGap * 1.5) }, "mouth_closed", .mouthOpen)
        try check({ $0.lipSlit = Float(e.maxLipSlit * 2) }, "mouth_closed_slit", .mouthOpen)
        try check({ $0.teeth = Float(e.maxTeeth + 0.1) }, "mouth_closed_teeth", .mouthOpen)
        try check({ $0.teethLine = Float(e.maxTeethLine + 0.01) }, "mouth_closed_teeth_line", .mouthOpen)
        try check({ $0.lipAspect = Float(e.maxLipAspect + 0.1) }, "mouth_closed_lip_height", .mouthOpen)
        try check({ $0.refinedLipGap = Float(e.maxRefinedLipGap * 1.5) }, "mouth_closed_refined_lips", .mouthOpen)
        try check({ $0.closeUpLipGap = Float(e.maxCloseUpLipGap * 1.5) }, "mouth_closed_close_up_lips", .mouthOpen)
        // Each mouth measure under its own limit, the three together over the combined one.
        try check({ $0.lipGap = Float(e.maxLipGap * 0.9); $0.lipSlit = Float(e.maxLipSlit * 0.9) }, "mouth_closed_combined", .mouthOpen)
        try check({ $0.smile = Float(min(1, e.maxSmile + 0.2)) }, "expression_neutral", .notNeutral)
        try check({ $0.browHeight = Float(e.maxBrowHeight + 0.1) }, "expression_neutral_brows", .notNeutral)
        try check({ $0.eyeVisibility = Float(e.minEyeVisibility / 2) }, "eyes_visible", .eyesHidden)
        try check({ $0.irisContrast = Float(e.minIrisContrast - 0.1) }, "eyes_visible_iris", .eyesHidden)
        try check({ $0.frameLine = Float(e.maxFrameLine * 2) }, "no_glasses", .removeGlasses)
        try check({ $0.cover = Float(min(1, e.maxCover + 0.1)) }, "face_uncovered", .faceCovered)
        try check({ $0.sideWhite = Float(e.maxObject + 0.05) }, "face_uncovered_object", .faceCovered)
        try check({ $0.mouthWhite = Float(e.maxMouthObject + 0.05) }, "face_uncovered_mouth", .faceCovered)
        try check({ $0.chinWhite = Float(e.maxChinObject + 0.05) }, "face_uncovered_chin", .faceCovered)
        try check({ $0.mouthBar = Float(e.maxMouthBar + 0.05) }, "face_uncovered_mouth_bar", .faceCovered)
        try check({ $0.mouthVeil = Float(e.maxMouthVeil + 0.05) }, "face_uncovered_veil", .faceCovered)
        try check({ $0.sideEdges = Float(min(1, e.maxSideEdges + 0.1)) }, "face_uncovered_sides", .faceCovered)
        try check({ $0.lipSides = Float(min(1, e.maxLipSides + 0.1)) }, "face_uncovered_lips", .faceCovered)
        try check({ $0.hand = Float(min(1, e.maxHand + 0.2)) }, "face_uncovered_hand", .faceCovered)
        try check({ $0.handAtJaw = Float(min(1, e.maxHandAtJaw + 0.2)) }, "face_uncovered_jaw", .faceCovered)
        try check({ $0.handInFrame = Float(min(1, e.maxHandInFrame + 0.2)) }, "no_hands_in_frame", .faceCovered)
        try check({ $0.handAtMouth = Float(min(1, e.maxHandAtMouth + 0.2)) }, "face_uncovered_hand_mouth", .faceCovered)
        try check({ $0.mouthMeshPresence = Float(e.minMouthMeshPresence / 2) }, "face_uncovered_mouth_mesh", .faceCovered)
        try check({ $0.foreheadTop = Float(e.minForeheadTop / 2) }, "head_covering", .headCovering)
        try check({ $0.sharpness = Float(e.minSharpness / 2) }, "sharpness", .blurred)
        try check({ $0.lightingBalance = Float(e.minLightingBalance / 2) }, "lighting", .unevenLight)
    }

    @Test func priorityFollowsTheInstructionList() throws {
        let e = try shippedProfile("uk").examiner
        var m = good(e)
        m.lipGap = 1; m.lightingBalance = 0; m.sharpness = 0
        #expect(try verdict(m).instruction == .mouthOpen)
        m.eyeVisibility = 0
        #expect(try verdict(m).instruction == .eyesHidden)
        m.cover = 1
        #expect(try verdict(m).instruction == .faceCovered)
        // Pose comes before every face rule; the face rules before capture quality.
        var f = face(m); f.yaw = 0.5
        #expect(try LiveRules(profile: shippedProfile("uk")).evaluate(faces: [f], guide: guide).instruction == .lookStraight)
        var q = face(good(e)); q.quality = 0.01; q.examiner?.sharpness = 0
        #expect(try LiveRules(profile: shippedProfile("uk")).evaluate(faces: [q], guide: guide).instruction == .blurred)
        #expect(Instruction.lookStraight < .faceCovered && .unevenLight < .qualityTooLow)
    }

    @Test func profilesSwitchRules() throws {
        // US: a natural smile and an open mouth are allowed; glasses are not.
        let us = try shippedProfile("us").examiner
        var m = good(us)
        m.smile = 1; m.lipGap = 0.2; m.lipSlit = 0.2; m.teeth = 0.5
        #expect(try verdict(m, profile: "us").passed)
        m.frameLine = 1
        #expect(try verdict(m, profile: "us").instruction == .removeGlasses)
        // ICAO: glasses are allowed without glare.
        let icao = try shippedProfile("icao").examiner
        m = good(icao)
        m.frameLine = 1
        let v = try verdict(m, profile: "icao")
        #expect(v.passed && v.rules.contains { $0.rule == "glasses_allowed" } && !v.rules.contains { $0.rule == "no_glasses" })
        m.glare = Float(icao.maxGlare + 0.1)
        #expect(try verdict(m, profile: "icao").instruction == .glassesGlare)
    }

    @Test func religiousCoveringsSwitchKeepsTheForeheadRule() throws {
        var p = try shippedProfile("uk")
        p.examiner.headCovering = .religiousOrMedical
        var m = good(p.examiner)
        m.foreheadTop = 0                                      // hairline covered: allowed
        let rules = LiveRules(profile: p)
        #expect(rules.evaluate(faces: [face(m)], guide: guide).passed)
        m.foreheadLow = 0                                      // forehead covered: refused
        #expect(rules.evaluate(faces: [face(m)], guide: guide).instruction == .headCovering)
        let parsed = try Profile.parse("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nhead_covering = \"religious_or_medical\"\n",
                                       file: "x.toml")
        #expect(parsed.examiner.headCovering == .religiousOrMedical)
    }

    /// The hand rule runs only where the palm detector ran (stills): a nil `hand` leaves it out
    /// of the report, 0 (no palm found) passes, a palm over the face fails; `max_hand` sets it.
    @Test func handRuleRunsOnlyWhenThePalmDetectorRan() throws {
        let e = try shippedProfile("uk").examiner
        var m = good(e)
        #expect(m.hand == nil)
        #expect(try !verdict(m).rules.contains { $0.rule == "face_uncovered_hand" })
        m.hand = 0
        let v = try verdict(m)
        #expect(v.passed && v.rules.first { $0.rule == "face_uncovered_hand" }?.passed == true)
        m.hand = 1
        #expect(try verdict(m).instruction == .faceCovered)
        let parsed = try Profile.parse("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nmax_hand = 0.5\n", file: "x.toml")
        #expect(parsed.examiner.maxHand == 0.5)
        #expect(throws: ConfigError.self) {
            try Profile.parse("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nmax_hand = 2\n", file: "x.toml")
        }
    }

    /// The hand-at-mouth rule runs only on stills (nil leaves it out of the report); 0 passes, a
    /// confirmed hand fails with the cover instruction; `max_hand_at_mouth` sets it and a value
    /// outside 0...1 is refused.
    @Test func handAtMouthRuleRunsOnlyWhenThePalmDetectorRan() throws {
        let e = try shippedProfile("uk").examiner
        var m = good(e)
        #expect(m.handAtMouth == nil)
        #expect(try !verdict(m).rules.contains { $0.rule == "face_uncovered_hand_mouth" })
        m.handAtMouth = 0
        let v = try verdict(m)
        #expect(v.passed && v.rules.first { $0.rule == "face_uncovered_hand_mouth" }?.passed == true)
        m.handAtMouth = Float(e.maxHandAtMouth + 0.01)
        #expect(try verdict(m).instruction == .faceCovered)
        let parsed = try Profile.parse("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nmax_hand_at_mouth = 0.7\n", file: "x.toml")
        #expect(parsed.examiner.maxHandAtMouth == 0.7)
        #expect(throws: ConfigError.self) {
            try Profile.parse("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nmax_hand_at_mouth = 1.5\n", file: "x.toml")
        }
    }

    /// The close-up mesh rule runs only on stills (nil leaves it out of the report); a presence of
    /// 1 passes, one under the limit fails with the cover instruction; `min_mouth_mesh_presence`
    /// sets it and a value outside 0...1 is refused.
    @Test func mouthMeshRuleRunsOnlyOnStills() throws {
        let e = try shippedProfile("uk").examiner
        var m = good(e)
        #expect(m.mouthMeshPresence == nil)
        #expect(try !verdict(m).rules.contains { $0.rule == "face_uncovered_mouth_mesh" })
        m.mouthMeshPresence = 1
        let v = try verdict(m)
        #expect(v.passed && v.rules.first { $0.rule == "face_uncovered_mouth_mesh" }?.passed == true)
        m.mouthMeshPresence = Float(e.minMouthMeshPresence - 0.01)
        #expect(try verdict(m).instruction == .faceCovered)
        let parsed = try Profile.parse("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nmin_mouth_mesh_presence = 0.3\n", file: "x.toml")
        #expect(parsed.examiner.minMouthMeshPresence == 0.3)
        #expect(throws: ConfigError.self) {
            try Profile.parse("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nmin_mouth_mesh_presence = -0.1\n", file: "x.toml")
        }
    }

    /// A stills-only mouth rule, `rule`, measured by `measure` against `limit`: nil (as on every
    /// live frame) leaves it out of the report; `under` × the limit passes with the limit shown,
    /// `over` × the limit fails with "Please close your mouth" as the only failure; US (no mouth
    /// rule) does not run it, uk, icao and schengen do; the profile key `key` sets the limit
    /// (`parsedLimit` read back as `parsed`) and `refusedValue` is refused.
    func stillsOnlyMouthRule(_ rule: String, _ measure: WritableKeyPath<ExaminerMeasurements, Float?>, limit: Double,
                             under: Double, over: Double, key: String, parsedLimit: Double, refusedValue: Double,
                             parsed: (ExaminerLimits) -> Double) throws {
        var m = try good(shippedProfile("uk").examiner)
        #expect(m[keyPath: measure] == nil)
        #expect(try !verdict(m).rules.contains { $0.rule == rule })
        m[keyPath: measure] = Float(limit * under)
        let v = try verdict(m)
        let passed = v.rules.first { $0.rule == rule }
        #expect(v.passed && passed?.passed == true && passed?.limit == "≤ \(limit)", "\(String(describing: passed))")
        m[keyPath: measure] = Float(limit * over)
        let refused = try verdict(m)
        #expect(!refused.passed && refused.instruction == .mouthOpen)
        #expect(refused.rules.first { $0.rule == rule }.map { !$0.passed && $0.instruction == .mouthOpen } == true)
        #expect(refused.instruction.defaultText == "Please close your mouth")
        // Every other rule passes: the refusal is this rule's alone.
        #expect(refused.failures.map(\.rule) == [rule], "\(refused.failures)")
        #expect(try !verdict(m, profile: "us").rules.contains { $0.rule == rule })
        for name in ["uk", "icao", "schengen"] {
            #expect(try verdict(m, profile: name).rules.first { $0.rule == rule }?.passed == false, "\(name)")
        }
        let header = "name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\n"
        #expect(parsed(try Profile.parse(header + "\(key) = \(parsedLimit)\n", file: "x.toml").examiner) == parsedLimit)
        #expect(throws: ConfigError.self) { try Profile.parse(header + "\(key) = \(refusedValue)\n", file: "x.toml") }
    }

    /// The refined-lips rule runs only on stills (nil, as on every live frame, leaves it out of the
    /// report); a lip gap under the limit passes, one over it fails with "Please close your mouth";
    /// a profile without the mouth rule (US) does not run it; `max_refined_lip_gap` sets it and a
    /// value outside 0...1 is refused.
    @Test func refinedLipsRuleRunsOnlyOnStills() throws {
        try stillsOnlyMouthRule("mouth_closed_refined_lips", \.refinedLipGap, limit: shippedProfile("uk").examiner.maxRefinedLipGap,
                                under: 0.9, over: 1.1, key: "max_refined_lip_gap", parsedLimit: 0.03, refusedValue: -0.1,
                                parsed: \.maxRefinedLipGap)
    }

    /// The close-up lips rule runs only on stills (nil, as on every live frame, leaves it out of the
    /// report); a gap just under the limit passes, just over it fails with "Please close your
    /// mouth" as the only failure; US (no mouth rule) does not run it; every other shipped profile
    /// does; `max_close_up_lip_gap` sets it and a value outside 0...1 is refused.
    @Test func closeUpLipsRuleRunsOnlyOnStills() throws {
        try stillsOnlyMouthRule("mouth_closed_close_up_lips", \.closeUpLipGap, limit: shippedProfile("uk").examiner.maxCloseUpLipGap,
                                under: 0.95, over: 1.05, key: "max_close_up_lip_gap", parsedLimit: 0.03, refusedValue: 1.5,
                                parsed: \.maxCloseUpLipGap)
    }

    /// The veil rule (smoke or vapour over the lips and chin) runs on every frame and still: just
    /// under its limit passes, just over it refuses with the cover instruction and is the only
    /// failure; every shipped profile sets the limit; `max_mouth_veil` is read from a profile and a
    /// value outside 0...4 is refused.
    @Test func veilOverTheMouthGivesTheCoverInstruction() throws {
        let e = try shippedProfile("uk").examiner
        var m = good(e)
        m.mouthVeil = Float(e.maxMouthVeil - 0.01)
        let v = try verdict(m)
        let passed = v.rules.first { $0.rule == "face_uncovered_veil" }
        #expect(v.passed && passed?.passed == true && passed?.limit == "≤ \(fmt(e.maxMouthVeil))", "\(String(describing: passed))")
        m.mouthVeil = Float(e.maxMouthVeil + 0.01)
        let refused = try verdict(m)
        #expect(!refused.passed && refused.instruction == .faceCovered)
        #expect(refused.failures.map(\.rule) == ["face_uncovered_veil"], "\(refused.failures)")
        for name in ["uk", "us", "icao", "schengen"] {
            #expect(try verdict(m, profile: name).rules.first { $0.rule == "face_uncovered_veil" }?.passed == false, "\(name)")
            #expect(try shippedProfile(name).examiner.maxMouthVeil == 1.0, "\(name)")
        }
        let parsed = try Profile.parse("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nmax_mouth_veil = 1.2\n", file: "x.toml")
        #expect(parsed.examiner.maxMouthVeil == 1.2)
        #expect(throws: ConfigError.self) {
            try Profile.parse("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nmax_mouth_veil = 5\n", file: "x.toml")
        }
    }

    func fmt(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : "\(x)" }

    /// The hands-in-frame rule, like the hand rule, runs only on stills (nil leaves it out of the
    /// report); 0 passes, a confirmed hand fails with the cover instruction; `max_hand_in_frame`
    /// sets it and a value outside 0...1 is refused.
    @Test func handsInFrameRuleRunsOnlyWhenThePalmDetectorRan() throws {
        let e = try shippedProfile("uk").examiner
        var m = good(e)
        #expect(m.handInFrame == nil)
        #expect(try !verdict(m).rules.contains { $0.rule == "no_hands_in_frame" })
        m.handInFrame = 0
        let v = try verdict(m)
        #expect(v.passed && v.rules.first { $0.rule == "no_hands_in_frame" }?.passed == true)
        m.handInFrame = Float(e.maxHandInFrame + 0.01)
        #expect(try verdict(m).instruction == .faceCovered)
        let parsed = try Profile.parse("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nmax_hand_in_frame = 0.9\n", file: "x.toml")
        #expect(parsed.examiner.maxHandInFrame == 0.9)
        #expect(throws: ConfigError.self) {
            try Profile.parse("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nmax_hand_in_frame = -0.1\n", file: "x.toml")
        }
    }

    /// `HandsInFrame.palms` keeps the palms reaching into the frame whose centre is not above the
    /// face box's top: below the chin and beside the face kept; on the hair above the face, or
    /// out of the frame, left out.
    @Test func handsInFrameLeavesOutPalmsAboveTheFace() {
        let face = Rect(x: 100, y: 100, width: 100, height: 100), frame = Rect(x: 50, y: 40, width: 200, height: 260)
        func palm(_ cx: Float, _ cy: Float) -> PalmDetection {
            PalmDetection(box: Rect(x: cx - 20, y: cy - 20, width: 40, height: 40), score: 0.5,
                          wrist: Point2(cx, cy + 20), knuckle: Point2(cx, cy - 20))
        }
        let below = palm(150, 230), beside = palm(80, 150), onTheHair = palm(150, 60), justUnderTheTop = palm(150, 101),
            outside = palm(150, 400)
        let kept = HandsInFrame.palms([below, beside, onTheHair, justUnderTheTop, outside], face: face, frame: frame, fingerScale: 1.5)
        #expect(kept == [below, beside, justUnderTheTop])
    }

    @Test func everyNewInstructionHasAKeyAndText() {
        for i in Instruction.allCases {
            #expect(!i.key.isEmpty && !i.defaultText.isEmpty)
        }
        #expect(Instruction.mouthOpen.defaultText == "Please close your mouth")
        #expect(Instruction.removeGlasses.defaultText == "Please remove your glasses")
        #expect(Instruction.faceCovered.defaultText == "Please take your hand away from your face")
    }
}
