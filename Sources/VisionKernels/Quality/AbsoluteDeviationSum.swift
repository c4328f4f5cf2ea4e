import ImageCore

/// How far a rectangle's pixels lie from a reference colour in total: `Σ |a − a0| + |b − b0|`
/// over the same rectangle of two Gray8 planes (the U and V planes of a 4:2:0 image: per-pixel
/// L1 chroma distance, summed). Passing one plane twice with `b0 == a0` gives `2 Σ |a − a0|`
/// (luma). Unlike the distance of the mean colour, covering part of the region with anything
/// far from the reference can only increase it — averaging two colours cannot cancel.
///
/// Contract: both planes hold `rect`; at most 2^23 pixels (the sum fits UInt32). Reads only
/// pixels inside `rect`. Allocates nothing. Integer arithmetic, so the SIMD variant equals the
/// reference.
public enum AbsoluteDeviationSum {
    @inlinable
    public static func run(_ a: Plane, _ b: Plane, _ rect: PixelRect, reference: (UInt8, UInt8), variant: KernelVariant = .simd) -> UInt32 {
        switch variant {
        case .scalar: return scalar(a, b, rect, reference: reference)
        case .simd: return simd(a, b, rect, reference: reference)
        }
    }

    static func check(_ a: Plane, _ b: Plane, _ rect: PixelRect) {
        precondition(a.bytesPerPixel == 1 && b.bytesPerPixel == 1, "AbsoluteDeviationSum: one byte per pixel expected")
        precondition(rect.isEmpty || (rect.x0 >= 0 && rect.y0 >= 0 && rect.x1 <= min(a.width, b.width) && rect.y1 <= min(a.height, b.height)),
                     "AbsoluteDeviationSum: rectangle outside the planes")
        precondition(rect.area <= 1 << 23, "AbsoluteDeviationSum: region too large")
    }

    public static func scalar(_ a: Plane, _ b: Plane, _ rect: PixelRect, reference: (UInt8, UInt8)) -> UInt32 {
        check(a, b, rect)
        guard !rect.isEmpty else { return 0 }
        var sum: UInt32 = 0
        let a0 = Int(reference.0), b0 = Int(reference.1)
        for y in rect.y0..<rect.y1 {
            let ra = a.row(y), rb = b.row(y)
            for x in rect.x0..<rect.x1 {
                sum &+= UInt32(abs(Int(ra[x]) - a0) + abs(Int(rb[x]) - b0))
            }
        }
        return sum
    }

    /// 16 pixels per step: absolute differences as `max − min` in UInt8 lanes, summed in UInt16
    /// lanes (at most 2·255 per step, so 128 steps fit) that go into UInt32 lanes every 128 steps
    /// and at the end of each row.
    @inline(never)
    public static func simd(_ a: Plane, _ b: Plane, _ rect: PixelRect, reference: (UInt8, UInt8)) -> UInt32 {
        check(a, b, rect)
        guard !rect.isEmpty else { return 0 }
        let a0 = SIMD16<UInt8>(repeating: reference.0), b0 = SIMD16<UInt8>(repeating: reference.1)
        var lanes = SIMD16<UInt32>()
        var sum: UInt32 = 0
        let ia0 = Int(reference.0), ib0 = Int(reference.1)
        for y in rect.y0..<rect.y1 {
            let ra = a.row(y), rb = b.row(y)
            var x = rect.x0
            while x + 16 <= rect.x1 {
                // A run of at most 128 steps into UInt16 lanes, then one widening add.
                let steps = min((rect.x1 - x) / 16, 128)
                var partial = SIMD16<UInt16>()
                for _ in 0..<steps {
                    let va = UnsafeRawPointer(ra + x).loadUnaligned(as: SIMD16<UInt8>.self)
                    let vb = UnsafeRawPointer(rb + x).loadUnaligned(as: SIMD16<UInt8>.self)
                    let da = va.replacing(with: a0, where: va .< a0) &- a0.replacing(with: va, where: va .< a0)
                    let db = vb.replacing(with: b0, where: vb .< b0) &- b0.replacing(with: vb, where: vb .< b0)
                    partial &+= QualityLanes.widen16(da) &+ QualityLanes.widen16(db)
                    x &+= 16
                }
                lanes &+= QualityLanes.widen(partial)
            }
            while x < rect.x1 {
                sum &+= UInt32(abs(Int(ra[x]) - ia0) + abs(Int(rb[x]) - ib0))
                x += 1
            }
        }
        return sum &+ lanes.wrappedSum()
    }
}
