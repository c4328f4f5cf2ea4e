import ArgumentParser
import Foundation
import ImageCore
import ImageFiles
import NeuralCore
import Synchronization
import Vision

/// `booth analyze FILES/DIRS... [--json] [--annotate DIR] [--faces-only] [--jobs N]`: capture
/// quality of every face in a batch of photos, ranked best first.
///
/// Workers: `--jobs` child tasks of one task group (default: one per core), each owning its own
/// decoder, face models (interpreters are not thread-safe) and quality estimator, each pulling
/// the next file from a shared atomic index — so at most `jobs` decoded images exist at once,
/// whatever the number of files. Results stream back through an `AsyncStream` as small values
/// (text, and JSON only with `--json`; no pixels); the ranking is printed at the end.
///
/// Nothing is shared between workers (no model, interpreter, lock or actor), so they run in
/// parallel on the cooperative pool's threads. Throughput still depends on free cores: Linux's
/// autogroup scheduler gives each session an equal share of the CPUs whatever its thread count,
/// so on a machine busy with other sessions `--jobs 2` cannot speed up (measured there: two
/// separate single-job processes on halves of the set were no faster than one process either).
/// Measured idle (2 cores, release, float path): ../shared/fixtures/faces, 25 images, 6.4
/// images/s with `--jobs 1`, 11.5 with `--jobs 2`; faces + persons, 95 images, 15.5 and 30.8.
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

    @Option(help: "Folder holding the .tflite models (default: $BOOTH_MODELS or ./models).")
    var models: String?

    @Option(help: "Inference path: integer (the product's) or float (the reference).")
    var path: String = "integer"

    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "ppm", "pgm", "pnm"]

    func run() throws {
        try OptionCheck.int(jobs, "--jobs", in: 1...256)
        let directory = try ModelOptions.directory(models)
        let execution = try ModelOptions.executionPath(path)
        let workers = jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
        // Fail early, in one line naming the file, when a model is missing, corrupt or the wrong one.
        _ = try ModelOptions.faceAnalyzer(directory, path: execution)
        var failedInputs = false
        let files = Self.expand(inputs, failed: &failedInputs)
        if let annotate { try OutputPaths.makeFolder(annotate, option: "--annotate") }
        let outputs = annotate.map { OutputPaths.unique(files, folder: $0, ext: "png") }
        let job = AnalyzeJob(files: files, annotations: outputs, modelDirectory: directory, execution: execution,
                             workers: min(workers, max(1, files.count)), json: json)
        let progress = Progress(total: files.count, tty: isatty(2) == 1)

        // Run the task group off the main thread and wait for it (the root command is synchronous).
        let results = Mutex<[AnalyzeOutcome]>([])
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            for await outcome in job.run() {
                progress.step(outcome)
                results.withLock { $0.append(outcome) }
            }
            finished.signal()
        }
        finished.wait()
        progress.finish()

        var outcomes = results.withLock { $0 }
        outcomes.sort(by: AnalyzeOutcome.ranked)
        let failures = (failedInputs ? [ExitStatus.io] : []) + outcomes.compactMap(\.status)
        if facesOnly { outcomes.removeAll { $0.faceCount == 0 } }
        if json {
            print("[\n" + outcomes.map(\.json).joined(separator: ",\n") + "\n]")
        } else {
            Self.printTable(outcomes)
        }
        if let status = ExitStatus.combined(failures) { throw ExitCode(status.rawValue) }
    }

    /// Files as given, and the images inside folders (recursively, sorted). A missing input is
    /// reported and counts as a failure.
    static func expand(_ inputs: [String], failed: inout Bool) -> [String] {
        var files: [String] = []
        let fm = FileManager.default
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: input, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("\(input): no such file or folder\n".utf8))
                failed = true
                continue
            }
            if !isDirectory.boolValue { files.append(input); continue }
            guard let walker = fm.enumerator(atPath: input) else { continue }
            var found: [String] = []
            for case let relative as String in walker {
                let ext = (relative as NSString).pathExtension.lowercased()
                if imageExtensions.contains(ext) { found.append((input as NSString).appendingPathComponent(relative)) }
            }
            files += found.sorted()
        }
        return files
    }

    /// One PNG name per input in `folder`: the base name, with -2, -3… when names repeat.
    static func printTable(_ outcomes: [AnalyzeOutcome]) {
        let width = min(60, max(4, outcomes.map(\.file.count).max() ?? 4))
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        print(pad("file", width) + "  faces  score  weakest")
        for o in outcomes {
            let score = o.error != nil ? "error" : String(format: "%.3f", o.score)
            print(pad(o.file, width) + "  " + pad(String(o.faceCount), 5) + "  " + pad(score, 5) + "  " + (o.error ?? o.weakest))
        }
    }
}

/// The result of one image: what the table and the JSON need (no pixels).
struct AnalyzeOutcome: Sendable {
    var index: Int
    var file: String
    var faceCount = 0
    var score: Float = 0
    var weakest = "-"
    var json = ""
    var error: String?
    /// The exit status this image's failure asks for (`ExitStatus`), nil when it succeeded.
    var status: ExitStatus?

    /// Best first; images without faces after those with faces; failures last; then input order.
    static func ranked(_ a: AnalyzeOutcome, _ b: AnalyzeOutcome) -> Bool {
        func tier(_ o: AnalyzeOutcome) -> Int { o.error != nil ? 2 : (o.faceCount == 0 ? 1 : 0) }
        if tier(a) != tier(b) { return tier(a) < tier(b) }
        if a.score != b.score { return a.score > b.score }
        return a.index < b.index
    }
}

/// The files and settings of one run, and the workers that process them.
struct AnalyzeJob: Sendable {
    let files: [String]
    let annotations: [String]?
    let modelDirectory: String
    let execution: ExecutionPath
    let workers: Int
    /// Build each image's JSON (about 5 KB a face) only when it will be printed, so a run over
    /// thousands of photos keeps a few hundred bytes per image until the ranking.
    var json = true

    final class NextIndex: Sendable {
        let value = Atomic<Int>(0)
    }

    /// Results as they are ready, in completion order.
    func run() -> AsyncStream<AnalyzeOutcome> {
        let (stream, continuation) = AsyncStream.makeStream(of: AnalyzeOutcome.self, bufferingPolicy: .unbounded)
        let next = NextIndex()
        let job = self
        Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<job.workers {
                    group.addTask { await job.work(next: next, continuation) }
                }
            }
            continuation.finish()
        }
        return stream
    }

    /// One worker: its own decoder, models and estimator; files until none are left. Yields
    /// between files so the consumer (progress, results) runs even when every pool thread works.
    func work(next: NextIndex, _ continuation: AsyncStream<AnalyzeOutcome>.Continuation) async {
        let decoder = ImageDecoder()
        let estimator = CaptureQualityEstimator()
        let analyzer: FaceAnalyzer
        do { analyzer = try FaceAnalyzer(modelDirectory: modelDirectory, path: execution) } catch {
            // Checked before starting; only a file vanishing mid-run lands here.
            while case let i = next.value.wrappingAdd(1, ordering: .relaxed).oldValue, i < files.count {
                continuation.yield(AnalyzeOutcome(index: i, file: files[i], json: "", error: "cannot load the face models: \(error)",
                                                  status: .failure))
            }
            return
        }
        while true {
            let i = next.value.wrappingAdd(1, ordering: .relaxed).oldValue
            guard i < files.count else { return }
            continuation.yield(analyze(i, decoder: decoder, analyzer: analyzer, estimator: estimator))
            await Task.yield()
        }
    }

    func analyze(_ i: Int, decoder: ImageDecoder, analyzer: FaceAnalyzer, estimator: CaptureQualityEstimator) -> AnalyzeOutcome {
        let file = files[i]
        var outcome = AnalyzeOutcome(index: i, file: file)
        let buffer: ImageBuffer
        do {
            buffer = try decoder.decode(path: file, as: .rgb888)
        } catch {
            let message = "\(error)"
            outcome.status = CommandFailure(error).status
            outcome.error = message.hasPrefix(file) ? String(message.dropFirst(file.count + 2)) : message
            if json {
                outcome.json = "{\"file\": \(JSONText.string(file)), \"width\": 0, \"height\": 0, \"score\": 0, \"faces\": [], \"error\": \(JSONText.string(outcome.error!))}"
            }
            return outcome
        }
        // The view does not keep the buffer alive (release builds end lifetimes at last use).
        return withExtendedLifetime(buffer) { analyze(buffer.image(), outcome, analyzer: analyzer, estimator: estimator) }
    }

    func analyze(_ image: Image, _ start: AnalyzeOutcome, analyzer: FaceAnalyzer, estimator: CaptureQualityEstimator) -> AnalyzeOutcome {
        var outcome = start
        let file = files[outcome.index], i = outcome.index
        let faces = analyzer.analyze(image)
        let qualities = faces.map { estimator.evaluate(image, face: $0) }
        outcome.faceCount = faces.count
        if let main = faces.indices.max(by: { faces[$0].box.area < faces[$1].box.area }) {
            outcome.score = qualities[main].score
            outcome.weakest = qualities[main].components.weakest.rawValue
        }
        var faceJSON: [String] = []
        for (f, q) in zip(faces, qualities) where json {
            var s = String(JSONText.face(f).dropLast())
            s += ", \"quality\": \(JSONText.number(q.score, 4)), \"components\": {"
            s += QualityComponent.allCases.map { "\(JSONText.string($0.rawValue)): \(JSONText.number(q.components[$0], 4))" }
                .joined(separator: ", ")
            s += "}, \"eyeOpenness\": \(JSONText.number(q.eyeOpenness, 4)), \"mouthOpenness\": \(JSONText.number(q.mouthOpenness, 4))"
            s += ", \"smile\": \(JSONText.number(q.smile, 4))}"
            faceJSON.append(s)
        }
        if json { outcome.json = "{\"file\": \(JSONText.string(file)), \"width\": \(image.width), \"height\": \(image.height)"
            + ", \"score\": \(JSONText.number(outcome.score, 4)), \"weakest\": \(faces.isEmpty ? "null" : JSONText.string(outcome.weakest))"
            + ", \"faces\": [\(faceJSON.joined(separator: ", "))]}" }
        if let annotations {
            FaceAnnotator.draw(faces, on: image)
            QualityAnnotator.drawScores(zip(faces, qualities).map { ($0.box, $1.score) }, imageScore: outcome.score, on: image)
            do { try PNGWriter.write(image, to: annotations[i]) } catch {
                outcome.error = "cannot write annotation: \(error)"
                outcome.status = CommandFailure(error).status
            }
        }
        return outcome
    }
}

/// A progress bar on a terminal (redrawn in place on stderr), plain lines otherwise; errors as
/// one line each.
final class Progress: @unchecked Sendable {
    let total: Int
    let tty: Bool
    let start = Date()
    var done = 0
    let lock = NSLock()

    init(total: Int, tty: Bool) { self.total = total; self.tty = tty }

    func step(_ outcome: AnalyzeOutcome) {
        lock.lock(); defer { lock.unlock() }
        done += 1
        var text = ""
        if let error = outcome.error {
            text += (tty ? "\r\u{1B}[K" : "") + "\(outcome.file): \(error)\n"
        }
        let rate = Double(done) / max(1e-3, Date().timeIntervalSince(start))
        if tty {
            let width = 30, filled = total > 0 ? width * done / total : width
            text += "\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
                + " \(done)/\(total) " + String(format: "%.1f images/s", rate)
        } else if outcome.error == nil {
            text += "[\(done)/\(total)] \(outcome.file): \(outcome.faceCount) face\(outcome.faceCount == 1 ? "" : "s"), score "
                + String(format: "%.3f", outcome.score) + "\n"
        }
        FileHandle.standardError.write(Data(text.utf8))
    }

    func finish() {
        lock.lock(); defer { lock.unlock() }
        let seconds = Date().timeIntervalSince(start)
        let summary = "\(done) image\(done == 1 ? "" : "s") in " + String(format: "%.2f s (%.2f images/s)", seconds, Double(done) / max(1e-3, seconds))
        FileHandle.standardError.write(Data(((tty ? "\r\u{1B}[K" : "") + summary + "\n").utf8))
    }
}
