/// RGB888 or XRGB8888 → Gray8 with the BT.601 luma weights in Q8:
/// `Y = (77 R + 150 G + 29 B + 128) >> 8` (weights sum to 256, so white stays 255; the largest
/// intermediate is 65 408).
///
/// Contract: same size; writes only the destination rows. The SIMD variant reads RGB888 as
/// 32-bit words, so it may read one byte past a row's last pixel (row slack or
/// `Plane.requiredPadding`). No allocation.
public enum RGBToGray {
    @inlinable
    public static func run(_ source: Image, _ destination: Image, variant: KernelVariant = .simd) {
        switch variant {
        case .scalar: scalar(source, destination)
        case .simd: simd(source, destination)
        }
    }

    public static func scalar(_ source: Image, _ destination: Image) { convert(source, destination, vector: false) }

    /// 16 pixels per step in `SIMD16<Int32>` lanes.
    public static func simd(_ source: Image, _ destination: Image) { convert(source, destination, vector: true) }

    static func convert(_ source: Image, _ destination: Image, vector: Bool) {
        precondition(destination.format == .gray8, "RGBToGray: destination must be gray8")
        precondition(source.width == destination.width && source.height == destination.height, "RGBToGray: size mismatch")
        let layout = RGBLayout(source.format)
        let bpp = layout.bytesPerPixel
        for y in 0..<source.height {
            let src = UnsafePointer(source.planes.0.row(y))
            let dst = destination.planes.0.row(y)
            var x = 0
            if vector {
                while x + 16 <= source.width {
                    let (r, g, b) = SIMDLanes.loadRGB(src + x * bpp, layout)
                    let luma = (r &* 77 &+ g &* 150 &+ b &* 29 &+ 128) &>> 8
                    SIMDLanes.store(SIMDLanes.bytes(luma), dst + x)
                    x += 16
                }
            }
            while x < source.width {
                let p = src + x * bpp
                let luma = (77 * Int(p[layout.red]) + 150 * Int(p[layout.green]) + 29 * Int(p[layout.blue]) + 128) >> 8
                dst[x] = UInt8(truncatingIfNeeded: luma)
                x += 1
            }
        }
    }
}
