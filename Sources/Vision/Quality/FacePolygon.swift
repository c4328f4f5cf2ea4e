/// A closed polygon through face-mesh vertices with its edges laid out in lanes, for the
/// examiner's point-in-polygon tests (thousands per live frame: the mouth ring, the mirrored
/// boxes and the chin against the lips and the face oval, the sampled polygons). `contains`
/// is `reference`'s even-odd test, eight edges per step: the same comparisons and the same
/// crossing `a.x + (y − a.y) / (b.y − a.y) · (b.x − a.x)` (IEEE operations in the same order,
/// the differences made once per polygon instead of once per test), so the same answer on every
/// point. Up to `maxEdges` vertices; lives on the stack (allocates nothing).
public struct FacePolygon {
    public static let maxEdges = 40
    // Edge k runs from vertex k to vertex k − 1 (the last vertex before the first), as `reference`
    // walks them. Lanes past the edges never straddle a row (both ends at +∞).
    private var ax = SIMD64<Float>(repeating: 0), ay = SIMD64<Float>(repeating: .infinity)
    private var by = SIMD64<Float>(repeating: .infinity)
    private var dx = SIMD64<Float>(repeating: 0), dy = SIMD64<Float>(repeating: 1)
    private let chunks: Int

    public init(_ points: [Point3], _ indices: [Int]) {
        precondition(indices.count <= FacePolygon.maxEdges, "FacePolygon: more than 40 vertices")
        var j = indices.count - 1
        for k in 0..<indices.count {
            let a = points[indices[k]], b = points[indices[j]]
            ax[k] = a.x; ay[k] = a.y; by[k] = b.y
            dx[k] = b.x - a.x; dy[k] = b.y - a.y
            j = k
        }
        chunks = (indices.count + 7) / 8
    }

    @inline(__always)
    private static func lanes(_ v: SIMD64<Float>, _ c: Int) -> SIMD8<Float> {
        withUnsafeBytes(of: v) { $0.loadUnaligned(fromByteOffset: 32 * c, as: SIMD8<Float>.self) }
    }

    /// Whether (x, y) lies inside (even-odd rule), as `reference` decides it.
    @inline(__always)
    public func contains(_ x: Float, _ y: Float) -> Bool {
        var hits = SIMD8<Int32>(repeating: 0)
        for c in 0..<chunks {
            let ay8 = Self.lanes(ay, c), by8 = Self.lanes(by, c)
            let straddle = (ay8 .> y) .^ (by8 .> y)
            guard any(straddle) else { continue }
            let cross = Self.lanes(ax, c) + (y - ay8) / Self.lanes(dy, c) * Self.lanes(dx, c)
            hits &+= SIMD8<Int32>(repeating: 0).replacing(with: 1, where: straddle .& (x .< cross))
        }
        return hits.wrappedSum() & 1 != 0
    }

    /// The reference: even-odd point-in-polygon test over mesh vertices `indices`, edge by edge.
    public static func reference(_ points: [Point3], _ indices: [Int], _ x: Float, _ y: Float) -> Bool {
        var result = false
        var j = indices.count - 1
        for k in 0..<indices.count {
            let a = points[indices[k]], b = points[indices[j]]
            if (a.y > y) != (b.y > y) {
                let cross = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)
                if x < cross { result.toggle() }
            }
            j = k
        }
        return result
    }
}
