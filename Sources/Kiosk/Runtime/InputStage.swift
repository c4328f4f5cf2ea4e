import Hardware
import Synchronization

/// Input: the shutter and the optional hide-background and debug buttons, and the shutter's
/// ready light. A step waits on the shutter (its kernel queue keeps edges while nobody reads),
/// looks at the extra buttons, counts presses for the event loop and sets the light the loop
/// asked for — the buttons are touched by this stage only.
final class InputStage: KioskStage {
    /// Presses since the event loop last looked.
    struct Presses: Equatable {
        var shutter = 0
        var hideBackground = 0
        var debug = 0
        var isEmpty: Bool { self == Presses() }
    }

    let name = "input"
    let shutter: ShutterButton
    let hideButton: ShutterButton?
    let debugButton: ShutterButton?
    let links: StageLinks
    private let presses = Mutex(Presses())
    private let lightWanted = Atomic<Bool>(false)
    private var lightOn: Bool? = nil
    /// Whether the last step's read of a button failed (logged once per run of failures), and a signal
    /// nobody notifies, to wait out the timeout instead of spinning on a failing button.
    private var failing = false
    private let idle = StageSignal()

    init(shutter: ShutterButton, hideButton: ShutterButton?, debugButton: ShutterButton?, links: StageLinks) {
        self.shutter = shutter
        self.hideButton = hideButton
        self.debugButton = debugButton
        self.links = links
    }

    /// Nothing to check: the buttons were opened (and their lines requested) when they were built.
    func configure() throws(KioskError) {}

    /// Starts with the ready light off.
    func start() throws(KioskError) {
        do { try shutter.setReadyLight(false) } catch { throw .button(error) }
        lightOn = false
    }

    /// Event loop: whether the ready light should be on (applied at the next step).
    func setReadyLight(_ on: Bool) { lightWanted.store(on, ordering: .relaxed) }

    /// Event loop: the presses since the last call.
    func takePresses() -> Presses { presses.withLock { p in defer { p = Presses() }; return p } }

    func step(timeoutMilliseconds: Int32) -> Bool {
        var got = Presses()
        var failure: HardwareError? = nil
        if pressed(shutter, timeoutMilliseconds, &failure) { got.shutter += 1 }
        if let b = hideButton, pressed(b, 0, &failure) { got.hideBackground += 1 }
        if let b = debugButton, pressed(b, 0, &failure) { got.debug += 1 }
        if let failure, !failing { links.log("button failed", failure) }
        failing = failure != nil
        let light = lightWanted.load(ordering: .relaxed)
        if light != lightOn {
            do { try shutter.setReadyLight(light) } catch { links.log("ready light failed", error) }
            lightOn = light                               // not retried every step: logged once per change
        }
        if failing, timeoutMilliseconds > 0 { idle.wait(after: idle.generation, timeout: .milliseconds(timeoutMilliseconds)) }
        guard !got.isEmpty else { return false }
        presses.withLock { p in
            p.shutter += got.shutter; p.hideBackground += got.hideBackground; p.debug += got.debug
        }
        links.wakeup.notify()
        return true
    }

    /// Turns the light off.
    func stop() {
        try? shutter.setReadyLight(false)
        lightOn = false
    }

    /// Whether `button` reported a press; a failure is kept in `failure` (the first of a step).
    private func pressed(_ button: ShutterButton, _ timeout: Int32, _ failure: inout HardwareError?) -> Bool {
        do { return try button.nextEvent(timeoutMilliseconds: timeout)?.isPress == true } catch {
            if failure == nil { failure = error }
            return false
        }
    }
}
