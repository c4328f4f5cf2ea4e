import ImageCore

/// Local-gradient statistics of a rectangle of a Gray8 plane, for finding flat occluders (a
/// mask, a patch, a hand-held card) over parts of a face: per pixel the central-difference
/// gradient `g = |p(x+1, y) − p(x−1, y)| + |p(x, y+1) − p(x, y−1)|` (saturated at 255), then
///   - `flat`: how many pixels have `g ≤ threshold` and a value strictly inside `(low, high)`
///     (clipped pixels are over- or under-exposure, not occlusion, and are not counted);
///   - `gradientSum`: `Σ g` over the rectangle (its mean sets a face's own texture scale).
///
/// A face's eyes, nostrils and lips are full of edges; a flat object over them is not, and the
/// flat share of a region can only grow as such an object covers more of it.
///
/// Contract: `rect` lies inside `[1, width − 1) × [1, height − 1)` (the kernel reads one pixel
/// around it); at most 2^23 pixels. Allocates nothing. Integer arithmetic, so the SIMD variant
/// equals the scalar reference bit for bit.
public enum FlatPixelCount {
    public struct Result: Sendable, Equatable {
        public var flat: UInt32 = 0
        public var gradientSum: UInt32 = 0
        public init() {}
    }

    @inlinable
    public static func run(_ plane: Plane, _ rect: PixelRect, threshold: UInt8, low: UInt8, high: UInt8, variant: KernelVariant = .simd) -> Result {
        switch variant {
        case .scalar: return scalar(plane, rect, threshold: threshold, low: low, high: high)
        case .simd: return simd(plane, rect, threshold: threshold, low: low, high: high)
        }
    }

    /// `rect` shrunk so the kernel may read one pixel around it in a `width`×`height` plane.
    public static func inset(_ rect: PixelRect, width: Int, height: Int) -> PixelRect {
        PixelRect(x0: max(1, rect.x0), y0: max(1, rect.y0), x1: min(width - 1, rect.x1), y1: min(height - 1, rect.y1))
    }

    static func check(_ plane: Plane, _ rect: PixelRect) {
        precondition(plane.bytesPerPixel == 1, "FlatPixelCount: one byte per pixel expected")
        precondition(rect.isEmpty || (rect.x0 >= 1 && rect.y0 >= 1 && rect.x1 <= plane.width - 1 && rect.y1 <= plane.height - 1),
                     "FlatPixelCount: rectangle must leave one pixel of the plane around it")
        precondition(rect.area <= 1 << 23, "FlatPixelCount: region too large")
    }

    public static func scalar(_ plane: Plane, _ rect: PixelRect, threshold: UInt8, low: UInt8, high: UInt8) -> Result {
        check(plane, rect)
        var r = Result()
        guard !rect.isEmpty else { return r }
        for y in rect.y0..<rect.y1 {
            let up = plane.row(y - 1), mid = plane.row(y), down = plane.row(y + 1)
            for x in rect.x0..<rect.x1 {
                let g = min(255, abs(Int(mid[x + 1]) - Int(mid[x - 1])) + abs(Int(down[x]) - Int(up[x])))
                r.gradientSum &+= UInt32(g)
                let p = mid[x]
                if g <= Int(threshold) && p > low && p < high { r.flat &+= 1 }
            }
        }
        return r
    }

    /// 16 pixels per step: absolute differences as `max − min` in UInt8 lanes, added with
    /// saturation, compared, and counted in UInt32 lanes.
    public static func simd(_ plane: Plane, _ rect: PixelRect, threshold: UInt8, low: UInt8, high: UInt8) -> Result {
        check(plane, rect)
        var r = Result()
        guard !rect.isEmpty else { return r }
        let t = SIMD16<UInt8>(repeating: threshold), lo = SIMD16<UInt8>(repeating: low), hi = SIMD16<UInt8>(repeating: high)
        let zero = SIMD16<UInt8>(), saturated = SIMD16<UInt8>(repeating: 255)
        var flat = SIMD16<UInt32>(), sum = SIMD16<UInt32>()
        for y in rect.y0..<rect.y1 {
            let up = plane.row(y - 1), mid = plane.row(y), down = plane.row(y + 1)
            var x = rect.x0
            while x + 16 <= rect.x1 {
                let l = UnsafeRawPointer(mid + x - 1).loadUnaligned(as: SIMD16<UInt8>.self)
                let rr = UnsafeRawPointer(mid + x + 1).loadUnaligned(as: SIMD16<UInt8>.self)
                let u = UnsafeRawPointer(up + x).loadUnaligned(as: SIMD16<UInt8>.self)
                let d = UnsafeRawPointer(down + x).loadUnaligned(as: SIMD16<UInt8>.self)
                let c = UnsafeRawPointer(mid + x).loadUnaligned(as: SIMD16<UInt8>.self)
                let dx = l.replacing(with: rr, where: l .< rr) &- rr.replacing(with: l, where: l .< rr)
                let dy = u.replacing(with: d, where: u .< d) &- d.replacing(with: u, where: u .< d)
                var g = dx &+ dy
                g.replace(with: saturated, where: g .< dx)
                sum &+= QualityLanes.widen(g)
                let isFlat = (g .<= t) .& (c .> lo) .& (c .< hi)
                flat &+= QualityLanes.widen(zero.replacing(with: 1, where: isFlat))
                x += 16
            }
            while x < rect.x1 {
                let g = min(255, abs(Int(mid[x + 1]) - Int(mid[x - 1])) + abs(Int(down[x]) - Int(up[x])))
                r.gradientSum &+= UInt32(g)
                let p = mid[x]
                if g <= Int(threshold) && p > low && p < high { r.flat &+= 1 }
                x += 1
            }
        }
        r.flat &+= flat.wrappedSum()
        r.gradientSum &+= sum.wrappedSum()
        return r
    }
}
