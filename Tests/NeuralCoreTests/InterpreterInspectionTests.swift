import NeuralCore
import TestSupport
import Testing

/// `Interpreter.run(inspecting:)`, the hook `booth model run --dump` and
/// scripts/reference/intermediates.py use to compare every intermediate tensor with LiteRT's.
struct InterpreterInspectionTests {
    @Test("inspection visits every operation once, in order, and changes no result", arguments: LiteRTReferenceTests.models)
    func inspectionMatchesRun(model: String) throws {
        let parsed = try TFLiteModel(bytes: try LiteRTReferenceTests.modelBytes(model))
        let plain = try Interpreter(model: parsed)
        let inspected = try Interpreter(model: parsed)
        InterpreterTests.fillNoise(plain, seed: 21)
        InterpreterTests.fillNoise(inspected, seed: 21)
        plain.run()

        var visited = [Int]()
        var seenOutputs = [Int: [Float]]()  // graph output index → values seen during inspection
        inspected.run { operation, values in
            visited.append(operation)
            let tensor = inspected.graph.operations[operation].output
            #expect(values.count == inspected.graph.tensors[tensor].elementCount)
            if let k = inspected.graph.outputs.firstIndex(of: tensor) { seenOutputs[k] = Array(values) }
        }
        #expect(visited == Array(0..<inspected.graph.operations.count), "\(model): operations visited out of order or twice")
        for k in 0..<plain.outputCount {
            let expected = plain.withOutput(k) { Array($0) }
            let after = inspected.withOutput(k) { Array($0) }
            #expect(after.map(\.bitPattern) == expected.map(\.bitPattern), "\(model) output \(k): inspected run differs from run()")
            #expect(seenOutputs[k]?.map(\.bitPattern) == expected.map(\.bitPattern), "\(model) output \(k): inspected values differ")
        }
    }
}
