import NeuralCore
import TestSupport
import Testing

/// The per-layer precision research of issue 16 (`Interpreter.precisionSensitivity`): the integer
/// path simulated in float on the generated calibration set, scored as the share of pixels on the
/// other side of 0.5 than the float path's mask (not 1 − IoU: the set's colour-blob images have
/// almost no person, where IoU swings from 0 to 1 on a handful of pixels).
@Suite struct PrecisionSensitivityTests {
    static func maskError(_ outputs: [[Float]], _ reference: [[Float]]) -> Float {
        var differ = 0
        for i in 0..<reference[0].count where (outputs[0][i] >= 0.5) != (reference[0][i] >= 0.5) { differ += 1 }
        return Float(differ) / Float(max(reference[0].count, 1))
    }

    static func inputs(_ interpreter: Interpreter, count: Int) -> [[Float]] {
        let s = interpreter.inputShape(0)
        return (0..<count).map {
            CalibrationImages.generate(index: $0, height: s[1], width: s[2], channels: s[3], calibration: .unit)
        }
    }

    /// With the trial width equal to the base width every operation's figure is the base figure
    /// (the simulation rounds the same tensors the same way), and all-int16 activations cost less
    /// than all-int8 ones.
    @Test func simulationIsConsistent() throws {
        let interpreter = try Interpreter(model: try LiteRTReferenceTests.modelBytes("selfie_segmentation_landscape"))
        let inputs = Self.inputs(interpreter, count: 2)
        let same = try interpreter.precisionSensitivity(inputs: inputs, calibration: .unit, baseBits: 16, trialBits: 16,
                                                         error: Self.maskError)
        #expect(!same.operations.isEmpty)
        #expect(same.operations.allSatisfy { $0.error == same.base })
        let int8 = try interpreter.precisionSensitivity(inputs: inputs, calibration: .unit, baseBits: 8, trialBits: 8,
                                                        error: Self.maskError)
        #expect(same.base < int8.base)
        #expect(throws: ModelError.self) {
            try interpreter.precisionSensitivity(inputs: inputs, calibration: .unit, baseBits: 4, trialBits: 8,
                                                 error: Self.maskError)
        }
    }

    /// Each layer of a segmentation model switched alone from int16 to int8 activations: the
    /// measurement a per-layer choice starts from (printed, worst first).
    @Test(arguments: ["selfie_segmentation", "selfie_segmentation_landscape"])
    func layersRankedByInt8Cost(model: String) throws {
        let interpreter = try Interpreter(model: try LiteRTReferenceTests.modelBytes(model))
        let inputs = Self.inputs(interpreter, count: 4)
        let r = try interpreter.precisionSensitivity(inputs: inputs, calibration: .unit, baseBits: 16, trialBits: 8,
                                                     error: Self.maskError)
        let all8 = try interpreter.precisionSensitivity(inputs: inputs, calibration: .unit, baseBits: 8, trialBits: 8,
                                                        error: Self.maskError).base
        let ranked = r.operations.sorted { $0.error > $1.error }
        var lines = ["\(model), mask pixels flipped: all int16 \(r.base), all int8 \(all8); one layer at int8:"]
        for s in ranked { lines.append("  \(model) op \(s.operation) \(s.kind) \(s.tensor): \(s.error)") }
        print(lines.joined(separator: "\n"))
        #expect(r.base < all8)
        #expect(ranked.count > 50 && ranked[0].error > r.base)
    }
}
