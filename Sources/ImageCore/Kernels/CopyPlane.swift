/// Copies pixels between images (or planes) of the same size and format: with `Image.cropped`
/// this is the crop kernel (a view first, then a copy into a preallocated output).
///
/// Contract: same size and bytes per pixel; reads and writes only the rows' `width * bpp` bytes
/// (no over-read). Allocates nothing.
public enum CopyPlane {
    @inlinable
    public static func run(_ source: Image, _ destination: Image, variant: KernelVariant = .simd) {
        switch variant {
        case .scalar: scalar(source, destination)
        case .simd: simd(source, destination)
        }
    }

    public static func scalar(_ source: Image, _ destination: Image) { image(source, destination, vector: false) }
    /// 64 bytes per step in two `SIMD32<UInt8>`; a row's last bytes by one vector copy that
    /// overlaps the previous one (rows of 16 bytes or more), so no byte loop remains.
    public static func simd(_ source: Image, _ destination: Image) { image(source, destination, vector: true) }
    public static func scalar(_ source: Plane, _ destination: Plane) { plane(source, destination, vector: false) }
    public static func simd(_ source: Plane, _ destination: Plane) { plane(source, destination, vector: true) }

    static func image(_ source: Image, _ destination: Image, vector: Bool) {
        precondition(source.format == destination.format && source.width == destination.width
                     && source.height == destination.height, "copy: images differ")
        for i in 0..<source.format.planeCount {
            plane(source.plane(i), destination.plane(i), vector: vector)
        }
    }

    static func plane(_ source: Plane, _ destination: Plane, vector: Bool) {
        precondition(source.rowBytes == destination.rowBytes && source.height == destination.height, "copy: planes differ")
        let n = source.rowBytes
        for y in 0..<source.height {
            let src = UnsafePointer(source.row(y)), dst = destination.row(y)
            var i = 0
            if vector {
                i = rowSIMD(src, dst, n)
            }
            while i < n {
                dst[i] = src[i]
                i += 1
            }
        }
    }

    /// Copies a row of `n` bytes with vector loads and stores only when `n` ≥ 16; returns the
    /// first byte not copied (`n`, or 0 for shorter rows). Reads and writes only the `n` bytes:
    /// the tail is the row's last 32 (or 16) bytes, copied again where they overlap.
    @inline(__always)
    static func rowSIMD(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int {
        @inline(__always) func copy32(_ at: Int) {
            SIMDLanes.store(UnsafeRawPointer(src + at).loadUnaligned(as: SIMD32<UInt8>.self), dst + at)
        }
        @inline(__always) func copy16(_ at: Int) {
            SIMDLanes.store(SIMDLanes.load16(src + at), dst + at)
        }
        if n < 16 { return 0 }
        if n < 32 {
            copy16(0)
            copy16(n &- 16)
            return n
        }
        var i = 0
        while i &+ 64 <= n {
            copy32(i)
            copy32(i &+ 32)
            i &+= 64
        }
        if i &+ 32 <= n { copy32(i) }
        copy32(n &- 32)
        return n
    }
}
