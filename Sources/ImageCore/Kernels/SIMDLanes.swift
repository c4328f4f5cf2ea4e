/// Small SIMD helpers shared by the kernels' SIMD variants. All are `@inline(__always)` and
/// use only operations that lower to vector instructions (no `pointwiseMin/Max`, which are not
/// inlined in Embedded Swift; `replacing(with:where:)` instead).
@usableFromInline
enum SIMDLanes {
    /// Loads 16 bytes from `p` (no alignment needed).
    @inlinable @inline(__always)
    static func load16(_ p: UnsafePointer<UInt8>) -> SIMD16<UInt8> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self)
    }

    /// Loads 8 bytes from `p`.
    @inlinable @inline(__always)
    static func load8(_ p: UnsafePointer<UInt8>) -> SIMD8<UInt8> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self)
    }

    /// Stores a vector at `p` (no alignment needed).
    @inlinable @inline(__always)
    static func store<V: SIMD>(_ v: V, _ p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: V.self)
    }

    /// Clamps every lane to 0...255.
    @inlinable @inline(__always)
    static func clampToByte(_ v: SIMD16<Int32>) -> SIMD16<Int32> {
        v.replacing(with: 0, where: v .< 0).replacing(with: 255, where: v .> 255)
    }

    /// Each lane of `a` twice: a0 a0 a1 a1 … a7 a7.
    @inlinable @inline(__always)
    static func duplicate(_ a: SIMD8<Int32>) -> SIMD16<Int32> {
        var r = SIMD16<Int32>()
        r.evenHalf = a
        r.oddHalf = a
        return r
    }

    /// Narrows each lane (already in 0...255) to a byte.
    @inlinable @inline(__always)
    static func bytes(_ v: SIMD16<Int32>) -> SIMD16<UInt8> {
        SIMD16<UInt8>(truncatingIfNeeded: v)
    }

    /// Lanes in reverse order.
    @inlinable @inline(__always)
    static func reversed<T: SIMDScalar>(_ v: SIMD16<T>) -> SIMD16<T> {
        SIMD16(v[15], v[14], v[13], v[12], v[11], v[10], v[9], v[8],
               v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0])
    }

    /// Writes 16 R, G, B lanes (each 0...255) as 16 pixels of `layout` at `p`.
    @inlinable @inline(__always)
    static func storeRGB(_ r: SIMD16<Int32>, _ g: SIMD16<Int32>, _ b: SIMD16<Int32>,
                         _ p: UnsafeMutablePointer<UInt8>, _ layout: RGBLayout) {
        if layout.bytesPerPixel == 4 {
            // One little-endian word per pixel: byte `layout.red` gets R, etc.
            let word = (SIMD16<UInt32>(truncatingIfNeeded: r) &<< UInt32(layout.red * 8))
                | (SIMD16<UInt32>(truncatingIfNeeded: g) &<< UInt32(layout.green * 8))
                | (SIMD16<UInt32>(truncatingIfNeeded: b) &<< UInt32(layout.blue * 8))
                | SIMD16<UInt32>(repeating: layout.filler >= 0 ? UInt32(255) &<< UInt32(layout.filler * 8) : 0)
            store(word, p)
        } else {
            let r8 = bytes(r), g8 = bytes(g), b8 = bytes(b)
            for i in 0..<16 {
                p[3 * i + layout.red] = r8[i]
                p[3 * i + layout.green] = g8[i]
                p[3 * i + layout.blue] = b8[i]
            }
        }
    }
}
