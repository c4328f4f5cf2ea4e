import ImageCore

/// A fixed workload for instruction counting: one seeded case, the variant run `iterations`
/// times. Counting at two iteration numbers and subtracting gives the cost of one call.
public enum ConformanceBench {
    /// Runs variant `variant` (0 = reference) of `kernel` on `c` `iterations` times; returns the
    /// output checksum's low 31 bits, or -1 when there is no such variant.
    public static func run(_ kernel: ConformanceKernel, variant: Int, case c: ConformanceCase, iterations: Int) -> Int32 {
        var random = ConformanceRandom(seed: 0xB0074)
        let instance = kernel.instantiate(c, &random)
        let v: ConformanceVariant
        if variant == 0 { v = instance.reference }
        else if variant <= instance.variants.count { v = instance.variants[variant - 1] }
        else { return -1 }
        let outputs = instance.outputs.map { s in
            TestPlane(width: s.width, height: s.height, bytesPerPixel: s.bytesPerPixel, slack: instance.outputSlack, random: &random)
        }
        let inputPlanes = instance.inputs.map { $0.plane }
        let outputPlanes = outputs.map { $0.plane }
        // Planes do not own memory: keep the owners alive across the calls (Swift may end an
        // object's lifetime after its last use, and a freed large block is unmapped).
        withExtendedLifetime(instance.inputs) {
            for _ in 0..<iterations { v.run(inputPlanes, outputPlanes) }
        }
        var h = FNV1a()
        for o in outputs { h.combine(o.plane) }
        return Int32(truncatingIfNeeded: h.value & 0x7FFF_FFFF)
    }
}
