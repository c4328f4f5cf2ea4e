import Foundation
import TestSupport
import Testing

/// `booth run` as systemd runs it: a signal stops it cleanly and promptly.
@Suite(.serialized) struct RunCLITests {
    func start(_ dir: String) throws -> (Process, String) {
        let board = dir + "/board.toml"
        try folderCameraBoard(name: "cli-run", folder: Fixtures.models).write(toFile: board, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(BoothCLI.executable))
        p.arguments = ["run", "--board", board, "--photos", dir + "/photos", "--mode", "booth"]
        var env = ProcessInfo.processInfo.environment
        env["BOOTH_MODELS"] = Fixtures.models
        p.environment = env
        let log = dir + "/log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        p.standardOutput = FileHandle.nullDevice
        return (p, log)
    }

    /// The test runner starts the kiosk with most signals blocked (its own thread's mask), as a
    /// careless parent might: the kiosk must unblock SIGTERM and SIGINT itself.
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalStopsTheKioskCleanly(_ sig: Int32) throws {
        let dir = makeTemporaryDirectory()
        let (p, log) = try start(dir)
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        // Running: the kiosk has reported ready and shown frames for a moment.
        var ready = false
        for _ in 0..<600 where !ready {
            usleep(50_000)
            ready = (try? String(contentsOfFile: log, encoding: .utf8))?.contains("kiosk ready") ?? false
        }
        #expect(ready, "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        usleep(1_500_000)
        let sent = ContinuousClock.now
        kill(p.processIdentifier, sig)
        // Generous bound against a hang; the stop itself is measured in the closing note.
        while p.isRunning && ContinuousClock.now - sent < .seconds(10) { usleep(10_000) }
        #expect(!p.isRunning, "still running 10 s after signal \(sig)")
        print("booth run stopped \(ContinuousClock.now - sent) after signal \(sig)")
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            return
        }
        p.waitUntilExit()
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(p.terminationReason == .exit && p.terminationStatus == 0, "\(p.terminationReason) \(p.terminationStatus): \(text)")
        #expect(text.contains("stopped"), "\(text)")
    }
}
