/// One stage of the kiosk's pipeline — capture, vision, input, still, present — with the
/// lifecycle rpicam-apps gives its post-processing stages: `configure` once after every stage is
/// built (check what it is handed fits together), `start`, then `step` again and again, `stop`.
///
/// `KioskRuntime` decides where steps run: each stage on its own thread on the wall clock, or
/// every stage inline on the loop's thread on a virtual clock. A stage may block in `step` for up
/// to `timeoutMilliseconds` waiting for work (0 on virtual time: never block).
protocol KioskStage: AnyObject {
    /// The stage's name, for threads and logs ("capture", "vision", …).
    var name: String { get }
    /// Checks the stage's inputs against each other; throws what an operator can act on.
    func configure() throws(KioskError)
    /// Acquires what the stage drives (the camera streams, the light is set).
    func start() throws(KioskError)
    /// Does at most one unit of work; true when it did some.
    @discardableResult
    func step(timeoutMilliseconds: Int32) -> Bool
    /// Releases what `start` acquired. Safe to call twice.
    func stop()
}
