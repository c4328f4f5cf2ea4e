import ImageCore

/// Maps a model-resolution mask onto the frame: for every frame pixel of a rectangle, the
/// bilinear value of the mask at the pixel centre's model position (`MaskMapping`), positions
/// clamped to the content rectangle. Rotation makes frame columns follow model rows, so the
/// warp stays separable: one tap table per frame column and one per frame row (Q8 weights),
/// rebuilt per call in storage allocated once. This is the fast level's cheap upsample and the
/// starting point of the others.
///
/// Two variants with one result, bit for bit: `scalar`, the reference (four mask reads per
/// frame pixel), and `simd`. Without rotation `simd` first blends every mask row the frame
/// needs across the frame's columns (two reads per pixel of a model row, into 16-bit lanes: a
/// blend is at most 255·256), then each frame row is two of those lines blended in `SIMD16`
/// lanes with contiguous loads; so a 640×480 frame from a 256×144 mask gathers for 144 rows
/// instead of 480. With rotation (axes swapped) it blends the two mask columns a frame row needs
/// down the model's height, then interpolates 16 frame pixels per step from that line. The
/// gathers are plain scalar loops into lines (`pair`) that the lanes then load contiguously:
/// on x86-64, filling a vector lane by lane with a loop index is a stack store and reload per
/// lane in Swift 6.3 (a store-forwarding stall each; that gather was 14 % of the passport vision
/// thread). On aarch64 the pass across the columns keeps the lane-by-lane gather, which counts
/// fewer instructions there. The integer weights make the order irrelevant: both compute Σ mask·wx·wy exactly
/// before the one rounding shift. `warp` runs the variant it is given (the SIMD twin by default).
package final class MaskWarp {
    private var colIndex0: ScratchBuffer<Int32>, colIndex1: ScratchBuffer<Int32>, colWeight: ScratchBuffer<Int32>
    private var rowIndex0: ScratchBuffer<Int32>, rowIndex1: ScratchBuffer<Int32>, rowWeight: ScratchBuffer<Int32>
    /// One frame row's blended mask line (model side ≤ `maxModelSide`), for `simd` with rotation.
    private let line: ScratchBuffer<Int32>
    /// Mask rows blended across the frame's columns (row r's frame column x at r·maxSide + x),
    /// for `simd` without rotation.
    private let across: ScratchBuffer<UInt16>
    /// One line's two gathered reads per frame pixel (`maxSide` each: the first reads, then the second).
    private let pair: ScratchBuffer<Int32>
    package let maxSide: Int
    package let maxModelSide: Int

    package init(maxSide: Int, maxModelSide: Int = 256) {
        colIndex0 = ScratchBuffer(count: maxSide); colIndex1 = ScratchBuffer(count: maxSide); colWeight = ScratchBuffer(count: maxSide)
        rowIndex0 = ScratchBuffer(count: maxSide); rowIndex1 = ScratchBuffer(count: maxSide); rowWeight = ScratchBuffer(count: maxSide)
        self.maxSide = maxSide
        self.maxModelSide = maxModelSide
        line = ScratchBuffer(count: maxModelSide)
        across = ScratchBuffer(count: maxModelSide * maxSide)
        pair = ScratchBuffer(count: 2 * maxSide)
    }

    package var byteCount: Int { 6 * colIndex0.byteCount + line.byteCount + across.byteCount + pair.byteCount }

    /// Writes `mask` (model resolution, `maskStride` bytes per row) into `destination` (frame size)
    /// for frame pixels x in `xr`, y in `yr`, with `variant` (the SIMD twin unless the scalar reference is asked for).
    @inline(__always)
    package func warp(_ mask: UnsafePointer<UInt8>, maskStride: Int, mapping m: MaskMapping, into destination: Plane,
                      xRange xr: Range<Int>, yRange yr: Range<Int>, variant: KernelVariant = .simd) {
        switch variant {
        case .scalar: scalar(mask, maskStride: maskStride, mapping: m, into: destination, xRange: xr, yRange: yr)
        case .simd: simd(mask, maskStride: maskStride, mapping: m, into: destination, xRange: xr, yRange: yr)
        }
    }

    /// The tap tables of frame columns `xr` and rows `yr`.
    private func buildTables(_ m: MaskMapping, _ destination: Plane, _ xr: Range<Int>, _ yr: Range<Int>) {
        precondition(destination.width == m.frameWidth && destination.height == m.frameHeight && destination.bytesPerPixel == 1,
                     "warp: destination is not a frame-size Gray8 plane")
        precondition(max(m.frameWidth, m.frameHeight) <= colIndex0.count, "warp: frame larger than planned")
        let swap = m.rotation.swapsAxes
        let c = m.content
        // Frame column x → coordinate along model x (or model y when axes swap).
        for x in xr {
            let p = m.model(fromFrame: Float(x) + 0.5, Float(yr.lowerBound) + 0.5)
            let coord = swap ? p.y : p.x
            let lo = swap ? c.y : c.x, hi = swap ? c.y + c.height : c.x + c.width
            let n = swap ? m.modelHeight : m.modelWidth
            let t = MaskWarp.taps(coord, lo: lo, hi: hi, n: n)
            colIndex0[x] = t.0; colIndex1[x] = t.1; colWeight[x] = t.2
        }
        for y in yr {
            let p = m.model(fromFrame: Float(xr.lowerBound) + 0.5, Float(y) + 0.5)
            let coord = swap ? p.x : p.y
            let lo = swap ? c.x : c.y, hi = swap ? c.x + c.width : c.y + c.height
            let n = swap ? m.modelWidth : m.modelHeight
            let t = MaskWarp.taps(coord, lo: lo, hi: hi, n: n)
            rowIndex0[y] = t.0; rowIndex1[y] = t.1; rowWeight[y] = t.2
        }
    }

    /// The reference: four mask reads and the two-step blend per frame pixel.
    @inline(never)
    package func scalar(_ mask: UnsafePointer<UInt8>, maskStride: Int, mapping m: MaskMapping, into destination: Plane,
                        xRange xr: Range<Int>, yRange yr: Range<Int>) {
        buildTables(m, destination, xr, yr)
        let swap = m.rotation.swapsAxes
        for y in yr {
            let out = destination.row(y)
            let r0 = Int(rowIndex0[y]), r1 = Int(rowIndex1[y]), wr = Int(rowWeight[y])
            if !swap {
                let a = mask + r0 * maskStride, b = mask + r1 * maskStride
                for x in xr {
                    let c0 = Int(colIndex0[x]), c1 = Int(colIndex1[x]), wc = Int(colWeight[x])
                    let top = Int(a[c0]) * (256 - wc) + Int(a[c1]) * wc
                    let bottom = Int(b[c0]) * (256 - wc) + Int(b[c1]) * wc
                    out[x] = UInt8(truncatingIfNeeded: (top * (256 - wr) + bottom * wr + 32768) >> 16)
                }
            } else {
                // Frame rows walk model columns (r0, r1); frame columns walk model rows.
                for x in xr {
                    let a = mask + Int(colIndex0[x]) * maskStride, b = mask + Int(colIndex1[x]) * maskStride
                    let wc = Int(colWeight[x])
                    let left = Int(a[r0]) * (256 - wr) + Int(a[r1]) * wr
                    let right = Int(b[r0]) * (256 - wr) + Int(b[r1]) * wr
                    out[x] = UInt8(truncatingIfNeeded: (left * (256 - wc) + right * wc + 32768) >> 16)
                }
            }
        }
    }

    /// The twin: per frame row the blended mask line, then 16 frame pixels per step in lanes.
    @inline(never)
    package func simd(_ mask: UnsafePointer<UInt8>, maskStride: Int, mapping m: MaskMapping, into destination: Plane,
                      xRange xr: Range<Int>, yRange yr: Range<Int>) {
        buildTables(m, destination, xr, yr)
        let swap = m.rotation.swapsAxes
        let n = swap ? m.modelHeight : m.modelWidth
        precondition(n <= maxModelSide, "warp: model larger than planned")
        if !swap {
            simdAcross(mask, maskStride: maskStride, modelRows: m.modelHeight, into: destination, xRange: xr, yRange: yr)
            return
        }
        let blended = line.pointer
        let wts = UnsafeRawPointer(colWeight.pointer)
        for y in yr {
            let out = destination.row(y)
            let r0 = Int(rowIndex0[y]), r1 = Int(rowIndex1[y]), wr = rowWeight[y]
            // The line this frame row reads: mask columns r0/r1 blended down the model's height.
            for j in 0..<n {
                let row = mask + j * maskStride
                blended[j] = Int32(row[r0]) * (256 - wr) + Int32(row[r1]) * wr
            }
            // The two reads of every frame pixel, gathered into lines (scalar loads and stores).
            let g0 = pair.pointer, g1 = pair.pointer + maxSide
            for x in xr {
                g0[x] = blended[Int(colIndex0[x])]
                g1[x] = blended[Int(colIndex1[x])]
            }
            let l0 = UnsafeRawPointer(g0), l1 = UnsafeRawPointer(g1)
            var x = xr.lowerBound
            while x + 16 <= xr.upperBound {
                let v0 = l0.loadUnaligned(fromByteOffset: 4 * x, as: SIMD16<Int32>.self)
                let v1 = l1.loadUnaligned(fromByteOffset: 4 * x, as: SIMD16<Int32>.self)
                let wc = wts.loadUnaligned(fromByteOffset: 4 * x, as: SIMD16<Int32>.self)
                let r = (v0 &* (256 &- wc) &+ v1 &* wc &+ 32768) &>> 16
                for k in 0..<16 { out[x + k] = UInt8(truncatingIfNeeded: r[k]) }
                x += 16
            }
            while x < xr.upperBound {
                let wc = colWeight[x]
                let v = blended[Int(colIndex0[x])] * (256 - wc) + blended[Int(colIndex1[x])] * wc
                out[x] = UInt8(truncatingIfNeeded: (v + 32768) >> 16)
                x += 1
            }
        }
    }

    /// `simd` without rotation: the mask rows frame rows `yr` read, blended across frame columns
    /// `xr` into `across` (16 columns per step, the two reads gathered lane by lane), then each
    /// frame row from its two lines, 16 pixels per step with contiguous loads.
    @inline(__always)
    private func simdAcross(_ mask: UnsafePointer<UInt8>, maskStride: Int, modelRows: Int, into destination: Plane,
                            xRange xr: Range<Int>, yRange yr: Range<Int>) {
        guard !xr.isEmpty, !yr.isEmpty else { return }
        precondition(modelRows <= maxModelSide && destination.width <= maxSide, "warp: larger than planned")
        // The mask rows used: the tables' rows grow with y, so the first and last frame rows bound them.
        var first = Int(rowIndex0[yr.lowerBound]), last = Int(rowIndex1[yr.lowerBound])
        for y in yr {
            first = min(first, Int(rowIndex0[y]))
            last = max(last, Int(rowIndex1[y]))
        }
        let wts = UnsafeRawPointer(colWeight.pointer)
        let lines = across.pointer, w = maxSide
        let g0 = pair.pointer, g1 = pair.pointer + maxSide
        let l0 = UnsafeRawPointer(g0), l1 = UnsafeRawPointer(g1)
        #if arch(arm64)
        let i0 = UnsafeRawPointer(colIndex0.pointer), i1 = UnsafeRawPointer(colIndex1.pointer)
        #endif
        for r in first...last {
            let a = mask + r * maskStride, line = lines + r * w
            #if !arch(arm64)
            // The two reads of every frame column, gathered into lines (scalar loads and stores).
            for x in xr {
                g0[x] = Int32(a[Int(colIndex0[x])])
                g1[x] = Int32(a[Int(colIndex1[x])])
            }
            #endif
            var x = xr.lowerBound
            while x + 16 <= xr.upperBound {
                #if arch(arm64)
                // aarch64 keeps the lane-by-lane gather: one insert per read there, and fewer
                // instructions than the lines (FrameBench on cortex-a72: 3.08 against 3.45 M).
                let c0 = i0.loadUnaligned(fromByteOffset: 4 * x, as: SIMD16<Int32>.self)
                let c1 = i1.loadUnaligned(fromByteOffset: 4 * x, as: SIMD16<Int32>.self)
                var v0 = SIMD16<UInt32>(), v1 = SIMD16<UInt32>()
                for k in 0..<16 {
                    v0[k] = UInt32(a[Int(c0[k])])
                    v1[k] = UInt32(a[Int(c1[k])])
                }
                #else
                let v0 = l0.loadUnaligned(fromByteOffset: 4 * x, as: SIMD16<UInt32>.self)
                let v1 = l1.loadUnaligned(fromByteOffset: 4 * x, as: SIMD16<UInt32>.self)
                #endif
                let wc = wts.loadUnaligned(fromByteOffset: 4 * x, as: SIMD16<UInt32>.self)  // weights 0...255
                let blend = v0 &* (256 &- wc) &+ v1 &* wc
                for k in 0..<16 { line[x + k] = UInt16(truncatingIfNeeded: blend[k]) }
                x += 16
            }
            while x < xr.upperBound {
                let wc = Int32(colWeight[x])
                line[x] = UInt16(truncatingIfNeeded: Int32(a[Int(colIndex0[x])]) * (256 - wc) + Int32(a[Int(colIndex1[x])]) * wc)
                x += 1
            }
        }
        for y in yr {
            let out = destination.row(y)
            let top = lines + Int(rowIndex0[y]) * w, bottom = lines + Int(rowIndex1[y]) * w
            let wr = rowWeight[y]
            let wt = SIMD16<UInt32>(repeating: UInt32(256 - wr)), wb = SIMD16<UInt32>(repeating: UInt32(wr))
            var x = xr.lowerBound
            while x + 16 <= xr.upperBound {
                let t = QualityLanes.widen(UnsafeRawPointer(top + x).loadUnaligned(as: SIMD16<UInt16>.self))
                let b = QualityLanes.widen(UnsafeRawPointer(bottom + x).loadUnaligned(as: SIMD16<UInt16>.self))
                let r = (t &* wt &+ b &* wb &+ 32768) &>> 16
                for k in 0..<16 { out[x + k] = UInt8(truncatingIfNeeded: r[k]) }
                x += 16
            }
            while x < xr.upperBound {
                let v = Int32(top[x]) * (256 - wr) + Int32(bottom[x]) * wr
                out[x] = UInt8(truncatingIfNeeded: (v + 32768) >> 16)
                x += 1
            }
        }
    }

    /// Two mask indices and a Q8 weight for a continuous model coordinate, clamped into [lo, hi).
    @inline(__always)
    static func taps(_ coord: Float, lo: Float, hi: Float, n: Int) -> (Int32, Int32, Int32) {
        let first = max(0, Int(lo.rounded(.down))), last = min(n - 1, max(first, Int(hi.rounded(.up)) - 1))
        let p = min(max(coord - 0.5, Float(first)), Float(last))
        let i0 = Int(p)
        let w = Int32(((p - Float(i0)) * 256).rounded())
        if w >= 256 { return (Int32(min(i0 + 1, last)), Int32(min(i0 + 1, last)), 0) }
        return (Int32(i0), Int32(min(i0 + 1, last)), w)
    }
}
