import Foundation
import Vision

/// The live segmenter lent to the still path, and the lock of the live models' working memory.
///
/// The live models (detector, mesh, fast segmenter) share one integer working memory
/// (`SharedArena`), so only one of them may run at a time. The vision stage holds `lock` while it
/// analyses a frame; a still whose aspect picks the landscape model runs the live segmenter's
/// interpreter (`stillSegmenter`) and takes `lock` for each model pass (a few ms; the vision
/// thread waits at most that long). The still then loads no segmentation model: its weights,
/// activation tables and working memory (4.5 MiB) are the live ones.
final class LiveSegmentation: @unchecked Sendable {
    let segmenter: PersonSegmenter
    let lock = NSLock()

    init(segmenter: PersonSegmenter) {
        self.segmenter = segmenter
    }

    /// Runs `body` with the live models to itself.
    func withLock<R>(_ body: () -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// A new accurate segmenter running the live landscape model, each pass under `lock`.
    func stillSegmenter() -> PersonSegmenter {
        let still = PersonSegmenter(accurateUsingLandscapeOf: segmenter)
        let lock = self.lock
        still.exclusive = { pass in
            lock.lock()
            defer { lock.unlock() }
            pass()
        }
        return still
    }
}
