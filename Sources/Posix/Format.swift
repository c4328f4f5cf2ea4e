#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// `format` filled in by the C library's `vsnprintf` (what `String(format:)` was for the
    /// kiosk: the same text for `%d`, `%ld`, `%f`, `%.Nf`, `%W.Nf`, `%0Wd`; the process never calls
    /// `setlocale`, so numbers use the C locale's '.'). Arguments are C values (`Int` for `%ld`,
    /// `Int32` for `%d`, `Double` for `%f`); `%@` is not supported (interpolate strings instead).
    public init(cFormat format: String, _ arguments: CVarArg...) {
        var capacity = 64
        while true {
            let text: String? = withVaList(arguments) { va in
                withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
                    let n = Int(vsnprintf(buffer.baseAddress!, capacity, format, va))
                    if n < 0 { return "" }
                    if n >= capacity { capacity = n + 1; return nil }
                    return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: n), as: UTF8.self)
                }
            }
            if let text { self = text; return }
        }
    }
}

public enum Text {
    /// `text` cut or padded with spaces to `length` UTF-16 code units, as
    /// `padding(toLength: length, withPad: " ", startingAt: 0)` was (column tables).
    public static func padded(_ text: String, to length: Int) -> String {
        let units = text.utf16.count
        if units == length { return text }
        if units < length { return text + String(repeating: " ", count: length - units) }
        return String(decoding: Array(text.utf16.prefix(length)), as: UTF16.self)
    }
}
