import ImageCore

/// Separable box blur of a 1…4-channel byte plane in place, radius r, borders clamped; three
/// passes approximate a Gaussian. Running sums in integers; `scratch` holds one row or column
/// of pixels (max(width, height) × bytesPerPixel bytes). Allocates nothing.
package enum BoxBlur {
    package static func run(_ p: Plane, radius r: Int, passes: Int, scratch: UnsafeMutablePointer<UInt8>) {
        let c = p.bytesPerPixel, w = p.width, h = p.height
        let n = 2 * r + 1
        for _ in 0..<passes {
            for y in 0..<h {
                let row = p.row(y)
                line(row, step: c, count: w, channels: c, r: r, n: n, scratch: scratch)
            }
            for x in 0..<w {
                line(p.row(0) + x * c, step: p.stride, count: h, channels: c, r: r, n: n, scratch: scratch)
            }
        }
    }

    /// Blurs `count` pixels `step` bytes apart starting at `base`.
    @inline(__always)
    static func line(_ base: UnsafeMutablePointer<UInt8>, step: Int, count: Int, channels: Int, r: Int, n: Int,
                     scratch: UnsafeMutablePointer<UInt8>) {
        for i in 0..<count { for k in 0..<channels { scratch[i * channels + k] = base[i * step + k] } }
        for k in 0..<channels {
            var s = 0
            for j in -r...r { s += Int(scratch[min(max(j, 0), count - 1) * channels + k]) }
            for i in 0..<count {
                base[i * step + k] = UInt8(truncatingIfNeeded: (s + n / 2) / n)
                s += Int(scratch[min(i + r + 1, count - 1) * channels + k]) - Int(scratch[max(i - r, 0) * channels + k])
            }
        }
    }
}
