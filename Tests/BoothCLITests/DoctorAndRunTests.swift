import Foundation
import TestSupport
import Testing

/// `booth doctor` changes nothing, runs every check, and agrees with `booth run` on the config,
/// board, background, models folder and photo folder.
@Suite(.serialized) struct DoctorAndRunTests {
    func write(_ text: String, _ path: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }

    func lines(_ r: BoothCLI.Result) -> [String: String] {
        var out: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2 { out[String(parts[1])] = String(parts[0]) }
        }
        return out
    }

    @Test func doctorCreatesNothing() throws {
        let dir = makeTemporaryDirectory()
        try write("""
            name = "doctor"
            [camera]
            source = "synthetic"
            [display]
            sink = "png"
            folder = "\(dir)/screens"
            [gpio]
            shutter = "script"
            """, dir + "/board.toml")
        try write("board = \"\(dir)/board.toml\"\nphoto_dir = \"\(dir)/photos/deep\"\nmode = \"booth\"\n", dir + "/booth.toml")
        let r = try BoothCLI.run(["doctor", "--config", dir + "/booth.toml"])
        #expect(r.exited && r.status == 0, "\(r.stdout) \(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["board.toml", "booth.toml"])
        #expect(lines(r)["photos"] == "ok" && lines(r)["display"] == "ok", "\(r.stdout)")
    }

    @Test func doctorRunsEveryCheckAndAgreesWithRun() throws {
        let dir = makeTemporaryDirectory()
        // A missing config file: run refuses it, so doctor fails it, and still checks the rest.
        let missing = try BoothCLI.run(["doctor", "--config", dir + "/missing.toml"])
        #expect(missing.status == 1 && lines(missing)["config"] == "FAIL", "\(missing.stdout)")
        #expect(lines(missing)["models"] != nil && lines(missing)["photos"] != nil, "\(missing.stdout)")
        let run = try BoothCLI.run(["run", "--config", dir + "/missing.toml"])
        #expect(run.status == 78, "\(run.stderr)")

        // A failing board line, then a missing background and a missing $BOOTH_MODELS.
        try write("board = \"\(dir)/none.toml\"\nmode = \"booth\"\nbackground = \"\(dir)/none.jpg\"\nphoto_dir = \"\(dir)/p\"\n", dir + "/booth.toml")
        let r = try BoothCLI.run(["doctor", "--config", dir + "/booth.toml"], environment: ["BOOTH_MODELS": dir + "/no-models"])
        let l = lines(r)
        #expect(l["config"] == "ok" && l["board"] == "FAIL" && l["background"] == "FAIL" && l["models"] == "FAIL", "\(r.stdout)")
        #expect(l["camera"] == "FAIL" && l["photos"] == "ok", "\(r.stdout)")
        #expect(r.stdout.contains(dir + "/no-models"), "\(r.stdout)")

        // The same background with a good board: run refuses it as doctor does.
        try write(folderCameraBoard(name: "bg", folder: Fixtures.models), dir + "/board.toml")
        try write("board = \"\(dir)/board.toml\"\nmode = \"booth\"\nbackground = \"\(dir)/none.jpg\"\nphoto_dir = \"\(dir)/p\"\n", dir + "/booth.toml")
        let bg = try BoothCLI.run(["run", "--config", dir + "/booth.toml", "--for", "2s"])
        #expect(bg.status == 78 && bg.stderr.contains("none.jpg"), "\(bg.status) \(bg.stderr)")
        let doc = try BoothCLI.run(["doctor", "--config", dir + "/booth.toml"])
        #expect(lines(doc)["background"] == "FAIL", "\(doc.stdout)")
    }

    @Test func runRefusesAPhotoFolderItCannotWrite() throws {
        let dir = makeTemporaryDirectory()
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/photos"))
        try write(folderCameraBoard(name: "ro", folder: Fixtures.models), dir + "/board.toml")
        let r = try BoothCLI.run(["run", "--board", dir + "/board.toml", "--photos", dir + "/photos", "--mode", "booth", "--for", "3s"])
        #expect(r.exited && r.status == 74, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("not writable") && !r.stderr.contains("kiosk ready"), "\(r.stderr)")
    }

    /// `min_free_mib = 0` means 0: on a 4 MiB file system a shot is saved (it needed 8 MiB free).
    @Test(.enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
    func aZeroReserveShootsOnANearlyFullDisk() throws {
        let dir = makeTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/small", withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=4m", "tmpfs", dir + "/small"]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "mount failed")
        defer {
            let umount = Process()
            umount.executableURL = URL(fileURLWithPath: "/bin/umount")
            umount.arguments = [dir + "/small"]
            try? umount.run()
            umount.waitUntilExit()
        }
        try write(folderCameraBoard(name: "small", folder: Fixtures.models, script: [1.5]), dir + "/board.toml")
        try write("board = \"\(dir)/board.toml\"\nmode = \"booth\"\ncountdown = 0\nmin_free_mib = 0\nphoto_dir = \"\(dir)/small/photos\"\n",
                  dir + "/booth.toml")
        let r = try BoothCLI.run(["run", "--config", dir + "/booth.toml", "--for", "5s"])
        #expect(r.exited && r.status == 0, "\(r.status) \(r.stderr)")
        #expect(!r.stderr.contains("shot refused") && r.stderr.contains("photo saved"), "\(r.stderr)")
        #expect(r.stdout.contains(dir + "/small/photos/"), "\(r.stdout)")
    }
}
