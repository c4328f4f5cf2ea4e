import Foundation
import Hardware
import ImageCore
import ImageFiles
import Kiosk
import Logging
import Passport
import TestSupport
import Testing
import Vision

/// A camera wrapped by a test: every call goes to `inner`; subclasses change `pump`.
class WrappedSource: FrameSource {
    let inner: FrameSource
    init(inner: FrameSource) { self.inner = inner }
    var name: String { "wrapped " + inner.name }
    var previewWidth: Int { inner.previewWidth }
    var previewHeight: Int { inner.previewHeight }
    func start() throws(HardwareError) { try inner.start() }
    func stop() { inner.stop() }
    func requestStill() throws(HardwareError) { try inner.requestStill() }
    func pump(timeoutMilliseconds: Int32, deliver: FrameDelivery, still: (Image) -> Void) throws(HardwareError) -> Int {
        try inner.pump(timeoutMilliseconds: timeoutMilliseconds, deliver: deliver, still: still)
    }
}

/// A camera that fails once, mid-run, as an unplugged camera does.
final class FailingOnceSource: WrappedSource {
    let failAfter: Int
    var pumped = 0
    nonisolated(unsafe) static var failed = false   // one test at a time (.serialized); capture thread only
    init(inner: FrameSource, failAfter: Int) { self.failAfter = failAfter; super.init(inner: inner) }
    override func pump(timeoutMilliseconds: Int32, deliver: FrameDelivery, still: (Image) -> Void) throws(HardwareError) -> Int {
        pumped += 1
        if pumped == failAfter && !Self.failed {
            Self.failed = true
            throw .deviceGone(device: "camera", detail: "unplugged (test)")
        }
        return try super.pump(timeoutMilliseconds: timeoutMilliseconds, deliver: deliver, still: still)
    }
}

/// A camera that asks the kiosk to stop right after it hands over a still: the still thread then
/// finishes that still while the kiosk shuts down.
final class StopAfterStillSource: WrappedSource {
    let signal: StopSignal
    init(inner: FrameSource, stop: StopSignal) { self.signal = stop; super.init(inner: inner) }
    override func pump(timeoutMilliseconds: Int32, deliver: FrameDelivery, still: (Image) -> Void) throws(HardwareError) -> Int {
        try super.pump(timeoutMilliseconds: timeoutMilliseconds, deliver: deliver) { image in
            still(image)
            signal.set()
        }
    }
}

@Suite(.serialized) struct KioskEndToEndTests {
    func options(mode: KioskConfig.Mode, photos: String, camera: String, profile: String? = nil) throws -> KioskOptions {
        let board = try Board.parse(folderCameraBoard(name: "test", folder: camera, script: [1.5]), file: "test.toml")
        var config = KioskConfig.defaults
        config.mode = mode
        config.profile = profile ?? Fixtures.packageRoot + "/profiles/uk.toml"
        config.photoDirectory = photos
        config.countdown = 0
        config.reviewSeconds = 0.5
        var o = KioskOptions(config: config, board: board)
        o.clock = VirtualClock()                  // every stage stepped inline: seconds of kiosk in virtual time
        o.duration = .seconds(5)
        o.reportInterval = .seconds(2)
        return o
    }

    func cameraFolder() throws -> String {
        let dir = makeTemporaryDirectory()
        try FileManager.default.copyItem(atPath: Fixtures.models + "/astronaut.png", toPath: dir + "/astronaut.png")
        return dir
    }

    /// A 640×480 frame showing the astronaut with the face as wide as the kiosk's layout guide and
    /// centred in it (a scene the UK rules accept), over light grey.
    func wellPlacedFrame() throws -> String {
        let source = try ImageDecoder.decode(path: Fixtures.models + "/astronaut.png", as: .rgb888)
        let analyzer = try FaceAnalyzer(modelDirectory: Fixtures.models)
        let face = try #require(source.withImage { analyzer.analyze($0).first })
        let guide = LayoutGuide.centred(width: 640, height: 480)
        let s = guide.box.width / face.box.width
        let ox = guide.box.center.x - face.box.center.x * s, oy = guide.box.center.y - face.box.center.y * s
        let frame = ImageBuffer(format: .rgb888, width: 640, height: 480)
        frame.withImage { Fill.run($0.luma, value: 0xD0_D0D0) }
        let x0 = max(0, Int(ox.rounded(.up))), y0 = max(0, Int(oy.rounded(.up)))
        let x1 = min(640, Int((ox + Float(source.width) * s).rounded(.down)))
        let y1 = min(480, Int((oy + Float(source.height) * s).rounded(.down)))
        let sx0 = Int((Float(x0) - ox) / s), sy0 = Int((Float(y0) - oy) / s)
        let sx1 = min(source.width, Int(((Float(x1) - ox) / s).rounded(.up))), sy1 = min(source.height, Int(((Float(y1) - oy) / s).rounded(.up)))
        source.withImage { from in
            frame.withImage { to in
                ResizeBilinear.run(from.cropped(x: sx0, y: sy0, width: sx1 - sx0, height: sy1 - sy0),
                                   to.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
            }
        }
        let dir = makeTemporaryDirectory()
        try Data(frame.withImage { try PNGCodec.encode($0) }).write(to: URL(fileURLWithPath: dir + "/face.png"))
        return dir
    }

    func sidecar(_ saved: SavedPhoto) throws -> [String: Any] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: saved.sidecar)))
        return try #require(json as? [String: Any])
    }

    @Test func framesInShutterPressedPhotoAndSidecarSavedCameraFaultRecovered() throws {
        setenv("BOOTH_MODELS", Fixtures.models, 1)
        let photos = makeTemporaryDirectory() + "/photos"
        let folder = try cameraFolder()
        var o = try options(mode: .booth, photos: photos, camera: folder)
        let clock = o.clock.monotonic
        FailingOnceSource.failed = false
        o.openCamera = { () throws(HardwareError) -> any FrameSource in
            FailingOnceSource(inner: try FolderReplaySource(folder: folder, framesPerSecond: 15, clock: clock), failAfter: 10)
        }
        let kiosk = try KioskRuntime(options: o, logger: Logger(label: "test"))
        let summary = kiosk.run(stop: StopSignal())
        // 5 virtual seconds at 15 fps, less the ~100 ms the camera was away.
        #expect(summary.framesPublished > 65 && summary.framesPublished <= 76, "\(summary.framesPublished)")
        #expect(summary.framesAnalysed == summary.framesPublished, "inline, every frame is analysed")
        #expect(summary.shutterPresses == 1 && summary.refusals.isEmpty)
        #expect(summary.cameraEvents.contains { $0.hasPrefix("lost") })
        #expect(summary.cameraEvents.last?.hasPrefix("connected") == true, "\(summary.cameraEvents)")
        #expect(summary.photos.count == 1, "\(summary.messages)")
        let saved = try #require(summary.photos.first)
        let jpeg = try ImageDecoder.decode(path: saved.jpeg, as: .rgb888)
        #expect(jpeg.width == 512 && jpeg.height == 512)              // the still is the replayed image itself
        let sidecar = try sidecar(saved)
        #expect(sidecar["board"] as? String == "test" && sidecar["mode"] as? String == "booth")
        #expect((sidecar["software"] as? String)?.hasPrefix("booth ") == true)
        // The background was hidden (the default) and there is no greeting image: the astronaut's
        // dark top-left corner is white in the photo, as it was on the screen.
        #expect(sidecar["background"] as? String == "white")
        let corner = jpeg.withImage { image in (0..<3).map { image.luma.row(8)[3 * 8 + $0] } }
        #expect(corner.allSatisfy { $0 > 235 }, "corner \(corner)")
        let visible = try FileManager.default.subpathsOfDirectory(atPath: photos).filter { !($0 as NSString).lastPathComponent.hasPrefix(".") }
        #expect(visible.filter { $0.hasSuffix(".jpg") }.count == 2)   // the photo and latest.jpg
    }

    /// The same kiosk on the wall clock: capture, vision, still and input on their own threads,
    /// the event loop sleeping on the stages' signal. Frames flow, the press at 1.5 s is taken.
    @Test func onTheWallClockTheStagesRunOnThreads() throws {
        setenv("BOOTH_MODELS", Fixtures.models, 1)
        let photos = makeTemporaryDirectory() + "/photos"
        var o = try options(mode: .booth, photos: photos, camera: try cameraFolder())
        o.clock = WallClock()
        o.duration = .seconds(4)
        let summary = try KioskRuntime(options: o, logger: Logger(label: "test")).run(stop: StopSignal())
        #expect(summary.framesPublished > 10 && summary.framesAnalysed > 0 && summary.framesShown > 0, "\(summary)")
        #expect(summary.shutterPresses == 1)
        #expect(summary.photos.count == 1, "\(summary.messages)")
    }

    /// A still that the still thread finishes during shutdown is saved and counted in the summary
    /// (the final `stopped … photos=N` line said 0 before). The camera sets the stop signal as it
    /// hands the still over, so the run loop ends while the still is being processed.
    @Test func aStillFinishedDuringShutdownIsCounted() throws {
        setenv("BOOTH_MODELS", Fixtures.models, 1)
        let photos = makeTemporaryDirectory() + "/photos"
        let folder = try cameraFolder()
        var o = try options(mode: .booth, photos: photos, camera: folder)
        o.duration = .seconds(20)
        let stop = StopSignal()
        let clock = o.clock.monotonic
        o.openCamera = { () throws(HardwareError) -> any FrameSource in
            StopAfterStillSource(inner: try FolderReplaySource(folder: folder, framesPerSecond: 15, clock: clock), stop: stop)
        }
        let kiosk = try KioskRuntime(options: o, logger: Logger(label: "test"))
        let summary = kiosk.run(stop: stop)
        #expect(stop.isSet)
        #expect(summary.photos.count == 1, "\(summary.messages)")
        let saved = try #require(summary.photos.first)
        #expect(FileManager.default.fileExists(atPath: saved.jpeg))
    }

    @Test func passportModeRefusesTheShutterUntilTheVerdictHolds() throws {
        setenv("BOOTH_MODELS", Fixtures.models, 1)
        let photos = makeTemporaryDirectory() + "/photos"
        var o = try options(mode: .passport, photos: photos, camera: try cameraFolder())
        o.duration = .seconds(4)
        let kiosk = try KioskRuntime(options: o, logger: Logger(label: "test"))
        let summary = kiosk.run(stop: StopSignal())
        // The astronaut fills the frame's guide badly (letterboxed, small): the press at 1.5 s
        // came and was refused with the instruction on screen, and no still was taken.
        #expect(summary.framesAnalysed > 0)
        #expect(summary.shutterPresses == 1)
        #expect(summary.refusals.count == 1, "\(summary.refusals)")
        let instruction = try #require(summary.refusals.first)
        #expect(!instruction.isEmpty && instruction != Instruction.ready.defaultText, "\(instruction)")
        #expect(summary.photos.isEmpty && summary.photosSaved == 0 && summary.messages.isEmpty)
    }

    /// The same well-placed face the UK-allowing profile photographs, under a profile whose guide
    /// must hold green for 5 s (`hold_ms`) before the shutter works: the press at 1.5 s is refused.
    @Test func theProfilesHoldTimeGatesTheShutter() throws {
        setenv("BOOTH_MODELS", Fixtures.models, 1)
        let photos = makeTemporaryDirectory() + "/photos"
        let lenient = try profileAllowingTheAstronaut()
        let text = try String(contentsOfFile: lenient, encoding: .utf8)
            .replacingOccurrences(of: "[live]\n", with: "[live]\nhold_ms = 5000\n")
        let slow = makeTemporaryDirectory() + "/uk-slow.toml"
        try text.write(toFile: slow, atomically: true, encoding: .utf8)
        let o = try options(mode: .passport, photos: photos, camera: try wellPlacedFrame(), profile: slow)
        let summary = try KioskRuntime(options: o, logger: Logger(label: "test")).run(stop: StopSignal())
        #expect(summary.shutterPresses == 1)
        #expect(summary.refusals.count == 1 && summary.photos.isEmpty, "\(summary.refusals) \(summary.messages)")
    }

    /// The UK profile with the mouth and expression rules off and the hairline allowed covered:
    /// the astronaut grins with her teeth showing and her fringe hides the hairline, which the UK
    /// examiner's rules rightly refuse (`passportModeRefusesAGrin`).
    func profileAllowingTheAstronaut() throws -> String {
        var text = try String(contentsOfFile: Fixtures.packageRoot + "/profiles/uk.toml", encoding: .utf8)
        text = text.replacingOccurrences(of: "mouth_closed = true", with: "mouth_closed = false")
            .replacingOccurrences(of: "expression_neutral = true", with: "expression_neutral = false")
            .replacingOccurrences(of: "head_covering = \"refused\"", with: "head_covering = \"religious_or_medical\"")
        let path = makeTemporaryDirectory() + "/uk-smiling.toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `mouth_closed_refined_lips` runs on the still only (the kiosk builds the attention mesh after
    /// the still's face models and drops it): with the mouth rule on but the six live mouth limits
    /// opened wide (her grin passes them) the live frames pass and the shutter takes the still; the
    /// refined lips then read her lips apart, so the photo is saved with that rule failed in its
    /// report, the other mouth rules passed.
    @Test func passportStillRunsTheRefinedLipsRule() throws {
        setenv("BOOTH_MODELS", Fixtures.models, 1)
        let photos = makeTemporaryDirectory() + "/photos"
        let opened = ["max_lip_gap": "1", "max_lip_slit": "1", "max_teeth": "1", "max_teeth_line": "1", "max_lip_aspect": "2",
                      "max_mouth_evidence": "10"]
        let lines = try String(contentsOfFile: try profileAllowingTheAstronaut(), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map { line -> String in
                if line == "mouth_closed = false" { return "mouth_closed = true" }
                for (key, value) in opened where line.hasPrefix(key + " = ") { return key + " = " + value }
                return String(line)
            }
        let profile = makeTemporaryDirectory() + "/uk-lips.toml"
        try lines.joined(separator: "\n").write(toFile: profile, atomically: true, encoding: .utf8)
        let o = try options(mode: .passport, photos: photos, camera: try wellPlacedFrame(), profile: profile)
        let summary = try KioskRuntime(options: o, logger: Logger(label: "test")).run(stop: StopSignal())
        #expect(summary.shutterPresses == 1 && summary.refusals.isEmpty, "\(summary.refusals)")
        let saved = try #require(summary.photos.first, "\(summary.messages)")
        let passport = try #require(try sidecar(saved)["passport"] as? [String: Any])
        let rules = try #require(passport["rules"] as? [[String: Any]])
        let lips = try #require(rules.first { $0["rule"] as? String == "mouth_closed_refined_lips" }, "\(rules)")
        #expect(lips["passed"] as? Bool == false && (lips["measured"] as? Double ?? 0) > 0.022, "\(lips)")
        // The same model on close-ups of the lower face, in the same step.
        let closeUp = try #require(rules.first { $0["rule"] as? String == "mouth_closed_close_up_lips" }, "\(rules)")
        #expect(closeUp["limit"] as? String == "≤ 0.025" && (closeUp["measured"] as? Double ?? 0) > 0, "\(closeUp)")
        #expect(passport["complies"] as? Bool == false)
        for rule in ["mouth_closed", "mouth_closed_slit", "mouth_closed_teeth", "mouth_closed_teeth_line", "mouth_closed_lip_height",
                     "mouth_closed_combined"] {
            #expect(rules.first { $0["rule"] as? String == rule }?["passed"] as? Bool == true, "\(rule)")
        }
    }

    @Test func passportModeRefusesAGrin() throws {
        setenv("BOOTH_MODELS", Fixtures.models, 1)
        let photos = makeTemporaryDirectory() + "/photos"
        let kiosk = try KioskRuntime(options: try options(mode: .passport, photos: photos, camera: try wellPlacedFrame()),
                                     logger: Logger(label: "test"))
        let summary = kiosk.run(stop: StopSignal())
        #expect(summary.framesAnalysed > 0)
        #expect(summary.shutterPresses == 1 && summary.refusals.count == 1, "\(summary.refusals)")
        #expect(summary.photos.isEmpty, "a broad grin was photographed under the UK profile")
    }

    @Test func passportModeSavesTheFinishedPassportPhotoWithItsReport() throws {
        setenv("BOOTH_MODELS", Fixtures.models, 1)
        let photos = makeTemporaryDirectory() + "/photos"
        let o = try options(mode: .passport, photos: photos, camera: try wellPlacedFrame(), profile: try profileAllowingTheAstronaut())
        let kiosk = try KioskRuntime(options: o, logger: Logger(label: "test"))
        let summary = kiosk.run(stop: StopSignal())
        #expect(summary.shutterPresses == 1 && summary.refusals.isEmpty, "\(summary.refusals)")
        #expect(summary.photos.count == 1, "\(summary.messages)")
        let saved = try #require(summary.photos.first)
        let sidecar = try sidecar(saved)
        let passport = try #require(sidecar["passport"] as? [String: Any], "\(sidecar)")
        let rules = try #require(passport["rules"] as? [[String: Any]])
        #expect(rules.contains { $0["rule"] as? String == "head_height" })
        // The kiosk's still runs the still-only measures as `booth passport` does: the palm
        // detector's and the mesh on the close-up of the lower face.
        for stillOnly in ["face_uncovered_hand_mouth", "face_uncovered_mouth_mesh"] {
            let rule = rules.first { $0["rule"] as? String == stillOnly }
            #expect(rule?["passed"] as? Bool == true, "\(stillOnly): \(String(describing: rule))")
        }
        #expect(sidecar["background"] as? String == "profile" && sidecar["stillWidth"] as? Int == 640)
        // The JPEG is the cropped photo at the profile's shape (35 × 45 mm), not the 640×480 still.
        let jpeg = try ImageDecoder.decode(path: saved.jpeg, as: .rgb888)
        #expect(passport["width"] as? Int == jpeg.width && passport["height"] as? Int == jpeg.height)
        #expect(abs(Double(jpeg.height) / Double(jpeg.width) - 45.0 / 35.0) < 0.01, "\(jpeg.width)×\(jpeg.height)")
        // The grey backdrop became the UK profile's white.
        let corner = jpeg.withImage { image in (0..<3).map { image.luma.row(4)[3 * 4 + $0] } }
        #expect(corner.allSatisfy { $0 > 245 }, "corner \(corner)")
    }
}
