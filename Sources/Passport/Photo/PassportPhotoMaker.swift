import ImageCore
import Vision

/// A finished passport photo and its compliance report.
public struct PassportPhoto: @unchecked Sendable {
    /// RGB888 at the profile's pixel size.
    public var image: ImageBuffer
    /// Every rule, with measured value, limit and pass/fail.
    public var rules: [RuleResult]
    /// Where the head is in the source still.
    public var sourceHead: HeadGeometry
    /// Where it is in the finished photo (output pixels).
    public var head: HeadGeometry
    public var crop: PhotoCrop

    /// True when every required rule passed (warnings, such as upscaling, do not fail a photo).
    public var complies: Bool { !rules.contains { !$0.passed && $0.severity == .required } }
    public var failures: [RuleResult] { rules.filter { !$0.passed && $0.severity == .required } }
}

/// Turns one still into a profile-compliant passport photo: faces → accurate person mask → head
/// geometry (crown from the mask above the forehead along the face's own up direction, chin and
/// eye line from the mesh) → background replaced by the profile's colour (unless kept) → crop
/// and scale by the profile's geometry → every rule checked on the result.
public final class PassportPhotoMaker {
    public let profile: Profile
    let analyzer: FaceAnalyzer
    let segmenter: PersonSegmenter
    /// Where the palm detector for the hand at the face (`face_uncovered_hand`, `_jaw`) is read
    /// from; without it those rules are not run. It is built for each still and dropped right after it
    /// ran, before segmentation (its two float models take about 40 MiB).
    let palmModels: ModelStore?
    let quality = CaptureQualityEstimator()

    /// MediaPipe mesh vertices used: forehead top (10), chin (152), cheek extremes (234, 454).
    static let forehead = 10, chin = 152, rightCheek = 234, leftCheek = 454

    /// The face analyzer, for measuring finished photos again (tests, reports).
    public var analyzerForTests: FaceAnalyzer { analyzer }

    public init(profile: Profile, analyzer: FaceAnalyzer, segmenter: PersonSegmenter, palmModels: ModelStore? = nil) {
        precondition(segmenter.level == .accurate, "passport photos use the accurate segmentation level")
        self.profile = profile
        self.analyzer = analyzer
        self.segmenter = segmenter
        self.palmModels = palmModels
    }

    /// Why no photo could be made at all (with the rules measured so far).
    public struct Failure: Error, Sendable {
        public var rules: [RuleResult]
        public var message: String
    }

    /// Makes the photo from an upright RGB888 still.
    public func make(from still: Image, keepBackground: Bool = false) throws(Failure) -> PassportPhoto {
        precondition(still.format == .rgb888, "passport stills are RGB888")
        let faces = analyzer.analyze(still)
        let live = profile.live
        var rules: [RuleResult] = [
            RuleResult(rule: "face_count", measured: Double(faces.count), limit: "= 1", passed: faces.count == 1,
                       instruction: faces.isEmpty ? .noFace : .multipleFaces),
        ]
        guard faces.count == 1, let face = faces.first else {
            throw Failure(rules: rules, message: faces.isEmpty ? "no face found" : "\(faces.count) faces found; a passport photo needs exactly one")
        }
        rules.append(RuleResult(rule: "pitch", measured: Double(face.pitch), limit: "|x| < \(fmt(live.maxAbsPitch))",
                                passed: abs(Double(face.pitch)) < live.maxAbsPitch, instruction: .lookStraight))
        rules.append(RuleResult(rule: "yaw", measured: Double(face.yaw), limit: "|x| < \(fmt(live.maxAbsYaw))",
                                passed: abs(Double(face.yaw)) < live.maxAbsYaw, instruction: .lookStraight))
        rules.append(RuleResult(rule: "roll", measured: Double(face.roll), limit: "|x| < \(fmt(live.maxAbsRoll))",
                                passed: abs(Double(face.roll)) < live.maxAbsRoll, instruction: .lookStraight))
        let q = quality.evaluate(still, face: face)
        if live.eyesOpen {
            rules.append(RuleResult(rule: "eyes_open", measured: Double(q.eyeOpenness), limit: "≥ \(fmt(live.minEyeOpenness))",
                                    passed: Double(q.eyeOpenness) >= live.minEyeOpenness, instruction: .eyesClosed))
        }
        // The examiner's rules: mouth, expression, eyes, glasses, covers, head covering, focus, light.
        var examiner = ExaminerEstimator.measure(still, face: face, quality: q)
        if let palmModels {
            let palms: PalmDetector
            do { palms = try palmModels.palmDetector() } catch { throw Failure(rules: rules, message: "\(error)") }
            examiner.hand = palms.handOverFace(still, face: face.box)
            examiner.handAtJaw = palms.handAtJaw(still, face: face.box)
        }
        rules += ExaminerCheck(examiner, limits: profile.examiner, mouthClosed: live.mouthClosed).results(profile.examiner)
        rules.append(RuleResult(rule: "quality", measured: Double(q.score), limit: "≥ \(fmt(live.minQuality))",
                                passed: Double(q.score) >= live.minQuality, instruction: .qualityTooLow))

        let mask = segmenter.segment(still)
        let head = Self.headGeometry(face, mask: mask.plane)

        // Background: replaced by the profile's colour, or kept and required light and plain.
        let source: ImageBuffer
        let (r, g, b) = profile.print.background
        if keepBackground {
            source = ImageBuffer(format: .rgb888, width: still.width, height: still.height)
            source.withImage { CopyPlane.run(still, $0) }
            if live.plainBackground {
                let stats = Self.backgroundStatistics(still, mask: mask.plane)
                rules.append(RuleResult(rule: "background_light", measured: stats.meanLuma, limit: "≥ \(fmt(live.minBackgroundLuma))",
                                        passed: stats.meanLuma >= live.minBackgroundLuma, instruction: .backgroundNotPlain))
                rules.append(RuleResult(rule: "background_plain", measured: stats.deviation, limit: "≤ \(fmt(live.maxBackgroundDeviation))",
                                        passed: stats.deviation <= live.maxBackgroundDeviation, instruction: .backgroundNotPlain))
            }
        } else {
            let compositor = BackgroundCompositor(width: still.width, height: still.height, format: .rgb888)
            compositor.setBackground(.color(red: r, green: g, blue: b))
            source = ImageBuffer(format: .rgb888, width: still.width, height: still.height)
            source.withImage { compositor.composite(frame: still, mask: mask.plane, into: $0) }
        }

        // Crop and scale; the part of the crop outside the still is the profile's background.
        let crop = PhotoCrop.plan(head: head, profile: profile)
        let out = ImageBuffer(format: .rgb888, width: crop.outputWidth, height: crop.outputHeight)
        out.withImage { o in
            Fill.run(o.luma, value: UInt32(b) << 16 | UInt32(g) << 8 | UInt32(r))
            source.withImage { Self.place($0, crop: crop, into: o) }
        }

        let s = crop.scale
        let mapped = HeadGeometry(crownY: (head.crownY - crop.y) * s, chinY: (head.chinY - crop.y) * s,
                                  eyeLineY: (head.eyeLineY - crop.y) * s, centreX: (head.centreX - crop.x) * s,
                                  headWidth: head.headWidth * s, eyeDistance: head.eyeDistance * s)
        rules += PhotoCrop.check(head: mapped, outputWidth: crop.outputWidth, outputHeight: crop.outputHeight,
                                 profile: profile, upscale: s)
        return PassportPhoto(image: out, rules: rules, sourceHead: head, head: mapped, crop: crop)
    }

    /// Head geometry in the still: chin and forehead from the mesh, the crown by walking up from
    /// the forehead, along the chin→forehead direction (so a slight roll is followed), while the
    /// mask says "person"; the eye line and distance from the pupils; the head width from the
    /// mask's run through the face centre at eye level (the cheek-to-cheek mesh width when the
    /// mask is unusable there).
    public static func headGeometry(_ face: FaceObservation, mask: Plane) -> HeadGeometry {
        let top = face.mesh[forehead].xy, bottom = face.mesh[chin].xy
        let dx = top.x - bottom.x, dy = top.y - bottom.y
        let length = max(1, (dx * dx + dy * dy).squareRoot())
        let ux = dx / length, uy = dy / length
        func inside(_ x: Float, _ y: Float) -> Bool {
            let xi = Int(x.rounded()), yi = Int(y.rounded())
            guard xi >= 0, yi >= 0, xi < mask.width, yi < mask.height else { return false }
            return mask.row(yi)[xi] >= 128
        }
        var step: Float = 0
        let limit = length * 0.9                   // hair rarely adds more than 0.9 face heights
        while step < limit && inside(top.x + ux * (step + 1), top.y + uy * (step + 1)) { step += 1 }
        // A mask that already ends below the forehead is wrong there: use a typical hair height.
        if step < 2 { step = length * 0.22 }
        let crown = Point2(top.x + ux * step, top.y + uy * step)

        let eyes = Point2((face.leftPupil.x + face.rightPupil.x) / 2, (face.leftPupil.y + face.rightPupil.y) / 2)
        let ex = face.leftPupil.x - face.rightPupil.x, ey = face.leftPupil.y - face.rightPupil.y
        let cheeks = abs(face.mesh[leftCheek].x - face.mesh[rightCheek].x)
        var width = cheeks
        let row = Int(eyes.y.rounded()), cx = Int(eyes.x.rounded())
        if row >= 0, row < mask.height, cx >= 0, cx < mask.width, mask.row(row)[cx] >= 128 {
            var l = cx, r = cx
            let p = mask.row(row)
            while l > 0 && p[l - 1] >= 128 { l -= 1 }
            while r < mask.width - 1 && p[r + 1] >= 128 { r += 1 }
            let run = Float(r - l + 1)
            if run >= cheeks * 0.8 && run <= cheeks * 1.6 { width = run }
        }
        return HeadGeometry(crownY: Double(crown.y), chinY: Double(bottom.y), eyeLineY: Double(eyes.y),
                            centreX: Double((top.x + bottom.x) / 2), headWidth: Double(width),
                            eyeDistance: Double((ex * ex + ey * ey).squareRoot()))
    }

    /// Luma mean and deviation where the mask says background (mask < 128).
    public static func backgroundStatistics(_ rgb: Image, mask: Plane) -> (meanLuma: Double, deviation: Double, coverage: Double) {
        var n = 0, sum = 0.0, sum2 = 0.0
        let p = rgb.luma
        for y in stride(from: 0, to: rgb.height, by: 2) {
            let row = p.row(y), m = mask.row(y)
            for x in stride(from: 0, to: rgb.width, by: 2) where m[x] < 128 {
                let l = (77 * Double(row[3 * x]) + 150 * Double(row[3 * x + 1]) + 29 * Double(row[3 * x + 2])) / 256
                sum += l; sum2 += l * l; n += 1
            }
        }
        guard n > 0 else { return (255, 0, 0) }
        let mean = sum / Double(n)
        let total = Double(((rgb.width + 1) / 2) * ((rgb.height + 1) / 2))
        return (mean, max(0, sum2 / Double(n) - mean * mean).squareRoot(), Double(n) / total)
    }

    /// Scales the part of `crop` that lies inside `source` into its place in `out`.
    static func place(_ source: Image, crop: PhotoCrop, into out: Image) {
        let s = crop.scale
        let sx0 = max(0, Int(crop.x.rounded(.up))), sy0 = max(0, Int(crop.y.rounded(.up)))
        let sx1 = min(source.width, Int((crop.x + crop.width).rounded(.down)))
        let sy1 = min(source.height, Int((crop.y + crop.height).rounded(.down)))
        guard sx1 > sx0, sy1 > sy0 else { return }
        let ox0 = max(0, Int(((Double(sx0) - crop.x) * s).rounded())), oy0 = max(0, Int(((Double(sy0) - crop.y) * s).rounded()))
        let ox1 = min(out.width, Int(((Double(sx1) - crop.x) * s).rounded()))
        let oy1 = min(out.height, Int(((Double(sy1) - crop.y) * s).rounded()))
        guard ox1 > ox0, oy1 > oy0 else { return }
        let src = source.cropped(x: sx0, y: sy0, width: sx1 - sx0, height: sy1 - sy0)
        let dst = out.cropped(x: ox0, y: oy0, width: ox1 - ox0, height: oy1 - oy0)
        if src.width >= 2 * dst.width { ResizeArea.run(src, dst) } else { ResizeBilinear.run(src, dst) }
    }
}
