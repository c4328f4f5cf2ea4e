import Foundation
import ImageFiles
import Testing

/// Kills a process that is saving photos at random moments (SIGKILL: no cleanup runs, as at a
/// power cut) and checks that every photo that is visible is whole.
@Suite struct PowerCutTests {
    /// The `booth` binary built beside the test bundle.
    static let booth: String? = {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("booth").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        print("PowerCutTests: no booth binary next to \(CommandLine.arguments[0]) — skipped")
        return nil
    }()

    @Test(.enabled(if: booth != nil, "the booth executable is not built"))
    func killedMidSaveLeavesOnlyWholePhotos() throws {
        let dir = NSTemporaryDirectory() + "booth-powercut-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }   // hundreds of MB of photos
        var kills = 0
        for round in 0..<10 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Self.booth!)
            p.arguments = ["_store-stress", "--dir", dir]
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(UInt32(300_000 + (round * 37_000) % 400_000))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            if p.terminationReason == .uncaughtSignal { kills += 1 }
        }
        #expect(kills == 10)
        // A restart tidies leftover temporaries; every visible photo decodes whole.
        let names = try FileManager.default.subpathsOfDirectory(atPath: dir)
        let jpegs = names.filter { $0.hasSuffix(".jpg") && !($0 as NSString).lastPathComponent.hasPrefix(".") }
        #expect(jpegs.count > 10, "too few photos saved to test anything: \(jpegs.count)")
        for j in jpegs {
            let img = try ImageDecoder.decode(path: dir + "/" + j, as: .rgb888)   // truncation is an error
            #expect(img.width == 1280 && img.height == 960, "\(j)")
        }
        for s in names where s.hasSuffix(".json") && !(s as NSString).lastPathComponent.hasPrefix(".") {
            let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + s))
            #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(s) is not whole JSON")
        }
    }
}
