import Foundation
import ImageCore
import Synchronization
import Testing

/// A concurrent producer and two consumers hammering one ring, with invariant checks.
@Suite(.serialized) struct FrameRingStressTests {
    final class ConsumerLog: @unchecked Sendable {
        var seen: [UInt64] = []
        var stampFailures = 0
        var orderFailures = 0
    }

    static func runConsumer(_ ring: FrameRing, _ done: borrowing Atomic<Bool>, _ log: ConsumerLog, seed: UInt64) {
        var last: UInt64? = nil
        var spin = seed
        while true {
            let finished = done.load(ordering: .acquiring)
            if let lease = ring.newest(after: last) {
                let seq = lease.metadata.sequence
                if let last, seq <= last { log.orderFailures += 1 }
                last = seq
                log.seen.append(seq)
                if !lease.withImage({ RingStamp.matches(seq, in: $0) }) { log.stampFailures += 1 }
                // Hold the lease for a varying while, then check the slot was not overwritten.
                spin = spin &* 6364136223846793005 &+ 1442695040888963407
                for k in 0..<Int(spin >> 56) where k % 16 == 0 {
                    if !lease.withImage({ RingStamp.matches(seq, in: $0) }) { log.stampFailures += 1 }
                }
                if spin >> 60 == 0 { sched_yield() }
                if !lease.withImage({ RingStamp.matches(seq, in: $0) }) { log.stampFailures += 1 }
            } else if finished {
                return
            }
        }
    }

    @inline(never) static func spin(_ n: Int) {
        var x = 0
        for i in 0..<n { x = x &+ i }
        withExtendedLifetime(x) {}
    }

    @Test(arguments: [2, 3, 4])
    func producerAndTwoConsumers(slotCount: Int) {
        let ring = FrameRing(slotCount: slotCount, format: .gray8, width: 64, height: 8)
        let frames: UInt64 = 6_000
        let done = Atomic<Bool>(false)
        let logs = [ConsumerLog(), ConsumerLog()]
        var refused: UInt64 = 0
        var publishedSeqs: [UInt64] = []
        withUnsafePointer(to: done) { donePtr in
            nonisolated(unsafe) let donePtr = donePtr
            let group = DispatchGroup()
            for (i, log) in logs.enumerated() {
                let thread = Thread {
                    Self.runConsumer(ring, donePtr.pointee, log, seed: UInt64(i + 1))
                    group.leave()
                }
                group.enter()
                thread.start()
            }
            for s in 1...frames {
                if FrameRingTests.produce(ring, s) { publishedSeqs.append(s) } else { refused += 1 }
                // Give the consumers time to run without a syscall per frame.
                if s % 8 == 0 { sched_yield() } else { Self.spin(200) }
            }
            donePtr.pointee.store(true, ordering: .releasing)
            group.wait()
        }
        for log in logs {
            #expect(log.stampFailures == 0, "a leased slot was overwritten")
            #expect(log.orderFailures == 0, "a consumer saw sequences out of order")
            #expect(!log.seen.isEmpty)
        }
        print("ring stress: slots \(slotCount) published \(ring.publishedCount) dropped \(ring.droppedCount) refused \(refused) seen \(logs[0].seen.count)/\(logs[1].seen.count)")
        #expect(ring.publishedCount == UInt64(publishedSeqs.count))
        #expect(ring.publishedCount + refused == frames)
        // Every published frame was leased by someone, or overwritten unseen (a drop), or is still
        // one of the ≤ slotCount frames left in the ring at the end.
        let leased = Set(logs[0].seen).union(logs[1].seen)
        #expect(leased.isSubset(of: Set(publishedSeqs)))
        let unseen = UInt64(publishedSeqs.count - leased.count)
        let overwrittenUnseen = ring.droppedCount - refused
        #expect(overwrittenUnseen <= unseen)
        #expect(unseen - overwrittenUnseen <= UInt64(slotCount))
    }
}
