import ArgumentParser
import Foundation
import Config
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

    @Option(help: "Folder holding the .tflite models (default: $BOOTH_MODELS or ./models).")
    var models: String?

    func validate() throws {
        if (photo == nil) == (input == nil) { throw ValidationError("give either a PHOTO or --input DIR|camera") }
        if input != nil && level == .accurate { throw ValidationError("streams use --level fast or balanced") }
        _ = try GreetCommand.parseBackground(background)
    }

    func run() throws {
        try OptionCheck.int(quality, "--quality", in: 1...100)
        try OptionCheck.int(frames, "--frames", in: 1...10_000_000)
        if let photo { try still(photo) } else { try stream(input!) }
    }

    // MARK: Still

    func still(_ photo: String) throws {
        let format = try OutputPaths.format(of: output, allowed: [.jpeg, .png], option: "-o")
        let decoder = ImageDecoder()
        let image: ImageBuffer
        do { image = try decoder.decode(path: photo, as: .rgb888) } catch { throw CommandFailure(error) }
        let segmenter = try ModelOptions.segmenter(.accurate, models: models)
        let compositor = try GreetCommand.compositor(background, width: image.width, height: image.height, decoder: decoder)
        let mask = segmenter.segment(image.image())
        compositor.composite(frame: image.image(), mask: mask.plane, into: image.image())
        try write(image.image(), to: output, as: format)
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
        let segmenter = try ModelOptions.segmenter(level, models: models)
        segmenter.temporalStability = true
        let decoder = ImageDecoder()
        var compositor: BackgroundCompositor?
        var index = 0
        var failures: [ExitStatus] = []
        func process(_ frame: Image) throws {
            if compositor?.width != frame.width || compositor?.height != frame.height {
                compositor = try GreetCommand.compositor(background, width: frame.width, height: frame.height, decoder: decoder)
                segmenter.reset()
            }
            let mask = segmenter.segment(frame)
            compositor!.composite(frame: frame, mask: mask.plane, into: frame)
            index += 1
            try write(frame, to: output + "/" + GreetCommand.frameName(index), as: .jpeg)
        }
        if input == "camera" {
            let boardName = board ?? DataFiles.readText("/etc/booth/booth.toml")
                .flatMap { try? KioskConfig.parse($0, file: "/etc/booth/booth.toml").board } ?? "dev"
            let cameraBoard: Board
            do { cameraBoard = try BoardLibrary.load(boardName) } catch { throw CommandFailure("board: \(error)", status: .config) }
            let source: any FrameSource
            do { source = try Devices.openCamera(cameraBoard, folderOverride: cameraFolder, captureStills: false) } catch {
                throw CommandFailure("camera (board \(cameraBoard.name)): \(error.description)")
            }
            try GreetCommand.pumpFrames(source, count: frames, process: process)
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandFailure("\(input) is not a folder of frames (or camera)", status: .io)
            }
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: input).sorted() } catch {
                throw CommandFailure("cannot list \(input): \(error.localizedDescription)", status: .io)
            }
            let images = names.filter { n in [".jpg", ".jpeg", ".png", ".ppm"].contains { n.lowercased().hasSuffix($0) } }
            if images.isEmpty { throw CommandFailure("\(input) holds no JPEG, PNG or PPM frames", status: .badInput) }
            for name in images {
                do {
                    let frame = try decoder.decode(path: input + "/" + name, as: .rgb888)
                    try process(frame.image())
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

    /// Pumps `count` preview frames (I420) from a `FrameSource`, each converted to RGB in one
    /// buffer allocated once, and hands them to `process`. Five seconds without a frame is an error.
    static func pumpFrames(_ source: some FrameSource, count: Int, process: (Image) throws -> Void) throws {
        let yuv = ImageBuffer(format: .i420, width: source.previewWidth, height: source.previewHeight)
        let rgb = ImageBuffer(format: .rgb888, width: source.previewWidth, height: source.previewHeight)
        do { try source.start() } catch { throw CommandFailure("camera: \(error.description)") }
        defer { source.stop() }
        var done = 0, idle = 0
        while done < count {
            var got = 0
            do {
                got = try source.pump(timeoutMilliseconds: 1000, deliver: { _, fill in
                    fill(yuv.image()); return true
                }, still: { _ in })
            } catch {
                throw CommandFailure("camera: \(error.description)")
            }
            if got > 0 {
                YUVToRGB.run(yuv.image(), rgb.image(), matrix: .bt601Full)
                try process(rgb.image())
                done += 1
                idle = 0
            } else {
                idle += 1
                if idle >= 5 { throw CommandFailure("camera: no frame for 5 s after \(done) of \(count) frames") }
            }
        }
    }

    // MARK: Background

    enum BackgroundSpec: Equatable {
        case color(UInt8, UInt8, UInt8)
        case blur(Int)
        case file(String)
    }

    static func parseBackground(_ text: String) throws -> BackgroundSpec {
        switch text.lowercased() {
        case "white": return .color(255, 255, 255)
        case "cream": return .color(243, 236, 220)
        case "grey", "gray", "lightgrey", "lightgray": return .color(216, 216, 216)
        default: break
        }
        if text.hasPrefix("#") {
            let hex = text.dropFirst()
            guard hex.count == 6, let v = UInt32(hex, radix: 16) else { throw ValidationError("colour \(text) is not #RRGGBB") }
            return .color(UInt8(v >> 16), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF))
        }
        if text.lowercased() == "blur" { return .blur(4) }
        if text.lowercased().hasPrefix("blur:") {
            guard let n = Int(text.dropFirst(5)), n >= 1, n <= 50 else { throw ValidationError("blur strength must be 1…50 (percent)") }
            return .blur(n)
        }
        guard FileManager.default.isReadableFile(atPath: text) else {
            throw ValidationError("background \(text) is neither a colour, blur[:N] nor a readable image file")
        }
        return .file(text)
    }

    static func compositor(_ spec: String, width: Int, height: Int, decoder: ImageDecoder) throws -> BackgroundCompositor {
        let compositor = BackgroundCompositor(width: width, height: height, format: .rgb888)
        switch try parseBackground(spec) {
        case .color(let r, let g, let b): compositor.setBackground(.color(red: r, green: g, blue: b))
        case .blur(let n): compositor.setBackground(.blurred(strength: n))
        case .file(let path):
            let picture: ImageBuffer
            do { picture = try decoder.decode(path: path, as: .rgb888) } catch { throw CommandFailure(error, context: "background") }
            compositor.setBackground(.image(picture.image()))
        }
        return compositor
    }
}
