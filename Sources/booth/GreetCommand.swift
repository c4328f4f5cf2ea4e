import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Posix
import Hardware
import ImageCore
import ImageFiles
import Kiosk
import Vision

/// `booth greet`: the people of a photo, or of a stream of frames, over a new background.
///
/// Streams are written as numbered JPEGs (`frame-000001.jpg`, …), not as an MJPEG AVI: every
/// frame is complete and atomically written the moment it is made (an interrupted run leaves
/// only whole frames and no broken container index), frames can be pulled over scp while a run
/// goes on, and `ffmpeg -framerate 15 -i frame-%06d.jpg` turns them into any video container.
struct GreetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "greet",
        abstract: "Put the people of a photo or of a stream of frames over a background.",
        discussion: """
            BG is an image file (scaled to cover and centred, never stretched), a colour (white, \
            cream, grey, or #RRGGBB) or blur[:N] (the photo's own background blurred, N percent of the \
            shorter side, default 4). A photo uses the accurate level and writes OUT in the format its \
            name ends in (.jpg/.jpeg or .png; any other ending is refused). --input DIR treats the folder's images, in name order, as \
            frames of one video (temporal stability on) and writes OUTDIR/frame-NNNNNN.jpg; \
            --input camera reads the board's camera (libcamera on a Pi; the dev board's folder \
            camera here): --board, else the board named in /etc/booth/booth.toml, else dev. \
            Outputs are written atomically.
            """)

    @Option(help: "Background: image file, colour name, #RRGGBB or blur[:N].")
    var background: String

    @Argument(help: "A photo (JPEG, PNG, PPM) for a still greeting.")
    var photo: String?

    @Option(help: "A folder of frames, or camera.")
    var input: String?

    @Option(name: .shortAndLong, help: "Output file (photo) or folder (stream).")
    var output: String

    @Option(help: "Level for streams: fast or balanced (photos always use accurate).")
    var level: SegmentationLevel = .balanced

    @Option(help: "With --input camera: the board (boards/NAME.toml or a path) whose camera to read.")
    var board: String?

    @Option(help: "With --input camera on a folder-camera board: the folder replayed as the camera.")
    var cameraFolder: String?

    @Option(help: "Frames to take from the camera.")
    var frames: Int = 150

    @Option(help: "JPEG quality.")
    var quality: Int = 92

    @Option(help: ModelOptions.help)
    var models: String?

    func validate() throws {
        if (photo == nil) == (input == nil) { throw ValidationError("give either a PHOTO or --input DIR|camera") }
        if input != nil && level == .accurate { throw ValidationError("streams use --level fast or balanced") }
        _ = try spec()
    }

    func run() throws {
        try OptionCheck.int(quality, "--quality", in: 1...100)
        try OptionCheck.int(frames, "--frames", in: 1...10_000_000)
        if let photo {
            try still(photo)
        } else if let input {
            try stream(input)
        }
    }

    /// The parsed `--background` (a bad one is a usage error, 64).
    func spec() throws -> BackgroundSpec {
        do { return try BackgroundSpec(parsing: background) } catch { throw ValidationError(error.description) }
    }

    /// The greeter for `level`: its segmenter, and the background picture decoded when it is a file.
    func greeter(_ level: SegmentationLevel) throws -> Greeter {
        let spec = try spec()
        var picture: ImageBuffer?
        if case .file(let path) = spec {
            do { picture = try ImageDecoder.decode(path: path, as: .rgb888) } catch { throw CommandFailure(error, context: "background") }
        }
        let segmenter = try ModelOptions.segmenter(level, models: models)
        do { return try Greeter(segmenter: segmenter, background: spec, picture: picture) } catch {
            throw CommandFailure(error.description, status: .badInput)
        }
    }

    // MARK: Still

    func still(_ photo: String) throws {
        let format = try OutputPaths.format(of: output, allowed: [.jpeg, .png], option: "-o")
        let image: ImageBuffer
        do { image = try ImageDecoder.decode(path: photo, as: .rgb888) } catch { throw CommandFailure(error) }
        let greeter = try greeter(.accurate)
        try image.withImage { view in
            greeter.greet(view)
            try write(view, to: output, as: format)
        }
    }

    func write(_ image: Image, to path: String, as format: OutputPaths.Format) throws {
        do {
            switch format {
            case .png: try PNGWriter.write(image, to: path)
            case .jpeg: try FileIO.writeAtomically(try JPEGCodec().encode(image, quality: quality), to: path)
            }
        } catch {
            throw CommandFailure(error)
        }
    }

    // MARK: Stream

    func stream(_ input: String) throws {
        try OutputPaths.makeFolder(output, option: "-o")
        let greeter = try greeter(level)
        greeter.segmenter.temporalStability = true
        var index = 0
        var failures: [ExitStatus] = []
        func process(_ frame: Image) throws {
            greeter.greet(frame)
            index += 1
            try write(frame, to: output + "/" + GreetCommand.frameName(index), as: .jpeg)
        }
        if input == "camera" {
            let boardName = board ?? (try? KioskConfig.load(KioskConfig.defaultPath))?.config.board ?? "dev"
            let cameraBoard: Board
            do { cameraBoard = try BoardLibrary.load(boardName) } catch { throw CommandFailure("board: \(error)", status: .config) }
            let source: any FrameSource
            do { source = try Devices.openCamera(cameraBoard, folderOverride: cameraFolder, captureStills: false) } catch {
                throw CommandFailure("camera (board \(cameraBoard.name)): \(error.description)")
            }
            do { try CameraFrames.pump(source, count: frames, process: process) } catch let failure as CameraFrames.Failure {
                throw CommandFailure(failure.description)
            }
        } else {
            guard Directories.isDirectory(input) else {
                throw CommandFailure("\(input) is not a folder of frames (or camera)", status: .io)
            }
            let names: [String]
            do { names = try Directories.contents(of: input).sorted() } catch {
                throw CommandFailure("cannot list \(input): \(error)", status: .io)
            }
            let images = names.filter { n in [".jpg", ".jpeg", ".png", ".ppm"].contains { n.lowercased().hasSuffix($0) } }
            if images.isEmpty { throw CommandFailure("\(input) holds no JPEG, PNG or PPM frames", status: .badInput) }
            let decoder = ImageDecoder()
            for name in images {
                do {
                    let frame = try decoder.decode(path: input + "/" + name, as: .rgb888)
                    try frame.withImage { try process($0) }
                } catch let error as ImageFileError {
                    failures.append(CommandFailure(error).status)
                    SegmentCommand.warn("booth greet: \(error.description)")
                }
            }
        }
        print("booth greet: \(index) frame\(index == 1 ? "" : "s") written to \(output)")
        if let status = ExitStatus.combined(failures) { throw ExitCode(status.rawValue) }
    }

    static func frameName(_ i: Int) -> String {
        let digits = String(i)
        return "frame-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".jpg"
    }
}
