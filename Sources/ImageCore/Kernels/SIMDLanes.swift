/// Small SIMD helpers shared by the kernels' SIMD variants, all `@inline(__always)`.
///
/// Written for what the Swift 6.3 optimiser turns into straight vector code. Measured on x86-64
/// (`swiftc -O -emit-assembly`): lane-wise arithmetic and bit operations with constant shifts on
/// concrete vector types, `evenHalf`/`oddHalf`, and vectors built lane by lane from constant
/// indices compile to a few vector instructions; but `init(truncatingIfNeeded:)` between vector
/// types is an out-of-line per-lane loop, and comparisons (`.<`) with `replacing(with:where:)`
/// or `pointwiseMin/Max` become branchy per-lane loops (and are not inlined in Embedded Swift).
/// So conversions here are lane-by-lane constructors, and clamps, minima and maxima are
/// branch-free sign-mask arithmetic.
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

    // MARK: Widening and narrowing, lane by lane

    @inlinable @inline(__always)
    static func widen(_ v: SIMD16<UInt8>) -> SIMD16<Int32> {
        SIMD16(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]),
               Int32(v[8]), Int32(v[9]), Int32(v[10]), Int32(v[11]), Int32(v[12]), Int32(v[13]), Int32(v[14]), Int32(v[15]))
    }

    @inlinable @inline(__always)
    static func widen(_ v: SIMD8<UInt8>) -> SIMD8<Int32> {
        SIMD8(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]))
    }

    @inlinable @inline(__always)
    static func widen16(_ v: SIMD16<UInt8>) -> SIMD16<UInt16> {
        SIMD16(UInt16(v[0]), UInt16(v[1]), UInt16(v[2]), UInt16(v[3]), UInt16(v[4]), UInt16(v[5]), UInt16(v[6]), UInt16(v[7]),
               UInt16(v[8]), UInt16(v[9]), UInt16(v[10]), UInt16(v[11]), UInt16(v[12]), UInt16(v[13]), UInt16(v[14]), UInt16(v[15]))
    }

    /// The low byte of every lane.
    @inlinable @inline(__always)
    static func bytes(_ v: SIMD16<Int32>) -> SIMD16<UInt8> {
        SIMD16(UInt8(truncatingIfNeeded: v[0]), UInt8(truncatingIfNeeded: v[1]), UInt8(truncatingIfNeeded: v[2]),
               UInt8(truncatingIfNeeded: v[3]), UInt8(truncatingIfNeeded: v[4]), UInt8(truncatingIfNeeded: v[5]),
               UInt8(truncatingIfNeeded: v[6]), UInt8(truncatingIfNeeded: v[7]), UInt8(truncatingIfNeeded: v[8]),
               UInt8(truncatingIfNeeded: v[9]), UInt8(truncatingIfNeeded: v[10]), UInt8(truncatingIfNeeded: v[11]),
               UInt8(truncatingIfNeeded: v[12]), UInt8(truncatingIfNeeded: v[13]), UInt8(truncatingIfNeeded: v[14]),
               UInt8(truncatingIfNeeded: v[15]))
    }

    /// The low byte of every lane.
    @inlinable @inline(__always)
    static func bytes(_ v: SIMD8<Int32>) -> SIMD8<UInt8> {
        SIMD8(UInt8(truncatingIfNeeded: v[0]), UInt8(truncatingIfNeeded: v[1]), UInt8(truncatingIfNeeded: v[2]),
              UInt8(truncatingIfNeeded: v[3]), UInt8(truncatingIfNeeded: v[4]), UInt8(truncatingIfNeeded: v[5]),
              UInt8(truncatingIfNeeded: v[6]), UInt8(truncatingIfNeeded: v[7]))
    }

    /// The low byte of every lane.
    @inlinable @inline(__always)
    static func bytes(_ v: SIMD16<UInt16>) -> SIMD16<UInt8> {
        SIMD16(UInt8(truncatingIfNeeded: v[0]), UInt8(truncatingIfNeeded: v[1]), UInt8(truncatingIfNeeded: v[2]),
               UInt8(truncatingIfNeeded: v[3]), UInt8(truncatingIfNeeded: v[4]), UInt8(truncatingIfNeeded: v[5]),
               UInt8(truncatingIfNeeded: v[6]), UInt8(truncatingIfNeeded: v[7]), UInt8(truncatingIfNeeded: v[8]),
               UInt8(truncatingIfNeeded: v[9]), UInt8(truncatingIfNeeded: v[10]), UInt8(truncatingIfNeeded: v[11]),
               UInt8(truncatingIfNeeded: v[12]), UInt8(truncatingIfNeeded: v[13]), UInt8(truncatingIfNeeded: v[14]),
               UInt8(truncatingIfNeeded: v[15]))
    }

    // MARK: Branch-free clamps and selections (sign masks)

    /// Every lane clamped to 0...255: negatives zeroed with `v & ~(v >> 31)`, then lanes above 255
    /// (where `255 - v` is negative) replaced by 255.
    @inlinable @inline(__always)
    static func clampToByte(_ v: SIMD16<Int32>) -> SIMD16<Int32> {
        let a = v & ~(v &>> 31)
        let over = (255 &- a) &>> 31
        return (a & ~over) | (over & 255)
    }

    @inlinable @inline(__always)
    static func clampToByte(_ v: SIMD8<Int32>) -> SIMD8<Int32> {
        let a = v & ~(v &>> 31)
        let over = (255 &- a) &>> 31
        return (a & ~over) | (over & 255)
    }

    /// Lane-wise minimum (operands within ±2^30 so the difference cannot overflow).
    @inlinable @inline(__always)
    static func minimum(_ a: SIMD16<Int32>, _ b: SIMD16<Int32>) -> SIMD16<Int32> {
        let d = a &- b
        return b &+ (d & (d &>> 31))
    }

    /// Lane-wise maximum (operands within ±2^30).
    @inlinable @inline(__always)
    static func maximum(_ a: SIMD16<Int32>, _ b: SIMD16<Int32>) -> SIMD16<Int32> {
        let d = a &- b
        return a &- (d & (d &>> 31))
    }

    // MARK: Lane order

    /// Each lane of `a` twice: a0 a0 a1 a1 … a7 a7.
    @inlinable @inline(__always)
    static func duplicate(_ a: SIMD8<Int32>) -> SIMD16<Int32> {
        var r = SIMD16<Int32>()
        r.evenHalf = a
        r.oddHalf = a
        return r
    }

    /// Lanes in reverse order.
    @inlinable @inline(__always)
    static func reversed<T: SIMDScalar>(_ v: SIMD16<T>) -> SIMD16<T> {
        SIMD16(v[15], v[14], v[13], v[12], v[11], v[10], v[9], v[8],
               v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0])
    }

    /// Lanes in reverse order.
    @inlinable @inline(__always)
    static func reversed<T: SIMDScalar>(_ v: SIMD8<T>) -> SIMD8<T> {
        SIMD8(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0])
    }

    // MARK: RGB pixels

    /// Writes 16 R, G, B lanes (each 0...255) as 16 pixels of `layout` at `p`.
    @inlinable @inline(__always)
    static func storeRGB(_ r: SIMD16<Int32>, _ g: SIMD16<Int32>, _ b: SIMD16<Int32>,
                         _ p: UnsafeMutablePointer<UInt8>, _ layout: RGBLayout) {
        if layout.bytesPerPixel == 4 {
            // XRGB8888: one little-endian word 0xFFRRGGBB per pixel.
            let word = (r &<< 16) | (g &<< 8) | b | Int32(bitPattern: 0xFF00_0000)
            store(word, p)
        } else {
            // RGB888: word R | G<<8 | B<<16 per pixel; 4-byte stores 3 bytes apart, each
            // overwriting the previous one's spare byte, and the last pixel byte by byte so
            // nothing past the 48 bytes is written.
            storePixels3(r | (g &<< 8) | (b &<< 16), p)
        }
    }

    /// Stores the low 3 bytes of 16 lanes as 16 consecutive 3-byte pixels (48 bytes, nothing after).
    @inlinable @inline(__always)
    static func storePixels3(_ word: SIMD16<Int32>, _ p: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(p)
        for i in 0..<15 { raw.storeBytes(of: word[i], toByteOffset: 3 * i, as: Int32.self) }
        p[45] = UInt8(truncatingIfNeeded: word[15])
        p[46] = UInt8(truncatingIfNeeded: word[15] &>> 8)
        p[47] = UInt8(truncatingIfNeeded: word[15] &>> 16)
    }

    /// 16 consecutive 3-byte pixels at `p` as the low 3 bytes of 16 lanes (the high byte is
    /// garbage). Reads one byte past the 48: within row slack or `Plane.requiredPadding`.
    @inlinable @inline(__always)
    static func loadPixels3(_ p: UnsafePointer<UInt8>) -> SIMD16<Int32> {
        let raw = UnsafeRawPointer(p)
        @inline(__always) func word(_ i: Int) -> Int32 { raw.loadUnaligned(fromByteOffset: 3 * i, as: Int32.self) }
        return SIMD16(word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7),
                      word(8), word(9), word(10), word(11), word(12), word(13), word(14), word(15))
    }

    /// Reads 16 pixels of `layout` at `p` as R, G, B lanes. For RGB888 it reads one byte past
    /// the 48 (a 4-byte load per pixel), within the row slack or `Plane.requiredPadding`.
    @inlinable @inline(__always)
    static func loadRGB(_ p: UnsafePointer<UInt8>, _ layout: RGBLayout) -> (SIMD16<Int32>, SIMD16<Int32>, SIMD16<Int32>) {
        if layout.bytesPerPixel == 4 {
            // XRGB8888 words 0xXXRRGGBB.
            let w = UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Int32>.self)
            return ((w &>> 16) & 0xFF, (w &>> 8) & 0xFF, w & 0xFF)
        }
        // RGB888: pixel i is the low 3 bytes of the little-endian word at byte 3i.
        let w = loadPixels3(p)
        return (w & 0xFF, (w &>> 8) & 0xFF, (w &>> 16) & 0xFF)
    }
}
