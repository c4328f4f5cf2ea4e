/// One change of the shutter's state. "Pressed" is the logical state: an active-low button
/// wired to ground reads pressed when the line is low.
public enum ShutterEvent: Sendable, Equatable {
    case pressed(timestampNanoseconds: UInt64)
    case released(timestampNanoseconds: UInt64)

    public var isPress: Bool {
        if case .pressed = self { return true }
        return false
    }
}

/// The shutter: a GPIO line (`GPIOShutterButton`), the keyboard (`KeyboardShutter`) or a
/// scripted sequence of presses (`ScriptedShutter`).
public protocol ShutterButton: AnyObject {
    /// A short human-readable name ("gpiochip0 line 17", "keyboard", "script").
    var name: String { get }
    /// Waits up to `timeoutMilliseconds` (0 = just look, -1 = forever) and returns the next
    /// event, or nil when none came. Never allocates per event.
    func nextEvent(timeoutMilliseconds: Int32) throws(HardwareError) -> ShutterEvent?
    /// Turns the "ready" light on or off; does nothing when the button has none.
    func setReadyLight(_ on: Bool) throws(HardwareError)
}
