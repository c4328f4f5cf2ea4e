/// Horizontal flip (a mirror image, as a selfie preview shows), for planes of 1 to 4 byte
/// pixels and, plane by plane, whole images. `Rotate` uses the same row kernel for 180°.
///
/// Contract: same size; source and destination must not overlap; writes only the
/// rows' pixels. Allocates nothing. The SIMD variant reverses 16 pixels per step
/// (`SIMD16<UInt8/UInt16/UInt32>`; 3-byte pixels as 32-bit lanes, over-reading one byte of
/// row slack or padding).
public enum Mirror {
    @inlinable
    public static func run(_ source: Image, _ destination: Image, variant: KernelVariant = .simd) {
        switch variant {
        case .scalar: scalar(source, destination)
        case .simd: simd(source, destination)
        }
    }

    public static func scalar(_ source: Image, _ destination: Image) { image(source, destination, vector: false) }
    public static func simd(_ source: Image, _ destination: Image) { image(source, destination, vector: true) }
    public static func scalar(_ source: Plane, _ destination: Plane) { plane(source, destination, flipRows: false, vector: false) }
    public static func simd(_ source: Plane, _ destination: Plane) { plane(source, destination, flipRows: false, vector: true) }

    static func image(_ source: Image, _ destination: Image, vector: Bool) {
        precondition(source.format == destination.format && source.width == destination.width
                     && source.height == destination.height, "mirror: images differ")
        for i in 0..<source.format.planeCount {
            plane(source.plane(i), destination.plane(i), flipRows: false, vector: vector)
        }
    }

    /// Mirrors every row; with `flipRows` row `y` goes to row `height-1-y` (a 180° turn).
    static func plane(_ source: Plane, _ destination: Plane, flipRows: Bool, vector: Bool) {
        precondition(source.width == destination.width && source.height == destination.height
                     && source.bytesPerPixel == destination.bytesPerPixel, "mirror: planes differ")
        for y in 0..<source.height {
            let src = UnsafePointer(source.row(y))
            let dst = destination.row(flipRows ? source.height - 1 - y : y)
            row(src, dst, width: source.width, bpp: source.bytesPerPixel, vector: vector)
        }
    }

    @inline(__always)
    static func row(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, width: Int, bpp: Int, vector: Bool) {
        var x = 0
        if vector {
            switch bpp {
            case 1: x = rowSIMD(src, dst, width: width, UInt8.self)
            case 2: x = rowSIMD(src, dst, width: width, UInt16.self)
            case 4: x = rowSIMD(src, dst, width: width, UInt32.self)
            default:
                // 3-byte pixels as the low bytes of 32-bit lanes (reads one byte past a group:
                // row slack or padding).
                while x + 16 <= width {
                    let v = SIMDLanes.loadPixels3(src + (width - x - 16) * 3)
                    SIMDLanes.storePixels3(SIMDLanes.reversed(v), dst + x * 3)
                    x += 16
                }
            }
        }
        // Destination pixels x ..< width come from source pixels width-1-x down to 0.
        while x < width {
            let s = src + (width - 1 - x) * bpp, d = dst + x * bpp
            for c in 0..<bpp { d[c] = s[c] }
            x += 1
        }
    }

    /// Whole groups of 16 destination pixels; returns the first pixel not written.
    @inline(__always)
    static func rowSIMD<T: SIMDScalar & FixedWidthInteger>(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>,
                                                           width: Int, _: T.Type) -> Int {
        let size = MemoryLayout<T>.size
        var x = 0
        while x + 16 <= width {
            let v = UnsafeRawPointer(src + (width - x - 16) * size).loadUnaligned(as: SIMD16<T>.self)
            SIMDLanes.store(SIMDLanes.reversed(v), dst + x * size)
            x += 16
        }
        return x
    }
}
