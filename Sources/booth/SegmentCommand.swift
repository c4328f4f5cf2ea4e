import ArgumentParser
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
import NeuralCore
import Vision

/// `booth segment PHOTO... --level fast|balanced|accurate -o OUT`: an 8-bit grey PNG person mask
/// per photo, at the photo's own size after EXIF orientation (0 background … 255 person).
struct SegmentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segment",
        abstract: "Write a person mask (8-bit grey PNG) for each photo.",
        discussion: """
            OUT is a .png file for one photo, or a folder (created if needed) for several, where each \
            mask keeps its photo's base name with .png (photos sharing a base name get -2, -3, …). \
            Masks are written atomically. A photo that cannot be read is reported on one line and the \
            others are still processed; the exit status is then that of the failures (65 bad image, \
            74 unreadable file; 1 when mixed).
            """)

    @Argument(help: "Photos (JPEG, PNG, PPM).")
    var photos: [String]

    @Option(help: "fast, balanced or accurate.")
    var level: SegmentationLevel = .accurate

    @Option(name: .shortAndLong, help: "Output file (one photo) or folder.")
    var output: String

    @Option(help: ModelOptions.help)
    var models: String?

    @Option(help: "Inference path: integer (the product's) or float (the reference).")
    var path: String = "integer"

    func run() throws {
        let segmenter = try ModelOptions.segmenter(level, models: models, path: try ModelOptions.executionPath(path))
        var isDirectory = false
        let exists = FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory)
        let intoFolder = photos.count > 1 || (exists && isDirectory)
        if intoFolder {
            try OutputPaths.makeFolder(output, option: "-o")
        } else {
            _ = try OutputPaths.format(of: output, allowed: [.png], option: "-o")
        }
        let targets = intoFolder ? OutputPaths.unique(photos, folder: output, ext: "png") : [output]
        let decoder = ImageDecoder()
        var failures: [ExitStatus] = []
        for (photo, target) in zip(photos, targets) {
            do {
                let image = try decoder.decode(path: photo, as: .rgb888)
                let mask = image.withImage { segmenter.segment($0) }
                let plane = mask.plane
                try PNGWriter.write(Image(format: .gray8, width: plane.width, height: plane.height,
                                          planes: (plane, plane, plane)), to: target)
            } catch {
                let failure = CommandFailure(error)
                failures.append(failure.status)
                SegmentCommand.warn("booth segment: \(failure.description)")
            }
        }
        if let status = ExitStatus.combined(failures) { throw ExitCode(status.rawValue) }
    }

    static func baseName(_ path: String) -> String {
        Path.deletingExtension(Path.lastComponent(path))
    }

    static func warn(_ line: String) {
        FileDescriptorIO.writeStandardError(line + "\n")
    }
}

extension SegmentationLevel: ExpressibleByArgument {}
