import CSyscalls
import Hardware
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct GPIOChipLookupTests {
    /// A kernel with gpiochip0 = "pinctrl-bcm2711", gpiochip1 = "raspberrypi-exp-gpio".
    func kernel() -> MockKernel {
        let k = MockKernel()
        let labels = ["pinctrl-bcm2711", "raspberrypi-exp-gpio"]
        k.onOpen = { path, _ in
            guard path.hasPrefix("/dev/gpiochip"), let n = Int32(path.dropFirst(13)), n < 2 else { return -ENOENT }
            return 100 + n
        }
        k.onIoctl = { fd, request, arg in
            guard request == booth_gpio_get_chipinfo_ioctl(), let arg else { return -ENOTTY }
            let info = arg.assumingMemoryBound(to: gpiochip_info.self)
            let label = Array(labels[Int(fd - 100)].utf8) + [0]
            let name = Array("gpiochip\(fd - 100)".utf8) + [0]
            withUnsafeMutableBytes(of: &info.pointee.label) { $0.copyBytes(from: label) }
            withUnsafeMutableBytes(of: &info.pointee.name) { $0.copyBytes(from: name) }
            info.pointee.lines = 58
            return 0
        }
        return k
    }

    @Test func findsAChipByLabelOrName() throws {
        let k = kernel()
        #expect(try GPIOChipLookup.resolve("raspberrypi-exp-gpio", syscalls: k.syscalls, maxChips: 4) == "/dev/gpiochip1")
        #expect(try GPIOChipLookup.resolve("gpiochip0", syscalls: k.syscalls, maxChips: 4) == "/dev/gpiochip0")
        #expect(try GPIOChipLookup.resolve("/dev/gpiochip7", syscalls: k.syscalls) == "/dev/gpiochip7")
        #expect(k.closed.sorted() == [100, 100, 101])   // every opened chip closed again
    }

    @Test func anUnknownLabelListsWhatExists() {
        do {
            _ = try GPIOChipLookup.resolve("pinctrl-rp1", syscalls: kernel().syscalls, maxChips: 4)
            Issue.record("found a chip that is not there")
        } catch {
            #expect(error.description.contains("pinctrl-rp1"))
            #expect(error.description.contains("pinctrl-bcm2711"))
        }
    }
}
