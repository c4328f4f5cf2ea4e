import Hardware
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

final class ManualClock: Sendable {
    let nanoseconds = Atomic<UInt64>(1_000)
    var clock: MonotonicClock { MonotonicClock { self.nanoseconds.load(ordering: .relaxed) } }
    func advance(milliseconds: UInt64) { nanoseconds.add(milliseconds * 1_000_000, ordering: .relaxed) }
}

@Suite struct FakeShutterTests {
    @Test func scriptedTimesFireInOrderWithReleases() throws {
        let time = ManualClock()
        let kernel = MockKernel()
        let shutter = ScriptedShutter(steps: [.afterMilliseconds(100), .afterMilliseconds(250)],
                                      clock: time.clock, syscalls: kernel.syscalls)
        #expect(try shutter.nextEvent(timeoutMilliseconds: 0) == nil)
        time.advance(milliseconds: 100)
        #expect(try shutter.nextEvent(timeoutMilliseconds: 0)?.isPress == true)
        #expect(try shutter.nextEvent(timeoutMilliseconds: 0)?.isPress == false)
        time.advance(milliseconds: 100)
        #expect(try shutter.nextEvent(timeoutMilliseconds: 0) == nil)
        time.advance(milliseconds: 50)
        #expect(try shutter.nextEvent(timeoutMilliseconds: 0)?.isPress == true)
        #expect(try shutter.nextEvent(timeoutMilliseconds: 0)?.isPress == false)
        #expect(shutter.isFinished)
    }

    @Test func scriptedFramesFireWhenTheFrameIsSeen() throws {
        let kernel = MockKernel()
        let shutter = ScriptedShutter(steps: [.atFrame(5)], syscalls: kernel.syscalls)
        shutter.noteFrame(sequence: 4)
        #expect(try shutter.nextEvent(timeoutMilliseconds: 0) == nil)
        shutter.noteFrame(sequence: 6)
        #expect(try shutter.nextEvent(timeoutMilliseconds: 0)?.isPress == true)
    }

    @Test func keyboardOnAPipePressesOnSpaceAndEnterOnly() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let shutter = try KeyboardShutter(fd: fds[0])
        #expect(!shutter.isTerminal)
        let text = Array("ab \nx".utf8)
        _ = text.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        var presses = 0
        var releases = 0
        while let e = try shutter.nextEvent(timeoutMilliseconds: 0) {
            if e.isPress { presses += 1 } else { releases += 1 }
        }
        #expect(presses == 2)
        #expect(releases == 2)
    }

    @Test func keyboardRestoresTerminalSettings() throws {
        // A fake terminal: TCGETS returns a canonical, echoing termios; TCSETS records what is set.
        let kernel = MockKernel()
        nonisolated(unsafe) var sets: [termios] = []
        kernel.onIoctl = { _, request, arg in
            if request == UInt(TCGETS) {
                var t = termios()
                t.c_lflag = tcflag_t(ICANON | ECHO | ISIG)
                arg!.storeBytes(of: t, as: termios.self)
                return 0
            }
            if request == UInt(TCSETS) {
                sets.append(arg!.load(as: termios.self))
                return 0
            }
            return -ENOTTY
        }
        do {
            let shutter = try KeyboardShutter(fd: 0, syscalls: kernel.syscalls)
            #expect(shutter.isTerminal)
        }
        try #require(sets.count == 2)
        #expect(sets[0].c_lflag & tcflag_t(ICANON | ECHO) == 0, "raw-ish mode while running")
        #expect(sets[0].c_lflag & tcflag_t(ISIG) != 0, "Ctrl-C still works")
        #expect(sets[1].c_lflag == tcflag_t(ICANON | ECHO | ISIG), "restored on deinit")
    }
}

@Suite struct KeyboardEndOfInputTests {
    @Test func closedInputStopsReadingAndSleepsInstead() throws {
        let kernel = MockKernel()
        kernel.onPoll = { fds, count, _ in
            if count == 0 { return 0 }
            fds.pointee.revents = Int16(POLLIN | POLLHUP)
            return 1
        }
        kernel.onRead = { _, _, _ in 0 }  // end of file
        let shutter = try KeyboardShutter(fd: 5, syscalls: kernel.syscalls)
        #expect(try shutter.nextEvent(timeoutMilliseconds: 10) == nil)
        #expect(try shutter.nextEvent(timeoutMilliseconds: 10) == nil)
        #expect(kernel.counts[.read] == 1, "no busy loop on a closed pipe")
    }
}
