import ImageCore
import NeuralCore
import Synchronization

/// Ranks a batch of photos by capture quality (what `booth analyze` does): every face of every
/// photo found and measured, each photo scored by its largest face, results ranked with
/// `BatchOutcome.ranked`.
///
/// Workers: `workers` child tasks of one task group, each owning its face models (interpreters
/// are not thread-safe) and quality estimator, each pulling the next file from a shared atomic
/// index — so at most `workers` decoded photos exist at once, whatever the number of files.
/// Nothing is shared between workers (no model, lock or actor), so they run in parallel on the
/// cooperative pool's threads. Vision reads no image files: `decode` (the caller's decoder)
/// turns a path into RGB pixels, and `annotate` (optional) sees each photo with its faces before
/// its pixels are released, e.g. to write an annotated copy.
public struct BatchAnalyzer: Sendable {
    public typealias Decode = @Sendable (String) throws -> ImageBuffer
    /// Photo index, its pixels, its faces, their qualities, and the photo's score.
    public typealias Annotate = @Sendable (Int, Image, [FaceObservation], [CaptureQuality], Float) throws -> Void

    public let files: [String]
    public let store: ModelStore
    public let execution: ExecutionPath
    public let workers: Int
    /// Make each photo's `QualityReport` (about 5 KB a face) only when it will be printed, so a
    /// run over thousands of photos keeps a few hundred bytes per photo until the ranking.
    public var reports: Bool
    public let decode: Decode
    public let annotate: Annotate?

    public init(files: [String], store: ModelStore, execution: ExecutionPath, workers: Int, reports: Bool,
                decode: @escaping Decode, annotate: Annotate? = nil) {
        precondition(workers >= 1, "at least one worker")
        self.files = files
        self.store = store
        self.execution = execution
        self.workers = min(workers, max(1, files.count))
        self.reports = reports
        self.decode = decode
        self.annotate = annotate
    }

    final class NextIndex: Sendable {
        let value = Atomic<Int>(0)
        func take() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
    }

    /// Results as they are ready, in completion order (rank them with `BatchOutcome.ranked`).
    public func run() -> AsyncStream<BatchOutcome> {
        let (stream, continuation) = AsyncStream.makeStream(of: BatchOutcome.self, bufferingPolicy: .unbounded)
        let next = NextIndex()
        let batch = self
        Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<batch.workers {
                    group.addTask { await batch.work(next: next, continuation) }
                }
            }
            continuation.finish()
        }
        return stream
    }

    /// One worker: its own models and estimator; files until none are left. Yields between files
    /// so the consumer runs even when every pool thread works.
    func work(next: NextIndex, _ continuation: AsyncStream<BatchOutcome>.Continuation) async {
        let estimator = CaptureQualityEstimator()
        let analyzer: FaceAnalyzer
        do { analyzer = try store.faceAnalyzer(path: execution) } catch {
            // Callers check the models before starting; only a file vanishing mid-run lands here.
            while case let i = next.take(), i < files.count {
                var outcome = BatchOutcome(index: i, file: files[i])
                outcome.fail(error)
                continuation.yield(outcome)
            }
            return
        }
        while true {
            let i = next.take()
            guard i < files.count else { return }
            continuation.yield(analyze(i, analyzer: analyzer, estimator: estimator))
            await Task.yield()
        }
    }

    /// Photo `i`: decoded, measured, annotated.
    public func analyze(_ i: Int, analyzer: FaceAnalyzer, estimator: CaptureQualityEstimator) -> BatchOutcome {
        var outcome = BatchOutcome(index: i, file: files[i])
        let buffer: ImageBuffer
        do { buffer = try decode(files[i]) } catch {
            outcome.fail(error)
            if reports { outcome.report = QualityReport(file: files[i], error: outcome.message ?? "\(error)") }
            return outcome
        }
        return buffer.withImage { measure($0, outcome, analyzer: analyzer, estimator: estimator) }
    }

    func measure(_ image: Image, _ start: BatchOutcome, analyzer: FaceAnalyzer, estimator: CaptureQualityEstimator) -> BatchOutcome {
        var outcome = start
        let faces = analyzer.analyze(image)
        let qualities = faces.map { estimator.evaluate(image, face: $0) }
        outcome.faceCount = faces.count
        if let main = faces.indices.max(by: { faces[$0].box.area < faces[$1].box.area }) {
            outcome.score = qualities[main].score
            outcome.weakest = qualities[main].components.weakest
        }
        if reports {
            outcome.report = QualityReport(file: outcome.file, width: image.width, height: image.height, faces: faces, qualities: qualities)
        }
        if let annotate {
            do { try annotate(outcome.index, image, faces, qualities, outcome.score) } catch {
                outcome.failure = error
                outcome.message = "cannot write annotation: \(error)"
            }
        }
        return outcome
    }
}
