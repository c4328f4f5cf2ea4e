import ArgumentParser
import Foundation
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
            OUT is a file for one photo, or a folder (created if needed) for several, where each mask \
            keeps its photo's base name with .png. Masks are written atomically. A photo that cannot \
            be read is reported on one line and the others are still processed; the exit status is 1 \
            when any failed.
            """)

    @Argument(help: "Photos (JPEG, PNG, PPM).")
    var photos: [String]

    @Option(help: "fast, balanced or accurate.")
    var level: SegmentationLevel = .accurate

    @Option(name: .shortAndLong, help: "Output file (one photo) or folder.")
    var output: String

    @Option(help: "Folder holding the .tflite models (default: $BOOTH_MODELS or ./models).")
    var models: String?

    @Option(help: "Inference path: integer (the product's) or float (the reference).")
    var path: String = "integer"

    func run() throws {
        let segmenter = try SegmentCommand.segmenter(level, models: models, path: try ModelOptions.executionPath(path))
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory)
        let intoFolder = photos.count > 1 || (exists && isDirectory.boolValue)
        if intoFolder && !exists {
            do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
                throw CommandFailure("cannot create the output folder \(output): \(error.localizedDescription)")
            }
        } else if intoFolder && !isDirectory.boolValue {
            throw ValidationError("\(output) is a file; several photos need an output folder")
        }
        let decoder = ImageDecoder()
        var failed = false
        for photo in photos {
            let target = intoFolder ? output + "/" + SegmentCommand.baseName(photo) + ".png" : output
            do {
                let image = try decoder.decode(path: photo, as: .rgb888)
                let mask = segmenter.segment(image.image())
                let plane = mask.plane
                try PNGWriter.write(Image(format: .gray8, width: plane.width, height: plane.height,
                                          planes: (plane, plane, plane)), to: target)
            } catch {
                failed = true
                SegmentCommand.warn("booth segment: \(error.description)")
            }
        }
        if failed { throw ExitCode(1) }
    }

    static func baseName(_ path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    static func warn(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Loads the models `level` needs from `models` (or $BOOTH_MODELS, or ./models).
    static func segmenter(_ level: SegmentationLevel, models: String?, path: ExecutionPath = .integer) throws -> PersonSegmenter {
        let directory = ModelOptions.directory(models)
        func read(_ m: SegmentationModel) -> [UInt8]? {
            try? FileIO.read(directory + "/" + m.fileName, limit: 64 << 20)
        }
        do {
            return try PersonSegmenter(level: level, generalModel: level == .fast ? nil : read(.general),
                                       landscapeModel: read(.landscape), path: path)
        } catch {
            throw CommandFailure("cannot load the segmentation models from \(directory): \(error.message)")
        }
    }
}

extension SegmentationLevel: ExpressibleByArgument {}

/// A failure while running (unreadable input, unwritable output): printed as one line, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
