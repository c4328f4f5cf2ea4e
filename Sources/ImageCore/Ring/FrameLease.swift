/// A consumer's hold on one frame of a `FrameRing`. While it lives, the producer never writes
/// into its slot; its `deinit` hands the slot back. Not copyable: a frame is held exactly as
/// many times as there are leases.
public struct FrameLease: ~Copyable, @unchecked Sendable {
    @usableFromInline let ring: FrameRing
    /// Pixels and metadata of the leased slot.
    public let image: Image
    /// The ring slot this lease holds.
    public let slot: Int

    @usableFromInline init(ring: FrameRing, slot: Int, image: Image) {
        self.ring = ring
        self.slot = slot
        self.image = image
    }

    deinit { ring.release(slot: slot) }
}
