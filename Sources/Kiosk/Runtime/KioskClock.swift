import Hardware

/// The time the kiosk's event loop runs on, injected through `KioskOptions.clock`.
///
/// `WallClock` is the machine's monotonic time: stages run on their own threads and the loop
/// sleeps on a `StageSignal` until its next deadline or until a stage wakes it. `VirtualClock`
/// moves only when the loop advances it: the stages then run inline on the loop's thread, in
/// pipeline order, so an end-to-end run of the kiosk takes the same virtual seconds on any machine.
public protocol KioskClock: AnyObject, Sendable {
    /// The current instant.
    var now: ContinuousClock.Instant { get }
    /// The same time for the hardware fakes (folder camera, scripted shutter, reconnect back-off).
    var monotonic: MonotonicClock { get }
    /// True when time moves only through `wait`: the runtime then steps every stage on its loop.
    var isVirtual: Bool { get }
    /// Waits until `deadline`, or until `wakeup` has moved past `generation` (a stage has news).
    func wait(until deadline: ContinuousClock.Instant, wakeup: StageSignal, generation: UInt64)
}
