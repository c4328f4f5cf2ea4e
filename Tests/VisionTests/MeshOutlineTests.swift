import Foundation
import Testing
import Vision

/// `MeshOutline.contains` (16 edges a lane group) against the scalar even-odd reference
/// `MeshOutline.evenOdd`: the same answer for every point, on polygons of every group count,
/// with points on vertices, on edges, on horizontal edges and on the outline's rows.
struct MeshOutlineTests {
    /// A small deterministic generator (xorshift), so a failure reproduces.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        mutating func float(_ range: ClosedRange<Float>) -> Float {
            range.lowerBound + Float(next() % 1_000_001) / 1_000_000 * (range.upperBound - range.lowerBound)
        }
        mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// Points for a polygon of `n` vertices: a star round (200, 150), vertices on whole or half
    /// pixels (so rows through vertices and horizontal edges are common), some repeated.
    static func polygon(_ n: Int, _ r: inout Random, selfCrossing: Bool) -> ([Point3], [Int]) {
        var points: [Point3] = []
        for k in 0..<n {
            let angle = Float(k) / Float(n) * 2 * Float.pi
            let radius = r.float(20...120)
            var x = 200 + radius * cos(angle), y = 150 + radius * sin(angle)
            if r.int(3) == 0 { x = x.rounded(); y = y.rounded() }
            if r.int(5) == 0 { x = (2 * x).rounded() / 2; y = (2 * y).rounded() / 2 }
            if k > 0 && r.int(8) == 0 { y = points[k - 1].y }                     // a horizontal edge
            if k > 0 && r.int(15) == 0 { x = points[k - 1].x; y = points[k - 1].y } // a repeated vertex
            points.append(Point3(x, y, 0))
        }
        var indices = Array(0..<n)
        if selfCrossing { for _ in 0..<(n / 3) { indices.swapAt(r.int(n), r.int(n)) } }
        // Spread the used vertices among unused ones, as the mesh's indices are.
        var mesh = (0..<(3 * n)).map { _ in Point3(r.float(0...400), r.float(0...300), 0) }
        for (k, i) in indices.enumerated() { mesh[3 * k + 1] = points[i] }
        return (mesh, (0..<n).map { 3 * $0 + 1 })
    }

    @Test(arguments: [3, 4, 15, 16, 17, 20, 31, 32, 33, 36, 47, 48])
    func sameAnswerAsTheScalarTest(vertices: Int) {
        var r = Random(state: 0x9E37_79B9_7F4A_7C15 &+ UInt64(vertices))
        var inside = 0, checked = 0
        for shape in 0..<40 {
            let (points, indices) = MeshOutlineTests.polygon(vertices, &r, selfCrossing: shape % 4 == 3)
            let outline = MeshOutline(points, indices)
            var queries: [(Float, Float)] = []
            for _ in 0..<300 { queries.append((r.float(60...340), r.float(10...290))) }
            for i in indices {
                let v = points[i]
                queries.append((v.x, v.y))                    // on a vertex
                queries.append((v.x - 0.25, v.y))             // on its row
                queries.append((r.float(60...340), v.y))
            }
            for (k, i) in indices.enumerated() {
                let a = points[i], b = points[indices[(k + 1) % indices.count]]
                let t = r.float(0...1)
                queries.append((a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)))   // on an edge
            }
            for (x, y) in queries {
                let expected = MeshOutline.evenOdd(points, indices, x, y)
                #expect(outline.contains(x, y) == expected, "polygon \(shape) of \(vertices) vertices, point (\(x), \(y))")
                if expected { inside += 1 }
                checked += 1
            }
        }
        // The cases are not trivially all outside or all inside.
        #expect(inside > checked / 20 && inside < checked * 9 / 10, "\(inside) of \(checked) inside")
    }

    @Test func noVerticesContainNothing() {
        let outline = MeshOutline([Point3(1, 1, 0)], [])
        #expect(!outline.contains(1, 1))
        #expect(!MeshOutline.evenOdd([Point3(1, 1, 0)], [], 1, 1))
    }
}
