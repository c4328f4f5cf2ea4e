import Hardware
import ImageCore

/// What the stages share, made once by `KioskRuntime` and handed to each: the frame ring and the
/// frame records between them, how the camera is mounted, the timings, the two signals and the log.
struct StageLinks {
    /// Capture → vision: camera frames, allocated once.
    let ring: FrameRing
    /// Vision → present: upright frames with their results.
    let records: FrameRecords
    /// The camera's mounting (nil: upright); frames and stills are turned by it once.
    let rotation: Rotation?
    /// Every stage's times, for the debug panel and the stats line.
    let timings: StageTimings
    /// `frameArrived` is notified by capture after each frame reaches the ring (vision waits on
    /// it), `wakeup` by every stage with news for the event loop (which sleeps on it).
    let frameArrived: StageSignal, wakeup: StageSignal
    /// Logs a hardware failure a stage met and carried on from.
    let log: (String, HardwareError) -> Void
}
