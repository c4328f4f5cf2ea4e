import CSyscalls
#if canImport(Glibc)
import Glibc
import Syscalls
#endif

/// The shutter on a GPIO line through the Linux GPIO character device, uAPI v2.
///
/// One `GPIO_V2_GET_LINE_IOCTL` request on the chip asks for an input with both edges, kernel
/// debounce (`GPIO_V2_LINE_ATTR_ID_DEBOUNCE`), pull-up bias and active-low, so a button wired
/// from the pin to ground reads "pressed" (a logical rising edge) when pushed. Edge events are
/// read from the line's fd, after `poll`, into a buffer allocated once. An optional second
/// request drives a "ready" LED. No sysfs, no /dev/mem.
public final class GPIOShutterButton: ShutterButton {
    public struct Configuration: Sendable, Equatable {
        public var button: GPIOLine
        /// Kernel debounce period; 0 disables it.
        public var debounceMicroseconds: UInt32
        /// The button pulls the line to ground (the usual wiring with the internal pull-up).
        public var activeLow: Bool
        /// Enable the internal pull-up (else bias is disabled: an external resistor is fitted).
        public var pullUp: Bool
        /// Optional "ready" LED output, driven high when ready.
        public var readyLight: GPIOLine?
        /// Label shown by `gpioinfo` for the requested lines.
        public var consumer: String

        public init(button: GPIOLine, debounceMicroseconds: UInt32 = 10_000, activeLow: Bool = true,
                    pullUp: Bool = true, readyLight: GPIOLine? = nil, consumer: String = "booth") {
            self.button = button
            self.debounceMicroseconds = debounceMicroseconds
            self.activeLow = activeLow
            self.pullUp = pullUp
            self.readyLight = readyLight
            self.consumer = consumer
        }
    }

    /// Events the kernel may queue for us, and how many we read at once.
    public static let eventCapacity = 16

    public let name: String
    public let configuration: Configuration
    private let sys: SystemCalls
    private let lineFD: Int32
    private let lightFD: Int32
    private let events: UnsafeMutablePointer<gpio_v2_line_event>
    private var pendingIndex = 0
    private var pendingCount = 0

    /// Requests the lines. Throws when the chip is missing, the line is taken (EBUSY), out of
    /// range, or the kernel refuses the configuration.
    public init(configuration: Configuration, syscalls: SystemCalls = .live) throws(HardwareError) {
        self.configuration = configuration
        self.sys = syscalls
        let button = configuration.button
        let device = "shutter button (\(button.chipPath) line \(button.offset))"
        self.name = "\(button.chipPath) line \(button.offset)"

        var flags = GPIOLineRequest.flagInput | GPIOLineRequest.flagEdgeRising | GPIOLineRequest.flagEdgeFalling
        flags |= configuration.pullUp ? GPIOLineRequest.flagBiasPullUp : GPIOLineRequest.flagBiasDisabled
        if configuration.activeLow { flags |= GPIOLineRequest.flagActiveLow }
        let request = GPIOLineRequest.make(
            offset: button.offset, consumer: configuration.consumer, flags: flags,
            eventBufferSize: UInt32(Self.eventCapacity),
            debounceMicroseconds: configuration.debounceMicroseconds, outputValue: nil)
        let buttonFD = try Self.requestLine(button, request, device: device, syscalls: syscalls)

        var ledFD: Int32 = -1
        if let light = configuration.readyLight {
            let ledRequest = GPIOLineRequest.make(
                offset: light.offset, consumer: configuration.consumer, flags: GPIOLineRequest.flagOutput,
                eventBufferSize: 0, debounceMicroseconds: nil, outputValue: false)
            do {
                ledFD = try Self.requestLine(light, ledRequest, device: "ready light (\(light.chipPath) line \(light.offset))", syscalls: syscalls)
            } catch {
                try? syscalls.close(buttonFD)
                throw error
            }
        }
        self.lineFD = buttonFD
        self.lightFD = ledFD
        self.events = .allocate(capacity: Self.eventCapacity)
        self.events.initialize(repeating: gpio_v2_line_event(), count: Self.eventCapacity)
    }

    deinit {
        try? sys.close(lineFD)
        if lightFD >= 0 { try? sys.close(lightFD) }
        events.deallocate()
    }

    /// Opens the chip, checks the offset against the chip's line count, issues
    /// `GPIO_V2_GET_LINE_IOCTL` and returns the line fd. The chip fd is closed again.
    static func requestLine(_ line: GPIOLine, _ template: gpio_v2_line_request, device: String,
                            syscalls sys: SystemCalls) throws(HardwareError) -> Int32 {
        let chip: Int32
        do {
            chip = try sys.open(line.chipPath, flags: O_RDWR)
        } catch {
            throw HardwareError.opening(device, line.chipPath, error,
                                        permissionHint: "add the user to the gpio group")
        }
        defer { try? sys.close(chip) }

        var info = gpiochip_info()
        do {
            try sys.ioctl(chip, booth_gpio_get_chipinfo_ioctl(), &info, name: "GPIO_GET_CHIPINFO_IOCTL")
        } catch {
            throw mapLineError(error, line: line, device: device)
        }
        if line.offset >= info.lines {
            throw HardwareError.unsupported(
                device: device, detail: "\(line.chipPath) has only \(info.lines) lines (0…\(Int(info.lines) - 1)); check the board file")
        }
        var request = template
        do {
            try sys.ioctl(chip, booth_gpio_v2_get_line_ioctl(), &request, name: "GPIO_V2_GET_LINE_IOCTL")
        } catch {
            throw mapLineError(error, line: line, device: device)
        }
        precondition(request.fd >= 0, "GPIO_V2_GET_LINE_IOCTL succeeded without a line fd")
        return request.fd
    }

    static func mapLineError(_ error: SystemCallError, line: GPIOLine, device: String) -> HardwareError {
        switch error.errno {
        case .busy:
            return .busy(device: device, detail: "line \(line.offset) of \(line.chipPath) is already requested — `gpioinfo` shows by whom")
        case .noDevice:
            return .deviceGone(device: device, detail: "\(line.chipPath) was removed")
        case .invalid:
            return .unsupported(device: device, detail: "the kernel rejected the line configuration (EINVAL): debounce or bias may be unsupported by this chip")
        case .accessDenied, .notPermitted:
            return .permissionDenied(device: device, path: line.chipPath, hint: "add the user to the gpio group")
        default:
            return .system(device: device, error: error)
        }
    }

    public func nextEvent(timeoutMilliseconds: Int32) throws(HardwareError) -> ShutterEvent? {
        if pendingIndex < pendingCount { return takePending() }
        let device = "shutter button (\(name))"
        let revents: Int16
        do {
            revents = try sys.pollReadable(lineFD, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw Self.mapLineError(error, line: configuration.button, device: device)
        }
        if revents == 0 { return nil }
        if revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 && revents & Int16(POLLIN) == 0 {
            throw HardwareError.deviceGone(device: device, detail: "the line's fd reported an error (poll revents \(revents))")
        }
        let size = MemoryLayout<gpio_v2_line_event>.stride
        let bytes: Int?
        do {
            bytes = try sys.read(lineFD, into: events, count: size * Self.eventCapacity)
        } catch {
            throw Self.mapLineError(error, line: configuration.button, device: device)
        }
        guard let bytes, bytes > 0 else { return nil }
        precondition(bytes % size == 0, "GPIO line fd returned a partial event")
        pendingIndex = 0
        pendingCount = bytes / size
        return takePending()
    }

    private func takePending() -> ShutterEvent? {
        while pendingIndex < pendingCount {
            let event = events[pendingIndex]
            pendingIndex += 1
            if let parsed = Self.parse(event) { return parsed }
        }
        return nil
    }

    /// A kernel event as a shutter event. The kernel reports logical edges (inverted for
    /// active-low lines), so a rising edge is always a press. Unknown ids are ignored.
    public static func parse(_ event: gpio_v2_line_event) -> ShutterEvent? {
        switch event.id {
        case UInt32(GPIO_V2_LINE_EVENT_RISING_EDGE.rawValue): return .pressed(timestampNanoseconds: event.timestamp_ns)
        case UInt32(GPIO_V2_LINE_EVENT_FALLING_EDGE.rawValue): return .released(timestampNanoseconds: event.timestamp_ns)
        default: return nil
        }
    }

    public func setReadyLight(_ on: Bool) throws(HardwareError) {
        guard lightFD >= 0, let light = configuration.readyLight else { return }
        var values = gpio_v2_line_values(bits: on ? 1 : 0, mask: 1)
        do {
            try sys.ioctl(lightFD, booth_gpio_v2_line_set_values_ioctl(), &values, name: "GPIO_V2_LINE_SET_VALUES_IOCTL")
        } catch {
            throw Self.mapLineError(error, line: light, device: "ready light (\(light.chipPath) line \(light.offset))")
        }
    }
}
