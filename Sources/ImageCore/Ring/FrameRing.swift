import Synchronization

/// A fixed ring of frame slots between one camera (producer) and the vision stages (consumers).
///
/// All slots are allocated once by the initializer (one `ImageBuffer` each) and never grow.
/// The producer never blocks: it writes into a never-used slot, or else recycles the oldest
/// published frame that nobody leases. Consumers take the newest frame as a `FrameLease`
/// (`~Copyable`), whose `deinit` hands the slot back. Several leases may share one slot.
///
/// Accounting: `publishedCount` counts frames made visible. `droppedCount` counts frames no
/// consumer ever saw: a published frame overwritten before any lease on it, plus a frame the
/// producer could not store because every slot was leased (then `fill` is not called).
///
/// `produce`, `newest` and the lease's `deinit` allocate nothing: the slot table lives in
/// memory allocated by `init`, the lock is a `Mutex` stored inline, the counters are atomics.
/// The pixel copy (`fill`) runs outside the lock, on a slot no consumer can see.
public final class FrameRing: @unchecked Sendable {
    @usableFromInline let buffers: [ImageBuffer]
    @usableFromInline let state: Mutex<FrameRingState>
    private let dropped = Atomic<UInt64>(0)
    private let published = Atomic<UInt64>(0)

    /// A ring of `slotCount` slots of `width`×`height` `format`, writing first into slot 0.
    public convenience init(slotCount: Int, format: PixelFormat, width: Int, height: Int) {
        self.init(slotCount: slotCount, format: format, width: width, height: height, startSlot: 0)
    }

    /// Test-only: start writing at `startSlot` so wrap-around is exercised from any slot.
    public init(slotCount: Int, format: PixelFormat, width: Int, height: Int, startSlot: Int) {
        precondition(slotCount > 0, "FrameRing needs at least one slot")
        precondition(startSlot >= 0 && startSlot < slotCount, "start slot outside the ring")
        var made: [ImageBuffer] = []
        made.reserveCapacity(slotCount)
        for _ in 0..<slotCount { made.append(ImageBuffer(format: format, width: width, height: height)) }
        buffers = made
        state = Mutex(FrameRingState(slotCount: slotCount, startSlot: startSlot))
    }

    deinit {
        state.withLock { s in
            s.slots.deinitialize()
            s.slots.deallocate()
        }
    }

    public var slotCount: Int { buffers.count }

    /// Frames no consumer ever saw (overwritten unleased, or refused because all slots were leased).
    public var droppedCount: UInt64 { dropped.load(ordering: .relaxed) }

    /// Frames made visible to consumers.
    public var publishedCount: UInt64 { published.load(ordering: .relaxed) }

    /// Producer (camera thread). Never blocks: takes a free slot, else recycles the oldest published
    /// unleased frame (counted in droppedCount when no one leased it); if every slot is leased, the
    /// new frame is dropped (counted) and `fill` is not called. Returns whether the frame was published.
    @discardableResult
    public func produce(metadata: FrameMetadata, _ fill: (Image) -> Void) -> Bool {
        let claim = state.withLock { $0.claimForWriting() }
        guard let claim else {
            dropped.add(1, ordering: .relaxed)
            return false
        }
        if claim.overwroteUnseen { dropped.add(1, ordering: .relaxed) }
        fill(buffers[claim.slot].view(metadata: metadata))
        state.withLock { $0.publish(slot: claim.slot, metadata: metadata) }
        published.add(1, ordering: .relaxed)
        return true
    }

    /// Consumer: a lease on the newest published frame whose sequence is > `after` (nil: any).
    /// Several leases may share a slot (ref-count).
    public func newest(after sequence: UInt64? = nil) -> FrameLease? {
        let got = state.withLock { $0.leaseNewest(after: sequence) }
        guard let got else { return nil }
        return FrameLease(ring: self, slot: got.slot, image: buffers[got.slot].view(metadata: got.metadata))
    }

    /// Called by `FrameLease.deinit`.
    @usableFromInline func release(slot: Int) {
        state.withLock { $0.release(slot: slot) }
    }
}
