/// What the ring knows about one slot. Guarded by `FrameRing`'s mutex.
@usableFromInline
struct RingSlotState {
    enum Phase: UInt8 {
        /// Never written since the ring was made.
        case free
        /// The producer is filling it; no consumer may see it.
        case writing
        /// Holds a complete frame that consumers may lease.
        case published
    }

    var phase: Phase = .free
    /// Leases currently held on this slot (several consumers may share one frame).
    var leaseCount: Int = 0
    /// Whether any consumer ever leased the frame now in this slot.
    var everLeased: Bool = false
    /// Order of publication inside the ring (1, 2, 3, …); the lowest published is the oldest.
    var publishOrder: UInt64 = 0
    /// The frame's metadata, valid while `phase == .published`.
    var metadata = FrameMetadata()
}
