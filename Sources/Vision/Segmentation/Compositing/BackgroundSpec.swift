#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A background as a person writes it (`booth greet --background`): a colour name (white, cream,
/// grey), `#RRGGBB`, `blur` or `blur:N` (the photo's own background blurred, N percent of the
/// shorter side, 1…50, default 4), or the path of a readable image file.
public enum BackgroundSpec: Sendable, Equatable {
    case color(red: UInt8, green: UInt8, blue: UInt8)
    case blurred(strength: Int)
    case file(String)

    /// The default blur strength (percent of the shorter side).
    public static let defaultBlur = 4

    public init(parsing text: String) throws(BackgroundSpecError) {
        let lower = text.lowercased()
        switch lower {
        case "white": self = .color(red: 255, green: 255, blue: 255); return
        case "cream": self = .color(red: 243, green: 236, blue: 220); return
        case "grey", "gray", "lightgrey", "lightgray": self = .color(red: 216, green: 216, blue: 216); return
        case "blur": self = .blurred(strength: BackgroundSpec.defaultBlur); return
        default: break
        }
        if text.hasPrefix("#") {
            let hex = text.dropFirst()
            guard hex.count == 6, hex.allSatisfy(\.isHexDigit), let v = UInt32(hex, radix: 16) else {
                throw BackgroundSpecError("colour \(text) is not #RRGGBB")
            }
            self = .color(red: UInt8(v >> 16), green: UInt8((v >> 8) & 0xFF), blue: UInt8(v & 0xFF))
            return
        }
        if lower.hasPrefix("blur:") {
            guard let n = Int(text.dropFirst(5)), (1...50).contains(n) else { throw BackgroundSpecError("blur strength must be 1…50 (percent)") }
            self = .blurred(strength: n)
            return
        }
        guard access(text, R_OK) == 0 else {
            throw BackgroundSpecError("background \(text) is neither a colour, blur[:N] nor a readable image file")
        }
        self = .file(text)
    }
}

/// Why a background could not be parsed, in one line.
public struct BackgroundSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
