import CSyscalls
#if canImport(Glibc)
import Glibc
import Syscalls
#endif

/// Finds a GPIO chip by path or by label. Board files may name the chip by its label
/// ("pinctrl-rp1", "pinctrl-bcm2711") because the chip's number changes between kernels (the Pi 5's
/// header moved from gpiochip4 to gpiochip0 in 6.6.45); the label does not.
public enum GPIOChipLookup {
    /// `nameOrPath` as is when it is a path; otherwise the `/dev/gpiochipN` whose label
    /// (GPIO_GET_CHIPINFO_IOCTL) or name ("gpiochip0") equals it.
    public static func resolve(_ nameOrPath: String, syscalls: SystemCalls = .live, maxChips: Int = 64) throws(HardwareError) -> String {
        if nameOrPath.hasPrefix("/") { return nameOrPath }
        var seen: [String] = []
        for n in 0..<maxChips {
            let path = "/dev/gpiochip\(n)"
            guard let fd = try? syscalls.open(path, flags: O_RDONLY | O_CLOEXEC) else { continue }
            defer { try? syscalls.close(fd) }
            var info = gpiochip_info()
            guard (try? syscalls.ioctl(fd, booth_gpio_get_chipinfo_ioctl(), &info, name: "GPIO_GET_CHIPINFO_IOCTL")) != nil else { continue }
            let label = withUnsafeBytes(of: &info.label) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let name = withUnsafeBytes(of: &info.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if label == nameOrPath || name == nameOrPath { return path }
            seen.append("\(name) (\(label))")
        }
        throw .deviceNotFound(device: "GPIO chip \"\(nameOrPath)\"",
                              path: seen.isEmpty ? "/dev/gpiochip*" : "any of " + seen.joined(separator: ", "))
    }
}

extension GPIOChipLookup {
    /// What the kernel says of one line (GPIO_V2_GET_LINEINFO_IOCTL), without requesting it.
    public struct LineInfo: Sendable, Equatable {
        public var name: String
        public var consumer: String
        public var inUse: Bool
    }

    public static func lineInfo(chip path: String, offset: UInt32, syscalls: SystemCalls = .live) throws(HardwareError) -> LineInfo {
        let fd: Int32
        do { fd = try syscalls.open(path, flags: O_RDONLY | O_CLOEXEC) } catch {
            throw HardwareError.opening("GPIO", path, error, permissionHint: "add the user to the gpio group")
        }
        defer { try? syscalls.close(fd) }
        var info = gpio_v2_line_info()
        info.offset = offset
        do {
            _ = try syscalls.ioctl(fd, booth_gpio_v2_get_lineinfo_ioctl(), &info, name: "GPIO_V2_GET_LINEINFO_IOCTL")
        } catch {
            if error.errno.rawValue == EINVAL { throw .unsupported(device: "GPIO \(path)", detail: "no line \(offset) on this chip") }
            throw .system(device: "GPIO \(path)", error: error)
        }
        let name = withUnsafeBytes(of: &info.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let consumer = withUnsafeBytes(of: &info.consumer) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return LineInfo(name: name, consumer: consumer, inUse: info.flags & UInt64(GPIO_V2_LINE_FLAG_USED.rawValue) != 0)
    }
}
