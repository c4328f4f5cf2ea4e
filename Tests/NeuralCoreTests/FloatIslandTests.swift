import NeuralCore
import TestSupport
import Testing

/// Operations of an integer program computed in float (`f` records of a `CalibrationTable`,
/// `FloatIsland`): the records round-trip (bad ones are refused in CalibrationTableTests); a program with every
/// operation in float gives the float path's bits; one with a few float operations in the middle
/// runs them, the same bits on the scalar and native kernels, different from the all-integer
/// program; a record past the graph is refused at load.
@Suite struct FloatIslandTests {
    @Test func floatRecordsRoundTrip() throws {
        var table = CalibrationTable(modelSHA256: String(repeating: "a", count: 64), settings: "fuse=1",
                                     lower: [0, 1, 2], upper: [1, 2, 3], channels: [:], widths: [1: 8], floatTensors: [2, 0])
        let parsed = try CalibrationTable(parsing: table.text())
        #expect(parsed == table)
        #expect(table.text().contains("f 0\nf 2\n"))
        table.floatTensors = []
        #expect(!table.text().contains("\nf "))
    }

    static func integer(_ bytes: [UInt8], _ table: CalibrationTable, kernels: InterpreterKernels = .native) throws -> Interpreter {
        var calibration = IntegerCalibration.unit
        calibration.adopt(table)
        return try Interpreter(model: bytes, path: .integer, kernels: kernels, calibration: calibration)
    }

    /// Every operation in float is one island reading the model input and writing the outputs
    /// unrounded: the float path's values, on the landscape model (int16) and the mesh (int8,
    /// PRELUs, float regressor outputs). Without cross-layer equalisation, whose rescaled filters
    /// round differently; folded RELUs clamp to the same values.
    @Test(arguments: ["selfie_segmentation_landscape", "face_landmark"])
    func everyOperationInFloatIsTheFloatPath(model: String) throws {
        let bytes = try LiteRTReferenceTests.modelBytes(model)
        var settings = IntegerCalibration.unit
        settings.equalize = false
        var table = try MixedPrecisionTests.table(bytes, settings: settings)
        table.floatTensors = Set(0..<table.tensorCount)
        let islands = try Self.integer(bytes, table)
        let float = try Interpreter(model: bytes, path: .float)
        let plain = try Self.integer(bytes, try MixedPrecisionTests.table(bytes, settings: .unit))
        for o in 0..<float.outputCount {
            let f = MixedPrecisionTests.run(float, seed: 21, output: o), i = MixedPrecisionTests.run(islands, seed: 21, output: o)
            #expect(f == i, "output \(o)")
            #expect(MixedPrecisionTests.run(plain, seed: 21, output: o) != f,
                    "the all-integer program differs from the float path (output \(o))")
        }
    }

    /// Two separate runs of float operations in the middle of the int16 landscape model: the same
    /// bits on the scalar and native kernels, not the all-integer program's, and close to the
    /// float path.
    @Test func floatOperationsInTheMiddleRun() throws {
        let bytes = try LiteRTReferenceTests.modelBytes("selfie_segmentation_landscape")
        let plainTable = try MixedPrecisionTests.table(bytes, settings: .unit)
        var table = plainTable
        let float = try Interpreter(model: bytes, path: .float)
        let ops = float.graph.operations
        let convs = ops.indices.filter { if case .conv2D = ops[$0].kind { return true } else { return false } }
        #expect(convs.count > 8)
        // Two islands: one CONV_2D alone, and two consecutive operations further on.
        table.floatTensors = [ops[convs[2]].output, ops[convs[6]].output, ops[convs[6] + 1].output]
        let native = try Self.integer(bytes, table), scalar = try Self.integer(bytes, table, kernels: .scalar)
        let plain = try Self.integer(bytes, plainTable)
        let n = MixedPrecisionTests.run(native, seed: 7), s = MixedPrecisionTests.run(scalar, seed: 7)
        let p = MixedPrecisionTests.run(plain, seed: 7), f = MixedPrecisionTests.run(float, seed: 7)
        #expect(n.map(\.bitPattern) == s.map(\.bitPattern))
        #expect(n.map(\.bitPattern) != p.map(\.bitPattern))
        var sum: Float = 0
        for i in 0..<f.count { sum += abs(n[i] - f[i]) }
        #expect(sum / Float(f.count) < 0.05, "mean |integer − float| \(sum / Float(f.count))")
    }

    /// A float record for a tensor past the graph is refused at load with the tensor named.
    @Test func aFloatRecordForAMissingTensorIsRefused() throws {
        let bytes = try LiteRTReferenceTests.modelBytes("selfie_segmentation_landscape")
        var table = try MixedPrecisionTests.table(bytes, settings: .unit)
        table.floatTensors = [table.tensorCount + 5]
        #expect {
            _ = try Self.integer(bytes, table)
        } throws: { error in
            guard let e = error as? ModelError, case .malformed(let what) = e else { return false }
            return what.contains("tensor " + String(table.tensorCount + 5))
        }
    }
}
