import CNeuralKernels
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

    /// A run's final PRELU fused with its int8 output (`IntegerKernelSetOf.islandPReLU`, the `neon`
    /// set's `IslandPReLUKernel.c`): on the mesh (int8, PRELUs after convolutions and ADDs) with
    /// two PRELU-only runs, a run of an operation and its PRELU and a PRELU + next-operation run (not fused), the
    /// outputs are the separate passes' bits; a kernel writing zeros instead changes them (the
    /// fused path is the one taken).
    @Test func fusedPReLUEdgesGiveTheSeparatePassesBits() throws {
        let bytes = try LiteRTReferenceTests.modelBytes("face_landmark")
        var table = try MixedPrecisionTests.table(bytes, settings: .unit)
        let ops = try Interpreter(model: bytes, path: .float).graph.operations
        let prelus = ops.indices.filter { if case .prelu = ops[$0].kind { return true } else { return false } }
        #expect(prelus.count > 10)
        // A PRELU right after the operation producing its input (a CONV_2D or ADD in the mesh).
        let conv = try #require(prelus.dropFirst(4).first { ops[$0].inputs[0] == ops[$0 - 1].output })
        table.floatTensors = [ops[prelus[0]].output, ops[prelus[2]].output, ops[conv - 1].output, ops[conv].output,
                              ops[prelus.last!].output, ops[prelus.last! + 1].output]
        func kernels(_ prelu: IslandPReLUKernel?) -> InterpreterKernels {
            var k = InterpreterKernels.native
            k.int8.islandPReLU = prelu
            return k
        }
        let zeros = IslandPReLUKernel(quantized: { _, _, _, pixels, channels, _, out in out.update(repeating: 0, count: pixels * channels) },
                                      float: { _, _, pixels, channels, _, out in out.update(repeating: 0, count: pixels * channels) })
        let passes = try Self.integer(bytes, table, kernels: kernels(nil))
        let fused = try Self.integer(bytes, table, kernels: kernels(.c))
        let reference = try Self.integer(bytes, table, kernels: kernels(.reference))
        let broken = try Self.integer(bytes, table, kernels: kernels(zeros))
        for o in 0..<passes.outputCount {
            let want = MixedPrecisionTests.run(passes, seed: 9, output: o).map(\.bitPattern)
            #expect(MixedPrecisionTests.run(fused, seed: 9, output: o).map(\.bitPattern) == want, "output \(o)")
            #expect(MixedPrecisionTests.run(reference, seed: 9, output: o).map(\.bitPattern) == want, "output \(o)")
            #expect(MixedPrecisionTests.run(broken, seed: 9, output: o).map(\.bitPattern) != want, "output \(o)")
        }
    }

    /// A run's last convolution writing its quantised output itself (`IntegerKernelSetOf.islandConv`,
    /// the `neon` set's `IslandConvKernel.c`): on the landscape model (int16) and the mesh (int8),
    /// runs of a convolution alone reading the float model input, of a later convolution alone, of a
    /// depthwise alone and of an operation and a depthwise give the separate passes' bits (off
    /// aarch64 the C kernel takes no shape, so this checks the run's own packing and fallback); a
    /// kernel writing zeros instead changes them (the fused path is the one taken).
    @Test(arguments: ["selfie_segmentation_landscape", "face_landmark"])
    func fusedConvolutionEdgesGiveTheSeparatePassesBits(model: String) throws {
        let bytes = try LiteRTReferenceTests.modelBytes(model)
        var table = try MixedPrecisionTests.table(bytes, settings: .unit)
        let ops = try Interpreter(model: bytes, path: .float).graph.operations
        func isConv(_ k: Int) -> Bool { if case .conv2D = ops[k].kind { return true } else { return false } }
        func isDepthwise(_ k: Int) -> Bool { if case .depthwiseConv2D = ops[k].kind { return true } else { return false } }
        // The tensor the integer program's operation k writes (a RELU after it is folded into it).
        func written(_ k: Int) -> Int {
            if k + 1 < ops.count, case .relu = ops[k + 1].kind, ops[k + 1].inputs[0] == ops[k].output { return ops[k + 1].output }
            return ops[k].output
        }
        let convs = ops.indices.filter(isConv), depthwise = ops.indices.filter(isDepthwise)
        #expect(convs.count > 8 && depthwise.count > 6)
        #expect(ops[convs[0]].inputs[0] == 0, "the first convolution reads the model input")
        // A depthwise right after the operation producing its input.
        let pair = try #require(depthwise.dropFirst(4).first { ops[$0].inputs[0] == written($0 - 1) && $0 - 1 != convs[0] })
        table.floatTensors = [written(convs[0]), written(convs[6]), written(depthwise[2]), written(pair - 1), written(pair)]
        func kernels(_ conv: IslandConvKernel?) -> InterpreterKernels {
            var k = InterpreterKernels.native
            k.int8.islandConv = conv
            return k
        }
        let zeros = IslandConvKernel { _, shape, _, _, _, bits, _, out in
            let d = shape.pointee
            out.initializeMemory(as: UInt8.self, repeating: 0, count: d.batch * d.out_h * d.out_w * d.out_c * bits / 8)
            return true
        }
        let passes = try Self.integer(bytes, table, kernels: kernels(nil))
        let fused = try Self.integer(bytes, table, kernels: kernels(.c))
        let broken = try Self.integer(bytes, table, kernels: kernels(zeros))
        for o in 0..<passes.outputCount {
            let want = MixedPrecisionTests.run(passes, seed: 5, output: o).map(\.bitPattern)
            #expect(MixedPrecisionTests.run(fused, seed: 5, output: o).map(\.bitPattern) == want, "output \(o)")
            #expect(MixedPrecisionTests.run(broken, seed: 5, output: o).map(\.bitPattern) != want, "output \(o)")
        }
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
