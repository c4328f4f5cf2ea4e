import Foundation
import Testing
import TestSupport

/// `scripts/install` into a temporary DESTDIR and PREFIX, then every image command of the
/// installed binary run from an unrelated folder with no `$BOOTH_MODELS`/`$BOOTH_PROFILES`: the
/// binary finds the models and profiles in PREFIX/share/booth beside itself.
@Suite(.serialized) struct InstalledLayoutTests {
    static let prefix = "/opt/booth-test"
    static let dataVariables = ["BOOTH_MODELS", "BOOTH_PROFILES", "BOOTH_BOARDS"]

    /// Installs the built binary under a new DESTDIR; returns DESTDIR.
    func install() throws -> String {
        let binary = try #require(BoothCLI.executable, "booth is not built beside the tests")
        let dest = makeTemporaryDirectory()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Fixtures.packageRoot + "/scripts/install")
        var env = ProcessInfo.processInfo.environment
        env["DESTDIR"] = dest
        env["PREFIX"] = Self.prefix
        env["BOOTH_BINARY"] = binary
        env.removeValue(forKey: "BOOTH_MODELS_DIR")
        p.environment = env
        let log = dest + ".log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        p.standardOutput = handle
        p.standardError = handle
        try p.run()
        p.waitUntilExit()
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        try #require(p.terminationStatus == 0, "scripts/install failed: \(output)")
        return dest
    }

    @Test func theInstalledCommandsRunFromAnyFolder() throws {
        let dest = try install()
        let root = dest + Self.prefix
        let booth = root + "/bin/booth"
        #expect(FileManager.default.isExecutableFile(atPath: booth))
        for data in ["models/face_landmark.tflite", "profiles/uk.toml", "boards/dev.toml"] {
            #expect(FileManager.default.fileExists(atPath: root + "/share/booth/" + data), "\(data) not installed")
        }
        let unit = try String(contentsOfFile: dest + "/etc/systemd/system/booth.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=\(Self.prefix)/bin/booth run"), "\(unit)")

        // An unrelated folder holding only the photo: no ./models, no ./profiles.
        let work = makeTemporaryDirectory()
        try FileManager.default.copyItem(atPath: Fixtures.models + "/astronaut.png", toPath: work + "/astronaut.png")
        func run(_ args: [String]) throws -> BoothCLI.Result {
            try BoothCLI.run(args, in: work, binary: booth, unset: Self.dataVariables)
        }

        let faces = try run(["faces", "astronaut.png", "--json"])
        #expect(faces.status == 0, "faces: \(faces.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: Data(faces.stdout.utf8)) as? [[String: Any]]
        #expect((parsed?.first?["faces"] as? [Any])?.count == 1, "\(faces.stdout.prefix(300))")

        let analyze = try run(["analyze", "astronaut.png", "--jobs", "1"])
        #expect(analyze.status == 0 && analyze.stdout.contains("astronaut.png"), "analyze: \(analyze.stderr)")

        let segment = try run(["segment", "astronaut.png", "--level", "fast", "-o", "mask.png"])
        #expect(segment.status == 0 && FileManager.default.fileExists(atPath: work + "/mask.png"), "segment: \(segment.stderr)")

        let greet = try run(["greet", "--background", "white", "astronaut.png", "-o", "greeting.jpg"])
        #expect(greet.status == 0 && FileManager.default.fileExists(atPath: work + "/greeting.jpg"), "greet: \(greet.stderr)")

        // The astronaut's face is too small for a passport photo: the profile and models were
        // found (the refusal is the enlargement rule's), and the report says so.
        let passport = try run(["passport", "astronaut.png", "--profile", "uk", "-o", "p.jpg", "--report", "r.json"])
        #expect(passport.status == 2 && passport.stderr.contains("enlarged"), "passport: \(passport.status) \(passport.stderr)")
        let report = try String(contentsOfFile: work + "/r.json", encoding: .utf8)
        #expect(report.contains("\"profile\" : \"uk\""), "\(report)")

        // A portrait that complies with the installed `us` profile, when the fixtures are here.
        let portrait = Fixtures.sharedFixtures + "/faces/portraits/obama_partial_face.jpg"
        if FileManager.default.fileExists(atPath: portrait) {
            let ok = try run(["passport", portrait, "--profile", "us", "-o", "ok.jpg"])
            #expect(ok.status == 0 && FileManager.default.fileExists(atPath: work + "/ok.jpg"), "passport: \(ok.stderr)")
        }
    }

    /// Whether this machine has installed models (then the search below finds them).
    static var systemModels: Bool {
        ["/usr/local/share/booth/models", "/usr/share/booth/models"].contains { FileManager.default.fileExists(atPath: $0) }
    }

    /// The build's binary has no share/booth beside it: with no installed models on the machine
    /// either, the search comes up empty and names where it looked.
    @Test(.enabled(if: !systemModels, "this machine has models installed in /usr/local or /usr/share"))
    func withoutAnyModelsFolderTheSearchedFoldersAreNamed() throws {
        let r = try BoothCLI.run(["faces", Fixtures.models + "/astronaut.png"], in: makeTemporaryDirectory(), unset: Self.dataVariables)
        #expect(r.status == 78, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("models not found in models, ") && r.stderr.contains("/usr/share/booth/models"), "\(r.stderr)")
        #expect(!r.stderr.contains("missing"), "no folder exists, so none lacks anything: \(r.stderr)")

        // A ./models holding one model: the search names what it lacks.
        let work = makeTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: work + "/models", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: Fixtures.models + "/face_landmark.tflite", toPath: work + "/models/face_landmark.tflite")
        let partial = try BoothCLI.run(["faces", Fixtures.models + "/astronaut.png"], in: work, unset: Self.dataVariables)
        #expect(partial.status == 78, "\(partial.status) \(partial.stderr)")
        #expect(partial.stderr.contains("missing models/face_detection_short_range.tflite, "), "\(partial.stderr)")
        #expect(!partial.stderr.contains("models/face_landmark.tflite"), "\(partial.stderr)")
    }
}
