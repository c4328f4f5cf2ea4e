/// Copies pixels between images (or planes) of the same size and format: with `Image.cropped`
/// this is the crop kernel (a view first, then a copy into a preallocated output).
///
/// Contract: same size and bytes per pixel; reads and writes only the rows' `width * bpp` bytes
/// (no over-read). Allocates nothing.
public enum CopyPlane {
    @inlinable
    public static func run(_ source: Image, _ destination: Image) {
        switch KernelDispatch.variant {
        case .scalar: scalar(source, destination)
        case .simd: simd(source, destination)
        }
    }

    public static func scalar(_ source: Image, _ destination: Image) { image(source, destination, vector: false) }
    /// 32 bytes per step in `SIMD32<UInt8>`.
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
                while i + 32 <= n {
                    SIMDLanes.store(UnsafeRawPointer(src + i).loadUnaligned(as: SIMD32<UInt8>.self), dst + i)
                    i += 32
                }
            }
            while i < n {
                dst[i] = src[i]
                i += 1
            }
        }
    }
}
