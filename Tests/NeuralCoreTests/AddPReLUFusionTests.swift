import NeuralCore
import TestSupport
import Testing

/// The integer program's ADD → PRELU fusion (`IntegerStep.addPReLU`, `InterpreterKernels.fusesAddPReLU`):
/// on the mesh and iris models (every residual block an ADD read only by a PRELU) the fused
/// program's outputs equal the two-pass program's bit for bit, with the native kernels and with
/// the scalar reference (each against its own two passes); a fused kernel writing zeros changes them (the fused step is the one run).
@Suite struct AddPReLUFusionTests {
    @Test(arguments: ["face_landmark", "iris_landmark"])
    func fusedProgramGivesTheTwoPassBits(model: String) throws {
        let bytes = try LiteRTReferenceTests.modelBytes(model)
        let table = try MixedPrecisionTests.table(bytes, settings: .unit)
        func kernels(_ base: InterpreterKernels, fused: Bool, kernel: AddPReLUKernel? = nil) -> InterpreterKernels {
            var k = base
            k.fusesAddPReLU = fused
            if let kernel { k.int8.addPReLU = kernel }
            return k
        }
        let zeros: AddPReLUKernel = { _, _, count, _, _, out in out.update(repeating: 0, count: count) }
        let passes = try FloatIslandTests.integer(bytes, table, kernels: kernels(.native, fused: false))
        let fused = try FloatIslandTests.integer(bytes, table, kernels: kernels(.native, fused: true))
        let scalarPasses = try FloatIslandTests.integer(bytes, table, kernels: kernels(.scalar, fused: false))
        let scalarFused = try FloatIslandTests.integer(bytes, table, kernels: kernels(.scalar, fused: true))
        let broken = try FloatIslandTests.integer(bytes, table, kernels: kernels(.native, fused: true, kernel: zeros))
        let brokenUnused = try FloatIslandTests.integer(bytes, table, kernels: kernels(.native, fused: false, kernel: zeros))
        for seed: UInt64 in [3, 11] {
            for o in 0..<passes.outputCount {
                let want = MixedPrecisionTests.run(passes, seed: seed, output: o).map(\.bitPattern)
                #expect(MixedPrecisionTests.run(fused, seed: seed, output: o).map(\.bitPattern) == want, "output \(o)")
                let scalar = MixedPrecisionTests.run(scalarPasses, seed: seed, output: o).map(\.bitPattern)
                #expect(MixedPrecisionTests.run(scalarFused, seed: seed, output: o).map(\.bitPattern) == scalar, "output \(o)")
                #expect(MixedPrecisionTests.run(broken, seed: seed, output: o).map(\.bitPattern) != want, "output \(o)")
                #expect(MixedPrecisionTests.run(brokenUnused, seed: seed, output: o).map(\.bitPattern) == want, "output \(o)")
            }
        }
    }
}
