import Testing
import Vision

/// The live mask's cadence: a detector frame shows the last mask, never two frames in a row.
@Suite struct MaskCadenceTests {
    /// Tracking with the detector every 30th frame: 29 fresh masks, then the detector's frame reuses one.
    @Test func detectorFramesReuseTheLastMask() {
        var cadence = MaskCadence()
        let first = cadence.segments(detectorRan: true)
        #expect(first, "the first frame (detector, nothing tracked) segments")
        var fresh = 0, reused = 0
        for frame in 1...90 {
            let detector = frame % 30 == 0
            let segments = cadence.segments(detectorRan: detector)
            #expect(segments == !detector)
            if segments { fresh += 1 } else { reused += 1 }
        }
        #expect(fresh == 87 && reused == 3)
    }

    /// No face: the detector runs on every frame, so every other frame segments.
    @Test func detectorOnEveryFrameSegmentsEveryOtherFrame() {
        var cadence = MaskCadence()
        let pattern = (0..<8).map { _ in cadence.segments(detectorRan: true) }
        #expect(pattern == [true, false, true, false, true, false, true, false])
    }

    /// Without a usable last mask (none yet, another size) and after `reset`, the frame segments.
    @Test func aFrameWithoutAUsableMaskOrAfterAResetSegments() {
        var cadence = MaskCadence()
        let a = cadence.segments(detectorRan: false)
        let b = cadence.segments(detectorRan: true, lastMaskUsable: false)
        let c = cadence.segments(detectorRan: true)
        #expect(a && b)
        #expect(!c, "a forced mask counts as fresh: the next detector frame reuses it")
        var again = MaskCadence()
        let d = again.segments(detectorRan: false)
        again.reset()
        let e = again.segments(detectorRan: true)
        #expect(d && e)
    }
}
