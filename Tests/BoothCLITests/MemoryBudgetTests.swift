import Foundation
import ImageCore
import ImageFiles
import TestSupport
import Testing

/// Peak memory of the commands on a 10000×7500 photo (75 MP; 225 MB as RGB): each must stay
/// within 200 MiB of resident memory, the part a 512 MB board can give one command.
@Suite(.serialized) struct MemoryBudgetTests {
    static let boundMiB = 200

    /// A 10000×7500 JPEG (4:2:0): mid grey, with the astronaut enlarged 8× in the middle, so the
    /// commands find a face and run every stage.
    static func bigPhoto(_ path: String) throws {
        let w = 10_000, h = 7_500
        let face = try ImageDecoder.decode(path: Fixtures.models + "/astronaut.png", as: .gray8)
        let yuv = ImageBuffer(format: .i420, width: w, height: h)
        let jpeg = try yuv.withImage { img in
            for i in 0..<3 {
                let p = img.plane(i)
                for y in 0..<p.height { p.row(y).update(repeating: 128, count: p.width) }
            }
            let luma = img.luma, x0 = (w - 8 * face.width) / 2, y0 = (h - 8 * face.height) / 2
            face.withImage { source in
                for y in 0..<(8 * face.height) {
                    let s = source.luma.row(y / 8), d = luma.row(y0 + y)
                    for x in 0..<(8 * face.width) { d[x0 + x] = s[x / 8] }
                }
            }
            return try JPEGCodec().encode(img, quality: 85)
        }
        try FileIO.writeAtomically(jpeg, to: path)
    }

    /// A launcher between this process and booth. Linux carries a process's resident high-water
    /// mark across exec from the address space it was spawned from, so booth spawned straight from
    /// this test process (hundreds of MiB while other suites run in parallel) would report this
    /// process's size, not its own. Spawned from a small Python process instead, booth's rusage
    /// (wait4) is its own; the launcher sends booth's output to /dev/null and prints "status maxrss-KiB".
    static let launcher = """
        import os, sys
        pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ,
                             file_actions=[(os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0)])
        _, status, usage = os.wait4(pid, 0)
        print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
        """

    /// Runs booth with `arguments` and returns its exit status (-1 on a signal) and peak resident
    /// memory (MiB), from wait4's rusage of booth alone (see `launcher`).
    static func peak(_ arguments: [String]) throws -> (status: Int32, mib: Int, stderr: String) {
        let exe = try #require(BoothCLI.executable)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", launcher, exe] + arguments
        var env = ProcessInfo.processInfo.environment
        env["BOOTH_MODELS"] = Fixtures.models
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errorText = err.fileHandleForReading.readDataToEndOfFile()
        let outputText = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stdout = String(decoding: outputText, as: UTF8.self)
        let fields = stdout.split(whereSeparator: \.isNewline).last?.split(separator: " ") ?? []
        try #require(process.terminationStatus == 0 && fields.count == 2, "launcher: \(stdout) \(String(decoding: errorText, as: UTF8.self))")
        let code = Int32(fields[0]) ?? -1
        let kib = Int(fields[1]) ?? Int.max
        return (code < 0 ? -1 : code, kib / 1024, String(decoding: errorText, as: UTF8.self))
    }

    @Test func everyCommandStaysWithinTheBoundOnA75MegapixelPhoto() throws {
        let dir = makeTemporaryDirectory()
        let photo = dir + "/big.jpg"
        try Self.bigPhoto(photo)
        let runs: [[String]] = [
            ["faces", photo],
            ["analyze", photo, "--jobs", "1"],
            ["segment", photo, "-o", dir + "/mask.png"],
            ["greet", "--background", "white", photo, "-o", dir + "/greeting.jpg"],
            ["passport", photo, "-o", dir + "/passport.jpg"],
        ]
        for args in runs {
            let (status, mib, stderr) = try Self.peak(args)
            print("booth \(args[0]) on 10000x7500: peak \(mib) MiB, status \(status)")
            #expect(status == 0 || (args[0] == "passport" && status == 2), "\(args[0]): status \(status): \(stderr)")
            #expect(mib <= Self.boundMiB, "\(args[0]) peaked at \(mib) MiB")
        }
        // The mask is the decoded (downscaled) size: 3/8 of 10000×7500.
        let mask = try ImageDecoder.decode(path: dir + "/mask.png", as: .gray8)
        #expect(mask.width == 3750 && mask.height == 2813)
    }
}
