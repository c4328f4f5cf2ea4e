import ImageCore
import Passport
import Synchronization
import Vision

/// Vision: takes the newest frame from the ring (frames that arrived meanwhile are dropped and
/// counted by the ring), makes it upright once into a frame record, gives the ring slot back, and
/// fills the record with the faces, the rules' verdict and — while the background is hidden —
/// the person mask; then publishes the record for the present stage.
final class VisionStage: KioskStage {
    let name = "vision"
    let links: StageLinks
    let vision: LiveVision
    /// The live segmenter and the lock of the live models (held while a frame is analysed: a
    /// still may run the segmentation model between frames; see `LiveSegmentation`).
    let live: LiveSegmentation
    var segmenter: PersonSegmenter { live.segmenter }
    let guide: LayoutGuide
    /// Whether the screen hides the background, so the mask is needed (set by the event loop).
    let hideBackground = Atomic<Bool>(false)
    /// Frames analysed so far.
    var analysedFrames: UInt64 { analysed.load(ordering: .relaxed) }
    private let analysed = Atomic<UInt64>(0)
    /// The last frame analysed (sequence and timestamp: a restarted camera repeats sequences).
    private var last: (sequence: UInt64, timestamp: UInt64)? = nil
    /// Which frames segment: not the detector's frames (`MaskCadence`), which show `lastMask`.
    private var cadence = MaskCadence()
    /// The last mask made, in the segmenter's buffer (valid until its next `segment` call).
    private var lastMask: Plane? = nil

    init(links: StageLinks, vision: LiveVision, live: LiveSegmentation, guide: LayoutGuide) {
        self.links = links
        self.vision = vision
        self.live = live
        self.guide = guide
    }

    /// A run starts from no frame seen and the guide red (the verdict must hold afresh).
    func configure() throws(KioskError) {
        last = nil
        vision.hysteresis.reset()
        cadence.reset()
        lastMask = nil
    }

    func start() throws(KioskError) {}

    /// The newest frame after the last one through faces, rules and (background hidden) the mask.
    /// Without a new frame, waits up to `timeoutMilliseconds` for the capture stage's signal.
    func step(timeoutMilliseconds: Int32) -> Bool {
        let frameArrived = links.frameArrived, records = links.records
        let seen = frameArrived.generation
        // A frame other than the last one analysed, not merely a later sequence: a reconnected
        // camera numbers its frames from 0 again, and "after the last" would skip them all.
        guard let lease = links.ring.newest() else {
            if timeoutMilliseconds > 0 { frameArrived.wait(after: seen, timeout: .milliseconds(timeoutMilliseconds)) }
            return false
        }
        let m = lease.metadata
        if let last, last.sequence == m.sequence, last.timestamp == m.timestampNanoseconds {
            _ = consume lease
            if timeoutMilliseconds > 0 { frameArrived.wait(after: seen, timeout: .milliseconds(timeoutMilliseconds)) }
            return false
        }
        last = (m.sequence, m.timestampNanoseconds)
        let record = records.beginWrite()
        let rotation = links.rotation, guide = self.guide, vision = self.vision
        let timings = links.timings, hide = hideBackground.load(ordering: .relaxed)
        // The whole step is `.vision`: the upright copy into the record, faces, rules and mask.
        let start = ContinuousClock.now, cpu = StageTimings.threadCPUNanoseconds()
        lease.withImage { record.take($0, rotation: rotation) }
        _ = consume lease                                    // the slot goes back before the analysis
        live.withLock {
            record.withFrame { frame, _ in
                record.live = vision.analyze(frame, guide: guide, timings: timings)
                if hide {
                    setMask(of: frame, on: record, timings: timings)
                } else {
                    cadence.reset()                              // the next hidden frame segments afresh
                }
            }
        }
        timings.record(.vision, nanoseconds: (ContinuousClock.now - start).nanoseconds,
                       cpuNanoseconds: StageTimings.threadCPUNanoseconds() &- cpu)
        records.publish(record)
        analysed.add(1, ordering: .relaxed)
        links.wakeup.notify()
        return true
    }

    /// The person mask of `frame` into `record`: made afresh, or on a frame the detector ran on the
    /// last frame's (`MaskCadence`), so a detector frame never pays for the mask too.
    private func setMask(of frame: Image, on record: FrameRecord, timings: StageTimings) {
        let usable = lastMask.map { $0.width == frame.width && $0.height == frame.height } ?? false
        if !cadence.segments(detectorRan: vision.detectorRan, lastMaskUsable: usable), let lastMask {
            record.setMask(lastMask)
            return
        }
        let mask = timings.measure(.segment) { segmenter.segment(frame) }
        lastMask = mask.plane
        record.setMask(mask.plane)
    }

    func stop() {}
}
