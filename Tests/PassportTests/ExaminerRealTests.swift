import Foundation
import ImageCore
import ImageFiles
import Passport
import TestSupport
import Testing
import Vision

/// The examiner's rules on real photos only (`ExaminerReal/`: sunglasses, glasses, hands and
/// objects at the face, masks, hats, grins and compliant faces from public sources, labelled by
/// eye per rule; see its SOURCES.md). No synthetic variants. Limits are never tuned on the `held`
/// half; the issue's bounds are asserted on it (UK profile, the product's integer path plus the
/// float palm detector, as `booth passport` runs them):
/// - no photo with an open mouth, hidden eyes (sunglasses) or a hand/object at the face is
///   accepted by the face rules;
/// - at least 80 % of open mouths are caught by the mouth or expression rule itself;
/// - every rule raises at most 10 % false alarms on the compliant photos (every label no). The
///   table per rule on the photos that comply with that rule alone is printed too: there a face
///   mask or a hand over the mouth makes the mouth rules measure what is in front of it.
/// Where a bound is not met today, the photos or rules are listed below by name with the reason
/// (`withKnownIssue`), so a new miss still fails.
@Suite(.serialized) struct ExaminerRealTests {
    typealias Sample = ExaminerSetTests.Sample
    static let folder = Fixtures.packageRoot + "/Tests/PassportTests/ExaminerReal"
    /// Its own models (`ExaminerSetTests` runs in parallel with its own): the integer path, the
    /// product's, and the palm detector as `booth passport` runs it.
    nonisolated(unsafe) static let analyzer = try! FaceAnalyzer(modelDirectory: Fixtures.models, path: .integer)
    nonisolated(unsafe) static let palms = try! ModelStore(directory: Fixtures.models).palmDetector()
    nonisolated(unsafe) static let lips = try? ModelStore(directory: Fixtures.models).refinedLips()

    /// The photos of `split`, measured under `profile`, and the names of those where no face was
    /// found (not a passport photo either way: refused before any examiner rule).
    static func samples(split: String, profile: Profile) throws -> (samples: [Sample], noFace: [String]) {
        var out: [Sample] = [], noFace: [String] = []
        for l in try ExaminerSetTests.labels(in: folder) where l.split == split {
            let photo = try ImageDecoder.decode(path: folder + "/" + l.file, as: .rgb888)
            guard let (_, q, m) = ExaminerSetTests.measure(photo, profile: profile, analyzer: analyzer, palms: palms, lips: lips) else {
                noFace.append(l.file)
                continue
            }
            let check = ExaminerCheck(m, limits: profile.examiner, mouthClosed: profile.live.mouthClosed)
            out.append(Sample(name: l.file, label: l, measurements: m, check: check,
                              eyesOpen: Double(q.eyeOpenness) >= profile.live.minEyeOpenness, quality: Double(q.score), capture: q))
        }
        return (out, noFace)
    }

    /// Accepted by the face rules: no examiner instruction, eyes open, quality above the limit.
    static func accepted(_ s: Sample, _ profile: Profile) -> Bool {
        s.check.instruction(glasses: profile.examiner.glasses) == nil && s.eyesOpen && s.quality >= profile.live.minQuality
    }

    @Test func labelsAreWellFormed() throws {
        let l = try ExaminerSetTests.labels(in: Self.folder)
        #expect(l.count >= 40)
        for x in l { #expect(FileManager.default.fileExists(atPath: Self.folder + "/" + x.file), "\(x.file) is listed but absent") }
        #expect(l.contains { $0.split == "held" } && l.contains { $0.split == "tune" })
        #expect(FileManager.default.fileExists(atPath: Self.folder + "/SOURCES.md"))
    }

    /// `no_hands_in_frame` looks in the passport crop planned from the face alone: on a tuning
    /// photo with a hand holding a cigarette at the mouth whose palm lies below the chin
    /// (`huy-train-000147`), the frame holds the face box, keeps the print's aspect and reaches
    /// below the chin; the palm is outside the face box (`face_uncovered_hand` does not see it)
    /// but the hand model confirms it inside the frame.
    @Test func handBelowTheChinIsInTheFrame() throws {
        let profile = try ProfileLibrary.load("uk")
        let photo = try ImageDecoder.decode(path: Self.folder + "/huy-train-000147.jpg", as: .rgb888)
        try photo.withImage { img in
            let face = try #require(Self.analyzer.analyze(img).max(by: { $0.box.area < $1.box.area }))
            let frame = PassportFrame.estimate(face, profile: profile)
            let b = face.box
            #expect(frame.x <= b.x && frame.x + frame.width >= b.x + b.width && frame.y <= b.y && frame.y + frame.height >= b.y + b.height)
            #expect(abs(frame.width / frame.height - Float(profile.print.widthMM / profile.print.heightMM)) < 0.01)
            let chin = face.mesh[152].y
            #expect(frame.y + frame.height > chin + 0.1 * b.height)
            let verifier = try #require(Self.palms.verifier)
            let palms = HandsInFrame.palms(Self.palms.palmsAround(img, face: b), face: b, frame: frame, fingerScale: Self.palms.fingerScale)
            #expect(palms.contains { $0.box.center.y > b.y + b.height })
            #expect(Double(HandsInFrame.presence(palms, img, confirmedBy: verifier)) > profile.examiner.maxHandInFrame)
        }
    }

    /// `face_uncovered_hand_mouth` searches its own square round the mouth: on a tuning photo
    /// with both hands lighting a cigarette at the lips (`huy-train-gg0034`), the square round
    /// the face finds no palm over the face (`face_uncovered_hand` reads 0), while on the mouth's
    /// square the hand model confirms a palm over the limit; a compliant tuning face
    /// (`cmd-without_mask-114`) stays under it.
    @Test func handAtTheMouthIsFoundOnTheMouthSquare() throws {
        let profile = try ProfileLibrary.load("uk")
        for (name, hand) in [("huy-train-gg0034.jpg", true), ("cmd-without_mask-114.jpg", false)] {
            let photo = try ImageDecoder.decode(path: Self.folder + "/" + name, as: .rgb888)
            try photo.withImage { img in
                let face = try #require(Self.analyzer.analyze(img).max(by: { $0.box.area < $1.box.area }))
                let atMouth = try #require(HandAtMouth.presence(Self.palms, img, mouth: HandAtMouth.mouth(face.mesh), face: face.box))
                if hand {
                    #expect(Self.palms.palmsOverFace(Self.palms.palmsAround(img, face: face.box), face: face.box)
                        .overlap(img, confirmedBy: Self.palms.verifier) == 0)
                    #expect(Double(atMouth) > profile.examiner.maxHandAtMouth, "\(name): \(atMouth)")
                } else {
                    #expect(Double(atMouth) <= profile.examiner.maxHandAtMouth, "\(name): \(atMouth)")
                }
            }
        }
    }

    /// `face_uncovered_mouth_mesh` runs the mesh model again on a close-up of the lower face: on
    /// a tuning photo with both hands holding a bottle at the lips (`huy-train-gg0006`) the model
    /// is unsure it sees a face there (under the limit), while on a compliant tuning face
    /// (`cmd-without_mask-114`) it stays sure (over it); the close-up lies inside the mesh's own
    /// region and holds the mouth.
    @Test func objectAtTheMouthUnsettlesTheCloseUpMesh() throws {
        let profile = try ProfileLibrary.load("uk")
        for (name, covered) in [("huy-train-gg0006.jpg", true), ("cmd-without_mask-114.jpg", false)] {
            let photo = try ImageDecoder.decode(path: Self.folder + "/" + name, as: .rgb888)
            try photo.withImage { img in
                let face = try #require(Self.analyzer.analyze(img).max(by: { $0.box.area < $1.box.area }))
                let region = MouthCloseUp.region(face.mesh)
                let mouth = HandAtMouth.mouth(face.mesh)
                let b = region.boundingBox
                #expect(mouth.x > b.x && mouth.x < b.x + b.width && mouth.y > b.y && mouth.y < b.y + b.height)
                #expect(region.width < face.box.width * 1.5 && region.width > face.box.width * 0.5)
                let presence = Double(MouthCloseUp.presence(Self.analyzer.landmarker, img, mesh: face.mesh))
                if covered {
                    #expect(presence < profile.examiner.minMouthMeshPresence, "\(name): \(presence)")
                } else {
                    #expect(presence >= profile.examiner.minMouthMeshPresence, "\(name): \(presence)")
                }
            }
        }
    }

    /// `mouth_closed_refined_lips` on real tuning photos: lips apart with the teeth showing on an
    /// otherwise neutral face (`cmd-without_mask-252`) pass the six mouth rules of the plain mesh,
    /// while the lip gap on the attention mesh's refined lips is over the limit (0.036 against
    /// 0.022); a compliant face (`cmd-without_mask-114`) stays under it and passes every mouth rule.
    /// Skipped without the attention mesh's file.
    @Test(.enabled(if: RefinedLipsTests.available && Fixtures.available, "needs models/face_landmark_with_attention.tflite (scripts/fetch-models)"))
    func lipsApartAreFoundOnTheRefinedLips() throws {
        let profile = try ProfileLibrary.load("uk")
        let lips = try #require(Self.lips)
        for (name, open) in [("cmd-without_mask-252.jpg", true), ("cmd-without_mask-114.jpg", false)] {
            let photo = try ImageDecoder.decode(path: Self.folder + "/" + name, as: .rgb888)
            let (_, _, m) = try #require(ExaminerSetTests.measure(photo, profile: profile, analyzer: Self.analyzer, palms: Self.palms, lips: lips))
            let c = ExaminerCheck(m, limits: profile.examiner, mouthClosed: profile.live.mouthClosed)
            let plain = [c.mouthClosed, c.slit, c.teeth, c.teethLine, c.lipHeight, c.mouthCombined]
            #expect(plain.allSatisfy { $0?.passed == true }, "\(name): \(plain)")
            let gap = try #require(m.refinedLipGap)
            #expect(c.refinedLips?.passed == !open, "\(name): refined lip gap \(gap)")
            #expect(c.results(profile.examiner).first { $0.rule == "mouth_closed_refined_lips" }?.instruction == .mouthOpen)
        }
    }

    /// `mouth_closed_close_up_lips` on tuning photos: lips slightly apart with no teeth on a
    /// 185-px face (the examiner set's `deepface-img67`), read closed on the attention mesh's own
    /// region (refined lip gap 0.012, under 0.022), read apart on the close-ups of the lower face
    /// (over 0.025); a compliant face of the real set (`cmd-without_mask-114`) and a closed mouth of
    /// the examiner set (`deepface-img3`) stay under it. Skipped without the attention mesh's file.
    @Test(.enabled(if: RefinedLipsTests.available && Fixtures.available, "needs models/face_landmark_with_attention.tflite (scripts/fetch-models)"))
    func lipsSlightlyApartAreFoundOnCloseUps() throws {
        let profile = try ProfileLibrary.load("uk")
        let lips = try #require(Self.lips)
        for (path, open) in [(ExaminerSetTests.folder + "/deepface-img67.jpg", true), (Self.folder + "/cmd-without_mask-114.jpg", false),
                             (ExaminerSetTests.folder + "/deepface-img3.jpg", false)] {
            let photo = try ImageDecoder.decode(path: path, as: .rgb888)
            let (_, _, m) = try #require(ExaminerSetTests.measure(photo, profile: profile, analyzer: Self.analyzer, palms: Self.palms, lips: lips))
            let c = ExaminerCheck(m, limits: profile.examiner, mouthClosed: profile.live.mouthClosed)
            let gap = try #require(m.closeUpLipGap), own = try #require(m.refinedLipGap)
            #expect(c.closeUpLips?.passed == !open, "\(path): close-up lip gap \(gap)")
            if open { #expect(c.refinedLips?.passed == true, "\(path): refined lip gap \(own) on the mesh's own region") }
            let rule = c.results(profile.examiner).first { $0.rule == "mouth_closed_close_up_lips" }
            #expect(rule?.instruction == .mouthOpen && rule?.limit == "≤ 0.025")
        }
    }

    /// `face_uncovered_veil` on real tuning photos: smoke over the mouth and chin that no other cover
    /// rule sees as near-white (`ama-valid-p44`: the lips and chin read lighter than the cheeks)
    /// is over the limit; a compliant face (`cmd-without_mask-114`) is well under it (its lips and
    /// chin darker than the cheeks), and its lips and chin lightened towards white by half (a
    /// veil painted over the lower face) go over it.
    @Test func smokeOverTheMouthReadsAsAVeil() throws {
        let profile = try ProfileLibrary.load("uk")
        let limit = profile.examiner.maxMouthVeil
        for (name, smoke) in [("ama-valid-p44.jpg", true), ("cmd-without_mask-114.jpg", false)] {
            let photo = try ImageDecoder.decode(path: Self.folder + "/" + name, as: .rgb888)
            let (face, _, m) = try #require(ExaminerSetTests.measure(photo, profile: profile, analyzer: Self.analyzer, palms: Self.palms, lips: nil))
            let c = ExaminerCheck(m, limits: profile.examiner, mouthClosed: profile.live.mouthClosed)
            #expect(c.veil?.passed == !smoke, "\(name): veil \(m.mouthVeil)")
            if smoke {
                #expect(c.results(profile.examiner).first { $0.rule == "face_uncovered_veil" }?.instruction == .faceCovered)
                continue
            }
            #expect(Double(m.mouthVeil) < 0.8 * limit, "\(name): veil \(m.mouthVeil)")
            // Half-way to white below the nose (the mouth, chin and jaw), the cheeks left as they are.
            let noseTip = face.mesh[2].y
            let v = photo.withImage { img -> ExaminerMeasurements in
                for y in Int(noseTip.rounded(.up))..<img.height {
                    let row = img.planes.0.row(y)
                    for x in 0..<(3 * img.width) { row[x] = UInt8((Int(row[x]) + 255) / 2) }
                }
                return ExaminerEstimator.measure(img, face: face, quality: CaptureQualityEstimator().evaluate(img, face: face))
            }
            #expect(Double(v.mouthVeil) > limit, "\(name) veiled: \(v.mouthVeil)")
        }
    }

    /// The per-rule table of the tuning half (printed; the limits were chosen on it).
    @Test func tuningHalfTable() throws {
        let profile = try ProfileLibrary.load("uk")
        let (tune, noFace) = try Self.samples(split: "tune", profile: profile)
        print(ExaminerSetTests.report("tune", tune, set: "examiner real photos", what: "photos"))
        print("no face found: \(noFace)")
        print(Self.compliantReport("tune", tune.filter(Self.compliant)))
        for s in tune where s.label.mouthOpen && !Self.mouthCaught(s) { print("open mouth missed: \(s.name): \(Self.measures(s))") }
        #expect(tune.count >= 20)
    }

    /// The issue's bounds on the held-out half.
    @Test func heldOutPhotosMeetTheCriteria() throws {
        let profile = try ProfileLibrary.load("uk")
        let (held, noFace) = try Self.samples(split: "held", profile: profile)
        print(ExaminerSetTests.report("held", held, set: "examiner real photos", what: "photos"))
        print("no face found: \(noFace)")
        #expect(held.count >= 20)
        for s in held where s.label.mouthOpen || s.label.eyesHidden || s.label.glasses == "sun" || s.label.covered {
            let why = (s.label.mouthOpen ? "open mouth " : "") + (s.label.eyesHidden || s.label.glasses == "sun" ? "hidden eyes " : "")
                + (s.label.covered ? "hand or object at the face" : "")
            if let reason = Self.knownAccepted[s.name], Self.accepted(s, profile) {
                withKnownIssue("\(s.name): \(reason) (now: \(Self.measures(s)))") { Issue.record("\(s.name) is accepted: \(why)") }
                continue
            }
            #expect(!Self.accepted(s, profile), "\(s.name) is accepted: \(why)")
        }
        print(try Self.classReport(held, profile))
        let open = held.filter { $0.label.mouthOpen }
        let caught = open.filter(Self.mouthCaught)
        print("open mouths caught by the mouth or expression rules: \(caught.count) of \(open.count)")
        // How close to its limit each open mouth caught by the lip-height rule alone is (a rule
        // near its limit flips with a small change of the mesh, e.g. another calibration table).
        for s in open where s.check.lipHeight?.passed == false {
            var others = s
            others.check.lipHeight = nil
            if !Self.mouthCaught(others) { print("open mouth caught by mouth_closed_lip_height alone: \(s.name): \(Self.measures(s))") }
        }
        #expect(!open.isEmpty)
        if Double(caught.count) < 0.8 * Double(open.count) && caught.count >= Self.knownOpenMouthsCaught {
            let why = "lips slightly apart read as closed"
            withKnownIssue("open mouths caught: \(caught.count) of \(open.count), under 80 %: \(why)") {
                Issue.record("open mouths caught: \(caught.count) of \(open.count)")
            }
        } else {
            #expect(Double(caught.count) >= 0.8 * Double(open.count), "open mouths caught: \(caught.count) of \(open.count)")
        }
        // False alarms on the compliant faces (every label no): the issue's bound.
        let compliant = held.filter(Self.compliant)
        print(Self.compliantReport("held", compliant))
        for (name, group, t) in ExaminerSetTests.tally(compliant) where t.compliant > 0 && !group {
            let bound = 0.1 * Double(t.compliant)
            if let known = Self.knownFalseAlarms[name], Double(t.falseAlarms) > bound {
                withKnownIssue("\(name): \(known.reason)") {
                    Issue.record("\(name): \(t.falseAlarms) false alarms on \(t.compliant) compliant photos")
                }
                #expect(t.falseAlarms <= known.count, "\(name): \(t.falseAlarms) false alarms, more than the \(known.count) recorded")
                continue
            }
            #expect(Double(t.falseAlarms) <= bound, "\(name): \(t.falseAlarms) false alarms on \(t.compliant) compliant photos")
        }
    }

    /// Per class (the `class` column: why a photo was chosen), how many photos the face rules
    /// refuse, and the instruction given first.
    static func classReport(_ samples: [Sample], _ profile: Profile) throws -> String {
        let text = try String(contentsOfFile: folder + "/labels.tsv", encoding: .utf8)
        var classOf: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            if f.count > 9 { classOf[String(f[0])] = String(f[9]) }
        }
        var byClass: [String: (refused: Int, all: Int, first: [String: Int])] = [:]
        for x in samples {
            let c = classOf[x.name] ?? "?"
            var e = byClass[c] ?? (0, 0, [:])
            e.all += 1
            if !accepted(x, profile) {
                e.refused += 1
                let first = x.check.instruction(glasses: profile.examiner.glasses).map { "\($0)" } ?? "eyes/quality"
                e.first[first, default: 0] += 1
            }
            byClass[c] = e
        }
        var s = "per class: refused / photos (first instruction)\n"
        for (c, e) in byClass.sorted(by: { $0.key < $1.key }) {
            s += "\(c) | \(e.refused) / \(e.all) | " + e.first.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "\n"
        }
        return s
    }

    /// A photo that breaks no labelled rule (mouth closed, no smile, eyes open and visible, no
    /// glasses, nothing at the face, head uncovered).
    static func compliant(_ s: Sample) -> Bool {
        let l = s.label
        return !l.mouthOpen && !l.smile && !l.eyesHidden && l.glasses == "none" && !l.covered && !l.headCovered && !l.eyesClosed
    }

    /// Per rule, the false alarms on the compliant photos.
    static func compliantReport(_ split: String, _ compliant: [Sample]) -> String {
        var s = "examiner real photos, \(split): false alarms on the \(compliant.count) compliant photos:\n"
        for (name, _, t) in ExaminerSetTests.tally(compliant) { s += "\(name) | \(t.falseAlarms) / \(t.compliant)\n" }
        for x in compliant {
            let failed = x.check.results(ExaminerLimits()).filter { !$0.passed }
            if !failed.isEmpty { s += x.name + ": " + failed.map { $0.rule + " " + String(format: "%.3f", $0.measured) }.joined(separator: ", ") + "\n" }
        }
        return s
    }

    /// Refused by a mouth rule or the expression rule itself.
    static func mouthCaught(_ s: Sample) -> Bool {
        let c = s.check
        return c.mouthClosed?.passed == false || c.slit?.passed == false || c.teeth?.passed == false
            || c.teethLine?.passed == false || c.lipHeight?.passed == false || c.mouthCombined?.passed == false
            || c.refinedLips?.passed == false || c.closeUpLips?.passed == false || c.expression?.passed == false
    }

    /// The measures a known miss is judged by, as measured in this run.
    static func measures(_ s: Sample) -> String {
        let m = s.measurements
        func f(_ x: Float?) -> String { x.map { String(format: "%.3f", $0) } ?? "-" }
        return "lip gap \(f(m.lipGap)), slit \(f(m.lipSlit)), teeth \(f(m.teeth)), teeth line \(f(m.teethLine)), lip aspect \(f(m.lipAspect)), refined lip gap \(f(m.refinedLipGap)), close-up lip gap \(f(m.closeUpLipGap)), smile \(f(m.smile)), brows \(f(m.browHeight)), palm \(f(m.hand)), "
            + "jaw \(f(m.handAtJaw)), hand in frame \(f(m.handInFrame)), hand at mouth \(f(m.handAtMouth)), mouth mesh \(f(m.mouthMeshPresence)), cover \(f(m.cover)), mouth white \(f(m.mouthWhite)), chin white \(f(m.chinWhite)), veil \(f(m.mouthVeil)), sides \(f(m.sideEdges)), lips \(f(m.lipSides))"
    }

    /// Held-out photos accepted although they break a rule, measured and not tuned away: name → why.
    /// Measured on the integer path with the UK limits (chosen on the tuning halves only). Refused
    /// since and taken off the list: huy-val-bb0559 and huy-train-000250 (session 8), and
    /// huy-train-gg0030 (a cigarette at the lips behind clear glasses; session 9: its lips apart
    /// round the cigarette fail `mouth_closed_lip_height`, 0.54 against 0.47), and huy-train-gg0007
    /// (a hand round a cigarette at the mouth; session 14: refused by `face_uncovered_mouth_bar`,
    /// the cigarette as a light bar leaving the lips, a limit chosen on the tuning half only).
    /// Session 17: cmd-without_mask-175, -196 and -39 (lips slightly apart, lip gap 0.010–0.020 on the
    /// plain mesh) are refused by `mouth_closed_refined_lips` (the lip gap on the attention mesh's
    /// refined lips, limit 0.022 chosen on the tuning half; these held values, 0.022–0.036, had been
    /// looked at in session 16 before the limit was set, so they are not a clean held-out result).
    /// Session 18: ama-train-p48 (smoke in front of the mouth and chin; every other cover measure
    /// reads nothing) is refused by `face_uncovered_veil` (the lips' and chin's luma over the
    /// cheeks', 1.025 against 1.0, a limit chosen on the tuning half only, where five smoke photos
    /// were added; p48's value was not looked at before).
    static let knownAccepted: [String: String] = [:]

    /// The open mouths of the held half caught by the mouth or expression rules, measured (a
    /// floor): 18 of 23 since session 7's labels (5 photos with lips slightly apart were added or
    /// relabelled); 26 of 33 since session 8 added 10 held open mouths (8 caught; missed:
    /// cmd-without_mask-196, lips slightly apart, lip gap 0.016, and max-assets-surprised, a
    /// mouth open inside a white beard, lip gap 0.017, slit 0.004, no teeth, refused by other
    /// rules); 80 % would be 27. 29 of 33 since session 9's `mouth_closed_lip_height` (the outer
    /// lips' height over the mouth's width), over the bound. 31 of 38 since session 16 added 3 held
    /// photos with lips apart on neutral faces (253 and 341 caught, 39 missed). 36 of 38 since
    /// session 17's `mouth_closed_refined_lips` (it catches 34 of 38 alone, 1 false alarm of 66
    /// compliant faces).
    static let knownOpenMouthsCaught = 36

    /// Rules above 10 % false alarms on the held-out half: the count measured (a ceiling) and why.
    /// None since session 7 (eyes_visible counts the contrast inside the eye openings, head_covering
    /// a looser skin match on the forehead).
    static let knownFalseAlarms: [String: (count: Int, reason: String)] = [:]
}
