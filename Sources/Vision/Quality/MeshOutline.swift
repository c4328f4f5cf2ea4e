/// A closed polygon through mesh vertices (image coordinates), its edges laid out for the
/// even-odd test on 16 edges at a time: `contains` gives exactly `evenOdd`'s answer (the same
/// float operations on each edge, the edge's differences computed once), several times
/// faster on the examiner's grids, which test each of their points against the face oval
/// (36 edges) and the lips (20). At most `capacity` edges; lives on the stack.
public struct MeshOutline {
    static let capacity = 48
    typealias Lanes = SIMD16<Float>
    /// Per edge from vertex a to vertex b: a.y, b.y, a.x, b.y − a.y, b.x − a.x (unused lanes
    /// have a.y = b.y = 0, so no row crosses them).
    private var ay = (Lanes(), Lanes(), Lanes()), by = (Lanes(), Lanes(), Lanes())
    private var ax = (Lanes(), Lanes(), Lanes()), dy = (Lanes(), Lanes(), Lanes()), dx = (Lanes(), Lanes(), Lanes())
    private let groups: Int
    /// The vertices' bounding box.
    private(set) var minX = Float.greatestFiniteMagnitude, minY = Float.greatestFiniteMagnitude
    private(set) var maxX = -Float.greatestFiniteMagnitude, maxY = -Float.greatestFiniteMagnitude

    public init(_ points: [Point3], _ indices: [Int]) {
        precondition(indices.count <= MeshOutline.capacity, "MeshOutline: at most \(MeshOutline.capacity) vertices")
        groups = (indices.count + 15) / 16
        var j = indices.count - 1
        for k in 0..<indices.count {
            // The edge as `evenOdd` walks it: a is vertex k, b the one before.
            let a = points[indices[k]], b = points[indices[j]]
            MeshOutline.set(&ay, k, a.y); MeshOutline.set(&by, k, b.y); MeshOutline.set(&ax, k, a.x)
            MeshOutline.set(&dy, k, b.y - a.y); MeshOutline.set(&dx, k, b.x - a.x)
            minX = min(minX, a.x); maxX = max(maxX, a.x)
            minY = min(minY, a.y); maxY = max(maxY, a.y)
            j = k
        }
    }

    @inline(__always) private static func set(_ lanes: inout (Lanes, Lanes, Lanes), _ i: Int, _ v: Float) {
        switch i / 16 {
        case 0: lanes.0[i % 16] = v
        case 1: lanes.1[i % 16] = v
        default: lanes.2[i % 16] = v
        }
    }

    /// Whether (x, y) is inside, by the even-odd rule (`evenOdd`).
    @inline(__always) public func contains(_ x: Float, _ y: Float) -> Bool {
        // Outside the vertices' rows no edge has one end above y and the other not.
        guard y >= minY && y < maxY else { return false }
        let yv = Lanes(repeating: y), xv = Lanes(repeating: x)
        @inline(__always) func crossings(_ ay: Lanes, _ by: Lanes, _ ax: Lanes, _ dy: Lanes, _ dx: Lanes) -> SIMD16<Int32> {
            let straddles = (ay .> yv) .!= (by .> yv)
            let cross = ax + (yv - ay) / dy * dx
            return SIMD16<Int32>(repeating: 0).replacing(with: 1, where: straddles .& (xv .< cross))
        }
        var n = crossings(ay.0, by.0, ax.0, dy.0, dx.0)
        if groups > 1 { n &+= crossings(ay.1, by.1, ax.1, dy.1, dx.1) }
        if groups > 2 { n &+= crossings(ay.2, by.2, ax.2, dy.2, dx.2) }
        return n.wrappedSum() & 1 == 1
    }

    /// Even-odd point-in-polygon test over mesh vertices `indices` (the reference for `contains`).
    public static func evenOdd(_ points: [Point3], _ indices: [Int], _ x: Float, _ y: Float) -> Bool {
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
