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
import Posix
import ImageCore
import ImageFiles
import Passport
import Vision

struct PassportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passport",
        abstract: "Turn one still into a compliant passport photo and a JSON compliance report.",
        discussion: """
            Exits 0 when every rule passes and the photo is written; 2 when the photo cannot comply (the failing \
            rules are listed, the report says why, and no photo is written) — also when the face would be \
            enlarged more than 2× from the source; otherwise the status table of `booth --help`.
            """)

    @Argument(help: "The photo (JPEG, PNG or PPM; EXIF orientation honoured).") var photo: String
    @Option(help: "Profile name (profiles/NAME.toml) or path.") var profile = "uk"
    @Option(name: .shortAndLong, help: "The finished photo (JPEG).") var output: String
    @Option(help: "Write the compliance report (JSON) here.") var report: String?
    @Flag(help: "Keep the real background (it must then be light and plain).") var keepBackground = false
    @Option(help: ModelOptions.help) var models: String?

    /// The most a source may be enlarged into the finished photo (output pixels per source pixel of
    /// the crop). Above it the face had too few pixels: the photo would be a blurred enlargement an
    /// examiner refuses, so it is refused here (exit 2) instead of passing with a warning. Between 1
    /// and this, the profile's `no_upscaling` warning still reports it.
    static let maximumUpscale = 2.0

    func run() throws {
        _ = try OutputPaths.format(of: output, allowed: [.jpeg], option: "-o")
        let prof: Profile
        do { prof = try ProfileLibrary.load(profile) } catch { throw CommandFailure("\(error)", status: .config) }
        let palmModels = try ModelOptions.palmModels(models)  // checked before the photo is in memory
        let lipsModels = try ModelOptions.lipsModels(models)
        let rgb: ImageBuffer
        do { rgb = try ImageDecoder.decode(path: photo, as: .rgb888) } catch { throw CommandFailure(error) }
        let analyzer = try ModelOptions.faceAnalyzer(models, path: .integer)
        let segmenter = try ModelOptions.segmenter(.accurate, models: models)
        let maker = PassportPhotoMaker(profile: prof, analyzer: analyzer, segmenter: segmenter, palmModels: palmModels,
                                       lipsModels: lipsModels)

        let made: PassportPhoto
        do {
            made = try rgb.withImage { (image: Image) throws(PassportPhotoMaker.Failure) in
                try maker.make(from: image, keepBackground: keepBackground)
            }
        } catch {
            try refuse(PassportReport(error, profile: prof.name, source: photo))
        }
        if made.crop.scale > Self.maximumUpscale {
            let message = String(cFormat: "the face is enlarged %.1f× from the source (at most %.0f×): too few pixels for a passport photo; "
                                 + "use a larger or closer photo", made.crop.scale, Self.maximumUpscale)
            try refuse(PassportReport(profile: prof.name, source: photo, complies: false, message: message,
                                      rules: made.rules, width: nil, height: nil))
        }
        if !made.complies {
            let message = "cannot comply with \(prof.name): \(made.failures.map(\.rule).joined(separator: ", "))"
            try refuse(PassportReport(profile: prof.name, source: photo, complies: false, message: message,
                                      rules: made.rules, width: nil, height: nil))
        }
        let jpeg: [UInt8]
        do {
            jpeg = try made.image.withImage { try JPEGCodec().encode($0, quality: 95, subsampling: .s444) }
            try FileIO.writeAtomically(jpeg, to: output)
        } catch { throw CommandFailure(error) }
        do {
            try writeReport(PassportReport(made, profile: prof.name, source: photo, output: output))
        } catch {
            // No photo without its report: a failing command leaves no output behind.
            unlink(output)
            throw error
        }
        printRules(made.rules)
        for w in made.rules where !w.passed && w.severity == .warning {
            FileDescriptorIO.writeStandardError("warning: \(w.rule) \(w.measured) (limit \(w.limit))\n")
        }
    }

    /// A photo that cannot comply: the report (when asked for) says why, no photo is written, exit 2.
    func refuse(_ r: PassportReport) throws -> Never {
        try writeReport(r)
        printRules(r.rules)
        FileDescriptorIO.writeStandardError("\(photo): \(r.message)\n")
        throw ExitCode(ExitStatus.notCompliant.rawValue)
    }

    func writeReport(_ r: PassportReport) throws {
        guard let report else { return }
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys]
        let json: Data
        do { json = try enc.encode(r) } catch { throw CommandFailure("cannot encode the report: \(error)") }
        do { try FileIO.writeAtomically([UInt8](json) + [0x0A], to: report) } catch { throw CommandFailure(error, context: "--report") }
    }

    func printRules(_ rules: [RuleResult]) {
        for r in rules {
            let mark = r.passed ? "ok  " : (r.severity == .warning ? "warn" : "FAIL")
            print("\(mark) \(Text.padded(r.rule, to: 22)) \(String(cFormat: "%8.3f", r.measured))  \(r.limit)")
        }
    }
}
