import ImageCore

/// A fixed workload for instruction counting: one seeded case, the variant run `iterations`
/// times. Counting at two iteration numbers and subtracting gives the cost of one call.
public enum ConformanceBench {
    public static func run(_ kernel: ConformanceKernel, variant: ConformanceVariant, width: Int, height: Int, iterations: Int) -> Int32 {
        var random = ConformanceRandom(seed: 0xB0074)
        let shapes = kernel.shapes(width, height)
        let inputs = shapes.inputs.map { s in
            TestPlane(width: s.width, height: s.height, bytesPerPixel: s.bytesPerPixel, slack: 0, random: &random)
        }
        let outputs = shapes.outputs.map { s in
            TestPlane(width: s.width, height: s.height, bytesPerPixel: s.bytesPerPixel, slack: 0, random: &random)
        }
        let inputPlanes = inputs.map { $0.plane }
        let outputPlanes = outputs.map { $0.plane }
        // Planes do not own memory: keep the owners alive across the calls (Swift may end an
        // object's lifetime after its last use, and a freed large block is unmapped).
        withExtendedLifetime(inputs) {
            for _ in 0..<iterations { variant.run(inputPlanes, outputPlanes) }
        }
        var h = FNV1a()
        for o in outputs { h.combine(o.plane) }
        return Int32(truncatingIfNeeded: h.value & 0x7FFF_FFFF)
    }
}
