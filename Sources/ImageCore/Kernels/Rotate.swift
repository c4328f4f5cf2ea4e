/// Rotation by 90°, 180° or 270° clockwise, for planes of 1 to 4 byte pixels and, plane by
/// plane, whole images (I420/NV12 chroma planes turn with the luma).
///
/// Clockwise 90°: `dst(x, y) = src(y, H-1-x)`; 270°: `dst(x, y) = src(W-1-y, x)`; 180° is
/// `Mirror` with flipped rows.
///
/// Contract: destination is the rotated size (`Rotation.rotatedSize`); no overlap; writes only
/// pixels. Allocates nothing. The SIMD variant gathers 16 source pixels down a column into a
/// `SIMD16<UInt8/UInt16/UInt32>` and stores them as one destination run; 3-byte pixels are
/// gathered as 32-bit words (so for RGB888 it may read one byte past a row's last pixel: row
/// slack or `Plane.requiredPadding`) and stored as 48 bytes (180° is `Mirror`'s SIMD row).
/// Otherwise only pixels are read.
public enum Rotate {
    @inlinable
    public static func run(_ source: Image, _ destination: Image, _ rotation: Rotation, variant: KernelVariant = .simd) {
        switch variant {
        case .scalar: scalar(source, destination, rotation)
        case .simd: simd(source, destination, rotation)
        }
    }

    public static func scalar(_ source: Image, _ destination: Image, _ rotation: Rotation) {
        image(source, destination, rotation, vector: false)
    }

    public static func simd(_ source: Image, _ destination: Image, _ rotation: Rotation) {
        image(source, destination, rotation, vector: true)
    }

    public static func scalar(_ source: Plane, _ destination: Plane, _ rotation: Rotation) {
        plane(source, destination, rotation, vector: false)
    }

    public static func simd(_ source: Plane, _ destination: Plane, _ rotation: Rotation) {
        plane(source, destination, rotation, vector: true)
    }

    static func image(_ source: Image, _ destination: Image, _ rotation: Rotation, vector: Bool) {
        let size = rotation.rotatedSize(width: source.width, height: source.height)
        precondition(source.format == destination.format && destination.width == size.width
                     && destination.height == size.height, "rotate: destination is not the rotated size")
        for i in 0..<source.format.planeCount {
            plane(source.plane(i), destination.plane(i), rotation, vector: vector)
        }
    }

    static func plane(_ source: Plane, _ destination: Plane, _ rotation: Rotation, vector: Bool) {
        let size = rotation.rotatedSize(width: source.width, height: source.height)
        precondition(destination.width == size.width && destination.height == size.height
                     && source.bytesPerPixel == destination.bytesPerPixel, "rotate: planes differ")
        if rotation == .degrees180 {
            Mirror.plane(source, destination, flipRows: true, vector: vector)
            return
        }
        let clockwise = rotation == .degrees90
        let bpp = source.bytesPerPixel
        for y in 0..<destination.height {
            let dst = destination.row(y)
            var x = 0
            if vector {
                switch bpp {
                case 1: x = rowSIMD(source, dst, y: y, width: destination.width, clockwise: clockwise, UInt8.self)
                case 2: x = rowSIMD(source, dst, y: y, width: destination.width, clockwise: clockwise, UInt16.self)
                case 3: x = rowSIMD3(source, dst, y: y, width: destination.width, clockwise: clockwise)
                case 4: x = rowSIMD(source, dst, y: y, width: destination.width, clockwise: clockwise, UInt32.self)
                default: break
                }
            }
            while x < destination.width {
                let (sx, sy) = clockwise ? (y, source.height - 1 - x) : (source.width - 1 - y, x)
                let s = source.row(sy) + sx * bpp, d = dst + x * bpp
                for c in 0..<bpp { d[c] = s[c] }
                x += 1
            }
        }
    }

    /// Whole groups of 16 destination pixels of row `y`; returns the first pixel not written.
    @inline(__always)
    static func rowSIMD<T: SIMDScalar & FixedWidthInteger>(_ source: Plane, _ dst: UnsafeMutablePointer<UInt8>, y: Int,
                                                           width: Int, clockwise: Bool, _: T.Type) -> Int {
        let size = MemoryLayout<T>.size
        // Source pixel of destination (x, y): column sx fixed, row walking by ±1 per x.
        let sx = clockwise ? y : source.width - 1 - y
        let rowStep = clockwise ? -source.stride : source.stride
        var x = 0
        while x + 16 <= width {
            let sy = clockwise ? source.height - 1 - x : x
            var p = UnsafeRawPointer(source.row(sy) + sx * size)
            var v = SIMD16<T>()
            for i in 0..<16 {
                v[i] = p.loadUnaligned(as: T.self)
                p += rowStep
            }
            SIMDLanes.store(v, dst + x * size)
            x += 16
        }
        return x
    }

    /// `rowSIMD` for 3-byte pixels: each source pixel read as the 32-bit word at its first byte
    /// (one byte over-read, see the contract), the 16 words' low 3 bytes stored as 48 bytes.
    @inline(__always)
    static func rowSIMD3(_ source: Plane, _ dst: UnsafeMutablePointer<UInt8>, y: Int, width: Int, clockwise: Bool) -> Int {
        let sx = clockwise ? y : source.width - 1 - y
        let rowStep = clockwise ? -source.stride : source.stride
        var x = 0
        while x + 16 <= width {
            let sy = clockwise ? source.height - 1 - x : x
            let p = UnsafeRawPointer(source.row(sy) + sx * 3)
            @inline(__always) func word(_ i: Int) -> Int32 { p.loadUnaligned(fromByteOffset: i &* rowStep, as: Int32.self) }
            let w = SIMD16<Int32>(word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7),
                                  word(8), word(9), word(10), word(11), word(12), word(13), word(14), word(15))
            SIMDLanes.storePixels3(w, dst + x * 3)
            x += 16
        }
        return x
    }
}
