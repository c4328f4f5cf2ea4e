/// The live booth's rules: one frame's faces against the layout guide, evaluated under a profile.
public struct LiveRules: Sendable {
    public let profile: Profile

    public init(profile: Profile) { self.profile = profile }

    /// Evaluates every rule. With no face or several faces only the face-count rule is listed.
    public func evaluate(faces: [FaceMeasurement], guide: LayoutGuide, background: BackgroundMeasurement? = nil,
                         replacingBackground: Bool = false) -> Verdict {
        let live = profile.live
        var rules: [RuleResult] = []
        guard faces.count == 1, let face = faces.first else {
            rules.append(RuleResult(rule: "face_count", measured: Double(faces.count), limit: "= 1", passed: false,
                                    instruction: faces.isEmpty ? .noFace : .multipleFaces))
            return Verdict(profile: profile, rules: rules)
        }
        rules.append(RuleResult(rule: "face_count", measured: 1, limit: "= 1", passed: true, instruction: .noFace))

        // Bounds: face width against the guide's width; too small means too far, too large too close.
        let g = guide.box
        let widthRatio = Double(face.box.width / g.width)
        let tol = live.faceWidthTolerance
        rules.append(RuleResult(rule: "face_too_small", measured: widthRatio, limit: "≥ \(fmt(1 - tol))",
                                passed: widthRatio >= 1 - tol, instruction: .moveCloser))
        rules.append(RuleResult(rule: "face_too_large", measured: widthRatio, limit: "≤ \(fmt(1 + tol))",
                                passed: widthRatio <= 1 + tol, instruction: .moveFurther))
        let dx = Double(abs(face.box.center.x - g.center.x) / g.width)
        let dy = Double(abs(face.box.center.y - g.center.y) / g.height)
        rules.append(RuleResult(rule: "off_centre_x", measured: dx, limit: "≤ \(fmt(live.centreTolerance))",
                                passed: dx <= live.centreTolerance, instruction: .centre))
        rules.append(RuleResult(rule: "off_centre_y", measured: dy, limit: "≤ \(fmt(live.centreTolerance))",
                                passed: dy <= live.centreTolerance, instruction: .centre))

        // Pose.
        rules.append(RuleResult(rule: "pitch", measured: face.pitch, limit: "|x| < \(fmt(live.maxAbsPitch))",
                                passed: abs(face.pitch) < live.maxAbsPitch, instruction: .lookStraight))
        rules.append(RuleResult(rule: "yaw", measured: face.yaw, limit: "|x| < \(fmt(live.maxAbsYaw))",
                                passed: abs(face.yaw) < live.maxAbsYaw, instruction: .lookStraight))
        rules.append(RuleResult(rule: "roll", measured: face.roll, limit: "|x| < \(fmt(live.maxAbsRoll))",
                                passed: abs(face.roll) < live.maxAbsRoll, instruction: .lookStraight))

        // Expression.
        if live.eyesOpen, let e = face.eyeOpenness {
            rules.append(RuleResult(rule: "eyes_open", measured: e, limit: "≥ \(fmt(live.minEyeOpenness))",
                                    passed: e >= live.minEyeOpenness, instruction: .eyesClosed))
        }
        if live.mouthClosed, let m = face.mouthOpenness {
            rules.append(RuleResult(rule: "mouth_closed", measured: m, limit: "≤ \(fmt(live.maxMouthOpenness))",
                                    passed: m <= live.maxMouthOpenness, instruction: .mouthOpen))
        }

        // Quality.
        if let q = face.quality {
            rules.append(RuleResult(rule: "quality", measured: q, limit: "≥ \(fmt(live.minQuality))",
                                    passed: q >= live.minQuality, instruction: .qualityTooLow))
        } else {
            rules.append(RuleResult(rule: "quality", measured: -1, limit: "≥ \(fmt(live.minQuality))", passed: false,
                                    instruction: .cannotTakePhoto))
        }

        // Background: when it is kept, what the mask calls background must be light and plain.
        if live.plainBackground && !replacingBackground, let b = background {
            rules.append(RuleResult(rule: "background_light", measured: b.meanLuma, limit: "≥ \(fmt(live.minBackgroundLuma))",
                                    passed: b.meanLuma >= live.minBackgroundLuma, instruction: .backgroundNotPlain))
            rules.append(RuleResult(rule: "background_plain", measured: b.deviation, limit: "≤ \(fmt(live.maxBackgroundDeviation))",
                                    passed: b.deviation <= live.maxBackgroundDeviation, instruction: .backgroundNotPlain))
        }
        return Verdict(profile: profile, rules: rules)
    }
}

/// Two decimals, for limits in words.
func fmt(_ x: Double) -> String {
    let v = (x * 100).rounded() / 100
    var s = "\(v)"
    if s.hasSuffix(".0") { s.removeLast(2) }
    return s
}
