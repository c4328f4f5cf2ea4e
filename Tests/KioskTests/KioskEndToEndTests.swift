import Foundation
import Hardware
import ImageCore
import ImageFiles
import Kiosk
import Logging
import TestSupport
import Testing

/// A camera that fails once, mid-run, as an unplugged camera does.
final class FailingOnceSource: FrameSource {
    let inner: FrameSource
    let failAfter: Int
    var pumped = 0
    nonisolated(unsafe) static var failed = false   // one test at a time (.serialized); capture thread only
    init(inner: FrameSource, failAfter: Int) { self.inner = inner; self.failAfter = failAfter }
    var name: String { "failing " + inner.name }
    var previewWidth: Int { inner.previewWidth }
    var previewHeight: Int { inner.previewHeight }
    func start() throws(HardwareError) { try inner.start() }
    func stop() { inner.stop() }
    func requestStill() throws(HardwareError) { try inner.requestStill() }
    func pump(timeoutMilliseconds: Int32, deliver: FrameDelivery, still: (Image) -> Void) throws(HardwareError) -> Int {
        pumped += 1
        if pumped == failAfter && !Self.failed {
            Self.failed = true
            throw .deviceGone(device: "camera", detail: "unplugged (test)")
        }
        return try inner.pump(timeoutMilliseconds: timeoutMilliseconds, deliver: deliver, still: still)
    }
}

@Suite(.serialized) struct KioskEndToEndTests {
    func options(mode: KioskConfig.Mode, photos: String, camera: String) throws -> KioskOptions {
        let board = try Board.parse("""
            name = "test"
            [camera]
            source = "folder"
            folder = "\(camera)"
            preview = [640, 480]
            fps = 15
            [display]
            sink = "null"
            [gpio]
            shutter = "script"
            script = [1.5]
            """, file: "test.toml")
        var config = KioskConfig.defaults
        config.mode = mode
        config.profile = Fixtures.packageRoot + "/profiles/uk.toml"
        config.photoDirectory = photos
        config.countdown = 0
        config.reviewSeconds = 0.5
        var o = KioskOptions(config: config, board: board)
        o.duration = .seconds(5)
        o.reportInterval = .seconds(2)
        return o
    }

    func cameraFolder() throws -> String {
        let dir = makeTemporaryDirectory()
        try FileManager.default.copyItem(atPath: Fixtures.models + "/astronaut.png", toPath: dir + "/astronaut.png")
        return dir
    }

    @Test func framesInShutterPressedPhotoAndSidecarSavedCameraFaultRecovered() throws {
        setenv("BOOTH_MODELS", Fixtures.models, 1)
        let photos = makeTemporaryDirectory() + "/photos"
        let folder = try cameraFolder()
        var o = try options(mode: .booth, photos: photos, camera: folder)
        FailingOnceSource.failed = false
        o.openCamera = { () throws(HardwareError) -> any FrameSource in
            FailingOnceSource(inner: try FolderReplaySource(folder: folder, framesPerSecond: 15), failAfter: 10)
        }
        let kiosk = try KioskRuntime(options: o, logger: Logger(label: "test"))
        let summary = kiosk.run(stop: StopSignal())
        #expect(summary.framesPublished > 20)
        #expect(summary.framesAnalysed > 0)
        #expect(summary.cameraEvents.contains { $0.hasPrefix("lost") })
        #expect(summary.cameraEvents.last?.hasPrefix("connected") == true, "\(summary.cameraEvents)")
        #expect(summary.photos.count == 1, "\(summary.messages)")
        let saved = try #require(summary.photos.first)
        let jpeg = try ImageDecoder.decode(path: saved.jpeg, as: .rgb888)
        #expect(jpeg.width == 512 && jpeg.height == 512)              // the still is the replayed image itself
        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: saved.sidecar))) as? [String: Any]
        #expect(sidecar?["board"] as? String == "test" && sidecar?["mode"] as? String == "booth")
        #expect((sidecar?["software"] as? String)?.hasPrefix("booth ") == true)
        let visible = try FileManager.default.subpathsOfDirectory(atPath: photos).filter { !($0 as NSString).lastPathComponent.hasPrefix(".") }
        #expect(visible.filter { $0.hasSuffix(".jpg") }.count == 2)   // the photo and latest.jpg
    }

    @Test func passportModeRefusesTheShutterUntilTheVerdictHolds() throws {
        setenv("BOOTH_MODELS", Fixtures.models, 1)
        let photos = makeTemporaryDirectory() + "/photos"
        var o = try options(mode: .passport, photos: photos, camera: try cameraFolder())
        o.duration = .seconds(4)
        let kiosk = try KioskRuntime(options: o, logger: Logger(label: "test"))
        let summary = kiosk.run(stop: StopSignal())
        // The astronaut fills the frame's guide badly (letterboxed, small): the shutter is refused.
        #expect(summary.framesAnalysed > 0)
        #expect(summary.photos.isEmpty)
    }
}
