#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an image file could not be read or written. Every case names the file.
public enum ImageFileError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, errno: Int32)
    case corrupt(path: String, reason: String)
    case unsupported(path: String, reason: String)
    case writeFailed(path: String, reason: String)

    public var path: String {
        switch self {
        case .cannotOpen(let p, _), .corrupt(let p, _), .unsupported(let p, _), .writeFailed(let p, _): return p
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let path, let e): return "\(path): cannot open: \(FileIO.errnoText(e))"
        case .corrupt(let path, let reason): return "\(path): not a valid image: \(reason)"
        case .unsupported(let path, let reason): return "\(path): unsupported: \(reason)"
        case .writeFailed(let path, let reason): return "\(path): cannot write: \(reason)"
        }
    }
}
