import Conformance
import Foundation
import Testing

/// The conformance suite on x86_64: every kernel variant against its scalar reference (bit for
/// bit, seeded inputs, sizes around the vector widths, odd strides), and every checksum against
/// `golden.txt`, the file `scripts/arm/test` holds the aarch64 build to.
/// `BOOTH_UPDATE_GOLDEN=1 swift test --filter ConformanceTests` (scripts/arm/update-golden)
/// rewrites the golden file instead of comparing.
@Suite struct ConformanceTests {
    static let goldenPath: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/golden.txt"
    }()

    static var kernelNames: [String] { ConformanceSuite.kernels.map(\.name) }

    @Test(arguments: kernelNames)
    func variantsEqualTheScalarReference(kernel name: String) throws {
        let kernel = try #require(ConformanceSuite.kernel(named: name))
        let run = ConformanceRunner.run(kernel)
        #expect(run.results.count == kernel.cases.count)
        for failure in run.failures { Issue.record("\(failure)") }
    }

    /// `models/` of the package, or `BOOTH_MODELS` (scripts/fetch-models fills it; CI has it).
    static var modelsDirectory: String {
        if let env = ProcessInfo.processInfo.environment["BOOTH_MODELS"] { return env }
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/models"
    }

    static func loadModels() -> [ModelBlob] {
        NetworkConformance.models.compactMap { model in
            guard let data = FileManager.default.contents(atPath: modelsDirectory + "/" + model.file) else { return nil }
            return ModelBlob(file: model.file, bytes: [UInt8](data))
        }
    }

    /// Kernel checksums and the integer networks' outputs (scalar and SIMD kernel sets equal, the
    /// reference's outputs checksummed) against the golden file.
    @Test func checksumsMatchTheGoldenFile() throws {
        let run = ConformanceSuite.check(golden: nil, models: Self.loadModels())
        for failure in run.failures { Issue.record("\(failure)") }
        let results = run.results
        if ProcessInfo.processInfo.environment["BOOTH_UPDATE_GOLDEN"] == "1" {
            try GoldenFile.render(results).write(toFile: Self.goldenPath, atomically: true, encoding: .utf8)
            print("ConformanceTests: wrote \(results.count) checksums to \(Self.goldenPath)")
            return
        }
        let text = try String(contentsOfFile: Self.goldenPath, encoding: .utf8)
        var problems: [String] = []
        let golden = GoldenFile(text: text, problems: &problems)
        problems += golden.mismatches(results)
        for p in problems { Issue.record("\(p)") }
        #expect(golden.entries.count == results.count)
    }

    /// The checks can fail: a variant that differs from the reference in one pixel, or that
    /// writes one byte past its row, is reported, and a changed checksum is a golden mismatch.
    @Test func aBrokenVariantIsCaught() {
        let offByOne = ConformanceVariant(name: "off-by-one") { i, o in
            InvertKernel.invertScalar(i[0], o[0])
            let last = o[0].row(o[0].height - 1)
            last[o[0].rowBytes - 1] &+= 1
        }
        let overWrite = ConformanceVariant(name: "over-write") { i, o in
            InvertKernel.invertScalar(i[0], o[0])
            o[0].row(0)[o[0].rowBytes] = ~o[0].row(0)[o[0].rowBytes]
        }
        let reference = ConformanceVariant(name: "scalar") { i, o in InvertKernel.invertScalar(i[0], o[0]) }
        let broken = ConformanceKernel(
            name: "broken.invert",
            shapes: { w, h in
                ([PlaneShape(width: w, height: h, bytesPerPixel: 1)], [PlaneShape(width: w, height: h, bytesPerPixel: 1)])
            },
            reference: reference, variants: [offByOne, overWrite])
        let cases = [ConformanceCase(width: 17, height: 2, slack: 3)]
        let run = ConformanceRunner.run(broken, cases: cases)
        #expect(run.failures.count == 2)
        #expect(run.failures.contains { $0.contains("off-by-one") && $0.contains("(pixel)") })
        #expect(run.failures.contains { $0.contains("over-write") && $0.contains("(slack/padding)") })

        var changed = run.results
        changed[0].checksum ^= 1
        let golden = GoldenFile(entries: run.results.map { GoldenFile.Entry(key: $0.key, checksum: $0.checksum) })
        #expect(golden.mismatches(run.results).isEmpty)
        #expect(golden.mismatches(changed).count == 1)
        #expect(golden.mismatches([]).count == 1)
    }

    @Test func goldenTextRoundTrips() {
        let results = [ConformanceResult(kernel: "k", caseLabel: "1x1+0", checksum: 0x0123_4567_89AB_CDEF),
                       ConformanceResult(kernel: "k", caseLabel: "2x1+1", checksum: 0)]
        var problems: [String] = []
        let golden = GoldenFile(text: GoldenFile.render(results) + "not a line\n", problems: &problems)
        #expect(problems.count == 1)
        #expect(golden.entries.map(\.key) == ["k 1x1+0", "k 2x1+1"])
        #expect(golden.entries.map(\.checksum) == [0x0123_4567_89AB_CDEF, 0])
    }

    @Test func fnv1aMatchesPublishedVectors() {
        // FNV-1a 64 test vectors: "" and "a".
        #expect(FNV1a().value == 0xCBF2_9CE4_8422_2325)
        var h = FNV1a()
        let a: [UInt8] = [0x61]
        a.withUnsafeBytes { h.combine($0.baseAddress!, count: 1) }
        #expect(h.value == 0xAF63_DC4C_8601_EC8C)
    }
}
