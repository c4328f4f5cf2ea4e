/// Every kernel the conformance runner checks, on x86 (`ConformanceTests`) and on aarch64
/// (`scripts/arm/test`). Extension point: append adapters here as the cores grow
/// (ImageCore's kernel table, NeuralCore's integer kernels and networks, Vision's kernels).
public enum ConformanceSuite {
    public static var kernels: [ConformanceKernel] {
        var all: [ConformanceKernel] = [InvertKernel.conformance]
        all += ImageCoreKernels.conformance
        all += NeuralCoreKernels.conformance
        all += VisionKernelsConformance.conformance
        return all
    }

    /// The kernel called `name`, if any.
    public static func kernel(named name: String) -> ConformanceKernel? {
        for k in kernels where k.name.utf8.elementsEqual(name.utf8) { return k }
        return nil
    }

    /// Runs every kernel, and the integer networks when `models` is given, and compares with
    /// `golden` (when given): the failures list holds variant-versus-reference differences and
    /// golden mismatches.
    public static func check(golden: GoldenFile?, models: [ModelBlob]? = nil) -> ConformanceRun {
        var run = ConformanceRunner.run(kernels)
        if let models { run.append(NetworkConformance.run(models)) }
        if let golden { run.failures += golden.mismatches(run.results) }
        return run
    }
}
