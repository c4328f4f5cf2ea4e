import ArgumentParser
import Config
import Foundation
import ImageCore
import ImageFiles
import Passport
import Vision

struct PassportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passport",
        abstract: "Turn one still into a compliant passport photo and a JSON compliance report.",
        discussion: "Exits 0 when every rule passes, 2 when the photo cannot comply (the failing rules are listed), 1 on errors.")

    @Argument(help: "The photo (JPEG, PNG or PPM; EXIF orientation honoured).") var photo: String
    @Option(help: "Profile name (profiles/NAME.toml) or path.") var profile = "uk"
    @Option(name: .shortAndLong, help: "The finished photo (JPEG).") var output: String
    @Option(help: "Write the compliance report (JSON) here.") var report: String?
    @Flag(help: "Keep the real background (it must then be light and plain).") var keepBackground = false
    @Option(help: "Folder holding the .tflite models (default: $BOOTH_MODELS or ./models).") var models: String?

    func run() throws {
        let prof: Profile
        do { prof = try ProfileLibrary.load(profile) } catch { throw fail("\(error)") }
        let rgb: ImageBuffer
        do { rgb = try ImageDecoder.decode(path: photo, as: .rgb888) } catch { throw fail("\(error)") }
        let analyzer: FaceAnalyzer
        do { analyzer = try FaceAnalyzer(modelDirectory: ModelOptions.directory(models), path: .integer) } catch { throw fail("models: \(error)") }
        let segmenter = try SegmentCommand.segmenter(.accurate, models: models)
        let maker = PassportPhotoMaker(profile: prof, analyzer: analyzer, segmenter: segmenter)

        let made: PassportPhoto
        do {
            made = try withExtendedLifetime(rgb) { () throws(PassportPhotoMaker.Failure) in
                try maker.make(from: rgb.image(), keepBackground: keepBackground)
            }
        } catch {
            try writeReport(Report(profile: prof.name, source: photo, output: nil, complies: false, message: error.message,
                                   rules: error.rules, width: nil, height: nil))
            printRules(error.rules)
            FileHandle.standardError.write(Data("\(photo): \(error.message)\n".utf8))
            throw ExitCode(2)
        }
        let jpeg: [UInt8]
        do {
            jpeg = try JPEGCodec().encode(made.image.image(), quality: 95, subsampling: .s444)
            try FileIO.writeAtomically(jpeg, to: output)
        } catch { throw fail("\(error)") }
        try writeReport(Report(profile: prof.name, source: photo, output: output, complies: made.complies,
                               message: made.complies ? "complies" : "does not comply", rules: made.rules,
                               width: made.image.width, height: made.image.height))
        printRules(made.rules)
        for w in made.rules where !w.passed && w.severity == .warning {
            FileHandle.standardError.write(Data("warning: \(w.rule) \(w.measured) (limit \(w.limit))\n".utf8))
        }
        if !made.complies {
            FileHandle.standardError.write(Data("\(photo): cannot comply with \(prof.name): \(made.failures.map(\.rule).joined(separator: ", "))\n".utf8))
            throw ExitCode(2)
        }
    }

    struct Report: Encodable {
        var profile: String
        var source: String
        var output: String?
        var complies: Bool
        var message: String
        var rules: [RuleResult]
        var width: Int?
        var height: Int?
    }

    func writeReport(_ r: Report) throws {
        guard let report else { return }
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys]
        do { try FileIO.writeAtomically([UInt8](try enc.encode(r)) + [0x0A], to: report) } catch { throw fail("\(error)") }
    }

    func printRules(_ rules: [RuleResult]) {
        for r in rules {
            let mark = r.passed ? "ok  " : (r.severity == .warning ? "warn" : "FAIL")
            print("\(mark) \(r.rule.padding(toLength: 22, withPad: " ", startingAt: 0)) \(String(format: "%8.3f", r.measured))  \(r.limit)")
        }
    }

    func fail(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("booth passport: \(message)\n".utf8))
        return ExitCode(1)
    }
}
