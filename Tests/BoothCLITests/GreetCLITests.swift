import Foundation
import ImageCore
import ImageFiles
import TestSupport
import Testing

/// `booth greet` and friends from the outside: the built executable, its files and exit codes.
@Suite(.serialized) struct GreetCLITests {
    /// A board whose camera is the folder camera replaying `folder`.
    func board(camera folder: String) throws -> String {
        let path = makeTemporaryDirectory() + "/board.toml"
        try folderCameraBoard(name: "cli-test", folder: folder, fps: 30).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func greetFromTheBoardCameraWritesEveryFrameOverTheBackground() throws {
        let out = makeTemporaryDirectory() + "/frames"
        let r = try BoothCLI.run(["greet", "--background", "#00FF00", "--input", "camera", "--board",
                                  try board(camera: Fixtures.models), "--frames", "4", "--level", "fast", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("4 frames written"), "\(r.stdout)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(names == (1...4).map { String(format: "frame-%06d.jpg", $0) })
        // The astronaut is letterboxed into 640×480: the black bars and the scene behind her are
        // background, so the frame's top-left corner is the green backdrop.
        let frame = try ImageDecoder.decode(path: out + "/" + names[3], as: .rgb888)
        #expect(frame.width == 640 && frame.height == 480)
        let px = frame.withImage { image in (0..<3).map { image.luma.row(10)[3 * 10 + $0] } }
        #expect(px[1] > 200 && px[0] < 60 && px[2] < 60, "corner \(px)")
    }

    @Test func greetFromAnAbsentCameraFailsWithOneClearLine() throws {
        let out = makeTemporaryDirectory() + "/frames"
        let r = try BoothCLI.run(["greet", "--background", "white", "--input", "camera", "--board",
                                  try board(camera: "/nonexistent/booth-frames"), "-o", out])
        #expect(r.status == 1)
        #expect(r.stderr.contains("camera (board cli-test)") && r.stderr.contains("/nonexistent/booth-frames"), "\(r.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: out))?.isEmpty ?? true)
    }

    @Test func aCorruptPhotoIsOneLineAndNoOutput() throws {
        let dir = makeTemporaryDirectory()
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46]).write(to: URL(fileURLWithPath: dir + "/broken.jpg"))
        for args in [["greet", "--background", "white", dir + "/broken.jpg", "-o", dir + "/out.jpg"],
                     ["passport", dir + "/broken.jpg", "-o", dir + "/out.jpg"],
                     ["segment", dir + "/broken.jpg", "-o", dir + "/out.png"]] {
            let r = try BoothCLI.run(args)
            #expect(r.status == 65, "\(args[0]): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("broken.jpg"), "\(args[0]): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out.jpg") && !FileManager.default.fileExists(atPath: dir + "/out.png"))
        }
    }
}
