/// The mutable part of a `FrameRing`, kept inside its `Mutex`.
///
/// The per-slot table is allocated once by the ring's initializer and freed by the ring's
/// `deinit`; nothing here allocates afterwards.
@usableFromInline
struct FrameRingState {
    let slots: UnsafeMutableBufferPointer<RingSlotState>
    /// Next value of `RingSlotState.publishOrder`.
    var nextOrder: UInt64 = 1
    /// Where the search for a free slot starts (the test-only initializer sets it).
    var cursor: Int

    init(slotCount: Int, startSlot: Int) {
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: RingSlotState())
        cursor = startSlot
    }

    /// Picks the slot the producer writes next and marks it `.writing`. Returns the slot and
    /// whether an unleased, never-leased frame was overwritten (a drop), or nil when every
    /// slot is leased or being written.
    mutating func claimForWriting() -> (slot: Int, overwroteUnseen: Bool)? {
        let n = slots.count
        // 1. A slot never used, searched from the cursor so the start slot is honoured.
        for k in 0..<n {
            let i = (cursor + k) % n
            if slots[i].phase == .free {
                cursor = (i + 1) % n
                slots[i].phase = .writing
                return (i, false)
            }
        }
        // 2. The oldest published frame that nobody holds.
        var best = -1
        var bestOrder = UInt64.max
        for i in 0..<n where slots[i].phase == .published && slots[i].leaseCount == 0 {
            if slots[i].publishOrder < bestOrder {
                bestOrder = slots[i].publishOrder
                best = i
            }
        }
        guard best >= 0 else { return nil }
        let unseen = !slots[best].everLeased
        slots[best].phase = .writing
        cursor = (best + 1) % n
        return (best, unseen)
    }

    mutating func publish(slot: Int, metadata: FrameMetadata) {
        slots[slot].phase = .published
        slots[slot].metadata = metadata
        slots[slot].everLeased = false
        slots[slot].leaseCount = 0
        slots[slot].publishOrder = nextOrder
        nextOrder += 1
    }

    /// The most recently published slot, leased, if its sequence is after `after`.
    mutating func leaseNewest(after: UInt64?) -> (slot: Int, metadata: FrameMetadata)? {
        var best = -1
        var bestOrder: UInt64 = 0
        for i in 0..<slots.count where slots[i].phase == .published && slots[i].publishOrder > bestOrder {
            bestOrder = slots[i].publishOrder
            best = i
        }
        guard best >= 0 else { return nil }
        if let after, slots[best].metadata.sequence <= after { return nil }
        slots[best].leaseCount += 1
        slots[best].everLeased = true
        return (best, slots[best].metadata)
    }

    mutating func release(slot: Int) {
        precondition(slots[slot].leaseCount > 0, "FrameRing: lease released twice")
        slots[slot].leaseCount -= 1
    }
}
