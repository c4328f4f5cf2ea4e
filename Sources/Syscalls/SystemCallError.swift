/// A system call that failed: which call (with the ioctl request name or path when useful) and
/// the `errno` it returned. Device types translate these into `HardwareError` for operators.
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call, e.g. "open(/dev/gpiochip0)" or "ioctl(GPIO_V2_GET_LINE_IOCTL)".
    public var call: String
    public var errno: Errno

    public init(call: String, errno: Errno) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call) failed: \(errno)" }
}
