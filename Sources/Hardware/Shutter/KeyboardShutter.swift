#if canImport(Glibc)
import Glibc
import Syscalls
#endif

/// The shutter on a keyboard: space or enter presses it (a press followed at once by a release).
///
/// When the input is a terminal it is switched to non-canonical, no-echo mode (`TCGETS`/`TCSETS`
/// through the syscall layer) so a key counts without enter; the saved settings are restored on
/// deinit. When it is not a terminal (a pipe), lines are read as they come. Other keys are ignored.
public final class KeyboardShutter: ShutterButton {
    public let name = "keyboard"
    private let sys: SystemCalls
    private let fd: Int32
    private let clock: MonotonicClock
    private var saved: termios?
    private var pendingRelease: UInt64?
    private let buffer: UnsafeMutablePointer<UInt8>
    private static let bufferSize = 64
    private var bufferIndex = 0
    private var bufferCount = 0
    private var atEndOfInput = false

    public init(fd: Int32 = STDIN_FILENO, syscalls: SystemCalls = .live, clock: MonotonicClock = .system) throws(HardwareError) {
        self.fd = fd
        self.sys = syscalls
        self.clock = clock
        self.buffer = .allocate(capacity: Self.bufferSize)
        var original = termios()
        do {
            try syscalls.ioctl(fd, UInt(TCGETS), &original, name: "TCGETS")
            var raw = original
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            try syscalls.ioctl(fd, UInt(TCSETS), &raw, name: "TCSETS")
            saved = original
        } catch where error.errno == .notTTY || error.errno == .invalid {
            saved = nil  // not a terminal: read lines as they come
        } catch {
            buffer.deallocate()
            throw HardwareError.system(device: "keyboard shutter", error: error)
        }
    }

    deinit {
        if var original = saved {
            _ = try? sys.ioctl(fd, UInt(TCSETS), &original, name: "TCSETS")
        }
        buffer.deallocate()
    }

    /// Whether the terminal was switched to raw-ish mode (and will be restored).
    public var isTerminal: Bool { saved != nil }

    public func nextEvent(timeoutMilliseconds: Int32) throws(HardwareError) -> ShutterEvent? {
        if let t = pendingRelease {
            pendingRelease = nil
            return .released(timestampNanoseconds: t)
        }
        if atEndOfInput {
            // Input closed (a pipe that ended): nothing more will come; wait like a quiet button.
            sys.sleep(milliseconds: timeoutMilliseconds < 0 ? 1000 : timeoutMilliseconds)
            return nil
        }
        var wait = timeoutMilliseconds
        while true {
            while bufferIndex < bufferCount {
                let key = buffer[bufferIndex]
                bufferIndex += 1
                if key == UInt8(ascii: " ") || key == UInt8(ascii: "\n") || key == UInt8(ascii: "\r") {
                    let t = clock.now()
                    pendingRelease = t
                    return .pressed(timestampNanoseconds: t)
                }
            }
            do {
                if try sys.pollReadable(fd, timeoutMilliseconds: wait) == 0 { return nil }
                guard let n = try sys.read(fd, into: buffer, count: Self.bufferSize) else { return nil }
                if n == 0 {
                    atEndOfInput = true
                    return nil
                }
                bufferIndex = 0
                bufferCount = n
            } catch {
                throw HardwareError.system(device: "keyboard shutter", error: error)
            }
            wait = 0
        }
    }

    public func setReadyLight(_ on: Bool) throws(HardwareError) {}
}
