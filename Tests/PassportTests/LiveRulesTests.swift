import Passport
import Testing
import Vision

@Suite struct LiveRulesTests {
    let guide = LayoutGuide(box: Rect(x: 220, y: 100, width: 200, height: 266))
    /// A face that satisfies every UK rule.
    var good: FaceMeasurement {
        FaceMeasurement(box: Rect(x: 220, y: 100, width: 200, height: 266), roll: 0.01, pitch: -0.05, yaw: 0.03,
                        quality: 0.6, eyeOpenness: 0.8, mouthOpenness: 0.05)
    }

    func instruction(_ f: FaceMeasurement, background: BackgroundMeasurement? = nil) throws -> Instruction {
        try LiveRules(profile: shippedProfile("uk")).evaluate(faces: [f], guide: guide, background: background).instruction
    }

    @Test func aGoodFacePassesEveryRule() throws {
        let v = try LiveRules(profile: shippedProfile("uk")).evaluate(faces: [good], guide: guide,
                                                                       background: BackgroundMeasurement(meanLuma: 230, deviation: 8, coverage: 0.5))
        #expect(v.passed && v.text == "Please take your photo :]")
        #expect(v.rules.allSatisfy { $0.passed })
        #expect(Set(v.rules.map(\.rule)).isSuperset(of: ["face_too_small", "face_too_large", "off_centre_x", "pitch", "yaw", "roll", "quality"]))
    }

    @Test func eachFailureGivesItsInstruction() throws {
        var f = good
        f.box = Rect(x: 270, y: 150, width: 100, height: 133); #expect(try instruction(f) == .moveCloser)
        f = good; f.box = Rect(x: 170, y: 50, width: 300, height: 400); #expect(try instruction(f) == .moveFurther)
        f = good; f.box.x += 60; #expect(try instruction(f) == .centre)
        f = good; f.box.y -= 60; #expect(try instruction(f) == .centre)
        f = good; f.yaw = 0.2; #expect(try instruction(f) == .lookStraight)
        f = good; f.pitch = -0.25; #expect(try instruction(f) == .lookStraight)
        f = good; f.roll = 0.3; #expect(try instruction(f) == .lookStraight)
        f = good; f.eyeOpenness = 0.1; #expect(try instruction(f) == .eyesClosed)
        f = good; f.mouthOpenness = 0.6; #expect(try instruction(f) == .mouthOpen)
        f = good; f.quality = 0.1; #expect(try instruction(f) == .qualityTooLow)
        f = good; f.quality = nil; #expect(try instruction(f) == .cannotTakePhoto)
        #expect(try instruction(good, background: BackgroundMeasurement(meanLuma: 90, deviation: 10, coverage: 0.5)) == .backgroundNotPlain)
        #expect(try instruction(good, background: BackgroundMeasurement(meanLuma: 220, deviation: 60, coverage: 0.5)) == .backgroundNotPlain)
    }

    @Test func priorityOrderWhenSeveralRulesFail() throws {
        var f = good
        f.quality = 0.05; f.yaw = 0.5; f.box.x += 60
        f.box = Rect(x: f.box.x, y: f.box.y, width: 100, height: 133)
        #expect(try instruction(f) == .moveCloser)           // bounds before centre before pose before quality
        f = good; f.quality = 0.05; f.yaw = 0.5; f.box.x += 60
        #expect(try instruction(f) == .centre)
        f = good; f.quality = 0.05; f.yaw = 0.5
        #expect(try instruction(f) == .lookStraight)
        let rules = try LiveRules(profile: shippedProfile("uk"))
        #expect(rules.evaluate(faces: [], guide: guide).instruction == .noFace)
        #expect(rules.evaluate(faces: [good, good], guide: guide).instruction == .multipleFaces)
    }

    @Test func keptBackgroundIsOnlyCheckedWhenNotReplaced() throws {
        let dark = BackgroundMeasurement(meanLuma: 40, deviation: 50, coverage: 0.5)
        let rules = try LiveRules(profile: shippedProfile("uk"))
        #expect(rules.evaluate(faces: [good], guide: guide, background: dark, replacingBackground: true).passed)
        #expect(!rules.evaluate(faces: [good], guide: guide, background: dark, replacingBackground: false).passed)
    }

    func step(_ h: inout Hysteresis, _ passed: Bool, _ t: UInt64, _ green: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        let g = h.update(passed: passed, at: t)
        #expect(g == green, sourceLocation: sourceLocation)
    }

    @Test func hysteresisHoldsBeforeGreenAndIgnoresFlicker() {
        var h = Hysteresis(holdMilliseconds: 300, releaseMilliseconds: 200)
        let ms: UInt64 = 1_000_000
        step(&h, true, 0, false)
        step(&h, true, 299 * ms, false)
        step(&h, true, 300 * ms, true)
        step(&h, false, 350 * ms, true)        // one bad frame: still green
        step(&h, true, 380 * ms, true)
        step(&h, false, 400 * ms, true)
        step(&h, false, 599 * ms, true)
        step(&h, false, 600 * ms, false)       // failed for 200 ms: red
        step(&h, true, 650 * ms, false)        // and green again only after 300 ms
        step(&h, false, 700 * ms, false)
        step(&h, true, 710 * ms, false)
        step(&h, true, 1010 * ms, true)
    }
}
