import Hardware
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct SystemCallsTests {
    @Test func openRetriesEINTRThenSucceeds() throws {
        let kernel = MockKernel()
        kernel.onOpen = { path, flags in
            #expect(flags & O_CLOEXEC != 0)
            return path == "/dev/x" ? 7 : -ENOENT
        }
        kernel.inject(.open, EINTR, EINTR)
        let fd = try kernel.syscalls.open("/dev/x", flags: O_RDWR)
        #expect(fd == 7)
        #expect(kernel.counts[.open] == 3)
    }

    @Test func ioctlErrorIsTypedAndNamesTheRequest() {
        let kernel = MockKernel()
        kernel.inject(.ioctl, EINTR, EBUSY)
        var dummy: Int32 = 0
        #expect(throws: SystemCallError(call: "ioctl(TEST_IOCTL)", errno: .busy)) {
            try kernel.syscalls.ioctl(3, 0x1234, &dummy, name: "TEST_IOCTL")
        }
        #expect(kernel.counts[.ioctl] == 2)
    }

    @Test func writeLoopsOverShortWritesAndEINTR() throws {
        let kernel = MockKernel()
        var written: [UInt8] = []
        kernel.onWrite = { _, buffer, count in
            let n = min(count, 3)
            written += UnsafeRawBufferPointer(start: buffer, count: n)
            return n
        }
        kernel.inject(.write, EINTR)
        let data: [UInt8] = Array(0..<10)
        try data.withUnsafeBytes { try kernel.syscalls.write(1, from: $0.baseAddress!, count: $0.count) }
        #expect(written == data)
    }

    @Test func readReturnsNilOnEAGAINAndThrowsENODEV() throws {
        let kernel = MockKernel()
        kernel.inject(.read, EAGAIN, ENODEV)
        var buffer = [UInt8](repeating: 0, count: 4)
        let first = try buffer.withUnsafeMutableBytes { try kernel.syscalls.read(0, into: $0.baseAddress!, count: 4) }
        #expect(first == nil)
        #expect(throws: SystemCallError(call: "read", errno: .noDevice)) {
            _ = try buffer.withUnsafeMutableBytes { try kernel.syscalls.read(0, into: $0.baseAddress!, count: 4) }
        }
    }

    @Test func closeDoesNotRetryEINTR() throws {
        let kernel = MockKernel()
        kernel.inject(.close, EINTR)
        try kernel.syscalls.close(5)
        #expect(kernel.counts[.close] == 1)
    }

    @Test func mmapFailureIsTyped() {
        let kernel = MockKernel()
        kernel.inject(.mmap, EINTR)
        kernel.onMmap = { _, _ in -Int(ENODEV) }
        #expect(throws: SystemCallError(call: "mmap", errno: .noDevice)) {
            _ = try kernel.syscalls.mmap(length: 4096, protection: PROT_READ, flags: MAP_SHARED, fd: 3, offset: 0)
        }
        #expect(kernel.counts[.mmap] == 2)
    }

    @Test func liveLayerReportsENOENTForMissingFile() {
        #expect(throws: SystemCallError(call: "open(/nonexistent/booth-test)", errno: .noSuchFile)) {
            _ = try SystemCalls.live.open("/nonexistent/booth-test", flags: O_RDONLY)
        }
    }
}
