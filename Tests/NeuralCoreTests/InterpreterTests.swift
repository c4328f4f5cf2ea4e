import Foundation
import NeuralCore
import TestSupport
import Testing

/// Loading, the public API, the memory plan and the no-allocation promise of `run()`, on the
/// five real models (always present: scripts/setup fetches them).
struct InterpreterTests {
    static let models = LiteRTReferenceTests.models

    static func bytes(_ name: String) throws -> [UInt8] { try LiteRTReferenceTests.modelBytes(name) }

    static func fillNoise(_ interpreter: Interpreter, seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        interpreter.withInput(0) { buffer in
            for i in buffer.indices { buffer[i] = Float.random(in: -1...1, using: &rng) }
        }
    }

    @Test("the allocation counter sees allocations")
    func counterWorks() {
        #if canImport(Glibc)
        var keep: [Int] = []
        #expect(MallocCounter.isActive, "malloc is not interposed: the test executable must export it")
        let objects = MallocCounter.count {
            keep = Array(repeating: 7, count: 1000 + Int.random(in: 0..<10))
            keep.append(contentsOf: keep)
        }
        #expect(objects >= 2)
        #expect(keep.count >= 2000)
        #endif
    }

    @Test("run() allocates nothing", arguments: models)
    func runAllocatesNothing(model: String) throws {
        #if canImport(Glibc)
        let interpreter = try Interpreter(model: try Self.bytes(model))
        Self.fillNoise(interpreter, seed: 1)
        interpreter.run()  // warm-up: nothing lazy may remain for the measured runs
        let counts = MallocCounter.count {
            for _ in 0..<3 { interpreter.run() }
        }
        #expect(counts == 0, "\(model): run() allocated \(counts) heap objects")
        #endif
    }

    @Test("shapes, counts and arena of every model", arguments: models)
    func shapes(model: String) throws {
        let interpreter = try Interpreter(model: try Self.bytes(model))
        #expect(interpreter.inputCount == 1)
        let shape = interpreter.inputShape(0)
        #expect(shape.count == 4 && shape[0] == 1 && shape[3] == 3)
        #expect(interpreter.outputCount >= 1)
        #expect(interpreter.arenaByteCount > 0)
        // The plan must beat giving every activation its own memory.
        let plan = interpreter.plan
        let separate = plan.sizes.reduce(0, +)
        #expect(interpreter.arenaByteCount < separate)
        print("arena: \(model) \(interpreter.arenaByteCount) bytes (\(separate) without reuse)")
    }

    @Test("the memory plan never overlaps two live tensors", arguments: models)
    func planHasNoLiveOverlap(model: String) throws {
        let interpreter = try Interpreter(model: try Self.bytes(model))
        let graph = interpreter.graph
        let plan = interpreter.plan
        // Recompute lifetimes independently of the planner.
        var first = [Int: Int](), last = [Int: Int]()
        for t in graph.inputs { first[t] = -1; last[t] = graph.operations.count }
        for (k, op) in graph.operations.enumerated() {
            first[op.output] = min(first[op.output] ?? k, k)
            last[op.output] = max(last[op.output] ?? k, k)
            for t in op.inputs where t >= 0 && graph.tensors[t].constantOffset == nil { last[t] = max(last[t] ?? k, k) }
        }
        for t in graph.outputs { last[t] = graph.operations.count }
        let live = Array(first.keys)
        for t in live { #expect(plan.offsets[t] != nil) }
        for (i, a) in live.enumerated() {
            for b in live[(i + 1)...] where first[a]! <= last[b]! && first[b]! <= last[a]! {
                let (oa, ob) = (plan.offsets[a]!, plan.offsets[b]!)
                let disjoint = oa + plan.sizes[a] <= ob || ob + plan.sizes[b] <= oa
                #expect(disjoint, "\(model): tensors \(a) and \(b) overlap while both are live")
                #expect(oa + plan.sizes[a] <= plan.byteCount)
            }
        }
    }

    @Test("scalar reference kernels and SIMD kernels agree bit for bit", arguments: models)
    func scalarMatchesSIMD(model: String) throws {
        // Both variants fuse the same products in the same order (the SIMD kernels only spread
        // output channels and pixels over lanes; both round each multiply-add once), so the
        // results must be identical, not merely close.
        let parsed = try TFLiteModel(bytes: try Self.bytes(model))
        let simd = try Interpreter(model: parsed)
        let scalar = try Interpreter(model: parsed, kernels: .scalar)
        Self.fillNoise(simd, seed: 9)
        Self.fillNoise(scalar, seed: 9)
        simd.run()
        scalar.run()
        for k in 0..<simd.outputCount {
            let a = simd.withOutput(k) { Array($0) }
            let b = scalar.withOutput(k) { Array($0) }
            let differing = zip(a, b).filter { $0.bitPattern != $1.bitPattern }.count
            #expect(differing == 0, "\(model) output \(k): \(differing) of \(a.count) values differ")
        }
    }

    @Test("runs are repeatable and inputs are respected")
    func repeatable() throws {
        let interpreter = try Interpreter(model: try Self.bytes("face_detection_short_range"))
        Self.fillNoise(interpreter, seed: 3)
        interpreter.run()
        let first = interpreter.withOutput(1) { Array($0) }
        interpreter.run()
        let second = interpreter.withOutput(1) { Array($0) }
        #expect(second == first, "a second run without new input must give the same output")
        Self.fillNoise(interpreter, seed: 4)
        interpreter.run()
        let third = interpreter.withOutput(1) { Array($0) }
        #expect(third != first, "a new input must change the output")
    }

    @Test("both execution paths present the same float boundary")
    func pathsShareTheBoundary() throws {
        let bytes = try Self.bytes("iris_landmark")
        let float = try Interpreter(model: bytes, path: .float)
        let integer = try Interpreter(model: bytes, path: .integer, calibration: .eyes)
        #expect(integer.path == .integer && float.path == .float)
        #expect(integer.inputCount == float.inputCount && integer.outputCount == float.outputCount)
        #expect(integer.inputShape(0) == float.inputShape(0))
        for k in 0..<float.outputCount { #expect(integer.outputShape(k) == float.outputShape(k)) }
    }
}
