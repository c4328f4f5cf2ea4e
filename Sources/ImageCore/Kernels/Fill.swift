/// Fills a plane (or a rectangle of it, through `Plane.cropped`) with one pixel value.
///
/// `value` holds the pixel's bytes in memory order, least significant byte first: for XRGB8888
/// `0xFFRRGGBB` (bytes B, G, R, X), for RGB888 `0x00BBGGRR` (bytes R, G, B), for Gray8 the low
/// byte, for an NV12 chroma plane `0xVVUU`.
///
/// Contract: writes only the rows' `width * bpp` bytes; reads nothing. Allocates nothing.
public enum Fill {
    @inlinable
    public static func run(_ plane: Plane, value: UInt32, variant: KernelVariant = .simd) {
        switch variant {
        case .scalar: scalar(plane, value: value)
        case .simd: simd(plane, value: value)
        }
    }

    public static func scalar(_ plane: Plane, value: UInt32) { fill(plane, value, vector: false) }

    /// Stores 16 pixels per step (`SIMD16<UInt8/UInt16/UInt32>`; RGB888 as three 16-byte patterns).
    public static func simd(_ plane: Plane, value: UInt32) { fill(plane, value, vector: true) }

    static func fill(_ plane: Plane, _ value: UInt32, vector: Bool) {
        let bpp = plane.bytesPerPixel
        precondition(bpp >= 1 && bpp <= 4, "fill: 1 to 4 byte pixels")
        for y in 0..<plane.height {
            let row = plane.row(y)
            var x = 0
            if vector {
                switch bpp {
                case 1: x = runs(row, plane.width, SIMD16<UInt8>(repeating: UInt8(truncatingIfNeeded: value)))
                case 2: x = runs(row, plane.width, SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: value)))
                case 4: x = runs(row, plane.width, SIMD16<UInt32>(repeating: value))
                default: x = runs3(row, plane.width, value)
                }
            }
            while x < plane.width {
                for c in 0..<bpp { row[x * bpp + c] = UInt8(truncatingIfNeeded: value >> UInt32(8 * c)) }
                x += 1
            }
        }
    }

    @inline(__always)
    static func runs<V: SIMD>(_ row: UnsafeMutablePointer<UInt8>, _ width: Int, _ v: V) -> Int {
        let step = MemoryLayout<V>.size / V.scalarCount
        var x = 0
        while x + 16 <= width {
            SIMDLanes.store(v, row + x * step)
            x += 16
        }
        return x
    }

    /// 16 three-byte pixels are 48 bytes: three 16-byte vectors of the repeating pattern.
    @inline(__always)
    static func runs3(_ row: UnsafeMutablePointer<UInt8>, _ width: Int, _ value: UInt32) -> Int {
        var a = SIMD16<UInt8>(), b = SIMD16<UInt8>(), c = SIMD16<UInt8>()
        for i in 0..<16 {
            a[i] = UInt8(truncatingIfNeeded: value >> UInt32(8 * (i % 3)))
            b[i] = UInt8(truncatingIfNeeded: value >> UInt32(8 * ((i + 16) % 3)))
            c[i] = UInt8(truncatingIfNeeded: value >> UInt32(8 * ((i + 32) % 3)))
        }
        var x = 0
        while x + 16 <= width {
            let p = row + x * 3
            SIMDLanes.store(a, p)
            SIMDLanes.store(b, p + 16)
            SIMDLanes.store(c, p + 32)
            x += 16
        }
        return x
    }
}
