import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import ImageCore
import ImageFiles
import Kiosk

/// A developer command for the power-cut test: saves photos in a loop until killed.
///
/// It never outlives its parent (the test that kills it) and keeps 1 GiB of the disk free: a
/// test process that crashed between starting and killing it once left it writing until the
/// disk was full.
struct StoreStressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_store-stress", abstract: "Save photos in a loop (for the kill test).", shouldDisplay: false)

    @Option(help: "Photo directory.") var dir: String
    @Option(help: "Photos to save (0 = until killed).") var count = 0

    func run() throws {
        try OptionCheck.int(count, "--count", in: 0...Int.max)
        let store = try PhotoStore(root: dir, minimumFreeBytes: 1 << 30)
        let img = ImageBuffer(format: .rgb888, width: 1280, height: 960)
        let jpeg = try img.withImage { image in
            let p = image.luma
            for y in 0..<960 { for x in 0..<(3 * 1280) { p.row(y)[x] = UInt8(truncatingIfNeeded: (x &* 7) ^ (y &* 13) ^ (x * y >> 5)) } }
            return try JPEGCodec().encode(image, quality: 95)
        }
        let parent = getppid()
        var n = 0
        while (count == 0 || n < count) && getppid() == parent {
            n += 1
            _ = try store.save(jpeg: jpeg, sidecar: Array("{\"n\": \(n)}\n".utf8))
        }
    }
}
