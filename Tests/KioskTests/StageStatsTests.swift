import Testing
import Kiosk

/// The stats line's figures: per-stage CPU median and maximum from the timing histogram, and the
/// resident memory split by part from smaps text.
@Suite struct StageStatsTests {
    @Test func drainGivesCountMeanMedianAndMaxThenResets() {
        let t = StageTimings()
        for ms in [1.0, 2.0, 2.0, 3.0, 12.0] {
            let ns = UInt64(ms * 1e6)
            t.record(.vision, nanoseconds: ns * 2, cpuNanoseconds: ns)
        }
        t.record(.render, nanoseconds: 500_000)   // wall time only
        let s = t.drain()
        let vision = s[StageTimings.Stage.vision.rawValue]
        #expect(vision.stage == .vision && vision.count == 5)
        #expect(abs(vision.meanMilliseconds - 8.0) < 1e-9)
        #expect(abs(vision.meanCPUMilliseconds - 4.0) < 1e-9)
        #expect(abs(vision.medianCPUMilliseconds - 2.025) < 1e-9)   // the 50 µs bin holding 2 ms, at its centre
        #expect(abs(vision.maxCPUMilliseconds - 12.0) < 1e-9)
        let render = s[StageTimings.Stage.render.rawValue]
        #expect(render.count == 1 && render.meanCPUMilliseconds == 0)
        #expect(t.drain().allSatisfy { $0.count == 0 && $0.maxCPUMilliseconds == 0 })
    }

    @Test func measureCountsThreadCPUTime() {
        let t = StageTimings()
        var x: UInt64 = 1
        t.measure(.quality) { for i in 0..<2_000_000 { x = x &* 6364136223846793005 &+ UInt64(i) } }
        #expect(x != 0)
        let q = t.drain()[StageTimings.Stage.quality.rawValue]
        #expect(q.count == 1 && q.maxCPUMilliseconds > 0 && q.maxCPUMilliseconds <= q.meanMilliseconds + 1)
    }

    @Test func smapsPartsAddUpByMapping() {
        let smaps = """
            55d0c0a00000-55d0c0a21000 r--p 00000000 08:01 1234     /usr/bin/booth
            Size:                132 kB
            Rss:                 128 kB
            Pss:                 128 kB
            55d0c1000000-55d0c1200000 rw-p 00000000 00:00 0        [heap]
            Rss:                2048 kB
            7f0000000000-7f0000400000 rw-p 00000000 00:00 0 
            Rss:                4000 kB
            7f1000000000-7f1000100000 r-xp 00000000 08:01 99       /usr/lib/libcamera.so.0.3
            Rss:                 512 kB
            7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0        [stack]
            Rss:                  16 kB
            """
        var s = ProcessStats(residentBytes: 0, openFiles: 0)
        s.addParts(smaps: smaps)
        #expect(s.fileBytes == 640 << 10)
        #expect(s.heapBytes == 2048 << 10)
        #expect(s.anonymousBytes == 4016 << 10)
        #expect(s.description.contains("files 0.6, heap 2.0, anonymous 3.9"))
    }
}
