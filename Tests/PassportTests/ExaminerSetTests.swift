import Foundation
import ImageCore
import ImageFiles
import Passport
import TestSupport
import Testing
import Vision

/// The examiner's rules on the labelled development set in `ExaminerSet/` (real photos from
/// public sources, labelled by eye per rule; see its SOURCES.md) and on honest synthetic
/// variants of each (`ExaminerSetVariants`). Limits were tuned on the `tune` photos only; the
/// criteria are checked on the `held` photos and their variants:
/// - no open mouth, hidden eyes (sunglasses), hand or cigarette is accepted by the face rules
///   (known misses: two faces with lips slightly apart and their variants, below); the hand rule
///   runs the palm detector as `booth passport` does;
/// - at least 80 % of open mouths are caught by the `mouth_closed*` rules or
///   `expression_neutral` themselves;
/// - every rule of the report raises at most 10 % false alarms on the faces that comply with it.
@Suite(.serialized) struct ExaminerSetTests {
    /// The integer path (the product's: `booth passport` and the kiosk run it), or the float one
    /// with `BOOTH_EXAMINER_PATH=float`.
    nonisolated(unsafe) static let analyzer = try! FaceAnalyzer(
        modelDirectory: Fixtures.models, path: ProcessInfo.processInfo.environment["BOOTH_EXAMINER_PATH"] == "float" ? .float : .integer)
    /// The palm detector, as `booth passport` runs it on stills (float path).
    nonisolated(unsafe) static let palms = try! ModelStore(directory: Fixtures.models).palmDetector()
    /// The attention mesh for `mouth_closed_refined_lips`, as `booth passport` runs it on stills
    /// (float path); nil when its file is absent (that rule is then not run, as without the model).
    nonisolated(unsafe) static let lips = try? ModelStore(directory: Fixtures.models).refinedLips()
    static let folder = Fixtures.packageRoot + "/Tests/PassportTests/ExaminerSet"

    /// One labelled photo: which rules it breaks (by eye).
    struct Label {
        var file: String
        var split: String
        var mouthOpen: Bool
        var smile: Bool
        var eyesHidden: Bool
        var glasses: String          // none, clear, sun
        var covered: Bool
        var headCovered: Bool
        /// Eyes shut (the optional 11th column, `eyes_closed`): refused by the live eyes-open
        /// rule, so not a compliant face for the examiner's false-alarm count.
        var eyesClosed = false
        /// Eyebrows raised (the optional 10th column, `class`, is `brows_raised`): the brow rule's
        /// non-compliant photos; the other rules count them as compliant.
        var browsRaised = false
        var blurred = false
        var uneven = false
    }

    /// The labels of `folder` (this set's by default; `ExaminerRealTests` reads its own folder's,
    /// which has the same columns).
    static func labels(in folder: String = folder) throws -> [Label] {
        let text = try String(contentsOfFile: folder + "/labels.tsv", encoding: .utf8)
        var out: [Label] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("file\t") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 8 else { throw LabelError(line: String(line)) }
            func yes(_ s: String) throws -> Bool {
                guard s == "y" || s == "n" else { throw LabelError(line: String(line)) }
                return s == "y"
            }
            guard ["tune", "held"].contains(f[1]), ["none", "clear", "sun"].contains(f[5]) else { throw LabelError(line: String(line)) }
            out.append(Label(file: f[0], split: f[1], mouthOpen: try yes(f[2]), smile: try yes(f[3]), eyesHidden: try yes(f[4]),
                             glasses: f[5], covered: try yes(f[6]), headCovered: try yes(f[7]),
                             eyesClosed: f.count > 10 ? try yes(f[10]) : false, browsRaised: f.count > 9 && f[9] == "brows_raised"))
        }
        return out
    }

    struct LabelError: Error { var line: String }

    /// A sample: a photo or a variant, its labels, and what the rules said.
    struct Sample {
        var name: String
        var label: Label
        var measurements: ExaminerMeasurements
        var check: ExaminerCheck
        var eyesOpen: Bool
        var quality: Double
        var capture: CaptureQuality
    }

    /// The variant's labels: what it adds to the photo's own.
    static func label(_ base: Label, _ kind: ExaminerSetVariants.Kind?) -> Label {
        var l = base
        switch kind {
        case nil, .rotated, .dark: break
        case .blur: l.blurred = true
        case .shadow: l.uneven = true
        case .sunglasses: l.eyesHidden = true; l.glasses = "sun"
        case .hand, .cigarette: l.covered = true
        case .hat: l.headCovered = true
        }
        return l
    }

    /// The main face of `image` and its measurements, with `analyzer` and `palms` (this suite's
    /// by default; another suite passes its own, since suites run in parallel).
    static func measure(_ image: ImageBuffer, profile: Profile, analyzer: FaceAnalyzer = analyzer,
                        palms: PalmDetector = palms, lips: RefinedLips? = lips) -> (FaceObservation, CaptureQuality, ExaminerMeasurements)? {
        image.withImage { img in
            guard let face = analyzer.analyze(img).max(by: { $0.box.area < $1.box.area }) else { return nil }
            let q = CaptureQualityEstimator().evaluate(img, face: face)
            var m = ExaminerEstimator.measure(img, face: face, quality: q)
            // One palm detection for both palm measures, as `PassportPhotoMaker` runs it.
            let found = palms.palmsAround(img, face: face.box)
            m.hand = palms.palmsOverFace(found, face: face.box).overlap(img, confirmedBy: palms.verifier)
            m.handAtJaw = palms.handAtJaw(img, face: face.box)
            if let verifier = palms.verifier {
                let frame = PassportFrame.estimate(face, profile: profile)
                m.handInFrame = HandsInFrame.presence(HandsInFrame.palms(found, face: face.box, frame: frame, fingerScale: palms.fingerScale), img,
                                                      confirmedBy: verifier)
            }
            m.handAtMouth = HandAtMouth.presence(palms, img, mouth: HandAtMouth.mouth(face.mesh), face: face.box)
            // The mesh again on a close-up of the lower face, as `PassportPhotoMaker` runs it.
            m.mouthMeshPresence = MouthCloseUp.presence(analyzer.landmarker, img, mesh: face.mesh)
            // The attention mesh's refined lips, as `PassportPhotoMaker` runs it.
            m.refinedLipGap = lips?.lipGap(img, mesh: face.mesh)
            m.closeUpLipGap = lips?.closeUpLipGap(img, mesh: face.mesh)
            return (face, q, m)
        }
    }

    /// Every photo of `split` and its variants, measured under `profile`.
    static func samples(split: String, profile: Profile) throws -> [Sample] {
        let hand = try ImageDecoder.decode(path: folder + "/hand.png", as: .rgb888)
        var out: [Sample] = []
        for l in try labels() where l.split == split {
            let photo = try ImageDecoder.decode(path: folder + "/" + l.file, as: .rgb888)
            guard let (face, _, _) = measure(photo, profile: profile) else {
                Issue.record("\(l.file): no face found")
                continue
            }
            var kinds: [ExaminerSetVariants.Kind?] = [nil]
            kinds += ExaminerSetVariants.Kind.allCases
            for kind in kinds {
                let image = kind.map { ExaminerSetVariants.make($0, photo, face: face, hand: hand) } ?? photo
                guard let (_, q, m) = measure(image, profile: profile) else { continue }   // a variant may hide the face
                let check = ExaminerCheck(m, limits: profile.examiner, mouthClosed: profile.live.mouthClosed)
                out.append(Sample(name: l.file + (kind.map { "+" + $0.rawValue } ?? ""), label: label(l, kind), measurements: m,
                                  check: check, eyesOpen: Double(q.eyeOpenness) >= profile.live.minEyeOpenness, quality: Double(q.score),
                                  capture: q))
            }
        }
        return out
    }

    /// Per rule: the samples that break it (by label) and whether the rule failed.
    struct Tally { var caught = 0, missed = 0, falseAlarms = 0, compliant = 0 }

    /// Per rule of the JSON report (and, marked "group", the rules that share an instruction
    /// taken together): the samples that break it by label, and whether it failed.
    static func tally(_ samples: [Sample]) -> [(name: String, group: Bool, tally: Tally)] {
        func t(_ bad: (Label) -> Bool, _ failed: (ExaminerCheck) -> Bool) -> Tally {
            var r = Tally()
            for s in samples {
                let f = failed(s.check)
                if bad(s.label) { if f { r.caught += 1 } else { r.missed += 1 } } else { r.compliant += 1; if f { r.falseAlarms += 1 } }
            }
            return r
        }
        func no(_ o: LiveRules.Outcome?) -> Bool { o?.passed == false }
        return [
            ("mouth_closed (lip gap)", false, t({ $0.mouthOpen }, { no($0.mouthClosed) })),
            ("mouth_closed_slit", false, t({ $0.mouthOpen }, { no($0.slit) })),
            ("mouth_closed_teeth", false, t({ $0.mouthOpen }, { no($0.teeth) })),
            ("mouth_closed_teeth_line", false, t({ $0.mouthOpen }, { no($0.teethLine) })),
            ("mouth_closed_lip_height", false, t({ $0.mouthOpen }, { no($0.lipHeight) })),
            ("mouth_closed_combined", false, t({ $0.mouthOpen }, { no($0.mouthCombined) })),
            ("mouth_closed_refined_lips", false, t({ $0.mouthOpen }, { no($0.refinedLips) })),
            ("mouth_closed_close_up_lips", false, t({ $0.mouthOpen }, { no($0.closeUpLips) })),
            // The six mouth rules before `mouth_closed_refined_lips` (session 17), to show what it adds.
            ("group: the six mouth rules", true, t({ $0.mouthOpen }, {
                no($0.mouthClosed) || no($0.slit) || no($0.teeth) || no($0.teethLine) || no($0.lipHeight) || no($0.mouthCombined)
            })),
            ("group: the seven mouth rules", true, t({ $0.mouthOpen }, {
                no($0.mouthClosed) || no($0.slit) || no($0.teeth) || no($0.teethLine) || no($0.lipHeight) || no($0.mouthCombined)
                    || no($0.refinedLips)
            })),
            // With `mouth_closed_close_up_lips` (session 19).
            ("group: the eight mouth rules", true, t({ $0.mouthOpen }, {
                no($0.mouthClosed) || no($0.slit) || no($0.teeth) || no($0.teethLine) || no($0.lipHeight) || no($0.mouthCombined)
                    || no($0.refinedLips) || no($0.closeUpLips)
            })),
            ("expression_neutral", false, t({ $0.smile }, { no($0.expression) })),
            ("expression_neutral_brows", false, t({ $0.browsRaised }, { no($0.brows) })),
            ("eyes_visible", false, t({ $0.eyesHidden }, { no($0.eyesVisible) })),
            ("eyes_visible_iris", false, t({ $0.eyesHidden }, { no($0.iris) })),
            ("group: the two eye rules", true, t({ $0.eyesHidden }, { no($0.eyesVisible) || no($0.iris) })),
            ("no_glasses", false, t({ $0.glasses != "none" }, { no($0.glasses) })),
            ("face_uncovered", false, t({ $0.covered }, { no($0.cover) })),
            ("face_uncovered_object", false, t({ $0.covered }, { no($0.object) })),
            ("face_uncovered_mouth", false, t({ $0.covered }, { no($0.mouthObject) })),
            ("face_uncovered_chin", false, t({ $0.covered }, { no($0.chinObject) })),
            ("face_uncovered_sides", false, t({ $0.covered }, { no($0.sides) })),
            ("face_uncovered_lips", false, t({ $0.covered }, { no($0.lips) })),
            ("face_uncovered_hand", false, t({ $0.covered }, { no($0.hand) })),
            ("face_uncovered_jaw", false, t({ $0.covered }, { no($0.handAtJaw) })),
            ("no_hands_in_frame", false, t({ $0.covered }, { no($0.handInFrame) })),
            ("face_uncovered_hand_mouth", false, t({ $0.covered }, { no($0.handAtMouth) })),
            ("face_uncovered_mouth_mesh", false, t({ $0.covered }, { no($0.mouthMesh) })),
            ("face_uncovered_mouth_bar", false, t({ $0.covered }, { no($0.mouthBar) })),
            ("face_uncovered_veil", false, t({ $0.covered }, { no($0.veil) })),
            // The ten rules before `face_uncovered_mouth_mesh` (session 13), to show what it adds.
            ("group: the ten cover rules", true, t({ $0.covered }, {
                no($0.cover) || no($0.object) || no($0.mouthObject) || no($0.chinObject) || no($0.sides) || no($0.lips) || no($0.hand) || no($0.handAtJaw)
                    || no($0.handInFrame) || no($0.handAtMouth)
            })),
            ("group: the eleven cover rules", true, t({ $0.covered }, {
                no($0.cover) || no($0.object) || no($0.mouthObject) || no($0.chinObject) || no($0.sides) || no($0.lips) || no($0.hand) || no($0.handAtJaw)
                    || no($0.handInFrame) || no($0.handAtMouth) || no($0.mouthMesh)
            })),
            // With `face_uncovered_mouth_bar` (session 14).
            ("group: the twelve cover rules", true, t({ $0.covered }, {
                no($0.cover) || no($0.object) || no($0.mouthObject) || no($0.chinObject) || no($0.sides) || no($0.lips) || no($0.hand) || no($0.handAtJaw)
                    || no($0.handInFrame) || no($0.handAtMouth) || no($0.mouthMesh) || no($0.mouthBar)
            })),
            // With `face_uncovered_veil` (session 18).
            ("group: the thirteen cover rules", true, t({ $0.covered }, {
                no($0.cover) || no($0.object) || no($0.mouthObject) || no($0.chinObject) || no($0.sides) || no($0.lips) || no($0.hand) || no($0.handAtJaw)
                    || no($0.handInFrame) || no($0.handAtMouth) || no($0.mouthMesh) || no($0.mouthBar) || no($0.veil)
            })),
            ("head_covering", false, t({ $0.headCovered }, { no($0.headCovering) })),
            ("sharpness", false, t({ $0.blurred }, { no($0.sharpness) })),
            ("lighting", false, t({ $0.uneven }, { no($0.lighting) })),
        ]
    }

    static func report(_ split: String, _ samples: [Sample], set: String = "examiner set", what: String = "photos and variants") -> String {
        var s = "\(set), \(split) \(what) (\(samples.count) samples), profile uk:\n"
        s += "rule | non-compliant: caught / missed | compliant: false alarms / total\n"
        for (name, _, t) in tally(samples) {
            s += "\(name) | \(t.caught) / \(t.missed) | \(t.falseAlarms) / \(t.compliant)\n"
        }
        return s
    }

    @Test func labelsAreWellFormed() throws {
        let l = try Self.labels()
        #expect(l.count >= 40)
        for x in l { #expect(FileManager.default.fileExists(atPath: Self.folder + "/" + x.file), "\(x.file) is listed but absent") }
        #expect(l.contains { $0.split == "held" } && l.contains { $0.split == "tune" })
    }

    /// The done criteria on the held-out photos and their variants (UK profile).
    @Test func heldOutPhotosMeetTheCriteria() throws {
        let profile = try ProfileLibrary.load("uk")
        let held = try Self.samples(split: "held", profile: profile)
        print(Self.report("held", held))
        #expect(held.count >= 100)
        // Nothing with an open mouth or hidden eyes is accepted by the face rules.
        func accepted(_ s: Sample) -> Bool {
            s.check.instruction(glasses: profile.examiner.glasses) == nil && s.eyesOpen && s.quality >= profile.live.minQuality
        }
        // Known misses: lips slightly apart, missed by the three mouth rules on the integer path.
        // Until session 7 an eye-rule false alarm refused them (their eye regions read darker
        // than 0.5 of the cheeks); the eye rule now also counts the contrast inside the eye
        // openings, so they are accepted and listed here with their measures, not re-tuned
        // (limits come from the tuning half only):
        // - img27 (lip gap 0.017, 0.016 rotated, 0.013 darkened; slit 0.012–0.014; no teeth),
        //   missed on the float path too (0.016);
        // - img41 (lip gap 0.019, 0.018 rotated, 0.018 darkened): the integer face mesh puts
        //   every inner-lip pair about 27 % closer than the float mesh does (0.019 against
        //   0.027 undarkened; on the tuning half the integer gap is 0.95 of the float one, median
        //   of 95 faces, and the lip-gap verdict differs on 2 of 160), and its teeth are dim and
        //   yellow (0.8 of the skin's luma, 0.7 of its chroma), below the teeth rule's
        //   thresholds on both paths: an integer-mesh accuracy matter (issue 16), not a limit.
        // Since session 9 img41+rotated is refused (`mouth_closed_lip_height`) and off the list.
        // In session 10 img27+rotated was refused, but only by a `no_hands_in_frame` false alarm
        // (0.786: a palm on the hair at the photo's top edge); palms above the face box are left
        // out of that rule since session 11 (chosen on the tuning half), so it is accepted again.
        // Since session 17 img41 and img41+dark are refused by `mouth_closed_refined_lips` (the lip
        // gap on the attention mesh's refined lips, limit chosen on the real-photo set's tuning
        // half) and off the list; img27 and its two variants stay accepted (its refined lip gap is
        // under the limit too). Session 19: still accepted by `mouth_closed_close_up_lips` (the
        // refined lips on three close-ups of the lower face, limit 0.025 chosen on the tuning halves
        // before any held photo was run): img27 reads 0.0243 there (0.0102 on the mesh's own
        // region); the message below gives each one's value in this run.
        let knownMisses: Set<String> = ["deepface-img27.jpg", "deepface-img27.jpg+rotated", "deepface-img27.jpg+dark"]
        for s in held where s.label.mouthOpen || s.label.eyesHidden {
            if knownMisses.contains(s.name) && accepted(s) {
                let closeUp = s.measurements.closeUpLipGap.map { String(format: "%.4f", $0) } ?? "not run"
                withKnownIssue("\(s.name): open mouth (lips slightly apart) accepted, close-up lip gap \(closeUp)") {
                    Issue.record("\(s.name) is accepted although its mouth is open")
                }
                continue
            }
            #expect(!accepted(s), "\(s.name) is accepted although its mouth is open or its eyes hidden")
        }
        // Covers: none accepted. Before the palm detector, 2 held-out photos with the pasted hand
        // were (img4, img39: a skin-coloured hand over the mouth); now none is (img39 is refused
        // by the new hand rule, img4 by the other cover rules in this run).
        let coveredAccepted = held.filter { $0.label.covered && accepted($0) }
        #expect(coveredAccepted.isEmpty, "covered but accepted: \(coveredAccepted.map(\.name))")
        // Open mouths caught by the mouth or expression rule itself.
        let open = held.filter { $0.label.mouthOpen }
        let caught = open.filter {
            $0.check.mouthClosed?.passed == false || $0.check.slit?.passed == false || $0.check.teeth?.passed == false
                || $0.check.teethLine?.passed == false || $0.check.lipHeight?.passed == false || $0.check.mouthCombined?.passed == false
                || $0.check.refinedLips?.passed == false || $0.check.closeUpLips?.passed == false || $0.check.expression?.passed == false
        }
        #expect(!open.isEmpty && Double(caught.count) >= 0.8 * Double(open.count), "open mouths caught: \(caught.count) of \(open.count)")
        // At most 10 % false alarms per rule of the report (the groups are printed, not held to it:
        // the six cover rules together raise 30 of 203 on the integer path, 27 before the palm
        // detector's looser limits in the face's lower half; see the report).
        for (name, group, t) in Self.tally(held) where t.compliant > 0 && !group {
            #expect(Double(t.falseAlarms) <= 0.1 * Double(t.compliant), "\(name): \(t.falseAlarms) false alarms on \(t.compliant) compliant samples")
        }
    }
}
