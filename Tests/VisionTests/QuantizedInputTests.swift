import Foundation
import ImageCore
import NeuralCore
import Testing
import TestSupport
import Vision


/// `Interpreter.withQuantizedInput` (an integer program's input slot written by the caller) and
/// the samplers that write it (`ModelInputSampler.fillTabled(quantized:…)`, `TensorWarp.sample`
/// into a quantised tensor): the same bits as the float input followed by the program's own
/// quantise pass.
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
        for seed: UInt32 in [1, 2] {
            let x = Self.noise(count, seed: seed, lower: lower, upper: 1.1)
            interpreter.withInput(0) { t in for i in 0..<count { t[i] = x[i] } }
            interpreter.run()
            let reference = Self.outputs(interpreter)
            x.withUnsafeBufferPointer { src in
                switch slot.bits {
                case 8:
                    interpreter.withQuantizedInput(0, as: Int8.self) { q in quantizeScalar(src.baseAddress!, count, slot.parameters, q.baseAddress!) }
                default:
                    interpreter.withQuantizedInput(0, as: Int16.self) { q in quantizeScalar(src.baseAddress!, count, slot.parameters, q.baseAddress!) }
                }
            }
            // The float tensor holds other values now: a run that read it would differ.
            interpreter.withInput(0) { t in for i in 0..<count { t[i] = 0.5 } }
            x.withUnsafeBufferPointer { src in
                switch slot.bits {
                case 8:
                    interpreter.withQuantizedInput(0, as: Int8.self) { q in quantizeScalar(src.baseAddress!, count, slot.parameters, q.baseAddress!) }
                default:
                    interpreter.withQuantizedInput(0, as: Int16.self) { q in quantizeScalar(src.baseAddress!, count, slot.parameters, q.baseAddress!) }
                }
            }
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

    static func frame(_ format: PixelFormat, width: Int, height: Int, seed: UInt32) -> ImageBuffer {
        let buffer = ImageBuffer(format: format, width: width, height: height)
        buffer.withImage { image in
            var s = seed
            func next() -> UInt8 { s = s &* 1_103_515_245 &+ 12345; return UInt8(truncatingIfNeeded: s >> 16) }
            let p = image.planes
            for plane in [p.0, p.1, p.2] where plane.width > 0 {
                for y in 0..<plane.height { for x in 0..<(plane.width * plane.bytesPerPixel) { plane.row(y)[x] = next() } }
            }
        }
        return buffer
    }

    static let parameters = [QuantParams(scale: 1 / 32767, zeroPoint: 0), QuantParams(scale: 1.3 / 32767, zeroPoint: 0),
                             QuantParams(scale: 0.7 / 32767, zeroPoint: 0)]
    static let parameters8 = [QuantParams(scale: 1 / 255, zeroPoint: -128), QuantParams(scale: 2 / 255, zeroPoint: 0),
                              QuantParams(scale: 0.8 / 255, zeroPoint: -100)]

    /// The segmentation sampler, tabled and not, live (one tap) and still-like (several taps,
    /// rotated), int16 and int8 slots, against `fillTabled` then `quantizeScalar`.
    @Test(arguments: [PixelFormat.i420, .nv12, .rgb888])
    func samplerWritesTheQuantisedFloats(format: PixelFormat) {
        let buffer = Self.frame(format, width: 100, height: 70, seed: 99)
        let tables = ModelInputTables(maxSide: 256, maxTaps: 4)
        buffer.withImage { image in
            for (rotation, taps, fit) in [(FrameRotation.none, 1, MaskMapping.Fit.stretch), (.none, 1, .letterbox),
                                          (.clockwise90, 2, .letterbox), (.rotate180, 1, .stretch)] {
                let mapping = MaskMapping(frameWidth: 100, frameHeight: 70, rotation: rotation, modelWidth: 45, modelHeight: 27, fit: fit)
                let n = 45 * 27 * 3
                var floats = [Float](repeating: 0, count: n), lumaF = [UInt8](repeating: 0, count: 45 * 27)
                floats.withUnsafeMutableBufferPointer { f in
                    lumaF.withUnsafeMutableBufferPointer { l in
                        ModelInputSampler.fillTabled(f, luma: l.baseAddress, from: image, mapping: mapping, taps: taps, tables: tables)
                    }
                }
                for p in Self.parameters {
                    var expected = [Int16](repeating: 0, count: n), got = [Int16](repeating: 7, count: n)
                    var luma = [UInt8](repeating: 0, count: 45 * 27)
                    floats.withUnsafeBufferPointer { f in expected.withUnsafeMutableBufferPointer { quantizeScalar(f.baseAddress!, n, p, $0.baseAddress!) } }
                    got.withUnsafeMutableBufferPointer { q in
                        luma.withUnsafeMutableBufferPointer { l in
                            ModelInputSampler.fillTabled(quantized: q, scale: p.scale, zeroPoint: p.zeroPoint, luma: l.baseAddress, from: image,
                                                         mapping: mapping, taps: taps, tables: tables)
                        }
                    }
                    #expect(got == expected, "\(format) \(rotation) taps \(taps) \(fit) scale \(p.scale)")
                    #expect(luma == lumaF)
                    var plain = [Int16](repeating: 7, count: n)
                    plain.withUnsafeMutableBufferPointer { q in
                        ModelInputSampler.fill(quantized: q, scale: p.scale, zeroPoint: p.zeroPoint, luma: nil, from: image,
                                               mapping: mapping, taps: taps)
                    }
                    #expect(plain == expected, "fill: \(format) \(rotation)")
                }
                for p in Self.parameters8 {
                    var expected = [Int8](repeating: 0, count: n), got = [Int8](repeating: 7, count: n)
                    floats.withUnsafeBufferPointer { f in expected.withUnsafeMutableBufferPointer { quantizeScalar(f.baseAddress!, n, p, $0.baseAddress!) } }
                    got.withUnsafeMutableBufferPointer { q in
                        ModelInputSampler.fillTabled(quantized: q, scale: p.scale, zeroPoint: p.zeroPoint, luma: nil, from: image,
                                                     mapping: mapping, taps: taps, tables: tables)
                    }
                    #expect(got == expected, "int8: \(format) \(rotation) taps \(taps) \(fit) scale \(p.scale)")
                }
            }
        }
    }

    /// The tensor warp, both variants, int8 and int16, [0, 1] and [-1, 1], zero and replicated
    /// borders, one and four taps, against the float warp then `quantizeScalar`.
    @Test(arguments: [PixelFormat.i420, .nv12, .rgb888, .xrgb8888, .gray8])
    func tensorWarpWritesTheQuantisedFloats(format: PixelFormat) {
        let buffer = Self.frame(format, width: 61, height: 47, seed: 7)
        buffer.withImage { image in
            let grids = [TensorGrid(originX: 3.3, originY: -1.7, ux: 1.1, uy: 0.3, vx: -0.3, vy: 1.1, tapsU: 1, tapsV: 1),
                         TensorGrid(originX: 20, originY: 10, ux: 1.8, uy: 0.6, vx: -0.6, vy: 1.8, tapsU: 2, tapsV: 2),
                         TensorGrid(originX: -5, originY: 30, ux: 0.7, uy: -0.2, vx: 0.2, vy: 0.7, tapsU: 1, tapsV: 1)]
            for grid in grids {
                for (range, border) in [(TensorRange.zeroToOne, TensorBorder.replicate), (.minusOneToOne, .zero)] {
                    for width in [7, 8, 19, 32] {
                        let n = width * 6 * 3
                        var floats = [Float](repeating: 0, count: n)
                        floats.withUnsafeMutableBufferPointer {
                            TensorWarp.scalar(image, grid: grid, into: $0, width: width, height: 6, range: range, border: border)
                        }
                        for variant in KernelVariant.allCases {
                            for p in Self.parameters8 + [QuantParams(scale: 1 / 127.5, zeroPoint: 0)] {
                                var expected = [Int8](repeating: 0, count: n), got = [Int8](repeating: 7, count: n)
                                floats.withUnsafeBufferPointer { f in expected.withUnsafeMutableBufferPointer { quantizeScalar(f.baseAddress!, n, p, $0.baseAddress!) } }
                                got.withUnsafeMutableBufferPointer {
                                    TensorWarp.sample(image, grid: grid, into: $0, scale: p.scale, zeroPoint: p.zeroPoint, width: width, height: 6,
                                                      range: range, border: border, variant: variant)
                                }
                                #expect(got == expected, "\(format) \(variant) width \(width) \(range) scale \(p.scale)")
                            }
                            for p in Self.parameters {
                                var expected = [Int16](repeating: 0, count: n), got = [Int16](repeating: 7, count: n)
                                floats.withUnsafeBufferPointer { f in expected.withUnsafeMutableBufferPointer { quantizeScalar(f.baseAddress!, n, p, $0.baseAddress!) } }
                                got.withUnsafeMutableBufferPointer {
                                    TensorWarp.sample(image, grid: grid, into: $0, scale: p.scale, zeroPoint: p.zeroPoint, width: width, height: 6,
                                                      range: range, border: border, variant: variant)
                                }
                                #expect(got == expected, "int16: \(format) \(variant) width \(width) \(range)")
                            }
                        }
                    }
                }
            }
        }
    }

    /// The rounding in lanes on values at and around every half (the ties round away from
    /// zero) and far outside the range, against the scalar reference, through a 1-pixel-high
    /// warp of a gray frame whose samples give those values.
    @Test func roundingTiesAndSaturation() {
        // Gray level g at scale s·(1/255) maps to g·s/255 · (1 / scale): choose scale so the
        // values land on halves.
        let buffer = ImageBuffer(format: .gray8, width: 256, height: 1)
        buffer.withImage { image in
            for x in 0..<256 { image.luma.row(0)[x] = UInt8(x) }
            let grid = TensorGrid(originX: 0.5, originY: 0.5, ux: 1, uy: 0, vx: 0, vy: 1, tapsU: 1, tapsV: 1)
            for p in [QuantParams(scale: 2 / 255, zeroPoint: 3), QuantParams(scale: 4 / 255, zeroPoint: -128),
                      QuantParams(scale: 0.25 / 255, zeroPoint: 0), QuantParams(scale: 2 / 255, zeroPoint: -1)] {
                for range in [TensorRange.zeroToOne, .minusOneToOne, TensorRange(scale: 1000, offset: -128_000)] {
                    var floats = [Float](repeating: 0, count: 256 * 3)
                    floats.withUnsafeMutableBufferPointer {
                        TensorWarp.scalar(image, grid: grid, into: $0, width: 256, height: 1, range: range, border: .replicate)
                    }
                    var expected = [Int8](repeating: 0, count: 768), got = [Int8](repeating: 7, count: 768)
                    floats.withUnsafeBufferPointer { f in expected.withUnsafeMutableBufferPointer { quantizeScalar(f.baseAddress!, 768, p, $0.baseAddress!) } }
                    got.withUnsafeMutableBufferPointer {
                        TensorWarp.sample(image, grid: grid, into: $0, scale: p.scale, zeroPoint: p.zeroPoint, width: 256, height: 1,
                                          range: range, border: .replicate, variant: .simd)
                    }
                    #expect(got == expected, "scale \(p.scale) zp \(p.zeroPoint) range \(range)")
                }
            }
        }
    }
}
