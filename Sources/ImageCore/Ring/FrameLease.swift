/// A consumer's hold on one frame of a `FrameRing`. While it lives, the producer never writes
/// into its slot; its `deinit` hands the slot back. Not copyable: a frame is held exactly as
/// many times as there are leases.
public struct FrameLease: ~Copyable, @unchecked Sendable {
    @usableFromInline let ring: FrameRing
    /// Pixels and metadata of the leased slot; lent out only by `withImage`.
    @usableFromInline let view: Image
    /// The ring slot this lease holds.
    public let slot: Int

    @usableFromInline init(ring: FrameRing, slot: Int, image: Image) {
        self.ring = ring
        self.slot = slot
        self.view = image
    }

    /// The frame's metadata (sequence, timestamp, exposure), readable without borrowing the pixels.
    public var metadata: FrameMetadata { view.metadata }

    /// Lends the leased frame's pixels and metadata to `body`. The lease is borrowed for the call,
    /// so its slot cannot be handed back (nor rewritten by the producer) while `body` runs; the
    /// view must not escape the closure.
    @inlinable
    public borrowing func withImage<Result: ~Copyable, Failure: Error>(
        _ body: (Image) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(view)
    }

    deinit { ring.release(slot: slot) }
}
