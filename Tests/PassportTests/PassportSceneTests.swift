import Foundation
import ImageCore
import ImageFiles
import Passport
import TestSupport
import Testing
import Vision

/// Synthetic scenes made from a real face (the astronaut portrait): shifted, scaled, rotated,
/// blurred, doubled or absent, in a 640×480 frame under the UK profile's live rules and the
/// kiosk's centred layout guide. Each must produce its instruction, by priority.
@Suite(.serialized) struct PassportSceneTests {
    // The suite is .serialized: one test at a time uses these (interpreters are not thread-safe).
    nonisolated(unsafe) static let analyzer = try! FaceAnalyzer(modelDirectory: Fixtures.models)
    nonisolated(unsafe) static let quality = CaptureQualityEstimator()
    static let guide = LayoutGuide.centred(width: 640, height: 480)

    /// A portrait and the face box of its main face.
    struct Subject: @unchecked Sendable {
        let source: ImageBuffer
        let faceBox: Rect
        init?(_ path: String) {
            guard access(path, F_OK) == 0, let b = try? ImageDecoder.decode(path: path, as: .rgb888) else { return nil }
            guard let face = b.withImage({ analyzer.analyze($0).max(by: { $0.box.area < $1.box.area }) }) else { return nil }
            source = b; faceBox = face.box
        }
        /// Scale at which the face is as wide as the guide.
        var fit: Float { guide.box.width / faceBox.width }
    }

    /// The astronaut portrait (shipped with the models, always present). Its head is pitched
    /// about −0.17 rad, near the UK limit of 0.2.
    static let astronaut = Subject(Fixtures.models + "/astronaut.png")!
    /// A level, frontal face (pitch and yaw under 0.06 rad) from ../shared/fixtures, for covers:
    /// a cover moves the mesh's own pose estimate a few hundredths of a radian, which on the
    /// astronaut crosses the pose limit before any other rule is reached. nil when absent.
    static let frontal = Subject(Fixtures.sharedFixtures + "/faces/portraits/obama.jpg")
    static var source: ImageBuffer { astronaut.source }
    static var faceBox: Rect { astronaut.faceBox }

    /// A 640×480 frame showing the portrait scaled by `scale`, rotated by `degrees` about the face
    /// centre, with the face centre at the guide centre plus (dx, dy); copies at each x offset.
    static func scene(_ subject: Subject = astronaut, scale: Float = 1, degrees: Float = 0, dx: Float = 0, dy: Float = 0,
                      copiesAt: [Float] = [0], blurRadius: Int = 0, gain: Float = 1) -> ImageBuffer {
        let out = ImageBuffer(format: .rgb888, width: 640, height: 480)
        let source = subject.source
        let fc = subject.faceBox.center, gc = guide.box.center
        let a = degrees * .pi / 180, c = cos(a), sn = sin(a)
        out.withImage { frame in
            Fill.run(frame.luma, value: 0xE0_E0E0)
            let d = frame.luma
            source.withImage { picture in
                let s = picture.luma
                for copy in copiesAt {
                    for y in 0..<480 {
                        for x in 0..<640 {
                            let u = (Float(x) - gc.x - dx - copy) / scale, v = (Float(y) - gc.y - dy) / scale
                            let sx = Int((c * u + sn * v + fc.x).rounded()), sy = Int((-sn * u + c * v + fc.y).rounded())
                            guard sx >= 0, sy >= 0, sx < source.width, sy < source.height else { continue }
                            for k in 0..<3 { d.row(y)[3 * x + k] = s.row(sy)[3 * sx + k] }
                        }
                    }
                }
            }
            if gain != 1 {
                for y in 0..<480 { for x in 0..<(3 * 640) { d.row(y)[x] = UInt8(min(255, Float(d.row(y)[x]) * gain)) } }
            }
            if blurRadius > 0 {
                let tmp = ImageBuffer(format: .rgb888, width: 640 / (2 * blurRadius), height: 480 / (2 * blurRadius))
                tmp.withImage { small in
                    ResizeArea.run(frame, small)
                    ResizeBilinear.run(small, frame)
                }
            }
        }
        return out
    }

    /// The scene's instruction under the UK profile.
    static func instruction(_ frame: ImageBuffer, _ label: String = "") throws -> Instruction {
        try verdict(frame, label).instruction
    }

    /// The scene's verdict under the UK profile (printed with the quality when `label` is set).
    static func verdict(_ frame: ImageBuffer, _ label: String = "") throws -> Verdict {
        return try frame.withImage { frameImage in
            let uk = try shippedProfile("uk")
            return withExtendedLifetime(frame) {
                let found = analyzer.analyze(frameImage)
                let qualities = found.map { quality.evaluate(frameImage, face: $0) }
                let faces = zip(found, qualities).map { FaceMeasurement($0, quality: $1) }
                let verdict = LiveRules(profile: uk).evaluate(faces: faces, guide: guide, replacingBackground: true)
                if !label.isEmpty {
                    let q = qualities.first
                    let c = q?.components
                    print("scene \(label): \(verdict.instruction) roll \(found.first?.roll ?? 0) pitch \(found.first?.pitch ?? 0) yaw \(found.first?.yaw ?? 0) quality \(q?.score ?? -1) eyes \(q?.eyeOpenness ?? -1) mouth \(q?.mouthOpenness ?? -1)"
                          + " [sh \(c?.sharpness ?? -1) ex \(c?.exposure ?? -1) no \(c?.noise ?? -1) po \(c?.pose ?? -1) ey \(c?.eyesOpen ?? -1)"
                          + " mo \(c?.mouthNeutral ?? -1) oc \(c?.occlusion ?? -1) re \(c?.resolution ?? -1)]")
                }
                return verdict
            }
        }
    }

    /// The main face's landmarks in a scene (iBUG 68 points), for placing covers on it.
    static func landmarks(_ frame: ImageBuffer) -> [Point2]? {
        return frame.withImage { frameImage in
            analyzer.analyze(frameImage).first?.landmarks68
        }
    }

    /// A separable box blur of `radius` pixels (edges replicated), in place.
    static func boxBlur(_ frame: ImageBuffer, radius: Int) {
        frame.withImage { frameImage in
            let w = frame.width, h = frame.height, n = 2 * radius + 1
            let d = frameImage.luma
            var line = [Int](repeating: 0, count: max(w, h) * 3)
            for y in 0..<h {
                let row = d.row(y)
                for i in 0..<(3 * w) { line[i] = Int(row[i]) }
                for x in 0..<w {
                    for k in 0..<3 {
                        var sum = 0
                        for i in -radius...radius { sum += line[3 * min(w - 1, max(0, x + i)) + k] }
                        row[3 * x + k] = UInt8((sum + n / 2) / n)
                    }
                }
            }
            for x in 0..<w {
                for y in 0..<h { for k in 0..<3 { line[3 * y + k] = Int(d.row(y)[3 * x + k]) } }
                for y in 0..<h {
                    for k in 0..<3 {
                        var sum = 0
                        for i in -radius...radius { sum += line[3 * min(h - 1, max(0, y + i)) + k] }
                        d.row(y)[3 * x + k] = UInt8((sum + n / 2) / n)
                    }
                }
            }
        }
    }

    /// Paints the axis-aligned box `x0..<x1 × y0..<y1` with `colour`.
    static func paint(_ frame: ImageBuffer, x0: Float, y0: Float, x1: Float, y1: Float, colour: (UInt8, UInt8, UInt8)) {
        frame.withImage { frameImage in
            let d = frameImage.luma
            for y in max(0, Int(y0.rounded()))..<min(frame.height, Int(y1.rounded())) {
                for x in max(0, Int(x0.rounded()))..<min(frame.width, Int(x1.rounded())) {
                    d.row(y)[3 * x] = colour.0; d.row(y)[3 * x + 1] = colour.1; d.row(y)[3 * x + 2] = colour.2
                }
            }
        }
    }

    /// Scale at which the face is as wide as the guide.
    static var fit: Float { guide.box.width / faceBox.width }

    @Test func aWellPlacedFaceIsReady() throws {
        #expect(try Self.instruction(Self.scene(scale: Self.fit)) == .ready)
    }

    @Test func eachDisplacementGivesItsInstruction() throws {
        #expect(try Self.instruction(Self.scene(scale: Self.fit * 0.6)) == .moveCloser)
        #expect(try Self.instruction(Self.scene(scale: Self.fit * 1.45)) == .moveFurther)
        #expect(try Self.instruction(Self.scene(scale: Self.fit, dx: 70)) == .centre)
        #expect(try Self.instruction(Self.scene(scale: Self.fit, dy: -60)) == .centre)
        #expect(try Self.instruction(Self.scene(scale: Self.fit, degrees: 25)) == .lookStraight)
        // A badly under-exposed face: found, placed and posed right, but the capture is too poor.
        // (The UK limit, quality ≥ 0.2, is lenient: blur alone at this size does not reach it.)
        for g: Float in [0.08, 0.06] {
            #expect(try Self.instruction(Self.scene(scale: Self.fit, gain: g), "gain \(g)") == .qualityTooLow, "gain \(g)")
        }
    }

    /// Blur on a well-placed face (kiosk scale, UK thresholds as shipped): slight blur is still
    /// a usable capture, plain blur is "Image quality too low".
    @Test func blurGivesQualityTooLow() throws {
        #expect(try Self.instruction(Self.scene(scale: Self.fit), "sharp") == .ready)
        // Box blur of radius 1, 2 (ready) and 4, 6 (a 9- and 13-pixel box on a face about 200 px wide).
        for r in [1, 2, 4, 6] {
            let frame = Self.scene(scale: Self.fit)
            Self.boxBlur(frame, radius: r)
            let got = try Self.instruction(frame, "box blur \(r)")
            #expect(got == (r >= 4 ? .qualityTooLow : .ready), "box blur radius \(r)")
        }
        // Gaussian blur: three box passes of radius r (σ = √(r(r + 1)): 1.4 px, 3.5 px).
        for r in [1, 3] {
            let frame = Self.scene(scale: Self.fit)
            for _ in 0..<3 { Self.boxBlur(frame, radius: r) }
            let got = try Self.instruction(frame, "gaussian blur \(r)")
            #expect(got == (r >= 3 ? .qualityTooLow : .ready), "Gaussian blur, box radius \(r)")
        }
    }

    /// A censor bar over both eyes (lids and corners covered, brows and nose free) in dark or
    /// mid grey, `margin` eye widths above and below the lids.
    static func eyeBar(_ subject: Subject, margin: Float, grey: UInt8) throws -> ImageBuffer {
        let p = try #require(landmarks(scene(subject, scale: subject.fit)))
        let eyeWidth = p[45].x - p[42].x
        let lids = (top: min(p[37].y, p[38].y, p[43].y, p[44].y), bottom: max(p[40].y, p[41].y, p[46].y, p[47].y))
        let frame = scene(subject, scale: subject.fit)
        paint(frame, x0: p[36].x - 0.3 * eyeWidth, y0: lids.top - margin * eyeWidth, x1: p[45].x + 0.3 * eyeWidth,
              y1: lids.bottom + margin * eyeWidth, colour: (grey, grey, grey))
        return frame
    }

    /// A light-blue patch over mouth and nose (a surgical mask), cheek to cheek, from the lower
    /// nose bridge to just below the chin.
    static func mouthPatch(_ subject: Subject) throws -> ImageBuffer {
        let p = try #require(landmarks(scene(subject, scale: subject.fit)))
        let frame = scene(subject, scale: subject.fit)
        paint(frame, x0: p[3].x, y0: p[29].y, x1: p[13].x, y1: p[8].y + 0.05 * (p[8].y - p[27].y), colour: (160, 190, 220))
        return frame
    }

    static func passed(_ v: Verdict, _ rule: String) -> Bool? { v.rules.first { $0.rule == rule }?.passed }

    /// Covers on the astronaut at kiosk scale. The mouth-and-nose patch leaves the eyes open and
    /// the lips under it are the mesh's guess (closed), so quality decides: too low. A bar over
    /// the eyes is refused too, but by the pose rule: the astronaut's head is pitched −0.17 rad
    /// (UK limit 0.2) and with the eyes hidden the mesh's pitch moves to −0.22…−0.25, so "look
    /// straight" comes first by priority (the frontal face below shows the eyes rule).
    @Test func coversOnTheAstronaut() throws {
        let s = Self.astronaut
        #expect(try Self.instruction(Self.mouthPatch(s), "astronaut mouth patch") == .qualityTooLow)
        for margin: Float in [0.2, 0.3] {
            let v = try Self.verdict(Self.eyeBar(s, margin: margin, grey: 30), "astronaut eye bar \(margin)")
            #expect(v.instruction != .ready)
            #expect(Self.passed(v, "eyes_open") == false, "astronaut eye bar \(margin): eyes still read open")
        }
    }

    /// Covers on a level frontal face (pitch and yaw within 0.06 rad). He is speaking, so the
    /// untouched scene asks to close the mouth (eyes open, quality fine). A bar over the eyes
    /// makes the eyes rule fail, which outranks the mouth; a patch over mouth and nose hides
    /// the open mouth (the mesh guesses closed lips) and the capture is too poor.
    @Test(.enabled(if: frontal != nil, "../shared/fixtures/faces/portraits/obama.jpg is absent: frontal cover scenes skipped"))
    func coversOnAFrontalFace() throws {
        let s = try #require(Self.frontal)
        let clean = try Self.verdict(Self.scene(s, scale: s.fit), "frontal")
        #expect(Self.passed(clean, "eyes_open") == true && Self.passed(clean, "quality") == true && Self.passed(clean, "pitch") == true)
        for margin: Float in [0.2, 0.3] {
            for grey: UInt8 in [30, 128] {
                #expect(try Self.instruction(Self.eyeBar(s, margin: margin, grey: grey), "eye bar \(margin) \(grey)") == .eyesClosed,
                        "eye bar margin \(margin) grey \(grey)")
            }
        }
        #expect(try Self.instruction(Self.mouthPatch(s), "mouth and nose patch") == .qualityTooLow)
    }

    @Test func priorityWhenSeveralThingsAreWrong() throws {
        // Too small and off centre and tilted: distance comes first.
        #expect(try Self.instruction(Self.scene(scale: Self.fit * 0.6, degrees: 25, dx: 60)) == .moveCloser)
        // Off centre and tilted: centring comes before pose.
        #expect(try Self.instruction(Self.scene(scale: Self.fit, degrees: 25, dx: 70)) == .centre)
    }

    @Test func aKeptBackgroundMustBeLightAndPlain() throws {
        let uk = try shippedProfile("uk")
        let frame = Self.scene(scale: Self.fit)
        try frame.withImage { frameImage in
            // A mask calling the left 200 columns background: light grey there → plain; dark stripes → not.
            let mask = ImageBuffer(format: .gray8, width: 640, height: 480)
            try mask.withImage { maskImage in
                for y in 0..<480 { for x in 0..<640 { maskImage.luma.row(y)[x] = x < 200 ? 0 : 255 } }
                let face = try withExtendedLifetime(frame) { () throws -> FaceMeasurement in
                    let f = try #require(Self.analyzer.analyze(frameImage).first)
                    return FaceMeasurement(f, quality: Self.quality.evaluate(frameImage, face: f))
                }
                for y in 0..<480 { for x in 0..<(3 * 200) { frameImage.luma.row(y)[x] = 232 } }   // a plain light wall
                let light = BackgroundMeasurement(frameImage, mask: maskImage.luma)
                #expect(LiveRules(profile: uk).evaluate(faces: [face], guide: Self.guide, background: light).instruction == .ready)
                for y in 0..<480 where (y / 8) % 2 == 0 { for x in 0..<(3 * 200) { frameImage.luma.row(y)[x] = 20 } }
                let striped = BackgroundMeasurement(frameImage, mask: maskImage.luma)
                #expect(LiveRules(profile: uk).evaluate(faces: [face], guide: Self.guide, background: striped).instruction == .backgroundNotPlain)
            }
            }
    }

    @Test func noFaceAndTwoFaces() throws {
        let blank = ImageBuffer(format: .rgb888, width: 640, height: 480)
        blank.withImage { Fill.run($0.luma, value: 0xE0_E0E0) }
        #expect(try Self.instruction(blank) == .noFace)
        #expect(try Self.instruction(Self.scene(scale: Self.fit * 0.55, copiesAt: [-150, 150])) == .multipleFaces)
    }
}
