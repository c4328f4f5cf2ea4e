/// Short overlay texts with numbers ("R +0.12", "Q 0.87", "23 ms", "3"), made without Foundation's
/// formatter: the bytes go into a stack buffer and become a small (inline, ≤ 15 UTF-8 bytes)
/// String, so drawing the debug panel every frame allocates nothing.
public enum OverlayNumber {
    /// `prefix` then `value` rounded to `decimals` places (at most 6), with a sign when `signed`,
    /// then `suffix`. Values beyond ±999,999 are clamped.
    public static func text(_ prefix: StaticString, _ value: Double, decimals: Int, signed: Bool = false,
                     suffix: StaticString = "") -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer -> String in
            var n = 0
            func put(_ b: UInt8) { if n < buffer.count { buffer[n] = b; n += 1 } }
            prefix.withUTF8Buffer { for b in $0 { put(b) } }
            let places = max(0, min(6, decimals))
            var scale = 1.0
            for _ in 0..<places { scale *= 10 }
            let v = value.isFinite ? max(-999_999, min(999_999, value)) : 0
            let scaled = Int((abs(v) * scale).rounded())
            if v < 0 && scaled != 0 { put(UInt8(ascii: "-")) } else if signed { put(UInt8(ascii: "+")) }
            let unit = Int(scale)
            var whole = scaled / unit
            // Integer part, most significant digit first.
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0)
            var count = 0
            withUnsafeMutableBytes(of: &digits) { d in
                repeat { d[count] = UInt8(whole % 10); whole /= 10; count += 1 } while whole > 0 && count < 7
                for i in stride(from: count - 1, through: 0, by: -1) { put(UInt8(ascii: "0") + d[i]) }
            }
            if places > 0 {
                put(UInt8(ascii: "."))
                var fraction = scaled % unit, divisor = unit / 10
                while divisor > 0 { put(UInt8(ascii: "0") + UInt8(fraction / divisor)); fraction %= divisor; divisor /= 10 }
            }
            suffix.withUTF8Buffer { for b in $0 { put(b) } }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<n]), as: UTF8.self)
        }
    }
}
