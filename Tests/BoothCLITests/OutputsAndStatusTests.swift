import Foundation
import TestSupport
import Testing

/// The exit-status table, the errors about models and output paths, and outputs: one per input,
/// in the format the name asks for, and none left behind by a failing command.
@Suite(.serialized) struct OutputsAndStatusTests {
    static let astronaut = Fixtures.models + "/astronaut.png"

    /// A models folder holding copies of the real models, with `replace` overwriting some files.
    func models(_ replace: [String: [UInt8]]) throws -> String {
        let dir = makeTemporaryDirectory()
        for name in ["face_detection_short_range", "face_detection_full_range_sparse", "face_landmark", "iris_landmark", "selfie_segmentation",
                     "selfie_segmentation_landscape"] {
            let file = name + ".tflite"
            let bytes = try replace[file] ?? [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.models + "/" + file)))
            try Data(bytes).write(to: URL(fileURLWithPath: dir + "/" + file))
        }
        return dir
    }

    func modelBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.models + "/" + name)))
    }

    func expectOneLine(_ r: BoothCLI.Result, status: Int32, mentions: [String], _ what: String) {
        #expect(r.exited && r.status == status, "\(what): \(r.exited) \(r.status) \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(what): \(r.stderr)")
        #expect(!r.stderr.contains("Usage") && !r.stderr.contains("Error(") && !r.stderr.contains("NSCocoaErrorDomain"), "\(what): \(r.stderr)")
        for m in mentions { #expect(r.stderr.contains(m), "\(what) does not mention \(m): \(r.stderr)") }
    }

    @Test func helpShowsTheExitStatusTable() throws {
        let r = try BoothCLI.run(["--help"])
        let text = r.stdout.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "  ", with: " ")
        for code in ["0 success", "1 runtime failure", "2 passport", "64 bad command line", "65 bad input data", "74 a file", "78 bad config"] {
            #expect(text.contains(code), "\(code) missing from: \(r.stdout)")
        }
    }

    @Test func aCorruptModelNamesTheFileInOneLine() throws {
        let truncated = Array(try modelBytes("face_landmark.tflite").prefix(5000))
        let dir = try models(["face_landmark.tflite": truncated])
        let r = try BoothCLI.run(["faces", Self.astronaut, "--models", dir])
        expectOneLine(r, status: 65, mentions: [dir + "/face_landmark.tflite"], "corrupt mesh model")
    }

    @Test func aValidButWrongModelIsRefusedByItsShapes() throws {
        let cases: [(String, String, [String])] = [
            ("face_detection_short_range.tflite", "face_landmark.tflite", ["faces", Self.astronaut]),
            ("face_detection_full_range_sparse.tflite", "face_detection_short_range.tflite", ["faces", Self.astronaut]),
            ("face_detection_full_range_sparse.tflite", "face_detection_short_range.tflite", ["faces", Self.astronaut, "--detector", "full"]),
            ("face_landmark.tflite", "iris_landmark.tflite", ["faces", Self.astronaut]),
            ("iris_landmark.tflite", "face_detection_short_range.tflite", ["faces", Self.astronaut]),
            ("selfie_segmentation_landscape.tflite", "selfie_segmentation.tflite", ["segment", Self.astronaut, "--level", "fast"]),
            ("selfie_segmentation.tflite", "selfie_segmentation_landscape.tflite", ["segment", Self.astronaut, "--level", "accurate"]),
        ]
        for (slot, wrong, args) in cases {
            let dir = try models([slot: try modelBytes(wrong)])
            let out = makeTemporaryDirectory() + "/mask.png"
            let r = try BoothCLI.run(args + ["--models", dir] + (args[0] == "segment" ? ["-o", out] : []))
            expectOneLine(r, status: 65, mentions: [dir + "/" + slot, "not the expected model"], "\(wrong) as \(slot)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test func anUnknownDetectorIsAUsageError() throws {
        let r = try BoothCLI.run(["faces", Self.astronaut, "--detector", "far"])
        expectOneLine(r, status: 64, mentions: ["--detector", "short or full", "far"], "--detector far")
    }

    /// `model bench --kernels` takes this CPU's kernel sets by name (the scalar reference is always
    /// one) and refuses any other as a usage error naming the sets.
    @Test func modelBenchTakesAKernelSetByName() throws {
        let model = Fixtures.models + "/face_detection_short_range.tflite"
        let r = try BoothCLI.run(["model", "bench", model, "--path", "int", "--runs", "1", "--kernels", "scalar"])
        #expect(r.exited && r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("scalar kernels"), "\(r.stdout)")
        let bad = try BoothCLI.run(["model", "bench", model, "--kernels", "fastest"])
        expectOneLine(bad, status: 64, mentions: ["--kernels", "fastest", "scalar", "simd"], "--kernels fastest")
    }

    @Test func aMissingModelsFolderIsAConfigErrorWithoutFallback() throws {
        let r = try BoothCLI.run(["faces", Self.astronaut], environment: ["BOOTH_MODELS": "/nonexistent/booth-models"])
        expectOneLine(r, status: 78, mentions: ["$BOOTH_MODELS", "/nonexistent/booth-models"], "missing $BOOTH_MODELS")
        let s = try BoothCLI.run(["segment", Self.astronaut, "-o", makeTemporaryDirectory() + "/m.png", "--models", "/nonexistent/m"])
        expectOneLine(s, status: 78, mentions: ["--models", "/nonexistent/m"], "missing --models")
    }

    @Test func annotatingIntoAFileIsOneClearLine() throws {
        let file = makeTemporaryDirectory() + "/taken"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let r = try BoothCLI.run(["faces", Self.astronaut, "--annotate", file])
        expectOneLine(r, status: 74, mentions: ["--annotate", file, "not a folder"], "faces --annotate FILE")
    }

    @Test func inputsSharingABaseNameGetDistinctOutputs() throws {
        let dir = makeTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/other", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.astronaut, toPath: dir + "/other/astronaut.png")
        let inputs = [Self.astronaut, dir + "/other/astronaut.png"]
        let masks = try BoothCLI.run(["segment"] + inputs + ["--level", "fast", "-o", dir + "/masks"])
        #expect(masks.status == 0, "\(masks.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/masks").sorted() == ["astronaut-2.png", "astronaut.png"])
        let faces = try BoothCLI.run(["faces"] + inputs + ["--annotate", dir + "/notes"])
        #expect(faces.status == 0, "\(faces.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/notes").sorted() == ["astronaut-2.png", "astronaut.png"])
    }

    @Test func anOutputNameInAnotherFormatIsRefused() throws {
        let dir = makeTemporaryDirectory()
        let runs: [[String]] = [
            ["greet", "--background", "white", Self.astronaut, "-o", dir + "/x.bmp"],
            ["passport", Self.astronaut, "-o", dir + "/x.png"],
            ["segment", Self.astronaut, "--level", "fast", "-o", dir + "/x.jpg"],
        ]
        for args in runs {
            let r = try BoothCLI.run(args)
            expectOneLine(r, status: 64, mentions: ["-o", "must end in"], args[0])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func passportRefusesAHeavilyEnlargedFace() throws {
        let dir = makeTemporaryDirectory()
        // The astronaut's face is 94 px wide: the profile's crop would enlarge it 3.3×.
        let r = try BoothCLI.run(["passport", Self.astronaut, "-o", dir + "/p.jpg", "--report", dir + "/r.json"])
        #expect(r.exited && r.status == 2, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("enlarged") && r.stderr.contains("at most 2"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/p.jpg"))
        let report = try String(contentsOfFile: dir + "/r.json", encoding: .utf8)
        #expect(report.contains("\"complies\" : false") && report.contains("enlarged"), "\(report)")
    }

    /// A portrait that complies with the `us` profile (a natural smile allowed); the UK profile
    /// refuses its grin (mouth and expression rules).
    static var compliantPortrait: String { Fixtures.sharedFixtures + "/faces/portraits/obama_partial_face.jpg" }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: compliantPortrait), "needs ../shared/fixtures (a portrait that complies)"))
    func aPassportWhoseReportCannotBeWrittenLeavesNoPhoto() throws {
        let dir = makeTemporaryDirectory()
        let ok = try BoothCLI.run(["passport", Self.compliantPortrait, "--profile", "us", "-o", dir + "/ok.jpg", "--report", dir + "/ok.json"])
        #expect(ok.status == 0 && FileManager.default.fileExists(atPath: dir + "/ok.jpg"), "\(ok.stderr)")
        let r = try BoothCLI.run(["passport", Self.compliantPortrait, "--profile", "us", "-o", dir + "/p.jpg", "--report", "/proc/booth-none/r.json"])
        expectOneLine(r, status: 74, mentions: ["/proc/booth-none/r.json"], "unwritable report")
        #expect(!FileManager.default.fileExists(atPath: dir + "/p.jpg"))
    }

    @Test func statusesFollowTheTable() throws {
        let dir = makeTemporaryDirectory()
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]).write(to: URL(fileURLWithPath: dir + "/broken.jpg"))
        let runs: [([String], Int32)] = [
            (["faces", dir + "/broken.jpg"], 65),
            (["faces", dir + "/missing.jpg"], 74),
            (["faces", dir + "/broken.jpg", dir + "/missing.jpg"], 1),
            (["segment", dir + "/missing.jpg", "--level", "fast", "-o", dir + "/m.png"], 74),
            (["analyze", dir + "/broken.jpg"], 65),
            (["passport", dir + "/broken.jpg", "-o", dir + "/p.jpg"], 65),
            (["passport", Self.astronaut, "--profile", "atlantis", "-o", dir + "/p.jpg"], 78),
            (["model", "info", dir + "/broken.jpg"], 65),
            (["run", "--config", dir + "/missing.toml"], 78),
            (["faces", Self.astronaut, "--path", "quantum"], 64),
        ]
        for (args, status) in runs {
            let r = try BoothCLI.run(args)
            #expect(r.exited && r.status == status, "\(args): \(r.status) \(r.stderr)")
        }
    }
}
