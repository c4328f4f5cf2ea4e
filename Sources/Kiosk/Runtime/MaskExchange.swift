import ImageCore
import Synchronization

/// The live person mask, handed from the vision thread to the screen: two preallocated Gray8
/// planes; the writer fills the back one and flips, the reader copies the front one under the
/// same lock. No allocation per frame.
final class MaskExchange: @unchecked Sendable {
    private let buffers: [ImageBuffer]
    private let state = Mutex<(front: Int, sequence: UInt64)>((0, 0))

    init(width: Int, height: Int) {
        buffers = [ImageBuffer(format: .gray8, width: width, height: height), ImageBuffer(format: .gray8, width: width, height: height)]
    }

    /// Vision thread: publish a frame-sized mask.
    func publish(_ mask: Plane, sequence: UInt64) {
        let back = state.withLock { 1 - $0.front }
        CopyPlane.simd(mask, buffers[back].image().luma)
        state.withLock { $0 = (back, sequence) }
    }

    /// Screen thread: `body` sees the newest mask (nil before the first) while the lock is held.
    func withNewest(_ body: (Plane?) -> Void) {
        state.withLock { s in body(s.sequence == 0 ? nil : buffers[s.front].image().luma) }
    }
}
