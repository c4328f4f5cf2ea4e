/// Area (box) resize with exact integer coverage weights (`AreaAxis`): each destination pixel is
/// the mean of the source area it covers, fractional edge pixels weighted by their overlap:
/// `out = (Σ_j wy_j Σ_i wx_i p(i, j) + T/2) / T` with `T = Sx * Sy` (the weights' total).
/// Integer ratios (2×, 4× decimation) are plain box means. For 1 to 4 byte channels per plane
/// (Gray8, NV12 chroma, RGB888, XRGB8888) and, plane by plane, whole images (I420, NV12).
///
/// Contract: `T ≤ 8 388 607` (so sums fit an Int32 lane — any 4056×3040 → 640×480-class
/// reduction does); same bytes per pixel; reads only pixels inside the source; writes only
/// destination rows. Allocates nothing.
public enum ResizeArea {
    @inlinable
    public static func run(_ source: Image, _ destination: Image, variant: KernelVariant = .simd) {
        switch variant {
        case .scalar: scalar(source, destination)
        case .simd: simd(source, destination)
        }
    }

    public static func scalar(_ source: Image, _ destination: Image) { image(source, destination, vector: false) }
    public static func simd(_ source: Image, _ destination: Image) { image(source, destination, vector: true) }
    public static func scalar(_ source: Plane, _ destination: Plane) { plane(source, destination, vector: false) }
    /// 16 destination pixels per step in `SIMD16<Int32>` lanes (weights computed in vectors).
    public static func simd(_ source: Plane, _ destination: Plane) { plane(source, destination, vector: true) }

    static func image(_ source: Image, _ destination: Image, vector: Bool) {
        precondition(source.format == destination.format, "resize: formats differ")
        for i in 0..<source.format.planeCount {
            plane(source.plane(i), destination.plane(i), vector: vector)
        }
    }

    static func plane(_ source: Plane, _ destination: Plane, vector: Bool) {
        precondition(source.bytesPerPixel == destination.bytesPerPixel, "resize: pixel sizes differ")
        let channels = source.bytesPerPixel
        let ax = AreaAxis(source: source.width, destination: destination.width)
        let ay = AreaAxis(source: source.height, destination: destination.height)
        let total = ax.unitsPerDestination * ay.unitsPerDestination
        precondition(total <= 8_388_607, "area resize: ratio too fine for 32-bit sums")
        // An exact halving of a one-byte plane (the live mesh's half-resolution frame, each I420
        // plane): every output the rounded mean of a 2×2 block, `(a + b + c + d + 2) / 4` as the
        // general formula gives with T = 4; the SIMD rows read the block pairs as 16-bit lanes.
        let halves = channels == 1 && source.width == 2 * destination.width && source.height == 2 * destination.height
        for dy in 0..<destination.height {
            let out = destination.row(dy)
            var dx = 0
            if vector {
                dx = halves ? rowHalfSIMD(source, out, dy: dy, width: destination.width)
                    : rowSIMD(source, out, dy: dy, width: destination.width, channels: channels, ax, ay, Int32(total))
            }
            while dx < destination.width {
                for c in 0..<channels {
                    var sum = 0
                    for j in ay.first(dy)...ay.last(dy) {
                        let row = source.row(j)
                        var rowSum = 0
                        for i in ax.first(dx)...ax.last(dx) {
                            rowSum += ax.weight(i, dx) * Int(row[i * channels + c])
                        }
                        sum += ay.weight(j, dy) * rowSum
                    }
                    out[dx * channels + c] = UInt8(truncatingIfNeeded: (sum + total / 2) / total)
                }
                dx += 1
            }
        }
    }

    /// An exact halving's row `dy`, whole groups of 16 destination pixels: 32 source bytes of each
    /// of the two rows loaded as 16 little-endian 16-bit lanes (a pixel pair per lane), the pair
    /// summed by mask and shift, the rows added, rounded and shifted, the lanes' low bytes stored.
    /// The same integers as the general path. Returns the first pixel not written.
    @inline(__always)
    static func rowHalfSIMD(_ source: Plane, _ out: UnsafeMutablePointer<UInt8>, dy: Int, width: Int) -> Int {
        #if _endian(big)
        #error("ResizeArea's halving reads byte pairs as little-endian 16-bit lanes")
        #endif
        let top = UnsafeRawPointer(source.row(2 * dy)), bottom = UnsafeRawPointer(source.row(2 * dy + 1))
        let low = SIMD16<UInt16>(repeating: 0xFF), two = SIMD16<UInt16>(repeating: 2)
        var dx = 0
        while dx + 16 <= width {
            let a = top.loadUnaligned(fromByteOffset: 2 * dx, as: SIMD16<UInt16>.self)
            let b = bottom.loadUnaligned(fromByteOffset: 2 * dx, as: SIMD16<UInt16>.self)
            let sum = (a & low) &+ (a &>> 8) &+ (b & low) &+ (b &>> 8) &+ two
            SIMDLanes.store(SIMDLanes.bytes(sum &>> 2), out + dx)
            dx += 16
        }
        return dx
    }

    /// Whole groups of 16 destination pixels; returns the first pixel not written. Gathered
    /// pixels go through `LaneScratch`; coverage weights are computed in vectors.
    @inline(__always)
    static func rowSIMD(_ source: Plane, _ out: UnsafeMutablePointer<UInt8>, dy: Int, width: Int, channels: Int,
                        _ ax: AreaAxis, _ ay: AreaAxis, _ total: Int32) -> Int {
        let d = Int32(ax.unitsPerSource), s = Int32(ax.unitsPerDestination)
        let lastColumn = SIMD16<Int32>(repeating: Int32(source.width - 1))
        return LaneScratch.with { raw in
            let lanes = raw.assumingMemoryBound(to: Int32.self)
            var dx = 0
            while dx + 16 <= width {
                for i in 0..<16 { lanes[i] = Int32(truncatingIfNeeded: ax.first(dx + i)) }
                let first = raw.loadUnaligned(as: SIMD16<Int32>.self)
                let x = SIMD16<Int32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) &+ Int32(dx)
                let start = x &* s, end = (x &+ 1) &* s
                for c in 0..<channels {
                    var sum = SIMD16<Int32>()
                    for j in ay.first(dy)...ay.last(dy) {
                        let row = source.row(j)
                        var rowSum = SIMD16<Int32>()
                        for k in 0..<ax.maxTaps {
                            let i = first &+ Int32(k)
                            var w = SIMDLanes.minimum((i &+ 1) &* d, end) &- SIMDLanes.maximum(i &* d, start)
                            w = w & ~(w &>> 31)  // no overlap: no weight
                            let index = SIMDLanes.minimum(i, lastColumn)
                            for l in 0..<16 { lanes[16 + l] = Int32(row[Int(index[l]) * channels + c]) }
                            rowSum &+= w &* raw.loadUnaligned(fromByteOffset: 64, as: SIMD16<Int32>.self)
                        }
                        sum &+= rowSum &* Int32(ay.weight(j, dy))
                    }
                    let v = SIMDLanes.bytes((sum &+ total / 2) / total)
                    if channels == 1 {
                        SIMDLanes.store(v, out + dx)
                    } else {
                        for i in 0..<16 { out[(dx + i) * channels + c] = v[i] }
                    }
                }
                dx += 16
            }
            return dx
        }
    }
}
