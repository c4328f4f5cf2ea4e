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
    static let source = try! ImageDecoder.decode(path: Fixtures.models + "/astronaut.png", as: .rgb888)
    static let guide = LayoutGuide.centred(width: 640, height: 480)

    /// The face box of the untouched portrait.
    static let faceBox: Rect = withExtendedLifetime(source) { analyzer.analyze(source.image())[0].box }

    /// A 640×480 frame showing the portrait scaled by `scale`, rotated by `degrees` about the face
    /// centre, with the face centre at the guide centre plus (dx, dy); copies at each x offset.
    static func scene(scale: Float = 1, degrees: Float = 0, dx: Float = 0, dy: Float = 0, copiesAt: [Float] = [0],
                      blurRadius: Int = 0, gain: Float = 1) -> ImageBuffer {
        let out = ImageBuffer(format: .rgb888, width: 640, height: 480)
        Fill.run(out.image().luma, value: 0xE0_E0E0)
        let s = source.image().luma
        let fc = faceBox.center, gc = guide.box.center
        let a = degrees * .pi / 180, c = cos(a), sn = sin(a)
        let d = out.image().luma
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
        if gain != 1 {
            for y in 0..<480 { for x in 0..<(3 * 640) { d.row(y)[x] = UInt8(min(255, Float(d.row(y)[x]) * gain)) } }
        }
        if blurRadius > 0 {
            let tmp = ImageBuffer(format: .rgb888, width: 640 / (2 * blurRadius), height: 480 / (2 * blurRadius))
            ResizeArea.run(out.image(), tmp.image())
            ResizeBilinear.run(tmp.image(), out.image())
        }
        return out
    }

    /// The scene's instruction under the UK profile.
    static func instruction(_ frame: ImageBuffer) throws -> Instruction {
        let uk = try shippedProfile("uk")
        return withExtendedLifetime(frame) {
            let faces = analyzer.analyze(frame.image()).map { FaceMeasurement($0, quality: quality.evaluate(frame.image(), face: $0)) }
            return LiveRules(profile: uk).evaluate(faces: faces, guide: guide, replacingBackground: true).instruction
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
            #expect(try Self.instruction(Self.scene(scale: Self.fit, gain: g)) == .qualityTooLow, "gain \(g)")
        }
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
        // A mask calling the left 200 columns background: light grey there → plain; dark stripes → not.
        let mask = ImageBuffer(format: .gray8, width: 640, height: 480)
        for y in 0..<480 { for x in 0..<640 { mask.image().luma.row(y)[x] = x < 200 ? 0 : 255 } }
        let face = try withExtendedLifetime(frame) { () throws -> FaceMeasurement in
            let f = try #require(Self.analyzer.analyze(frame.image()).first)
            return FaceMeasurement(f, quality: Self.quality.evaluate(frame.image(), face: f))
        }
        for y in 0..<480 { for x in 0..<(3 * 200) { frame.image().luma.row(y)[x] = 232 } }   // a plain light wall
        let light = BackgroundMeasurement(frame.image(), mask: mask.image().luma)
        #expect(LiveRules(profile: uk).evaluate(faces: [face], guide: Self.guide, background: light).instruction == .ready)
        for y in 0..<480 where (y / 8) % 2 == 0 { for x in 0..<(3 * 200) { frame.image().luma.row(y)[x] = 20 } }
        let striped = BackgroundMeasurement(frame.image(), mask: mask.image().luma)
        #expect(LiveRules(profile: uk).evaluate(faces: [face], guide: Self.guide, background: striped).instruction == .backgroundNotPlain)
    }

    @Test func noFaceAndTwoFaces() throws {
        let blank = ImageBuffer(format: .rgb888, width: 640, height: 480)
        Fill.run(blank.image().luma, value: 0xE0_E0E0)
        #expect(try Self.instruction(blank) == .noFace)
        #expect(try Self.instruction(Self.scene(scale: Self.fit * 0.55, copiesAt: [-150, 150])) == .multipleFaces)
    }
}
