#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An `errno` value with the names Booth's device code tests for.
public struct Errno: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let busy = Errno(rawValue: EBUSY)
    public static let noDevice = Errno(rawValue: ENODEV)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let accessDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let invalid = Errno(rawValue: EINVAL)
    public static let badFile = Errno(rawValue: EBADF)
    public static let io = Errno(rawValue: EIO)
    public static let noMemory = Errno(rawValue: ENOMEM)
    public static let notTTY = Errno(rawValue: ENOTTY)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let quotaExceeded = Errno(rawValue: EDQUOT)
    public static let exists = Errno(rawValue: EEXIST)
    public static let notDirectory = Errno(rawValue: ENOTDIR)

    /// The file system is full for this writer (ENOSPC, or EDQUOT: the user's quota).
    public var isDiskFull: Bool { rawValue == ENOSPC || rawValue == EDQUOT }

    /// The symbolic name when it is one of the common ones, else "errno N".
    public var name: String {
        switch rawValue {
        case EINTR: return "EINTR"
        case EBUSY: return "EBUSY"
        case ENODEV: return "ENODEV"
        case ENOENT: return "ENOENT"
        case EACCES: return "EACCES"
        case EPERM: return "EPERM"
        case EAGAIN: return "EAGAIN"
        case EINVAL: return "EINVAL"
        case EBADF: return "EBADF"
        case EIO: return "EIO"
        case ENOMEM: return "ENOMEM"
        case ENOTTY: return "ENOTTY"
        case ENXIO: return "ENXIO"
        case ENOSPC: return "ENOSPC"
        case EDQUOT: return "EDQUOT"
        case EEXIST: return "EEXIST"
        case ENOTDIR: return "ENOTDIR"
        case EISDIR: return "EISDIR"
        case EROFS: return "EROFS"
        default: return "errno \(rawValue)"
        }
    }

    /// `strerror(3)` text plus the symbolic name, e.g. "Device or resource busy (EBUSY)".
    public var description: String {
        "\(String(cString: strerror(rawValue))) (\(name))"
    }
}
