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
        // Other ratios with up to 7 taps a column (every reduction to at least a seventh of the
        // size, the capture-quality patch and the detector's downscale among them): strips of 16
        // columns, top to bottom, each source row's horizontal sums made once (`stripsSIMD`).
        let strips = vector && !halves && ax.maxTaps <= stripTaps
            ? stripsSIMD(source, destination, channels: channels, ax, ay, Int32(total)) : 0
        for dy in 0..<destination.height {
            let out = destination.row(dy)
            var dx = strips
            if vector && strips == 0 {
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

    /// The most taps a column may have for `stripsSIMD` (its offsets and weights fill two
    /// `LaneScratch`es).
    static let stripTaps = 7

    /// Whole strips of 16 destination columns, every row; returns the first column not written.
    /// Per strip the columns' source offsets and coverage weights are computed once (the row
    /// path computes them for every source row of every destination row); then down the strip,
    /// each source row's 16 horizontal sums are made once (gathered bytes times weights, in
    /// `SIMD16<Int32>`), kept for the next destination row when the two share that source row,
    /// and added with the vertical weights. The same integer sums as the reference, in another
    /// order, so the same bytes.
    @inline(__always)
    static func stripsSIMD(_ source: Plane, _ destination: Plane, channels: Int, _ ax: AreaAxis, _ ay: AreaAxis,
                           _ total: Int32) -> Int {
        let width = destination.width
        let strips = width / 16
        guard strips > 0 else { return 0 }
        let d = Int32(ax.unitsPerSource), s = Int32(ax.unitsPerDestination)
        let lastColumn = SIMD16<Int32>(repeating: Int32(source.width - 1))
        let taps = ax.maxTaps
        let half = SIMD16<Int32>(repeating: total / 2), divisor = SIMD16<Int32>(repeating: total)
        return LaneScratch.with { offsetsRaw in
            LaneScratch.with { weightsRaw in
                LaneScratch.with { bytesRaw in
                    // Tap k's byte offsets (column × channels) at offsets[16k...], its weights at weights[16k...].
                    let offsets = offsetsRaw.assumingMemoryBound(to: Int32.self)
                    let bytes = bytesRaw.assumingMemoryBound(to: Int32.self)
                    for strip in 0..<strips {
                        let dx = 16 * strip
                        for i in 0..<16 { bytes[i] = Int32(truncatingIfNeeded: ax.first(dx + i)) }
                        let first = bytesRaw.loadUnaligned(as: SIMD16<Int32>.self)
                        let x = SIMD16<Int32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) &+ Int32(dx)
                        let start = x &* s, end = (x &+ 1) &* s
                        for k in 0..<taps {
                            let i = first &+ Int32(k)
                            var w = SIMDLanes.minimum((i &+ 1) &* d, end) &- SIMDLanes.maximum(i &* d, start)
                            w = w & ~(w &>> 31)  // no overlap: no weight
                            weightsRaw.storeBytes(of: w, toByteOffset: 64 * k, as: SIMD16<Int32>.self)
                            offsetsRaw.storeBytes(of: SIMDLanes.minimum(i, lastColumn) &* Int32(channels), toByteOffset: 64 * k,
                                                  as: SIMD16<Int32>.self)
                        }
                        for c in 0..<channels {
                            /// Source row `j`'s 16 horizontal sums.
                            @inline(__always) func rowSums(_ j: Int) -> SIMD16<Int32> {
                                let row = source.row(j) + c
                                var sum = SIMD16<Int32>()
                                for k in 0..<taps {
                                    let o = offsets + 16 * k
                                    for l in 0..<16 { bytes[l] = Int32(row[Int(o[l])]) }
                                    sum &+= weightsRaw.loadUnaligned(fromByteOffset: 64 * k, as: SIMD16<Int32>.self)
                                        &* bytesRaw.loadUnaligned(as: SIMD16<Int32>.self)
                                }
                                return sum
                            }
                            var keptRow = -1, kept = SIMD16<Int32>()
                            for dy in 0..<destination.height {
                                var sum = SIMD16<Int32>()
                                let top = ay.first(dy), bottom = ay.last(dy)
                                for j in top...bottom {
                                    let h: SIMD16<Int32>
                                    if j == keptRow { h = kept } else { h = rowSums(j) }
                                    if j == bottom { keptRow = j; kept = h }
                                    sum &+= h &* Int32(ay.weight(j, dy))
                                }
                                let v = SIMDLanes.bytes((sum &+ half) / divisor)
                                let out = destination.row(dy)
                                if channels == 1 {
                                    SIMDLanes.store(v, out + dx)
                                } else {
                                    for i in 0..<16 { out[(dx + i) * channels + c] = v[i] }
                                }
                            }
                        }
                    }
                    return 16 * strips
                }
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
