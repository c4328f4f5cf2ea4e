/// How the JSON reports write numbers: rounded to a fixed number of decimals when the report is
/// made (pixels to 2, scores and angles to 4), and `null` for a value that is not finite.
enum ReportNumbers {
    static func rounded(_ v: Float, _ decimals: Int) -> Float {
        guard v.isFinite else { return .nan }
        var scale: Float = 1
        for _ in 0..<decimals { scale *= 10 }
        return (v * scale).rounded() / scale
    }

    static func rounded(_ p: Point2, _ decimals: Int = 2) -> Point2 {
        Point2(rounded(p.x, decimals), rounded(p.y, decimals))
    }
}

extension KeyedEncodingContainer {
    /// `v`, or `null` when it is not finite (JSON has no NaN).
    mutating func encodeReal(_ v: Float, forKey key: Key) throws {
        if v.isFinite { try encode(v, forKey: key) } else { try encodeNil(forKey: key) }
    }

    /// A point as `[x, y]`.
    mutating func encodePoint(_ p: Point2, forKey key: Key) throws {
        try encode(ReportPoint(p), forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// A number, or NaN for `null`.
    func decodeReal(forKey key: Key) throws -> Float {
        try decodeNil(forKey: key) ? .nan : try decode(Float.self, forKey: key)
    }

    func decodePoint(forKey key: Key) throws -> Point2 {
        try decode(ReportPoint.self, forKey: key).point
    }
}

/// A point written as the array `[x, y]`.
struct ReportPoint: Codable, Equatable {
    var point: Point2

    init(_ point: Point2) { self.point = point }

    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        let x = try c.decodeNil() ? Float.nan : try c.decode(Float.self)
        let y = try c.decodeNil() ? Float.nan : try c.decode(Float.self)
        point = Point2(x, y)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        for v in [point.x, point.y] {
            if v.isFinite { try c.encode(v) } else { try c.encodeNil() }
        }
    }
}
