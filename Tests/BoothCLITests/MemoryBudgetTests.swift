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
        let img = yuv.image()
        for i in 0..<3 {
            let p = img.plane(i)
            for y in 0..<p.height { p.row(y).update(repeating: 128, count: p.width) }
        }
        let luma = img.luma, src = face.image().luma
        let x0 = (w - 8 * face.width) / 2, y0 = (h - 8 * face.height) / 2
        for y in 0..<(8 * face.height) {
            let s = src.row(y / 8), d = luma.row(y0 + y)
            for x in 0..<(8 * face.width) { d[x0 + x] = s[x / 8] }
        }
        try FileIO.writeAtomically(try JPEGCodec().encode(img, quality: 85), to: path)
        withExtendedLifetime((yuv, face)) {}
    }

    /// Runs booth with `arguments` and returns its exit status and peak resident memory (MiB),
    /// from wait4's rusage of that one child.
    static func peak(_ arguments: [String]) throws -> (status: Int32, mib: Int, stderr: String) {
        let exe = try #require(BoothCLI.executable)
        let err = makeTemporaryDirectory() + "/err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([exe] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var env = ProcessInfo.processInfo.environment
        env["BOOTH_MODELS"] = Fixtures.models
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for e in envp { free(e) } }
        // The child's peak starts at this process's own peak (Linux carries the high-water mark
        // across exec, and posix_spawn shares this address space until then): reset it to the
        // current size first (clear_refs 5, Linux ≥ 4.0), after the big photo's buffers are freed.
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        if fd >= 0 { _ = write(fd, "5", 1); close(fd) }
        var pid: pid_t = 0
        let r = posix_spawn(&pid, exe, &actions, nil, argv, envp)
        try #require(r == 0, "posix_spawn: \(r)")
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        let text = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        return (exited ? (status >> 8) & 0xFF : -1, usage.ru_maxrss / 1024, text)
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
