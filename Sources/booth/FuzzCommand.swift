import ArgumentParser
import Config
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import ImageCore
import ImageFiles
import Kiosk
import Passport

/// A developer command for the long-run fuzz (`Fuzz/run`): feeds mutated inputs to the image
/// decoders or to the TOML reader and the config, board and profile parsers, in-process. Every
/// input must end in a decoded image or a typed error; a trap ends the run (the progress line
/// before it names the iteration range, and `--start` replays from there: input i depends only
/// on the seed and i).
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_fuzz", abstract: "Fuzz the image decoders or the TOML readers (for Fuzz/run).", shouldDisplay: false)

    enum Target: String, ExpressibleByArgument { case images, toml }

    @Argument(help: "images or toml.") var target: Target
    @Option(help: "Inputs to try.") var count = 1_000_000
    @Option(help: "First input's index (to replay a range).") var start = 0
    @Option(help: "Seed of the mutations.") var seed = 1
    @Option(help: "Folder of TOML seed files besides boards/, profiles/ and systemd/booth.toml.") var extra: String?

    func run() throws {
        try OptionCheck.int(count, "--count", in: 1...1_000_000_000)
        try OptionCheck.int(start, "--start", in: 0...Int.max / 2)
        let seeds = target == .images ? try Self.imageSeeds() : Self.tomlSeeds(extra: extra)
        guard !seeds.isEmpty else { throw CommandFailure("no seed inputs found (run from the repository root)", status: .config) }
        var accepted = 0, refused = 0
        let decoder = ImageDecoder()
        let began = ContinuousClock.now
        for i in start..<(start + count) {
            var rng = XorShift(seed: UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(i))
            let input = Self.mutate(seeds[Int(rng.next() % UInt64(seeds.count))], &rng)
            let ok: Bool
            switch target {
            case .images:
                let format: PixelFormat = [.rgb888, .i420, .gray8, .xrgb8888][i % 4]
                ok = (try? decoder.decode(bytes: input, name: "fuzz", as: format)) != nil
            case .toml:
                ok = Self.parseEverything(String(decoding: input, as: UTF8.self))
            }
            if ok { accepted += 1 } else { refused += 1 }
            if (i + 1 - start) % 100_000 == 0 {
                print("\(target.rawValue): \(i + 1 - start) inputs (indices \(start)..<\(i + 1)), \(accepted) accepted, \(refused) refused, "
                      + "\(ContinuousClock.now - began)")
                fflush(nil)
            }
        }
        print("\(target.rawValue): done, \(count) inputs, \(accepted) accepted, \(refused) refused with a typed error, 0 crashes, "
              + "\(ContinuousClock.now - began)")
    }

    /// True when any of the readers accepts `text`; every refusal is a `ConfigError`.
    static func parseEverything(_ text: String) -> Bool {
        var any = false
        if (try? TOMLParser.parse(text, file: "fuzz.toml")) != nil { any = true }
        if (try? KioskConfig.parse(text, file: "fuzz.toml")) != nil { any = true }
        if (try? Board.parse(text, file: "fuzz.toml")) != nil { any = true }
        if (try? Profile.parse(text, file: "fuzz.toml")) != nil { any = true }
        return any
    }

    /// Small real files of every kind the decoder reads: JPEGs (4:2:0, 4:4:4, grey, with EXIF
    /// orientation), PNGs (RGB, grey) and PPM/PGM.
    static func imageSeeds() throws -> [[UInt8]] {
        let picture = ImageBuffer(format: .rgb888, width: 37, height: 23)
        let gray = ImageBuffer(format: .gray8, width: 37, height: 23)
        let codec = JPEGCodec()
        var seeds: [[UInt8]] = []
        try [picture, gray].withImages { views in
            let (rgb, luma) = (views[0], views[1])
            let p = rgb.luma
            for y in 0..<23 { for x in 0..<(3 * 37) { p.row(y)[x] = UInt8(truncatingIfNeeded: x &* 7 &+ y &* 13) } }
            for y in 0..<23 { for x in 0..<37 { luma.luma.row(y)[x] = p.row(y)[3 * x + 1] } }
            seeds.append(try codec.encode(rgb, quality: 90, subsampling: .s420))
            seeds.append(try codec.encode(rgb, quality: 50, subsampling: .s444))
            seeds.append(try codec.encode(luma, quality: 80))
            seeds.append(try PNGCodec.encode(rgb))
            seeds.append(try PNGCodec.encode(luma))
            seeds.append(PNMCodec.encode(rgb))
            seeds.append(PNMCodec.encode(luma))
        }
        // A JPEG with an EXIF APP1 segment (orientation 6) after SOI.
        let exif: [UInt8] = [0xFF, 0xE1, 0x00, 0x22] + Array("Exif".utf8) + [0, 0] + [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1,
                            0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, 0x00, 0x06, 0, 0, 0, 0, 0, 0]
        seeds.append(Array(seeds[0][0..<2]) + exif + Array(seeds[0][2...]))
        return seeds
    }

    static func tomlSeeds(extra: String?) -> [[UInt8]] {
        var paths = ["systemd/booth.toml"]
        for dir in ["boards", "profiles"] + (extra.map { [$0] } ?? []) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            paths += names.filter { $0.hasSuffix(".toml") }.sorted().map { dir + "/" + $0 }
        }
        return paths.compactMap { DataFiles.readText($0).map { Array($0.utf8) } }
    }

    /// One to eight mutations of `seed`: bit flips, interesting bytes, numbers swapped for
    /// extremes, cut-outs, duplicated runs, truncation, header fields (bytes 0…40) hit harder.
    static func mutate(_ seed: [UInt8], _ rng: inout XorShift) -> [UInt8] {
        var b = seed
        let interesting: [UInt8] = [0x00, 0xFF, 0x7F, 0x80, 0x01, 0xFE, 0x20, 0x0A, 0x22, 0x5B, 0x5D, 0x3D, 0x2E, 0x2D]
        let extremes = ["0", "-1", "1e308", "-1e308", "inf", "nan", "99999999999999999999", "4294967296", "-0", "0x7fffffffffffffff", "1e-320"]
        for _ in 0..<(1 + Int(rng.next() % 8)) where !b.isEmpty {
            let at = rng.next() % 3 == 0 ? Int(rng.next() % UInt64(min(b.count, 40))) : Int(rng.next() % UInt64(b.count))
            switch rng.next() % 8 {
            case 0: b[at] ^= UInt8(1) << (rng.next() % 8)
            case 1: b[at] = interesting[Int(rng.next() % UInt64(interesting.count))]
            case 2: b[at] = UInt8(truncatingIfNeeded: rng.next())
            case 3:
                let n = min(b.count - at, 1 + Int(rng.next() % 16))
                b.removeSubrange(at..<(at + n))
            case 4:
                let n = min(b.count - at, 1 + Int(rng.next() % 64))
                b.insert(contentsOf: b[at..<(at + n)], at: Int(rng.next() % UInt64(b.count)))
            case 5: b.removeLast(Int(rng.next() % UInt64(b.count)))
            case 6:
                // Replace a run of digits with an extreme number (TOML values, PNM headers).
                if let d = b[at...].firstIndex(where: { (0x30...0x39).contains($0) }) {
                    let end = b[d...].firstIndex(where: { !(0x30...0x39).contains($0) && $0 != 0x2E }) ?? b.count
                    b.replaceSubrange(d..<end, with: Array(extremes[Int(rng.next() % UInt64(extremes.count))].utf8))
                }
            default:
                // 16-bit big-endian field (JPEG/PNG sizes) set to an extreme.
                if at + 1 < b.count {
                    let v: UInt16 = [0, 1, 0xFFFF, 0x8000, 0x7FFF][Int(rng.next() % 5)]
                    b[at] = UInt8(v >> 8); b[at + 1] = UInt8(v & 0xFF)
                }
            }
        }
        return b
    }

    /// xorshift64* (Vigna): a fast seeded generator, so input i is the same on every run.
    struct XorShift {
        var state: UInt64
        init(seed: UInt64) {
            state = seed == 0 ? 0x2545_F491_4F6C_DD1D : seed
            for _ in 0..<4 { _ = next() }   // spread nearby seeds apart
        }
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
    }
}
