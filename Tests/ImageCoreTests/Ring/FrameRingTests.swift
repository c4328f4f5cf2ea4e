import ImageCore
import Testing

@Suite struct FrameRingTests {
    /// The sequence of the newest frame after `after`, leased and released at once.
    static func newestSequence(_ ring: FrameRing, after: UInt64? = nil) -> UInt64? {
        ring.newest(after: after)?.metadata.sequence
    }

    static func produce(_ ring: FrameRing, _ sequence: UInt64) -> Bool {
        ring.produce(metadata: FrameMetadata(sequence: sequence, timestampNanoseconds: sequence * 1000)) { image in
            RingStamp.write(sequence, into: image)
        }
    }

    @Test func emptyRingHasNoFrame() {
        let ring = FrameRing(slotCount: 3, format: .gray8, width: 16, height: 4)
        #expect(ring.slotCount == 3)
        #expect(Self.newestSequence(ring) == nil)
        #expect(ring.publishedCount == 0)
        #expect(ring.droppedCount == 0)
    }

    @Test func newestIsTheLastPublishedAndAfterFilters() {
        let ring = FrameRing(slotCount: 3, format: .i420, width: 16, height: 4)
        #expect(Self.produce(ring, 10))
        #expect(Self.produce(ring, 11))
        do {
            let lease = ring.newest()!
            let sequence = lease.metadata.sequence
            let format = lease.withImage { $0.format }
            #expect(sequence == 11)
            #expect(format == .i420)
        }
        #expect(Self.newestSequence(ring, after: 11) == nil)
        #expect(Self.newestSequence(ring, after: 10) == 11)
    }

    /// Wrap-around from every start slot: slots are used start, start+1, … mod N, and once all are
    /// full the oldest unleased one is recycled, leased slots are skipped.
    @Test(arguments: 0..<5)
    func wrapAroundFromEveryStartSlot(start: Int) {
        let n = 5
        let ring = FrameRing(slotCount: n, format: .gray8, width: 16, height: 2, startSlot: start)
        var slots: [Int] = []
        for s in 0..<UInt64(n) {
            #expect(Self.produce(ring, s))
            slots.append(ring.newest()!.slot)
        }
        #expect(slots == (0..<n).map { (start + $0) % n })
        // Ring full; hold the oldest frame's slot (start). The next frames must skip it.
        let held = ring.newest()!  // newest = sequence 4 at slot start+4
        #expect(held.slot == (start + n - 1) % n)
        var recycled: [Int] = []
        for s in UInt64(n)..<UInt64(3 * n) {
            #expect(Self.produce(ring, s))
            let lease = ring.newest()!
            #expect(lease.slot != held.slot)
            #expect(lease.withImage { RingStamp.matches(s, in: $0) })
            recycled.append(lease.slot)
        }
        // The held frame is intact, and every other slot was reused in ring order.
        #expect(held.withImage { RingStamp.matches(UInt64(n - 1), in: $0) })
        let expected = (0..<(2 * n)).map { k in
            let others = (0..<n).map { (start + $0) % n }.filter { $0 != held.slot }
            return others[k % others.count]
        }
        #expect(recycled == expected)
        // Every frame was leased once (no drop), so nothing counts as dropped.
        #expect(ring.droppedCount == 0)
        #expect(ring.publishedCount == UInt64(3 * n))
    }

    @Test func allSlotsLeasedDropsTheNewFrameWithoutFilling() {
        let ring = FrameRing(slotCount: 2, format: .xrgb8888, width: 8, height: 2)
        #expect(Self.produce(ring, 1))
        let a = ring.newest()!
        #expect(Self.produce(ring, 2))
        let b = ring.newest()!
        var filled = false
        let ok = ring.produce(metadata: FrameMetadata(sequence: 3)) { _ in filled = true }
        #expect(!ok)
        #expect(!filled)
        #expect(ring.droppedCount == 1)
        #expect(ring.publishedCount == 2)
        #expect(a.withImage { RingStamp.matches(1, in: $0) } && b.withImage { RingStamp.matches(2, in: $0) })
        // Releasing one slot lets the producer in again.
        _ = consume a
        #expect(Self.produce(ring, 4))
        #expect(Self.newestSequence(ring) == 4)
        _ = consume b
    }

    @Test func leasesShareASlotAndReleaseByRefCount() {
        let ring = FrameRing(slotCount: 1, format: .gray8, width: 8, height: 1)
        #expect(Self.produce(ring, 7))
        let first = ring.newest()!
        let second = ring.newest()!
        #expect(first.slot == second.slot)
        _ = consume first
        #expect(!Self.produce(ring, 8))  // still leased by `second`
        _ = consume second
        #expect(Self.produce(ring, 9))
        #expect(Self.newestSequence(ring) == 9)
    }

    @Test func unseenFramesOverwrittenAreCountedAsDropped() {
        let ring = FrameRing(slotCount: 3, format: .gray8, width: 8, height: 1)
        for s in 0..<UInt64(10) { #expect(Self.produce(ring, s)) }
        // 10 published into 3 slots, none leased: 7 overwritten unseen.
        #expect(ring.droppedCount == 7)
        #expect(ring.publishedCount == 10)
        #expect(Self.newestSequence(ring) == 9)
    }
}
