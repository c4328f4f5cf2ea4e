import ImageCore

/// Sums over a rectangle of a Gray8 plane (a luma or chroma plane): pixel count, Σp, Σp²,
/// and how many pixels are at or below `low` and at or above `high` (clipping). Exact integers,
/// so the SIMD variant equals the reference.
public struct RegionSums: Sendable, Equatable {
    public var count: UInt32 = 0
    public var sum: UInt32 = 0
    public var sumOfSquares: UInt64 = 0
    public var low: UInt32 = 0
    public var high: UInt32 = 0

    public init() {}

    public var mean: Float { count > 0 ? Float(sum) / Float(count) : 0 }
    public var variance: Float {
        guard count > 0 else { return 0 }
        let m = Double(sum) / Double(count)
        return Float(max(0, Double(sumOfSquares) / Double(count) - m * m))
    }
    public var deviation: Float { variance.squareRoot() }

    /// Both regions' pixels together.
    public static func + (a: RegionSums, b: RegionSums) -> RegionSums {
        var r = a
        r.count += b.count; r.sum += b.sum; r.sumOfSquares += b.sumOfSquares; r.low += b.low; r.high += b.high
        return r
    }
}

/// A rectangle in a plane's pixels, half-open: `[x0, x1) × [y0, y1)`.
public struct PixelRect: Sendable, Equatable {
    public var x0: Int, y0: Int, x1: Int, y1: Int
    public init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }
    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    public var area: Int { isEmpty ? 0 : (x1 - x0) * (y1 - y0) }

    /// This rectangle clipped to `width`×`height`.
    public func clamped(width: Int, height: Int) -> PixelRect {
        PixelRect(x0: max(0, min(width, x0)), y0: max(0, min(height, y0)),
                  x1: max(0, min(width, x1)), y1: max(0, min(height, y1)))
    }

    /// The same area on a plane subsampled by 2 (4:2:0 chroma), rounded outwards.
    public var halved: PixelRect { PixelRect(x0: x0 / 2, y0: y0 / 2, x1: (x1 + 1) / 2, y1: (y1 + 1) / 2) }
}

/// Luma (or chroma) statistics of one rectangle (`RegionSums`).
///
/// Contract: `rect` lies inside the plane (callers clamp); at most 2^16 pixels (so Σp fits
/// UInt32 lanes for the whole region). Reads only pixels inside `rect`. Allocates nothing.
public enum RegionStatistics {
    @inlinable
    public static func run(_ plane: Plane, _ rect: PixelRect, low: UInt8, high: UInt8, variant: KernelVariant = .simd) -> RegionSums {
        switch variant {
        case .scalar: return scalar(plane, rect, low: low, high: high)
        case .simd: return simd(plane, rect, low: low, high: high)
        }
    }

    static func check(_ plane: Plane, _ rect: PixelRect) {
        precondition(plane.bytesPerPixel == 1, "RegionStatistics: one byte per pixel expected")
        precondition(rect.isEmpty || (rect.x0 >= 0 && rect.y0 >= 0 && rect.x1 <= plane.width && rect.y1 <= plane.height),
                     "RegionStatistics: rectangle outside the plane")
        precondition(rect.area <= 1 << 16, "RegionStatistics: region too large")
    }

    public static func scalar(_ plane: Plane, _ rect: PixelRect, low: UInt8, high: UInt8) -> RegionSums {
        check(plane, rect)
        var r = RegionSums()
        guard !rect.isEmpty else { return r }
        for y in rect.y0..<rect.y1 {
            let row = plane.row(y)
            for x in rect.x0..<rect.x1 {
                let p = row[x]
                r.sum &+= UInt32(p)
                r.sumOfSquares &+= UInt64(UInt32(p) * UInt32(p))
                if p <= low { r.low &+= 1 }
                if p >= high { r.high &+= 1 }
            }
        }
        r.count = UInt32(rect.area)
        return r
    }

    /// 16 pixels per step: sums in `SIMD16<UInt32>` lanes, clip counts from lane masks.
    @inline(never)
    public static func simd(_ plane: Plane, _ rect: PixelRect, low: UInt8, high: UInt8) -> RegionSums {
        check(plane, rect)
        var r = RegionSums()
        guard !rect.isEmpty else { return r }
        var sum = SIMD16<UInt32>(), squares = SIMD16<UInt32>(), lows = SIMD16<UInt32>(), highs = SIMD16<UInt32>()
        let lowV = SIMD16<UInt8>(repeating: low), highV = SIMD16<UInt8>(repeating: high)
        let zero8 = SIMD16<UInt8>()
        var squareTotal: UInt64 = 0
        for y in rect.y0..<rect.y1 {
            let row = plane.row(y)
            var x = rect.x0
            while x + 16 <= rect.x1 {
                let p8 = UnsafeRawPointer(row + x).loadUnaligned(as: SIMD16<UInt8>.self)
                let p = QualityLanes.widen(p8)
                sum &+= p
                squares &+= p &* p
                lows &+= QualityLanes.widen(zero8.replacing(with: 1, where: p8 .<= lowV))
                highs &+= QualityLanes.widen(zero8.replacing(with: 1, where: p8 .>= highV))
                x += 16
            }
            while x < rect.x1 {
                let p = row[x]
                r.sum &+= UInt32(p)
                r.sumOfSquares &+= UInt64(UInt32(p) * UInt32(p))
                if p <= low { r.low &+= 1 }
                if p >= high { r.high &+= 1 }
                x += 1
            }
            // Squares reach 65 025 per pixel: flush the lanes to 64 bits each row so they never overflow.
            for i in 0..<16 { squareTotal &+= UInt64(squares[i]) }
            squares = SIMD16<UInt32>()
        }
        r.sum &+= sum.wrappedSum()
        r.sumOfSquares &+= squareTotal
        r.low &+= lows.wrappedSum()
        r.high &+= highs.wrappedSum()
        r.count = UInt32(rect.area)
        return r
    }
}
