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

/// The float path's reductions (the segmentation models' squeeze-and-excitation global average
/// pools and MEANs over whole 128×128 maps) are the float64 mean rounded once. With a float32
/// running sum, as TFLite's reference kernel keeps (and this path did), this test measured 188 ulp
/// (selfie_segmentation) and 441 ulp (selfie_segmentation_landscape) of the mean.
struct FloatReductionTests {
    @Test("global average pools and means are within 1 ulp of the float64 mean",
          arguments: ["selfie_segmentation", "selfie_segmentation_landscape"])
    func reductionsAreExact(model: String) throws {
        let interpreter = try Interpreter(model: try LiteRTReferenceTests.modelBytes(model))
        InterpreterTests.fillNoise(interpreter, seed: 5)
        let graph = interpreter.graph
        // Inputs of the global reductions, captured when their producer runs.
        var reductions = Set<Int>()
        for (k, op) in graph.operations.enumerated() {
            let input = graph.tensors[op.inputs[0]].shape4, output = graph.tensors[op.output].shape4
            switch op.kind {
            case .averagePool2D(let g) where output[1] == 1 && output[2] == 1 && g.filterH >= input[1] && g.filterW >= input[2]:
                reductions.insert(k)
            case .mean(let reduced) where reduced == [false, true, true, false]:
                reductions.insert(k)
            default:
                break
            }
        }
        let wanted = Set(reductions.map { graph.operations[$0].inputs[0] })
        var captured = [Int: [Float]]()
        var checked = 0, worstUlps: Double = 0
        interpreter.run { k, values in
            let tensor = graph.operations[k].output
            if wanted.contains(tensor) { captured[tensor] = Array(values) }
            guard reductions.contains(k), let x = captured[graph.operations[k].inputs[0]] else { return }
            let s = graph.tensors[graph.operations[k].inputs[0]].shape4
            let (h, w, c) = (s[1], s[2], s[3])
            for ch in 0..<c {
                var sum: Double = 0
                for i in 0..<(h * w) { sum += Double(x[i * c + ch]) }
                let exact = sum / Double(h * w)
                let ours = values[ch]
                worstUlps = max(worstUlps, abs(Double(ours) - exact) / Double(max(ours.ulp, Float.leastNormalMagnitude)))
                checked += 1
            }
        }
        #expect(!reductions.isEmpty, "\(model) has no global average pool or mean")
        #expect(checked > 0)
        #expect(worstUlps <= 1, "\(model): a reduction is \(worstUlps) ulp from the float64 mean")
        print("float reductions: \(model): \(reductions.count) global reductions, \(checked) channels, worst \(worstUlps) ulp from the float64 mean")
    }
}
