/// Why an image file could not be read or written. Every case names the file.
public enum ImageFileError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, errno: Int32)
    case corrupt(path: String, reason: String)
    case unsupported(path: String, reason: String)
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let errno): return "\(path): cannot open (errno \(errno))"
        case .corrupt(let path, let reason): return "\(path): not a valid image: \(reason)"
        case .unsupported(let path, let reason): return "\(path): unsupported: \(reason)"
        case .writeFailed(let path, let reason): return "\(path): cannot write: \(reason)"
        }
    }
}
