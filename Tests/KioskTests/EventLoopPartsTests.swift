import Foundation
import Kiosk
import Testing

/// The event loop's parts that tests can reach: bounded histories, the virtual clock, the stage signal.
@Suite struct EventLoopPartsTests {
    @Test func aHistoryKeepsTheLastEntriesAndCountsAll() {
        var h = RecentHistory<Int>(capacity: 3)
        #expect(h.elements.isEmpty && h.last == nil && h.total == 0)
        for i in 1...2 { h.append(i) }
        #expect(h.elements == [1, 2] && h.last == 2)
        for i in 3...7 { h.append(i) }
        #expect(h.elements == [5, 6, 7], "oldest first, only the last three")
        #expect(h.last == 7 && h.total == 7)
    }

    @Test func theVirtualClockMovesOnlyWhenTheLoopWaitsAtMostOneStep() {
        let clock = VirtualClock(step: .milliseconds(5))
        let signal = StageSignal()
        let t0 = clock.now, m0 = clock.monotonic.now()
        #expect(clock.now == t0, "time stood still")
        clock.wait(until: t0 + .seconds(1), wakeup: signal, generation: signal.generation)
        #expect(clock.now - t0 == .milliseconds(5), "one step, not the whole way")
        clock.wait(until: t0 + .milliseconds(7), wakeup: signal, generation: signal.generation)
        #expect(clock.now - t0 == .milliseconds(7), "up to the deadline, not past it")
        clock.wait(until: t0, wakeup: signal, generation: signal.generation)
        #expect(clock.now - t0 == .milliseconds(7), "a past deadline does not move time")
        #expect(clock.monotonic.now() - m0 == 7_000_000, "the fakes see the same time")
        clock.advance(by: .seconds(2))
        #expect(clock.now - t0 == .milliseconds(2007))
    }

    @Test func aSignalWakesAWaiterAndATimeoutEndsTheWait() {
        let signal = StageSignal()
        let seen = signal.generation
        // Nobody notifies: the wait ends by its timeout with the generation unchanged.
        #expect(signal.wait(after: seen, timeout: .milliseconds(5)) == seen)
        // A notify that came before the wait is not lost: the generation already moved.
        signal.notify()
        #expect(signal.wait(after: seen, timeout: .seconds(30)) == seen &+ 1)
        // A notify from another thread wakes a waiter long before its timeout.
        let before = ContinuousClock.now
        let t = Thread { usleep(20_000); signal.notify() }
        t.start()
        #expect(signal.wait(after: seen &+ 1, timeout: .seconds(30)) == seen &+ 2)
        #expect(ContinuousClock.now - before < .seconds(10))
    }
}
