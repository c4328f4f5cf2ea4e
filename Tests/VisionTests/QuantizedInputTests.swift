import Foundation
import ImageCore
import NeuralCore
import Testing
import TestSupport
import Vision

/// `Interpreter.withQuantizedInput` (an integer program's input slot written by the caller): the
/// same bits as the float input followed by the program's own quantise pass.
@Suite struct QuantizedInputTests {
    static func bytes(_ m: CalibrationModel) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.models + "/" + m.fileName)))
    }

    static func noise(_ n: Int, seed: UInt32, lower: Float, upper: Float) -> [Float] {
        var s = seed
        return (0..<n).map { _ in
            s = s &* 1_103_515_245 &+ 12345
            return lower + (upper - lower) * Float(s >> 8) / Float(1 << 24)
        }
    }

    static func outputs(_ interpreter: Interpreter) -> [[UInt32]] {
        (0..<interpreter.outputCount).map { i in interpreter.withOutput(i) { $0.map(\.bitPattern) } }
    }

    /// Every shipped model on the integer path (its calibration table, float runs and all):
    /// floats written and quantised by the program, against the same floats quantised by
    /// `quantizeScalar` into the slot; then floats again (the quantise step is back).
    /// Models whose shipped tables run their first operations in float, reading the float input
    /// itself (a float run at the input): no quantised input slot (write floats).
    static let floatAtTheInput: Set<CalibrationModel> = [.faceDetection, .irisLandmark, .selfieSegmentationLandscape]

    @Test("a quantised input runs the same bits as the float input", arguments: CalibrationModel.allCases)
    func quantizedInputEqualsFloatInput(model: CalibrationModel) throws {
        let interpreter = try ModelCalibrations.interpreter(model: try Self.bytes(model), for: model, path: .integer)
        guard let slot = interpreter.quantizedInput(0) else {
            #expect(Self.floatAtTheInput.contains(model), "\(model.rawValue): no quantised input slot")
            return
        }
        #expect(!Self.floatAtTheInput.contains(model))
        #expect(slot.bits == interpreter.activationBits || slot.bits == 8 || slot.bits == 16)
        let count = interpreter.inputShape(0).reduce(1, *)
        #expect(slot.count == count)
        // The detectors read [-1, 1], the others [0, 1]; a margin outside reaches the clamps.
        let lower: Float = model == .faceDetection || model == .faceDetectionFullRange ? -1.1 : -0.1
        // The slot filled from `x` by the scalar quantiser, as a caller writing integers would.
        func writeQuantized(_ x: [Float]) {
            x.withUnsafeBufferPointer { src in
                switch slot.bits {
                case 8:
                    interpreter.withQuantizedInput(0, as: Int8.self) { q in quantizeScalar(src.baseAddress!, count, slot.parameters, q.baseAddress!) }
                default:
                    interpreter.withQuantizedInput(0, as: Int16.self) { q in quantizeScalar(src.baseAddress!, count, slot.parameters, q.baseAddress!) }
                }
            }
        }
        for seed: UInt32 in [1, 2] {
            let x = Self.noise(count, seed: seed, lower: lower, upper: 1.1)
            interpreter.withInput(0) { t in for i in 0..<count { t[i] = x[i] } }
            interpreter.run()
            let reference = Self.outputs(interpreter)
            // The float tensor holds other values now: a run that read it would differ.
            interpreter.withInput(0) { t in for i in 0..<count { t[i] = 0.5 } }
            writeQuantized(x)
            interpreter.run()
            #expect(Self.outputs(interpreter) == reference, "\(model.rawValue) seed \(seed)")
            // Floats again: the program's quantise step runs again.
            interpreter.withInput(0) { t in for i in 0..<count { t[i] = x[i] } }
            interpreter.run()
            #expect(Self.outputs(interpreter) == reference, "\(model.rawValue) seed \(seed), floats again")
        }
    }

    @Test func floatPathHasNoQuantizedInput() throws {
        let interpreter = try ModelCalibrations.interpreter(model: try Self.bytes(.irisLandmark), for: .irisLandmark, path: .float)
        #expect(interpreter.quantizedInput(0) == nil)
    }
}
