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
import Synchronization
import Vision

/// `booth analyze FILES/DIRS... [--json] [--annotate DIR] [--faces-only] [--jobs N]`: capture
/// quality of every face in a batch of photos, ranked best first — Vision's `BatchAnalyzer`
/// (`--jobs` workers) with this command's decoder, annotations, progress and printing.
///
/// Throughput depends on free cores: Linux's autogroup scheduler gives each session an equal
/// share of the CPUs whatever its thread count, so on a machine busy with other sessions
/// `--jobs 2` cannot speed up (measured there: two separate single-job processes on halves of the
/// set were no faster than one process either). Measured idle (2 cores, release, float path):
/// ../shared/fixtures/faces, 25 images, 6.4 images/s with `--jobs 1`, 11.5 with `--jobs 2`;
/// faces + persons, 95 images, 15.5 and 30.8.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Score the capture quality of the faces in photos and rank the photos, best first.",
        discussion: """
            An image's score is its largest face's quality (0 with no face; such images are listed \
            last). --json extends the `booth faces --json` contract: each face gains "quality" (0...1), \
            "components" {sharpness, exposure, noise, pose, eyesOpen, mouthNeutral, occlusion, resolution} \
            and "eyeOpenness", "mouthOpenness", "smile"; each image gains "score" and "weakest". The array \
            is sorted best first. A file that cannot be read is reported on stderr in one line (and in the \
            JSON with "error"); the others are still processed; the exit status is then that of the failures \
            (65 bad image, 74 unreadable file or missing input; 1 when mixed). Images sharing a base name \
            are annotated as NAME.png, NAME-2.png, ….
            """)

    @Argument(help: "Images (JPEG, PNG, PPM/PGM) and folders of them (searched recursively).")
    var inputs: [String]

    @Flag(help: "Print JSON (the `booth faces --json` contract extended with quality) instead of a table.")
    var json = false

    @Option(help: "Write each image annotated with face boxes, landmark outlines and scores into this folder (PNG).")
    var annotate: String?

    @Flag(help: "Keep only images with at least one face in the ranking.")
    var facesOnly = false

    @Option(help: "Images processed at once (default: one per core).")
    var jobs: Int?

    @Option(help: ModelOptions.help)
    var models: String?

    @Option(help: "Inference path: integer (the product's) or float (the reference).")
    var path: String = "integer"

    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "ppm", "pgm", "pnm"]

    func run() throws {
        try OptionCheck.int(jobs, "--jobs", in: 1...256)
        let store = try ModelOptions.store(models)
        let execution = try ModelOptions.executionPath(path)
        let workers = jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
        // Fail early, in one line naming the file, when a model is missing, corrupt or the wrong one.
        do { _ = try store.faceAnalyzer(path: execution) } catch { throw ModelOptions.failure(error) }
        var failedInputs = false
        let files = Self.expand(inputs, failed: &failedInputs)
        if let annotate { try OutputPaths.makeFolder(annotate, option: "--annotate") }
        let batch = BatchAnalyzer(files: files, store: store, execution: execution, workers: workers, reports: json,
                                  decode: { try ImageDecoder.decode(path: $0, as: .rgb888) },
                                  annotate: annotate.map { Self.annotator(OutputPaths.unique(files, folder: $0, ext: "png")) })
        let progress = Progress(total: files.count, tty: isatty(2) == 1)

        // Run the batch off the main thread and wait for it (the root command is synchronous).
        let results = Mutex<[BatchOutcome]>([])
        let finished = Semaphore(value: 0)
        Task.detached {
            for await outcome in batch.run() {
                progress.step(outcome)
                results.withLock { $0.append(outcome) }
            }
            finished.signal()
        }
        finished.wait()
        progress.finish()

        var outcomes = results.withLock { $0 }
        outcomes.sort(by: BatchOutcome.ranked)
        let failures = (failedInputs ? [ExitStatus.io] : []) + outcomes.compactMap { $0.failure.map { CommandFailure($0).status } }
        if facesOnly { outcomes.removeAll { $0.faceCount == 0 } }
        if json {
            print(try ReportJSON.array(outcomes.compactMap(\.report)))
        } else {
            Self.printTable(outcomes)
        }
        if let status = ExitStatus.combined(failures) { throw ExitCode(status.rawValue) }
    }

    /// Draws the faces, outlines and scores on a photo and writes it to `outputs[index]` (PNG).
    static func annotator(_ outputs: [String]) -> BatchAnalyzer.Annotate {
        { index, image, faces, qualities, score in
            FaceAnnotator.draw(faces, on: image)
            QualityAnnotator.drawScores(zip(faces, qualities).map { ($0.box, $1.score) }, imageScore: score, on: image)
            try PNGWriter.write(image, to: outputs[index])
        }
    }

    /// Files as given, and the images inside folders (recursively, sorted). A missing input is
    /// reported and counts as a failure.
    static func expand(_ inputs: [String], failed: inout Bool) -> [String] {
        var files: [String] = []
        let fm = FileManager.default
        for input in inputs {
            var isDirectory = false
            guard fm.fileExists(atPath: input, isDirectory: &isDirectory) else {
                FileDescriptorIO.writeStandardError("\(input): no such file or folder\n")
                failed = true
                continue
            }
            if !isDirectory { files.append(input); continue }
            var found: [String] = []
            collectImages(in: input, relative: "", into: &found)
            files += found.sorted().map { Path.appending(input, $0) }
        }
        return files
    }

    /// The image files under `folder` (recursively; links to folders are not followed), as paths
    /// relative to the folder the walk started in.
    static func collectImages(in folder: String, relative: String, into found: inout [String]) {
        guard let names = try? Directories.contents(of: folder) else { return }
        for name in names {
            let path = Path.appending(folder, name), rel = Path.appending(relative, name)
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                collectImages(in: path, relative: rel, into: &found)
            } else if imageExtensions.contains(Path.pathExtension(name).lowercased()) {
                found.append(rel)
            }
        }
    }

    /// One PNG name per input in `folder`: the base name, with -2, -3… when names repeat.
    static func printTable(_ outcomes: [BatchOutcome]) {
        let width = min(60, max(4, outcomes.map(\.file.count).max() ?? 4))
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        print(pad("file", width) + "  faces  score  weakest")
        for o in outcomes {
            let score = o.failure != nil ? "error" : String(cFormat: "%.3f", o.score)
            print(pad(o.file, width) + "  " + pad(String(o.faceCount), 5) + "  " + pad(score, 5) + "  " + (o.message ?? o.weakest?.rawValue ?? "-"))
        }
    }
}

/// A progress bar on a terminal (redrawn in place on stderr), plain lines otherwise; errors as
/// one line each.
final class Progress: @unchecked Sendable {
    let total: Int
    let tty: Bool
    let start = MonotonicTime.now()
    var done = 0
    let lock = Lock()

    init(total: Int, tty: Bool) { self.total = total; self.tty = tty }

    func step(_ outcome: BatchOutcome) {
        lock.lock(); defer { lock.unlock() }
        done += 1
        var text = ""
        if let error = outcome.message {
            text += (tty ? "\r\u{1B}[K" : "") + "\(outcome.file): \(error)\n"
        }
        let rate = Double(done) / max(1e-3, MonotonicTime.now().seconds(since: start))
        if tty {
            let width = 30, filled = total > 0 ? width * done / total : width
            text += "\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
                + " \(done)/\(total) " + String(cFormat: "%.1f images/s", rate)
        } else if outcome.message == nil {
            text += "[\(done)/\(total)] \(outcome.file): \(outcome.faceCount) face\(outcome.faceCount == 1 ? "" : "s"), score "
                + String(cFormat: "%.3f", outcome.score) + "\n"
        }
        FileDescriptorIO.writeStandardError(text)
    }

    func finish() {
        lock.lock(); defer { lock.unlock() }
        let seconds = MonotonicTime.now().seconds(since: start)
        let summary = "\(done) image\(done == 1 ? "" : "s") in " + String(cFormat: "%.2f s (%.2f images/s)", seconds, Double(done) / max(1e-3, seconds))
        FileDescriptorIO.writeStandardError((tty ? "\r\u{1B}[K" : "") + summary + "\n")
    }
}
