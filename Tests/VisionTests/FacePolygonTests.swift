import ImageCore
import Testing
import Vision

/// `FacePolygon.contains` (the examiner's point-in-polygon tests, eight edges per step) against
/// `FacePolygon.reference` (edge by edge): the same answer on every point, including points on
/// vertices, on edges and on the rows of vertices.
@Suite struct FacePolygonTests {
    static func random(_ seed: inout UInt32) -> Float {
        seed = seed &* 1_103_515_245 &+ 12345
        return Float(seed >> 8) / Float(1 << 24)
    }

    @Test(arguments: [3, 7, 8, 9, 16, 20, 33, 36, 40])
    func containsEqualsTheReference(vertices: Int) {
        var seed = UInt32(vertices) * 7919
        for round in 0..<20 {
            // A star-shaped (sometimes self-crossing) polygon over a 100-pixel box, on a few
            // hundred of the 468 mesh points.
            var points = [Point3](repeating: Point3(0, 0, 0), count: 468)
            var indices: [Int] = []
            for k in 0..<vertices {
                let i = (k * 37 + round * 11) % 468
                let angle = Float(k) / Float(vertices) * 6.2831853 + (round % 3 == 0 ? Self.random(&seed) : 0)
                let r = 20 + 30 * Self.random(&seed)
                // Rounded to quarter pixels now and then, so test points land on vertices' rows.
                var x = 50 + r * Self.cosine(angle), y = 50 + r * Self.sine(angle)
                if round % 2 == 0 { x = (x * 4).rounded() / 4; y = (y * 4).rounded() / 4 }
                points[i] = Point3(x, y, 0)
                indices.append(i)
            }
            let polygon = FacePolygon(points, indices)
            var tests: [(Float, Float)] = []
            for _ in 0..<400 { tests.append((110 * Self.random(&seed) - 5, 110 * Self.random(&seed) - 5)) }
            for i in indices {
                let p = points[i]
                tests.append((p.x, p.y)); tests.append((p.x - 0.25, p.y)); tests.append((p.x + 0.25, p.y))
            }
            for k in 0..<indices.count {
                let a = points[indices[k]], b = points[indices[(k + 1) % indices.count]]
                tests.append(((a.x + b.x) / 2, (a.y + b.y) / 2))
            }
            for y in stride(from: Float(0), through: 100, by: 0.25) { tests.append((50, y)) }
            for (x, y) in tests {
                #expect(polygon.contains(x, y) == FacePolygon.reference(points, indices, x, y),
                        "\(vertices) vertices, round \(round), point (\(x), \(y))")
            }
        }
    }

    /// Taylor series, enough for placing vertices (no Foundation).
    static func sine(_ a: Float) -> Float {
        var x = a
        while x > 3.14159265 { x -= 6.2831853 }
        var term = x, sum = x
        for n in 1..<10 { term *= -x * x / Float((2 * n) * (2 * n + 1)); sum += term }
        return sum
    }

    static func cosine(_ a: Float) -> Float { sine(a + 1.57079633) }
}
