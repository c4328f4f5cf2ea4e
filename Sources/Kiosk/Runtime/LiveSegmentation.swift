import NeuralCore
import Posix
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
    /// The live models' shared working memory (float plans in its integer block), lent to the
    /// passport still's palm and hand models, each pass under `lock` (`exclusive`).
    let arena: SharedArena?
    let lock = Lock()

    /// The live models' claim on `arena` (its integer block), taken when they are all loaded: a
    /// still model lent the arena may make more of it resident (`returnLentPages`).
    let liveBytes: Int

    init(segmenter: PersonSegmenter, arena: SharedArena? = nil) {
        self.segmenter = segmenter
        self.arena = arena
        liveBytes = arena?.claimedBytes ?? 0
    }

    /// The arena's resident pages when a still started to borrow it (`lend`).
    private var before: SharedArena.Residency? = nil

    /// Notes which pages of the arena are resident before a still's models borrow it, so that
    /// `returnLentPages` gives back exactly those they make resident.
    func lend() {
        guard let arena else { return }
        withLock { before = arena.residency() }
    }

    /// Returns the arena's pages a still model lent the arena made resident (`lend`; without it,
    /// those past the live models' claim): the palm and hand models' activations (up to 4.8 MB),
    /// the mesh, iris and general segmentation models' working memory, and those models' inputs
    /// and outputs in the boundary block, so they do not stay resident between stills.
    func returnLentPages() {
        guard let arena else { return }
        withLock {
            if let before { arena.releasePages(notIn: before) } else { arena.releasePages(from: liveBytes) }
        }
    }

    /// `lock` around a pass, for a still model that runs in `arena`.
    var exclusive: (() -> Void) -> Void {
        let lock = self.lock
        return { pass in
            lock.lock()
            defer { lock.unlock() }
            pass()
        }
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
