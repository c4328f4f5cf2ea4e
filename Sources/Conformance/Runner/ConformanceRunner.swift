import ImageCore

/// Runs every variant of a kernel against its scalar reference on seeded inputs and checksums
/// the reference output. Inputs and outputs are `TestPlane`s whose slack and padding are seeded
/// too, so an over-write past a row, or a pixel left unwritten, differs from the reference.
public enum ConformanceRunner {
    /// All cases of all `kernels`.
    public static func run(_ kernels: [ConformanceKernel]) -> ConformanceRun {
        var run = ConformanceRun()
        for kernel in kernels { run.append(self.run(kernel)) }
        return run
    }

    /// All cases of one kernel (its own list unless `cases` is given).
    public static func run(_ kernel: ConformanceKernel, cases: [ConformanceCase]? = nil) -> ConformanceRun {
        var run = ConformanceRun()
        for (index, c) in (cases ?? kernel.cases).enumerated() {
            run.append(self.run(kernel, case: c, seed: seed(kernel: kernel.name, caseIndex: index)))
        }
        return run
    }

    /// One case: reference, then each variant on identical inputs and identical initial outputs.
    public static func run(_ kernel: ConformanceKernel, case c: ConformanceCase, seed: UInt64) -> ConformanceRun {
        var run = ConformanceRun()
        var random = ConformanceRandom(seed: seed)
        let instance = kernel.instantiate(c, &random)
        let inputs = instance.inputs
        let initialOutputs = instance.outputs.map { s in
            TestPlane(width: s.width, height: s.height, bytesPerPixel: s.bytesPerPixel, slack: instance.outputSlack, random: &random)
        }
        let inputCopies = inputs.map { TestPlane(copying: $0) }
        let inputPlanes = inputs.map { $0.plane }

        let reference = initialOutputs.map { TestPlane(copying: $0) }
        instance.reference.run(inputPlanes, reference.map { $0.plane })
        let where_ = kernel.name + " " + c.label
        for (i, out) in reference.enumerated() {
            if let at = out.firstDifference(from: initialOutputs[i]), !out.isPixel(offset: at) {
                run.failures.append("\(where_): reference \(instance.reference.name) wrote outside output \(i)'s pixels at byte \(at)")
            }
        }
        var checksum = FNV1a()
        for out in reference { checksum.combine(out.plane) }
        run.results.append(ConformanceResult(kernel: kernel.name, caseLabel: c.label, checksum: checksum.value))

        for variant in instance.variants {
            let outputs = initialOutputs.map { TestPlane(copying: $0) }
            variant.run(inputPlanes, outputs.map { $0.plane })
            for (i, out) in outputs.enumerated() {
                if let at = out.firstDifference(from: reference[i]) {
                    let what = out.isPixel(offset: at) ? "pixel" : "slack/padding"
                    run.failures.append("\(where_): \(variant.name) differs from \(instance.reference.name) in output \(i) at byte \(at) (\(what))")
                }
            }
        }
        for (i, input) in inputs.enumerated() where input.firstDifference(from: inputCopies[i]) != nil {
            run.failures.append("\(where_): a variant wrote into input \(i)")
        }
        return run
    }

    /// The seed of case `caseIndex` of `kernel`: FNV-1a of the name, mixed with the index.
    public static func seed(kernel: String, caseIndex: Int) -> UInt64 {
        var h = FNV1a()
        for b in kernel.utf8 { h.combine(UInt64(b)) }
        h.combine(UInt64(caseIndex))
        return h.value
    }
}
