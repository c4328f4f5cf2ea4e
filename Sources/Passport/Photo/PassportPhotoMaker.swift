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

/// Where the passport maker gets its models. `held`: the caller's, alive for the maker's life (tests,
/// reports). `built`: each one built just before its step and dropped right after it (the kiosk's
/// stills), so at most one model is alive at a time: the face models one after the other
/// (`FaceAnalyzer.analyzeInSteps`), then the palm detector and the hand model for the hand rules,
/// then the segmenter for the mask (an accepted passport still held them all at once: 72.7 MiB
/// resident in a 10-minute kiosk run).
public struct PassportModels {
    /// The faces of a still (the face analyzer's `analyze`, or `FaceAnalyzer.analyzeInSteps`).
    public let faces: (Image) throws -> [FaceObservation]
    public let segmenter: () throws -> PersonSegmenter
    /// The palm detector (built without its hand model) and the hand landmark model, for the
    /// hand at the face (`face_uncovered_hand`, `_jaw`): one after the other, each dropped before
    /// the next is built. Without them those rules are not run.
    public let palms: (detector: () throws -> PalmDetector, hand: () throws -> HandLandmarkVerifier)?
    /// The face landmarker for a second mesh run on a close-up of the lower face
    /// (`MouthCloseUp`, `face_uncovered_mouth_mesh`). Without it that rule is not run.
    public let mouthCloseUp: (() throws -> FaceLandmarker)?
    /// The attention face mesh for the lip gap on its refined lips (`RefinedLips`,
    /// `mouth_closed_refined_lips`, and on close-ups of the lower face, `mouth_closed_close_up_lips`),
    /// built for its step and dropped. Without it those rules are not run.
    public let refinedLips: (() throws -> RefinedLips)?
    /// The analyzer when it is held (`analyzerForTests`).
    let held: FaceAnalyzer?

    /// The caller's analyzer and segmenter, kept; the palm detector and the hand model built from
    /// `palmModels` for each still, one after the other, and dropped after they ran (float path,
    /// about 9 MiB each); the attention mesh likewise from `lipsModels` (nil: its rule is not run).
    public static func held(analyzer: FaceAnalyzer, segmenter: PersonSegmenter, palmModels: ModelStore? = nil,
                            lipsModels: ModelStore? = nil) -> PassportModels {
        PassportModels(faces: { analyzer.analyze($0) }, segmenter: { segmenter },
                       palms: palmModels.map { store in ({ try store.palmDetectorAlone() }, { try store.handLandmarkVerifier() }) },
                       mouthCloseUp: { analyzer.landmarker }, refinedLips: lipsModels.map { store in { try store.refinedLips() } },
                       held: analyzer)
    }

    /// Every model built when its step starts and dropped when it ends; a builder's error stops the
    /// photo (`PassportPhotoMaker.Failure`) with its message. `mouthCloseUp` builds the face
    /// landmarker again for the close-up of the lower face, `refinedLips` the attention mesh (nil:
    /// that rule is not run).
    public static func built(faces: @escaping (Image) throws -> [FaceObservation], segmenter: @escaping () throws -> PersonSegmenter,
                             palms: (detector: () throws -> PalmDetector, hand: () throws -> HandLandmarkVerifier)?,
                             mouthCloseUp: (() throws -> FaceLandmarker)? = nil,
                             refinedLips: (() throws -> RefinedLips)? = nil) -> PassportModels {
        PassportModels(faces: faces, segmenter: segmenter, palms: palms, mouthCloseUp: mouthCloseUp, refinedLips: refinedLips, held: nil)
    }
}

/// Turns one still into a profile-compliant passport photo: faces → accurate person mask → head
/// geometry (crown from the mask above the forehead along the face's own up direction, chin and
/// eye line from the mesh) → background replaced by the profile's colour (unless kept) → crop
/// and scale by the profile's geometry → every rule checked on the result.
public final class PassportPhotoMaker {
    public let profile: Profile
    let models: PassportModels
    let quality = CaptureQualityEstimator()

    /// MediaPipe mesh vertices used: forehead top (10), chin (152), cheek extremes (234, 454).
    static let forehead = 10, chin = 152, rightCheek = 234, leftCheek = 454

    /// The face analyzer, for measuring finished photos again (tests, reports); only with held models.
    public var analyzerForTests: FaceAnalyzer {
        guard let held = models.held else { preconditionFailure("analyzerForTests needs held models") }
        return held
    }

    public convenience init(profile: Profile, analyzer: FaceAnalyzer, segmenter: PersonSegmenter, palmModels: ModelStore? = nil,
                            lipsModels: ModelStore? = nil) {
        precondition(segmenter.level == .accurate, "passport photos use the accurate segmentation level")
        self.init(profile: profile, models: .held(analyzer: analyzer, segmenter: segmenter, palmModels: palmModels, lipsModels: lipsModels))
    }

    public init(profile: Profile, models: PassportModels) {
        self.profile = profile
        self.models = models
    }

    /// Why no photo could be made at all (with the rules measured so far).
    public struct Failure: Error, Sendable {
        public var rules: [RuleResult]
        public var message: String
    }

    /// Makes the photo from an upright RGB888 still. With `built` models, each model is alive for
    /// its own step only (see `PassportModels`); the result is the same either way.
    public func make(from still: Image, keepBackground: Bool = false) throws(Failure) -> PassportPhoto {
        precondition(still.format == .rgb888, "passport stills are RGB888")
        // 1. Faces (with built models, each face model lives for its own step only).
        let faces: [FaceObservation]
        do { faces = try models.faces(still) } catch { throw Failure(rules: [], message: "\(error)") }
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
        // 2. The examiner's rules: mouth, expression, eyes, glasses, covers, head covering, focus,
        // light; the palm detector lives for the hand measures only.
        var examiner = ExaminerEstimator.measure(still, face: face, quality: q)
        // The mesh model again, on a close-up of the lower face (`MouthCloseUp`).
        if let closeUp = models.mouthCloseUp {
            do { examiner.mouthMeshPresence = MouthCloseUp.presence(try closeUp(), still, mesh: face.mesh) }
            catch { throw Failure(rules: rules, message: "\(error)") }
        }
        // The attention mesh on the same region, for the lip gap on its refined lips (`RefinedLips`),
        // then on three close-ups of the lower face; dropped after its four runs.
        if let refinedLips = models.refinedLips {
            let model: RefinedLips
            do { model = try refinedLips() } catch { throw Failure(rules: rules, message: "\(error)") }
            examiner.refinedLipGap = model.lipGap(still, mesh: face.mesh)
            examiner.closeUpLipGap = model.closeUpLipGap(still, mesh: face.mesh)
        }
        if let palms = models.palms {
            // The palm detector runs once on the square around the face and once on the square round
            // the mouth (`HandAtMouth`); its palms over the face, those in the photo's frame and those
            // at the mouth are kept, and it is dropped; then the hand model confirms them and looks beside the jaw (the same measures
            // as `PalmDetector.handOverFace`, `handAtJaw` and `HandsInFrame` with both models held).
            let over: PalmsOverFace, inFrame: [PalmDetection], atMouth: [PalmDetection], jawScale: Float
            do {
                let detector = try palms.detector()
                precondition(detector.verifier == nil, "PassportModels.palms.detector is built without its hand model")
                let found = detector.palmsAround(still, face: face.box)
                over = detector.palmsOverFace(found, face: face.box)
                inFrame = HandsInFrame.palms(found, face: face.box, frame: PassportFrame.estimate(face, profile: profile), fingerScale: detector.fingerScale)
                // A second run on the square round the mouth, where a hand at the lips is larger.
                atMouth = HandAtMouth.palms(detector, still, mouth: HandAtMouth.mouth(face.mesh), face: face.box)
                jawScale = detector.jawRegionScale
            } catch { throw Failure(rules: rules, message: "\(error)") }
            let hand: HandLandmarkVerifier
            do { hand = try palms.hand() } catch { throw Failure(rules: rules, message: "\(error)") }
            examiner.hand = over.overlap(still, confirmedBy: hand)
            examiner.handAtJaw = hand.handAtJaw(still, face: face.box, regionScale: jawScale)
            examiner.handInFrame = HandsInFrame.presence(inFrame, still, confirmedBy: hand)
            examiner.handAtMouth = HandsInFrame.presence(atMouth, still, confirmedBy: hand)
        }
        rules += ExaminerCheck(examiner, limits: profile.examiner, mouthClosed: live.mouthClosed).results(profile.examiner)
        rules.append(RuleResult(rule: "quality", measured: Double(q.score), limit: "≥ \(fmt(live.minQuality))",
                                passed: Double(q.score) >= live.minQuality, instruction: .qualityTooLow))

        // 3. The mask: the segmenter (whose plan holds the mask) lives until the mask's last reader.
        let segmenter: PersonSegmenter
        do { segmenter = try models.segmenter() } catch { throw Failure(rules: rules, message: "\(error)") }
        guard segmenter.level == .accurate else {
            throw Failure(rules: rules, message: "passport photos use the accurate segmentation level, not \(segmenter.level)")
        }
        let (r, g, b) = profile.print.background
        let (head, crop, placement, composited) = withExtendedLifetime(segmenter) {
            () -> (HeadGeometry, PhotoCrop, Placement?, ImageBuffer?) in
            let mask = segmenter.segment(still)
            let head = Self.headGeometry(face, mask: mask.plane)
            let crop = PhotoCrop.plan(head: head, profile: profile)
            let placement = Placement(crop: crop, sourceWidth: still.width, sourceHeight: still.height)
            // Background: kept and required light and plain, or replaced by the profile's colour in
            // the part of the still the crop shows (the blend is per pixel: the same bytes as a
            // whole composited still, without a second full-size RGB image).
            if keepBackground {
                if live.plainBackground {
                    let stats = Self.backgroundStatistics(still, mask: mask.plane)
                    rules.append(RuleResult(rule: "background_light", measured: stats.meanLuma, limit: "≥ \(fmt(live.minBackgroundLuma))",
                                            passed: stats.meanLuma >= live.minBackgroundLuma, instruction: .backgroundNotPlain))
                    rules.append(RuleResult(rule: "background_plain", measured: stats.deviation, limit: "≤ \(fmt(live.maxBackgroundDeviation))",
                                            passed: stats.deviation <= live.maxBackgroundDeviation, instruction: .backgroundNotPlain))
                }
                return (head, crop, placement, nil)
            }
            guard let placement else { return (head, crop, nil, nil) }
            let region = ImageBuffer(format: .rgb888, width: placement.source.width, height: placement.source.height)
            let compositor = BackgroundCompositor(width: region.width, height: region.height, format: .rgb888)
            compositor.setBackground(.color(red: r, green: g, blue: b))
            region.withImage { compositor.composite(frame: placement.source.of(still), mask: placement.source.of(mask.plane), into: $0) }
            return (head, crop, placement, region)
        }

        // 4. Crop and scale; the part of the crop outside the still is the profile's background.
        let out = ImageBuffer(format: .rgb888, width: crop.outputWidth, height: crop.outputHeight)
        out.withImage { o in
            Fill.run(o.luma, value: UInt32(b) << 16 | UInt32(g) << 8 | UInt32(r))
            guard let placement else { return }
            if let composited {
                composited.withImage { placement.place($0, into: o) }
            } else {
                placement.place(placement.source.of(still), into: o)
            }
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

    /// The part of a crop that lies inside the still (whole source pixels) and where it goes in
    /// the output.
    struct Placement {
        struct Box {
            var x, y, width, height: Int
            func of(_ image: Image) -> Image { image.cropped(x: x, y: y, width: width, height: height) }
            func of(_ plane: Plane) -> Plane { plane.cropped(x: x, y: y, width: width, height: height) }
        }
        var source: Box
        var output: Box

        /// Nil when no source pixel lands in the output.
        init?(crop: PhotoCrop, sourceWidth: Int, sourceHeight: Int) {
            let s = crop.scale
            let sx0 = max(0, Int(crop.x.rounded(.up))), sy0 = max(0, Int(crop.y.rounded(.up)))
            let sx1 = min(sourceWidth, Int((crop.x + crop.width).rounded(.down)))
            let sy1 = min(sourceHeight, Int((crop.y + crop.height).rounded(.down)))
            guard sx1 > sx0, sy1 > sy0 else { return nil }
            let ox0 = max(0, Int(((Double(sx0) - crop.x) * s).rounded())), oy0 = max(0, Int(((Double(sy0) - crop.y) * s).rounded()))
            let ox1 = min(crop.outputWidth, Int(((Double(sx1) - crop.x) * s).rounded()))
            let oy1 = min(crop.outputHeight, Int(((Double(sy1) - crop.y) * s).rounded()))
            guard ox1 > ox0, oy1 > oy0 else { return nil }
            source = Box(x: sx0, y: sy0, width: sx1 - sx0, height: sy1 - sy0)
            output = Box(x: ox0, y: oy0, width: ox1 - ox0, height: oy1 - oy0)
        }

        /// Scales `region` (the still's `source` box) into its place in `out`.
        func place(_ region: Image, into out: Image) {
            let dst = output.of(out)
            if region.width >= 2 * dst.width { ResizeArea.run(region, dst) } else { ResizeBilinear.run(region, dst) }
        }
    }
}
