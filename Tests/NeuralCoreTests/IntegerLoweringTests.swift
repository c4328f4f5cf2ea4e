import NeuralCore
import TestSupport
import Testing

/// The kernel choice as a value (`InterpreterKernels`) and the integer lowering's refusals: a model
/// the integer path cannot run is a thrown `ModelError` naming the operator, never a crash.
@Suite struct IntegerLoweringTests {
    static func name(_ s: StaticString) -> String {
        String(decoding: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount), as: UTF8.self)
    }

    @Test func kernelSetsFollowTheCPUFeatures() {
        #expect(InterpreterKernels.all(for: .baseline).map { Self.name($0.name) } == ["scalar", "simd"])
        let a72 = CPUFeatures(neon: true, dotProduct: false), a76 = CPUFeatures(neon: true, dotProduct: true)
        #expect(InterpreterKernels.all(for: a72).map { Self.name($0.name) } == ["scalar", "simd", "neon"])
        #expect(InterpreterKernels.all(for: a76).map { Self.name($0.name) } == ["scalar", "simd", "neon", "neon-dot"])
        #expect(Self.name(InterpreterKernels.best(for: .baseline).name) == "simd")
        #expect(Self.name(InterpreterKernels.best(for: a76).int8.name) == "neon-dot")
        #expect(Self.name(InterpreterKernels.best(for: a76).int16.name) == "neon-dot16")
        #expect(!InterpreterKernels.scalar.floatSIMD && InterpreterKernels.best(for: .baseline).floatSIMD)
        #expect(Self.name(InterpreterKernels.scalar.int8.name) == "scalar")
        #expect(Self.name(InterpreterKernels.scalar.int16.name) == "scalar16")
#if arch(x86_64)
        let haswell = CPUFeatures(neon: false, dotProduct: false, avx2: true)
        #expect(InterpreterKernels.all(for: haswell).map { Self.name($0.name) } == ["scalar", "simd", "avx2"])
        #expect(Self.name(InterpreterKernels.best(for: haswell).int16.name) == "avx2_16")
        // AVX-512 VNNI is probed at run time: a haswell build on such a CPU adds the `avx512` set.
        let vnni = CPUFeatures(neon: false, dotProduct: false, avx2: true, avx512vnni: true)
        #expect(InterpreterKernels.all(for: vnni).map { Self.name($0.name) } == ["scalar", "simd", "avx2", "avx512"])
        #expect(Self.name(InterpreterKernels.best(for: vnni).int8.name) == "avx512")
        #expect(Self.name(InterpreterKernels.best(for: vnni).int16.name) == "avx512_16")
        // Without the C kernels (no AVX2 in the build) VNNI alone adds nothing.
        #expect(!CPUFeatures(neon: false, dotProduct: false, avx2: false, avx512vnni: true).avx512vnni)
#endif
    }

    /// Two interpreters with different kernel sets, built and run at the same time on two threads,
    /// give the same bits: the choice is each interpreter's own value, so nothing one test picks
    /// leaks into another running in parallel.
    @Test func scalarAndNativeInterpretersRunSideBySide() async throws {
        let bytes = try LiteRTReferenceTests.modelBytes("selfie_segmentation_landscape")
        @Sendable func outputs(_ kernels: InterpreterKernels) throws -> [Float] {
            let interpreter = try Interpreter(model: bytes, path: .integer, kernels: kernels, calibration: .unit)
            var g = SeededGenerator(seed: 21)
            interpreter.withInput(0) { for i in 0..<$0.count { $0[i] = Float.random(in: 0...1, using: &g) } }
            interpreter.run()
            return interpreter.withOutput(0) { Array($0) }
        }
        async let scalar = Task.detached { try outputs(.scalar) }.value
        async let native = Task.detached { try outputs(.native) }.value
        let (a, b) = try await (scalar, native)
        #expect(a.count == 144 * 256)
        #expect(a.map(\.bitPattern) == b.map(\.bitPattern))
    }
}
