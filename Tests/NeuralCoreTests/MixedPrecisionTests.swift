import NeuralCore
import TestSupport
import Testing

/// Per-tensor activation widths in one integer program (`WidthPlan`, `CalibrationTable.widths`):
/// the width-conversion kernel's variants agree bit for bit and with the real-valued conversion; a
/// table asking every tensor of an int16 model for int8 gives exactly the int8 program; a table
/// mixing widths runs with conversions, the same bits on every kernel set, close to the float path.
@Suite struct MixedPrecisionTests {
    static func random(_ g: inout SeededGenerator, bits: Int) -> QuantParams {
        let scale = Float.random(in: 0.001...0.1, using: &g)
        return bits == 8 ? QuantParams(scale: scale, zeroPoint: Int32.random(in: -128...127, using: &g))
                         : QuantParams(scale: scale / 200, zeroPoint: 0)
    }

    /// int8 → int16 and int16 → int8 at random parameters and lengths (SIMD body and scalar tail):
    /// SIMD equals the scalar reference, which is within half an output step of the real value
    /// (or saturated).
    @Test func widthConversionVariantsAreBitExact() {
        var g = SeededGenerator(seed: 16)
        for trial in 0..<40 {
            let count = trial % 37
            let p8 = Self.random(&g, bits: 8), p16 = Self.random(&g, bits: 16)
            let x8 = (0..<count).map { _ in Int8.random(in: -128...127, using: &g) }
            let x16 = (0..<count).map { _ in Int16.random(in: -32768...32767, using: &g) }
            let widen = RequantizeParams(input: p8, output: p16), narrow = RequantizeParams(input: p16, output: p8)
            var a16 = [Int16](repeating: 0, count: count), b16 = a16
            var a8 = [Int8](repeating: 0, count: count), b8 = a8
            WidthConversion.scalar(x8, count, widen, &a16)
            WidthConversion.simd(x8, count, widen, &b16)
            WidthConversion.scalar(x16, count, narrow, &a8)
            WidthConversion.simd(x16, count, narrow, &b8)
            #expect(a16 == b16 && a8 == b8, "trial \(trial)")
            for i in 0..<count {
                let real16 = p8.dequantize(x8[i]) / p16.scale
                if abs(real16) < 32767 { #expect(abs(Float(a16[i]) - real16) <= 0.51, "widen \(x8[i]) at \(trial)") }
                let real8 = p16.dequantize(x16[i]) / p8.scale + Float(p8.zeroPoint)
                if real8 > -128 && real8 < 127 { #expect(abs(Float(a8[i]) - real8) <= 0.51, "narrow \(x16[i]) at \(trial)") }
                else { #expect(a8[i] == (real8 <= -128 ? -128 : 127)) }
            }
        }
    }

    static func table(_ bytes: [UInt8], settings calibration: IntegerCalibration) throws -> CalibrationTable {
        var g = SeededGenerator(seed: 5)
        return try CalibrationTable.record(model: try TFLiteModel(bytes: bytes), modelSHA256: String(repeating: "0", count: 64),
                                           calibration: calibration, count: 2) { _, input in
            for i in 0..<input.count { input[i] = Float.random(in: 0...1, using: &g) }
        }
    }

    static func run(_ interpreter: Interpreter, seed: UInt64, output: Int = 0) -> [Float] {
        var g = SeededGenerator(seed: seed)
        interpreter.withInput(0) { for i in 0..<$0.count { $0[i] = Float.random(in: 0...1, using: &g) } }
        interpreter.run()
        return interpreter.withOutput(output) { Array($0) }
    }

    /// The landscape model is int16 by default; its table asking every tensor for int8 must give
    /// the int8 program's bits (same ranges, no conversions left but none needed).
    @Test func everyTensorAtInt8IsTheInt8Program() throws {
        let bytes = try LiteRTReferenceTests.modelBytes("selfie_segmentation_landscape")
        var narrowSettings = IntegerCalibration.unit
        narrowSettings.activations = .int8
        var narrow = try Self.table(bytes, settings: narrowSettings)
        var mixed = narrow
        mixed.settings = IntegerCalibration.unit.graphSettings
        mixed.widths = Dictionary(uniqueKeysWithValues: (0..<mixed.tensorCount).map { ($0, 8) })
        narrow.widths = [:]
        var a = IntegerCalibration.unit, b = IntegerCalibration.unit
        a.adopt(narrow)
        b.adopt(mixed)
        let int8 = try Interpreter(model: bytes, path: .integer, calibration: a)
        let all8 = try Interpreter(model: bytes, path: .integer, calibration: b)
        #expect(int8.activationBits == 8 && all8.activationBits == 16)
        #expect(all8.operationWidths?.int16 == 0)
        #expect(Self.run(int8, seed: 3).map(\.bitPattern) == Self.run(all8, seed: 3).map(\.bitPattern))
    }

    /// Every other CONV_2D of the int16 landscape model at int8: conversions both ways, the same
    /// bits on the scalar and native kernels, and the mask close to the float path's.
    @Test func mixedWidthsRunWithConversions() throws {
        let bytes = try LiteRTReferenceTests.modelBytes("selfie_segmentation_landscape")
        var table = try Self.table(bytes, settings: .unit)
        let float = try Interpreter(model: bytes, path: .float)
        var convs = 0
        for op in float.graph.operations {
            guard case .conv2D = op.kind else { continue }
            convs += 1
            if convs % 2 == 0 { table.widths[op.output] = 8 }
        }
        var calibration = IntegerCalibration.unit
        calibration.adopt(table)
        let scalar = try Interpreter(model: bytes, path: .integer, kernels: .scalar, calibration: calibration)
        let native = try Interpreter(model: bytes, path: .integer, calibration: calibration)
        let widths = try #require(native.operationWidths)
        #expect(widths.int8 > 0 && widths.int16 > widths.int8)
        let s = Self.run(scalar, seed: 9), n = Self.run(native, seed: 9), f = Self.run(float, seed: 9)
        #expect(s.map(\.bitPattern) == n.map(\.bitPattern))
        var sum: Float = 0
        for i in 0..<f.count { sum += abs(n[i] - f[i]) }
        #expect(sum / Float(f.count) < 0.05, "mean |integer − float| \(sum / Float(f.count))")
    }

    /// `model` forced to int16 activations (one generated calibration image), on the native and
    /// the scalar kernels.
    static func forcedInt16(_ model: String, _ base: IntegerCalibration)
        throws -> (bytes: [UInt8], native: Interpreter, scalar: Interpreter) {
        var calibration = base
        calibration.activations = .int16
        calibration.generatedCount = 1
        let bytes = try LiteRTReferenceTests.modelBytes(model)
        return (bytes, try Interpreter(model: bytes, path: .integer, calibration: calibration),
                try Interpreter(model: bytes, path: .integer, kernels: .scalar, calibration: calibration))
    }

    /// PRELU has no int16-activation kernel: forcing int16 on the mesh model (PRELU after most
    /// convolutions) runs every PRELU at int8 through width conversions (`WidthPlan`), with the
    /// same bits on the scalar and native kernels and landmarks as close to the float path's as
    /// the int8 program's.
    @Test func int16MeshRunsItsPReLUsAtInt8() throws {
        let (bytes, native, scalar) = try Self.forcedInt16("face_landmark", .unit)
        let float = try Interpreter(model: bytes, path: .float)
        var calibration = IntegerCalibration.unit
        calibration.generatedCount = 1
        let int8 = try Interpreter(model: bytes, path: .integer, calibration: calibration)
        let prelus = float.graph.operations.filter { if case .prelu = $0.kind { return true } else { return false } }.count
        let widths = try #require(native.operationWidths)
        // The PRELUs, and the pads and pools that copy their outputs, run at int8.
        #expect(prelus > 0 && widths.int8 >= prelus && widths.int16 > 0, "\(prelus) PRELUs, widths \(widths)")
        let n = Self.run(native, seed: 2), s = Self.run(scalar, seed: 2), f = Self.run(float, seed: 2)
        let e = Self.run(int8, seed: 2)
        #expect(n.map(\.bitPattern) == s.map(\.bitPattern))
        let mixed = zip(n, f).map { abs($0 - $1) }.max() ?? .infinity, narrow = zip(e, f).map { abs($0 - $1) }.max() ?? 0
        #expect(mixed <= narrow + 0.5, "worst landmark Δ: int16 with int8 PRELUs \(mixed) px, int8 \(narrow) px")
    }

    /// Forced to int16, the iris model has a convolution whose int32 accumulator could overflow
    /// (`checkAccumulator`): it runs at int8 through conversions instead of refusing the model,
    /// with the same bits on the scalar and native kernels.
    @Test func anOverflowingConvolutionRunsAtInt8() throws {
        let (_, native, scalar) = try Self.forcedInt16("iris_landmark", .eyes)
        let widths = try #require(native.operationWidths)
        #expect(widths.int8 >= 1 && widths.int16 > widths.int8, "widths \(widths)")
        #expect(Self.run(native, seed: 4).map(\.bitPattern) == Self.run(scalar, seed: 4).map(\.bitPattern))
    }

    /// A width record for a tensor past the graph is refused at load with the tensor named.
    @Test func aWidthForAMissingTensorIsRefused() throws {
        let bytes = try LiteRTReferenceTests.modelBytes("selfie_segmentation_landscape")
        var table = try Self.table(bytes, settings: .unit)
        table.widths[table.tensorCount + 3] = 8
        var calibration = IntegerCalibration.unit
        calibration.adopt(table)
        #expect {
            _ = try Interpreter(model: bytes, path: .integer, calibration: calibration)
        } throws: { error in
            guard let e = error as? ModelError, case .malformed(let what) = e else { return false }
            return what.contains("tensor " + String(table.tensorCount + 3))
        }
    }
}
