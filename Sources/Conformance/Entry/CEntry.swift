/// C entry points for the aarch64 conformance binary (`scripts/arm/driver.c`), exported with
/// `@_cdecl` so a plain C `main` can call the Embedded Swift object.

/// Flags for `booth_conformance_run`.
public enum ConformanceFlags {
    /// Print every checksum line (golden format) to stdout.
    public static let printChecksums: Int32 = 1
}

/// Runs the whole suite; compares with the golden text (`golden`, `count` bytes) when non-null.
/// `modelCount` model files (`modelNames[i]`: NUL-terminated file name, `modelBytes[i]`:
/// `modelSizes[i]` bytes) add the integer network checks; with `modelCount` < 0 they are skipped.
/// Prints one line per failure and a closing `N passed, N failed` line; returns 0 when all pass.
@_cdecl("booth_conformance_run")
public func boothConformanceRun(_ golden: UnsafePointer<UInt8>?, _ count: Int, _ flags: Int32,
                                _ modelNames: UnsafePointer<UnsafePointer<UInt8>?>?,
                                _ modelBytes: UnsafePointer<UnsafePointer<UInt8>?>?,
                                _ modelSizes: UnsafePointer<Int>?, _ modelCount: Int) -> Int32 {
    var problems: [String] = []
    var goldenFile: GoldenFile? = nil
    if let golden {
        goldenFile = GoldenFile(bytes: UnsafeBufferPointer(start: golden, count: count), problems: &problems)
    }
    var models: [ModelBlob]? = nil
    if modelCount >= 0, let modelNames, let modelBytes, let modelSizes {
        var blobs: [ModelBlob] = []
        for i in 0..<modelCount {
            guard let namePointer = modelNames[i], let bytes = modelBytes[i] else { continue }
            var length = 0
            while namePointer[length] != 0 { length += 1 }
            let name = String(decoding: UnsafeBufferPointer(start: namePointer, count: length), as: UTF8.self)
            blobs.append(ModelBlob(file: name, bytes: Array(UnsafeBufferPointer(start: bytes, count: modelSizes[i]))))
        }
        models = blobs
    } else if modelCount >= 0 {
        models = []
    }
    let run = ConformanceSuite.check(golden: goldenFile, models: models)
    problems += run.failures
    if flags & ConformanceFlags.printChecksums != 0 {
        print(GoldenFile.render(run.results), terminator: "")
    }
    for p in problems { print("FAIL \(p)") }
    let kernels = ConformanceSuite.kernels
    var variants = 0
    for k in kernels { variants += k.variantNames.count - 1 }
    print("integer kernels: \(NeuralCoreKernels.activeSetName)")
    print("conformance: \(kernels.count) kernels, \(variants) non-reference variants, \(run.results.count) cases, golden \(goldenFile == nil ? "not given" : "compared")")
    print("\(run.results.count - min(problems.count, run.results.count)) passed, \(problems.count) failed")
    return problems.isEmpty ? 0 : 1
}

/// Runs variant `variant` (0 = reference) of kernel `name` `iterations` times on the kernel's
/// bench case, or on a `width`×`height` image when both are positive (image kernels), for
/// instruction counting. Returns the output checksum's low 31 bits (so the work cannot be
/// optimized away), or -1 for an unknown kernel or variant.
@_cdecl("booth_conformance_bench")
public func boothConformanceBench(_ name: UnsafePointer<UInt8>, _ nameCount: Int, _ variant: Int32,
                                  _ width: Int, _ height: Int, _ iterations: Int) -> Int32 {
    let kernelName = String(decoding: UnsafeBufferPointer(start: name, count: nameCount), as: UTF8.self)
    guard let kernel = ConformanceSuite.kernel(named: kernelName) else { return -1 }
    var c = kernel.benchCase
    if width > 0 && height > 0 { c = ConformanceCase(width: width, height: height, slack: 0) }
    return ConformanceBench.run(kernel, variant: Int(variant), case: c, iterations: iterations)
}

/// Prints `kernel variantIndex variantName benchCase` for every kernel variant (0 = reference).
@_cdecl("booth_conformance_list")
public func boothConformanceList() -> Int32 {
    for k in ConformanceSuite.kernels {
        for (i, v) in k.variantNames.enumerated() { print("\(k.name) \(i) \(v) \(k.benchCase.label)") }
    }
    return 0
}

/// Loads model `name` (`bytes`, `count` bytes) on the float (`path` 0) or integer (`path` 1) path
/// and runs it `iterations` times (`NetworkBench`), for instruction counting. Returns the output
/// checksum's low 31 bits, or -1 after printing why the model could not run.
@_cdecl("booth_conformance_net")
public func boothConformanceNet(_ name: UnsafePointer<UInt8>, _ nameCount: Int, _ bytes: UnsafePointer<UInt8>,
                                _ count: Int, _ path: Int32, _ iterations: Int) -> Int32 {
    let file = String(decoding: UnsafeBufferPointer(start: name, count: nameCount), as: UTF8.self)
    do throws(NetworkBench.Failure) {
        let h = try NetworkBench.run(file: file, bytes: Array(UnsafeBufferPointer(start: bytes, count: count)),
                                     integer: path != 0, iterations: iterations)
        return Int32(truncatingIfNeeded: h & 0x7FFF_FFFF)
    } catch {
        print("net: \(error.description)")
        return -1
    }
}
