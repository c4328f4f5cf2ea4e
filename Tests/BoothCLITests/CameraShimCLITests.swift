import Foundation
import Testing
import TestSupport

/// libcamera is loaded (through libBoothCamera.so) only when a camera needs it: a kiosk on the
/// folder camera never maps it, and a shim that cannot be loaded is named with where it was looked for.
@Suite struct CameraShimCLITests {
    @Test func aFolderCameraKioskNeverMapsLibcamera() throws {
        let executable = try #require(BoothCLI.executable, "booth is not built beside the tests")
        let dir = makeTemporaryDirectory()
        try folderCameraBoard(name: "shim", folder: Fixtures.models).write(toFile: dir + "/board.toml", atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = ["run", "--board", dir + "/board.toml", "--photos", dir + "/photos", "--mode", "passport",
                       "--hide-background", "--for", "4s"]
        var env = ProcessInfo.processInfo.environment
        env["BOOTH_MODELS"] = Fixtures.models
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Past start-up (models, camera, display): the frames are flowing.
        var maps = ""
        for _ in 0..<30 {
            usleep(100_000)
            maps = (try? String(contentsOfFile: "/proc/\(p.processIdentifier)/maps", encoding: .utf8)) ?? maps
            if maps.contains("libturbojpeg") || maps.contains("libpng") { break }
        }
        usleep(1_500_000)
        maps = (try? String(contentsOfFile: "/proc/\(p.processIdentifier)/maps", encoding: .utf8)) ?? maps
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(!maps.isEmpty)
        #expect(!maps.contains("libcamera") && !maps.contains("libBoothCamera"), "\(maps.split(separator: "\n").filter { $0.contains("camera") })")
    }

    @Test func aMissingShimIsNamedWithWhereItWasLookedFor() throws {
        let r = try BoothCLI.run(["cameras"], environment: ["BOOTH_CAMERA_LIBRARY": "/nonexistent/libBoothCamera.so"])
        #expect(r.exited && r.status == 1, "\(r.status) \(r.stderr)")
        #expect(r.stdout.contains("libBoothCamera.so") && r.stdout.contains("/nonexistent/libBoothCamera.so"), "\(r.stdout)")
    }
}
