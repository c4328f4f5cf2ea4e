import CSyscalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one syscall layer of the package (its own target, below ImageFiles and Hardware).
///
/// Every `open`, `close`, `ioctl`, `mmap`, `munmap`, `poll`, `read` and `write` the device code
/// makes goes through a value of this type, and so do the file calls of the save path
/// (`fsync`, `rename`, `unlink`, `fchmod`, `fstat`, `mkdir`, `statvfs`, `symlink`: `FileIO`,
/// `PhotoStore`) and the datagram of `SystemdNotifier` (`socket`, `sendto`). The stored `raw…` functions are the kernel's calls in
/// the kernel's own convention — a non-negative result, or `-errno` — so a test can replace any
/// of them (see `Tests/HardwareTests/MockKernel.swift`) and inject `EINTR`, `EBUSY`, `ENODEV`.
/// The methods in `SystemCalls+Calls.swift` are the only callers of these functions: each retries
/// `EINTR` and turns a negative result into a typed `SystemCallError`.
///
/// (libdrm's own mode-setting calls — `drmModeGetResources`, `drmModeSetCrtc`, … — issue their
/// ioctls inside libdrm, which retries EINTR itself; `DRMDisplay` maps their `-errno` results to
/// `HardwareError`. Everything else DRM does — open, dumb buffers, mmap, poll — comes through here.)
public struct SystemCalls: Sendable {
    /// `open(2)`: path, flags, mode → fd or -errno.
    public var rawOpen: @Sendable (UnsafePointer<CChar>, Int32, UInt32) -> Int32
    /// `close(2)`: fd → 0 or -errno.
    public var rawClose: @Sendable (Int32) -> Int32
    /// `ioctl(2)` with a pointer argument: fd, request, arg → result or -errno.
    public var rawIoctl: @Sendable (Int32, UInt, UnsafeMutableRawPointer?) -> Int32
    /// `mmap(2)` with a NULL address hint: length, prot, flags, fd, offset → address
    /// (as `Int(bitPattern:)`) or -errno.
    public var rawMmap: @Sendable (Int, Int32, Int32, Int32, Int) -> Int
    /// `munmap(2)`: address, length → 0 or -errno.
    public var rawMunmap: @Sendable (UnsafeMutableRawPointer, Int) -> Int32
    /// `poll(2)`: fds, count, timeout in ms (-1 = forever) → ready count or -errno.
    public var rawPoll: @Sendable (UnsafeMutablePointer<pollfd>, Int, Int32) -> Int32
    /// `read(2)`: fd, buffer, count → bytes read or -errno.
    public var rawRead: @Sendable (Int32, UnsafeMutableRawPointer, Int) -> Int
    /// `write(2)`: fd, buffer, count → bytes written or -errno.
    public var rawWrite: @Sendable (Int32, UnsafeRawPointer, Int) -> Int

    // The file and socket calls start as the live kernel's; a test replaces the one it fails.
    /// `fsync(2)`: fd → 0 or -errno.
    public var rawFsync: @Sendable (Int32) -> Int32 = { fd in Glibc.fsync(fd) < 0 ? -errno : 0 }
    /// `rename(2)`: old path, new path → 0 or -errno.
    public var rawRename: @Sendable (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32 = { from, to in
        Glibc.rename(from, to) < 0 ? -errno : 0
    }
    /// `unlink(2)`: path → 0 or -errno.
    public var rawUnlink: @Sendable (UnsafePointer<CChar>) -> Int32 = { path in Glibc.unlink(path) < 0 ? -errno : 0 }
    /// `fchmod(2)`: fd, mode → 0 or -errno.
    public var rawFchmod: @Sendable (Int32, UInt32) -> Int32 = { fd, mode in Glibc.fchmod(fd, mode_t(mode)) < 0 ? -errno : 0 }
    /// `fstat(2)`: fd, result → 0 or -errno.
    public var rawFstat: @Sendable (Int32, UnsafeMutablePointer<stat>) -> Int32 = { fd, st in Glibc.fstat(fd, st) < 0 ? -errno : 0 }
    /// `mkdir(2)`: path, mode → 0 or -errno.
    public var rawMkdir: @Sendable (UnsafePointer<CChar>, UInt32) -> Int32 = { path, mode in
        Glibc.mkdir(path, mode_t(mode)) < 0 ? -errno : 0
    }
    /// `statvfs(3)` reduced to the bytes an unprivileged writer may use (f_bavail × f_frsize):
    /// path, result → 0 or -errno.
    public var rawAvailableBytes: @Sendable (UnsafePointer<CChar>, UnsafeMutablePointer<UInt64>) -> Int32 = { path, out in
        var bytes: CUnsignedLongLong = 0
        guard booth_statvfs_available(path, &bytes) == 0 else { return -errno }
        out.pointee = UInt64(bytes)
        return 0
    }
    /// `symlink(2)`: target, link path → 0 or -errno.
    public var rawSymlink: @Sendable (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32 = { target, path in
        Glibc.symlink(target, path) < 0 ? -errno : 0
    }
    /// `socket(2)`: domain, type, protocol → fd or -errno.
    public var rawSocket: @Sendable (Int32, Int32, Int32) -> Int32 = { domain, type, proto in
        let r = Glibc.socket(domain, type, proto)
        return r < 0 ? -errno : r
    }
    /// `sendto(2)`: fd, buffer, count, flags, address, address length → bytes sent or -errno.
    public var rawSendto: @Sendable (Int32, UnsafeRawPointer, Int, Int32, UnsafePointer<sockaddr>, socklen_t) -> Int = {
        fd, buffer, count, flags, address, length in
        let r = Glibc.sendto(fd, buffer, count, flags, address, length)
        return r < 0 ? -Int(errno) : r
    }

    public init(
        rawOpen: @escaping @Sendable (UnsafePointer<CChar>, Int32, UInt32) -> Int32,
        rawClose: @escaping @Sendable (Int32) -> Int32,
        rawIoctl: @escaping @Sendable (Int32, UInt, UnsafeMutableRawPointer?) -> Int32,
        rawMmap: @escaping @Sendable (Int, Int32, Int32, Int32, Int) -> Int,
        rawMunmap: @escaping @Sendable (UnsafeMutableRawPointer, Int) -> Int32,
        rawPoll: @escaping @Sendable (UnsafeMutablePointer<pollfd>, Int, Int32) -> Int32,
        rawRead: @escaping @Sendable (Int32, UnsafeMutableRawPointer, Int) -> Int,
        rawWrite: @escaping @Sendable (Int32, UnsafeRawPointer, Int) -> Int
    ) {
        self.rawOpen = rawOpen
        self.rawClose = rawClose
        self.rawIoctl = rawIoctl
        self.rawMmap = rawMmap
        self.rawMunmap = rawMunmap
        self.rawPoll = rawPoll
        self.rawRead = rawRead
        self.rawWrite = rawWrite
    }

    /// The real kernel.
    public static let live = SystemCalls(
        rawOpen: { path, flags, mode in
            let r = booth_open(path, flags, mode)
            return r < 0 ? -errno : r
        },
        rawClose: { fd in
            Glibc.close(fd) < 0 ? -errno : 0
        },
        rawIoctl: { fd, request, arg in
            let r = booth_ioctl(fd, request, arg)
            return r < 0 ? -errno : r
        },
        rawMmap: { length, prot, flags, fd, offset in
            let p = Glibc.mmap(nil, length, prot, flags, fd, off_t(offset))
            if p == MAP_FAILED { return -Int(errno) }
            return Int(bitPattern: p)
        },
        rawMunmap: { address, length in
            Glibc.munmap(address, length) < 0 ? -errno : 0
        },
        rawPoll: { fds, count, timeout in
            let r = Glibc.poll(fds, nfds_t(count), timeout)
            return r < 0 ? -errno : r
        },
        rawRead: { fd, buffer, count in
            let r = Glibc.read(fd, buffer, count)
            return r < 0 ? -Int(errno) : r
        },
        rawWrite: { fd, buffer, count in
            let r = Glibc.write(fd, buffer, count)
            return r < 0 ? -Int(errno) : r
        })
}
