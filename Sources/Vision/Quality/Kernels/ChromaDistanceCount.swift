import ImageCore

/// How many pixels of a rectangle lie far from a reference colour: counts pixels where
/// `|a − a0| + |b − b0| > threshold` over the same rectangle of two Gray8 planes (the U and V
/// planes of a 4:2:0 image: an L1 chroma distance). Passing one plane twice with `b0 == a0`
/// counts `2|a − a0| > threshold` (a luma-only test).
///
/// Contract: both planes hold `rect`; reads only pixels inside it. Allocates nothing. Integer
/// arithmetic, so the SIMD variant equals the reference.
public enum ChromaDistanceCount {
    @inlinable
    public static func run(_ a: Plane, _ b: Plane, _ rect: PixelRect, reference: (UInt8, UInt8), threshold: UInt16) -> UInt32 {
        switch KernelDispatch.variant {
        case .scalar: return scalar(a, b, rect, reference: reference, threshold: threshold)
        case .simd: return simd(a, b, rect, reference: reference, threshold: threshold)
        }
    }

    static func check(_ a: Plane, _ b: Plane, _ rect: PixelRect) {
        precondition(a.bytesPerPixel == 1 && b.bytesPerPixel == 1, "ChromaDistanceCount: one byte per pixel expected")
        precondition(rect.isEmpty || (rect.x0 >= 0 && rect.y0 >= 0 && rect.x1 <= min(a.width, b.width) && rect.y1 <= min(a.height, b.height)),
                     "ChromaDistanceCount: rectangle outside the planes")
    }

    public static func scalar(_ a: Plane, _ b: Plane, _ rect: PixelRect, reference: (UInt8, UInt8), threshold: UInt16) -> UInt32 {
        check(a, b, rect)
        guard !rect.isEmpty else { return 0 }
        var count: UInt32 = 0
        let a0 = Int(reference.0), b0 = Int(reference.1), t = Int(threshold)
        for y in rect.y0..<rect.y1 {
            let ra = a.row(y), rb = b.row(y)
            for x in rect.x0..<rect.x1 where abs(Int(ra[x]) - a0) + abs(Int(rb[x]) - b0) > t {
                count += 1
            }
        }
        return count
    }

    /// 16 pixels per step: absolute differences as `max − min` in UInt8 lanes, summed in UInt16.
    public static func simd(_ a: Plane, _ b: Plane, _ rect: PixelRect, reference: (UInt8, UInt8), threshold: UInt16) -> UInt32 {
        check(a, b, rect)
        guard !rect.isEmpty else { return 0 }
        let a0 = SIMD16<UInt8>(repeating: reference.0), b0 = SIMD16<UInt8>(repeating: reference.1)
        let t = SIMD16<UInt16>(repeating: threshold)
        var lanes = SIMD16<UInt32>()
        let zero16 = SIMD16<UInt16>()
        var count: UInt32 = 0
        let ia0 = Int(reference.0), ib0 = Int(reference.1), it = Int(threshold)
        for y in rect.y0..<rect.y1 {
            let ra = a.row(y), rb = b.row(y)
            var x = rect.x0
            while x + 16 <= rect.x1 {
                let va = UnsafeRawPointer(ra + x).loadUnaligned(as: SIMD16<UInt8>.self)
                let vb = UnsafeRawPointer(rb + x).loadUnaligned(as: SIMD16<UInt8>.self)
                let da = va.replacing(with: a0, where: va .< a0) &- a0.replacing(with: va, where: va .< a0)
                let db = vb.replacing(with: b0, where: vb .< b0) &- b0.replacing(with: vb, where: vb .< b0)
                let d = SIMD16<UInt16>(truncatingIfNeeded: da) &+ SIMD16<UInt16>(truncatingIfNeeded: db)
                lanes &+= SIMD16<UInt32>(truncatingIfNeeded: zero16.replacing(with: 1, where: d .> t))
                x += 16
            }
            while x < rect.x1 {
                if abs(Int(ra[x]) - ia0) + abs(Int(rb[x]) - ib0) > it { count += 1 }
                x += 1
            }
        }
        return count &+ lanes.wrappedSum()
    }
}
