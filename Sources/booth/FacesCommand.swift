import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Posix
import ImageCore
import ImageFiles
import NeuralCore
import Vision

/// `booth faces IMG... [--json] [--annotate DIR]`: faces, landmarks and pose per image.
struct FacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faces",
        abstract: "Find faces with landmarks, pupils and head pose in images.",
        discussion: """
            --json prints one array, one object per input and line: {"file", "width", "height", "faces": \
            [{"box": {"x","y","width","height"}, "confidence", "roll", "pitch", "yaw", "landmarks68": [[x,y] x 68], \
            "pupils": {"left": [x,y], "right": [x,y]}, "regions": {name: [[x,y], ...]}}], "error" (only on \
            failure)}, keys sorted. Pixels of the image after EXIF orientation, origin top-left; angles in radians; \
            left/right are the person's own. --annotate DIR writes DIR/NAME.png per image (images sharing \
            a base name get NAME-2.png, …).
            """)

    @Argument(help: "Images (JPEG, PNG, PPM).")
    var images: [String]

    @Flag(help: "Print JSON (the stable contract) instead of text.")
    var json = false

    @Option(help: "Write each image annotated with boxes and outlines into this folder (PNG).")
    var annotate: String?

    @Option(help: ModelOptions.help)
    var models: String?

    @Option(help: "Inference path: integer (the product's) or float (the reference).")
    var path: String = "integer"

    @Option(help: "Face detector: short (BlazeFace short range, selfie distance) or full (full range, people standing back).")
    var detector: String = "short"

    @Flag(help: "Run the detector on the whole image only (no tiles for small faces).")
    var noTiles = false

    @Option(help: "Ignore faces narrower than this many pixels.")
    var minFaceSize: Float = 0

    @Option(help: "BlazeFace score a detection needs (0...1).")
    var minScore: Float?

    @Option(help: "Mesh face-presence probability a face needs (0...1).")
    var minPresence: Float = 0.8

    func run() throws {
        try OptionCheck.real(minFaceSize, "--min-face-size", in: 0...65_536)
        try OptionCheck.real(minScore, "--min-score", in: 0...1)
        try OptionCheck.real(minPresence, "--min-presence", in: 0...1)
        let execution = try ModelOptions.executionPath(path)
        let analyzer = try ModelOptions.faceAnalyzer(models, path: execution, detector: try ModelOptions.detector(detector))
        analyzer.tiled = !noTiles
        analyzer.detector.minFaceSize = minFaceSize
        analyzer.minPresence = minPresence
        if let minScore { analyzer.minDetectionScore = minScore }
        if let annotate { try OutputPaths.makeFolder(annotate, option: "--annotate") }
        let annotations = annotate.map { OutputPaths.unique(images, folder: $0, ext: "png") }
        var failures: [ExitStatus] = []
        var reports: [FaceReport] = []
        let decoder = ImageDecoder()
        for (k, file) in images.enumerated() {
            let buffer: ImageBuffer
            do {
                buffer = try decoder.decode(path: file, as: .rgb888)
            } catch {
                failures.append(CommandFailure(error).status)
                if json {
                    reports.append(FaceReport(file: file, error: "\(error)"))
                } else {
                    FileDescriptorIO.writeStandardError("\(error)\n")
                }
                continue
            }
            buffer.withImage { image in
                let faces = analyzer.analyze(image)
                if json {
                    reports.append(FaceReport(file: file, width: image.width, height: image.height, faces: faces))
                } else {
                    print("\(file): \(faces.count) face\(faces.count == 1 ? "" : "s") (\(image.width)x\(image.height))")
                    for (i, f) in faces.enumerated() {
                        print(String(cFormat: "  #%ld box x=%.0f y=%.0f w=%.0f h=%.0f confidence=%.2f presence=%.2f roll=%.1f° pitch=%.1f° yaw=%.1f°",
                                     i + 1, f.box.x, f.box.y, f.box.width, f.box.height, f.confidence, f.presence,
                                     f.roll * 180 / .pi, f.pitch * 180 / .pi, f.yaw * 180 / .pi))
                    }
                }
                if let annotations {
                    FaceAnnotator.draw(faces, on: image)
                    do {
                        try PNGWriter.write(image, to: annotations[k])
                    } catch {
                        failures.append(CommandFailure(error).status)
                        FileDescriptorIO.writeStandardError("\(file): cannot write the annotation: \(error)\n")
                    }
                }
            }
        }
        if json { print(try ReportJSON.array(reports)) }
        if let status = ExitStatus.combined(failures) { throw ExitCode(status.rawValue) }
    }
}
