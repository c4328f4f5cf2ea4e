import Foundation
import Kiosk
import TestSupport
import Testing
import Vision

@Suite struct DoctorTests {
    func write(_ text: String, _ name: String, in dir: String) -> String {
        let path = dir + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @Test func aFakeBoardPassesEveryCheck() throws {
        let dir = makeTemporaryDirectory()
        let board = write("""
            name = "ci"
            [camera]
            source = "synthetic"
            [display]
            sink = "null"
            [gpio]
            shutter = "script"
            script = [1.0]
            """, "ci.toml", in: dir)
        let config = write("board = \"\(board)\"\nprofile = \"\(Fixtures.packageRoot)/profiles/uk.toml\"\nphoto_dir = \"\(dir)/photos\"\n",
                           "booth.toml", in: dir)
        setenv("BOOTH_MODELS", Fixtures.models, 1)
        let checks = Doctor(configPath: config).run()
        #expect(checks.map(\.name) == ["config", "board", "profile", "models", "inference", "camera", "display", "shutter", "photos"])
        for c in checks { #expect(c.ok, "\(c.name): \(c.detail)") }
        let inference = try #require(checks.first { $0.name == "inference" })
        #expect(inference.detail.hasPrefix("integer path"))
        #expect(inference.detail.contains("calibration tables for all \(ModelFile.all.count - ModelFile.floatOnly.count) integer models"), "\(inference.detail)")
    }

    /// A failure is named, and every other check still runs (the issue: doctor stopped at the
    /// first failing line).
    @Test func problemsAreNamedAndEveryCheckStillRuns() throws {
        let dir = makeTemporaryDirectory()
        let bad = write("board = \"dev\"\nmode = \"selfie\"\n", "bad.toml", in: dir)
        let checks = Doctor(configPath: bad).run()
        #expect(!checks[0].ok && checks[0].name == "config" && checks[0].detail.contains("'mode'"), "\(checks)")
        #expect(checks.map(\.name).suffix(2) == ["shutter", "photos"] || checks.last?.name == "photos", "\(checks.map(\.name))")
        let missingBoard = write("board = \"\(dir)/nope.toml\"\nphoto_dir = \"\(dir)/photos\"\n", "b.toml", in: dir)
        let c2 = Doctor(configPath: missingBoard).run()
        #expect(c2.first { $0.name == "board" }?.ok == false)
        #expect(c2.map(\.name).contains("models") && c2.last?.name == "photos", "\(c2.map(\.name))")
        #expect(!FileManager.default.fileExists(atPath: dir + "/photos"), "doctor created the photo folder")
    }
}
