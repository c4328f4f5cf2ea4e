import CSyscalls
import Hardware
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A fake GPIO chip behind `MockKernel`: answers GPIO_GET_CHIPINFO_IOCTL and
/// GPIO_V2_GET_LINE_IOCTL, records each line request and hands out line fds.
final class FakeGPIOChip {
    let kernel = MockKernel()
    var lineCount: UInt32 = 54
    var requests: [gpio_v2_line_request] = []
    var setValues: [gpio_v2_line_values] = []
    var nextLineFD: Int32 = 20
    /// Events the button line will deliver on its next reads (one array per read).
    var pendingReads: [[gpio_v2_line_event]] = []

    init(path: String = "/dev/gpiochip0") {
        kernel.onOpen = { p, _ in p == path ? 10 : -ENOENT }
        kernel.onIoctl = { [unowned self] fd, request, arg in
            if request == booth_gpio_get_chipinfo_ioctl() {
                arg!.assumingMemoryBound(to: gpiochip_info.self).pointee.lines = self.lineCount
                return 0
            }
            if request == booth_gpio_v2_get_line_ioctl() {
                let r = arg!.assumingMemoryBound(to: gpio_v2_line_request.self)
                r.pointee.fd = self.nextLineFD
                self.nextLineFD += 1
                self.requests.append(r.pointee)
                return 0
            }
            if request == booth_gpio_v2_line_set_values_ioctl() {
                self.setValues.append(arg!.load(as: gpio_v2_line_values.self))
                return 0
            }
            return -ENOTTY
        }
        kernel.onPoll = { [unowned self] fds, _, _ in
            if self.pendingReads.isEmpty { return 0 }
            fds.pointee.revents = Int16(POLLIN)
            return 1
        }
        kernel.onRead = { [unowned self] fd, buffer, count in
            guard !self.pendingReads.isEmpty else { return -Int(EAGAIN) }
            let events = self.pendingReads.removeFirst()
            let bytes = events.count * MemoryLayout<gpio_v2_line_event>.stride
            precondition(bytes <= count)
            events.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: bytes) }
            return bytes
        }
    }

    static func event(_ id: gpio_v2_line_event_id, at ns: UInt64, seq: UInt32) -> gpio_v2_line_event {
        var e = gpio_v2_line_event()
        e.timestamp_ns = ns
        e.id = UInt32(id.rawValue)
        e.offset = 17
        e.seqno = seq
        e.line_seqno = seq
        return e
    }
}

private func attribute(_ request: gpio_v2_line_request, _ index: Int) -> gpio_v2_line_config_attribute {
    var config = request.config
    return withUnsafeBytes(of: &config.attrs) { $0.load(fromByteOffset: index * MemoryLayout<gpio_v2_line_config_attribute>.stride, as: gpio_v2_line_config_attribute.self) }
}

private func offset0(_ request: gpio_v2_line_request) -> UInt32 {
    var r = request
    return withUnsafeBytes(of: &r.offsets) { $0.load(as: UInt32.self) }
}

private func consumer(_ request: gpio_v2_line_request) -> String {
    var r = request
    return withUnsafeBytes(of: &r.consumer) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}

@Suite struct GPIOShutterButtonTests {
    let line = GPIOLine(chipPath: "/dev/gpiochip0", offset: 17)

    @Test func buttonRequestHasEdgesDebouncePullUpActiveLow() throws {
        let chip = FakeGPIOChip()
        let button = try GPIOShutterButton(
            configuration: .init(button: line, debounceMicroseconds: 5_000), syscalls: chip.kernel.syscalls)
        try #require(chip.requests.count == 1)
        let r = chip.requests[0]
        let expected = UInt64(GPIO_V2_LINE_FLAG_INPUT.rawValue | GPIO_V2_LINE_FLAG_EDGE_RISING.rawValue
            | GPIO_V2_LINE_FLAG_EDGE_FALLING.rawValue | GPIO_V2_LINE_FLAG_BIAS_PULL_UP.rawValue
            | GPIO_V2_LINE_FLAG_ACTIVE_LOW.rawValue)
        #expect(r.config.flags == expected)
        #expect(r.num_lines == 1)
        #expect(offset0(r) == 17)
        #expect(consumer(r) == "booth")
        #expect(r.event_buffer_size == UInt32(GPIOShutterButton.eventCapacity))
        #expect(r.config.num_attrs == 1)
        let a = attribute(r, 0)
        #expect(a.attr.id == UInt32(GPIO_V2_LINE_ATTR_ID_DEBOUNCE.rawValue))
        #expect(a.attr.debounce_period_us == 5_000)
        #expect(a.mask == 1)
        #expect(chip.kernel.closed == [10], "the chip fd is closed once the line is requested")
        #expect(button.name == "/dev/gpiochip0 line 17")
    }

    @Test func activeHighWithoutPullUpOrDebounce() throws {
        let chip = FakeGPIOChip()
        _ = try GPIOShutterButton(
            configuration: .init(button: line, debounceMicroseconds: 0, activeLow: false, pullUp: false),
            syscalls: chip.kernel.syscalls)
        let r = chip.requests[0]
        #expect(r.config.flags & UInt64(GPIO_V2_LINE_FLAG_ACTIVE_LOW.rawValue) == 0)
        #expect(r.config.flags & UInt64(GPIO_V2_LINE_FLAG_BIAS_DISABLED.rawValue) != 0)
        #expect(r.config.flags & UInt64(GPIO_V2_LINE_FLAG_BIAS_PULL_UP.rawValue) == 0)
        #expect(r.config.num_attrs == 0)
    }

    @Test func readyLightIsAnOutputStartingOffAndSwitches() throws {
        let chip = FakeGPIOChip()
        let button = try GPIOShutterButton(
            configuration: .init(button: line, readyLight: GPIOLine(chipPath: "/dev/gpiochip0", offset: 27)),
            syscalls: chip.kernel.syscalls)
        try #require(chip.requests.count == 2)
        let led = chip.requests[1]
        #expect(offset0(led) == 27)
        #expect(led.config.flags == UInt64(GPIO_V2_LINE_FLAG_OUTPUT.rawValue))
        #expect(led.config.num_attrs == 1)
        let a = attribute(led, 0)
        #expect(a.attr.id == UInt32(GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES.rawValue))
        #expect(a.attr.values == 0)
        try button.setReadyLight(true)
        try button.setReadyLight(false)
        #expect(chip.setValues.map(\.bits) == [1, 0])
        #expect(chip.setValues.map(\.mask) == [1, 1])
    }

    @Test func logicalRisingEdgeIsAPressFallingARelease() throws {
        let chip = FakeGPIOChip()
        let button = try GPIOShutterButton(configuration: .init(button: line), syscalls: chip.kernel.syscalls)
        #expect(try button.nextEvent(timeoutMilliseconds: 0) == nil)
        chip.pendingReads = [[
            FakeGPIOChip.event(GPIO_V2_LINE_EVENT_RISING_EDGE, at: 1_000, seq: 1),
            FakeGPIOChip.event(GPIO_V2_LINE_EVENT_FALLING_EDGE, at: 2_000, seq: 2),
        ], [FakeGPIOChip.event(GPIO_V2_LINE_EVENT_RISING_EDGE, at: 3_000, seq: 3)]]
        #expect(try button.nextEvent(timeoutMilliseconds: 10) == .pressed(timestampNanoseconds: 1_000))
        #expect(try button.nextEvent(timeoutMilliseconds: 10) == .released(timestampNanoseconds: 2_000))
        #expect(try button.nextEvent(timeoutMilliseconds: 10) == .pressed(timestampNanoseconds: 3_000))
        #expect(try button.nextEvent(timeoutMilliseconds: 0) == nil)
        #expect(chip.kernel.counts[.read] == 2, "two events came from one read into the buffer")
    }

    @Test func unknownEventIdsAreIgnored() {
        var e = FakeGPIOChip.event(GPIO_V2_LINE_EVENT_RISING_EDGE, at: 5, seq: 1)
        e.id = 99
        #expect(GPIOShutterButton.parse(e) == nil)
    }

    @Test func eintrIsRetriedEverywhere() throws {
        let chip = FakeGPIOChip()
        chip.kernel.inject(.open, EINTR)
        chip.kernel.inject(.ioctl, EINTR, EINTR)
        let button = try GPIOShutterButton(configuration: .init(button: line), syscalls: chip.kernel.syscalls)
        chip.pendingReads = [[FakeGPIOChip.event(GPIO_V2_LINE_EVENT_RISING_EDGE, at: 9, seq: 1)]]
        chip.kernel.inject(.poll, EINTR)
        chip.kernel.inject(.read, EINTR)
        #expect(try button.nextEvent(timeoutMilliseconds: 10) == .pressed(timestampNanoseconds: 9))
        #expect(chip.kernel.counts[.open] == 2)
        #expect(chip.kernel.counts[.ioctl] == 4)
        #expect(chip.kernel.counts[.poll] == 2)
        #expect(chip.kernel.counts[.read] == 2)
    }

    @Test func busyLineIsAnOperatorReadableError() throws {
        let chip = FakeGPIOChip()
        chip.kernel.onIoctl = { _, request, arg in
            if request == booth_gpio_get_chipinfo_ioctl() {
                arg!.assumingMemoryBound(to: gpiochip_info.self).pointee.lines = 54
                return 0
            }
            return -EBUSY
        }
        do {
            _ = try GPIOShutterButton(configuration: .init(button: line), syscalls: chip.kernel.syscalls)
            Issue.record("expected EBUSY to throw")
        } catch {
            guard case .busy = error else { Issue.record("wrong error \(error)"); return }
            #expect(error.description.contains("in use by another program"))
            #expect(error.description.contains("line 17 of /dev/gpiochip0"))
        }
        #expect(chip.kernel.closed == [10], "chip fd closed on the error path")
    }

    @Test func missingChipIsDeviceNotFound() {
        let chip = FakeGPIOChip(path: "/dev/gpiochip4")
        #expect(throws: HardwareError.deviceNotFound(device: "shutter button (/dev/gpiochip0 line 17)", path: "/dev/gpiochip0")) {
            _ = try GPIOShutterButton(configuration: .init(button: line), syscalls: chip.kernel.syscalls)
        }
        let chip2 = FakeGPIOChip()
        chip2.kernel.inject(.open, ENODEV)
        #expect(throws: HardwareError.deviceNotFound(device: "shutter button (/dev/gpiochip0 line 17)", path: "/dev/gpiochip0")) {
            _ = try GPIOShutterButton(configuration: .init(button: line), syscalls: chip2.kernel.syscalls)
        }
    }

    @Test func lineBeyondTheChipIsRejectedBeforeRequesting() {
        let chip = FakeGPIOChip()
        chip.lineCount = 8
        do {
            _ = try GPIOShutterButton(configuration: .init(button: line), syscalls: chip.kernel.syscalls)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("only 8 lines"))
        }
        #expect(chip.requests.isEmpty)
    }

    @Test func chipRemovedMidRunIsDeviceGone() throws {
        let chip = FakeGPIOChip()
        let button = try GPIOShutterButton(configuration: .init(button: line), syscalls: chip.kernel.syscalls)
        chip.pendingReads = [[]]
        chip.kernel.inject(.read, ENODEV)
        do {
            _ = try button.nextEvent(timeoutMilliseconds: 10)
            Issue.record("expected ENODEV to throw")
        } catch {
            guard case .deviceGone = error else { Issue.record("wrong error \(error)"); return }
            #expect(error.description.contains("/dev/gpiochip0 was removed"))
        }
    }
}
