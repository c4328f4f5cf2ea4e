import Foundation
import ImageCore
import ImageFiles
import NeuralCore
import Testing
import TestSupport
import Vision

/// The shipped calibration tables (`ModelCalibrations`, recorded by scripts/calibrate on
/// calibration/images/calibrate) on the held-out real photos of calibration/images/held-out,
/// which are in the repository (no fixtures needed): the integer path against the float path
/// (itself within 5.2e-5 of LiteRT, see LiteRTReferenceTests) on the crops the pipeline makes.
@Suite(.serialized) struct IntegerCalibrationTests {
    static let heldOut = Fixtures.packageRoot + "/calibration/images/held-out"

    /// Figures that still miss the NeuralCore issue's bound (`IntegerAccuracy`): the figure
    /// measured when the table was recorded (a known issue, reported as such while it misses) and
    /// a regression limit just above it. Every other figure must meet its bound. See README
    /// "Calibration" for what was tried.
    static let misses: [CalibrationModel: [String: (measured: Float, limit: Float)]] = [
        // int16 activations and 16 float operations: measured 0.0296 / 1.21 px (192×192 input;
        // 0.072 / 1.82 px without the float operations).
        .faceDetectionFullRange: ["face score Δ": (0.0296, 0.032), "face box Δ px": (1.21, 1.3)],
    ]

    static let images: [ImageBuffer] = {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: heldOut)) ?? []).sorted()
        return names.compactMap { try? ImageDecoder().decode(path: heldOut + "/" + $0, as: .rgb888) }
    }()

    static func bytes(_ m: CalibrationModel) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.models + "/" + m.fileName)))
    }

    @Test("every pinned model file has its shipped table", arguments: CalibrationModel.allCases)
    func everyModelHasItsTable(model: CalibrationModel) throws {
        let bytes = try Self.bytes(model)
        #expect(ModelCalibrations.hasTable(sha256: SHA256.hex(bytes)), "\(model.fileName): no table for its sha256")
        let table = try #require(ModelCalibrations.table(forModel: bytes))
        #expect(table.modelSHA256 == SHA256.hex(bytes))
        let interpreter = try ModelCalibrations.interpreter(model: bytes, for: model, path: .integer)
        #expect(interpreter.calibratedFromTable, "\(model.rawValue): the table does not fit its model")
    }

    @Test("integer path within the bounds on held-out real images", arguments: CalibrationModel.allCases)
    func integerPathOnHeldOutImages(model: CalibrationModel) throws {
        #expect(Self.images.count == 29, "calibration/images/held-out holds 29 photos")
        let faces = try FaceAnalyzer(modelDirectory: Fixtures.models, path: .float)
        let bytes = try Self.bytes(model)
        let integer = try ModelCalibrations.interpreter(model: bytes, for: model, path: .integer)
        #expect(integer.calibratedFromTable)
        let reference = try Interpreter(model: bytes, path: .float)
        let report = { () -> IntegerAccuracy in
            // `Self.images` is a static owner that lives as long as the process.
            let inputs = CalibrationInputs(model: model, images: Self.images.map { $0.unsafeImage() }, detector: faces.detector,
                                           landmarker: faces.landmarker, variants: 1, seed: 0x4E1D)
            return IntegerAccuracy(model: model, integer: integer, reference: reference, inputs: inputs)
        }()
        for f in report.figures {
            print("held-out \(model.rawValue) (int\(integer.activationBits)): \(f.summary)")
            #expect(f.count >= 20, "\(model.rawValue) \(f.name): only \(f.count) measured inputs")
            guard let miss = Self.misses[model]?[f.name] else {
                #expect(f.meetsBound, "\(model.rawValue) \(f.name): worst \(f.worst), bound \(f.bound)")
                continue
            }
            withKnownIssue("\(model.rawValue) \(f.name) misses its bound \(f.bound): measured \(miss.measured)") {
                #expect(f.meetsBound, "\(model.rawValue) \(f.name): worst \(f.worst), bound \(f.bound)")
            }
            if f.higherIsBetter {
                #expect(f.worst >= miss.limit, "\(model.rawValue) \(f.name): worst \(f.worst), regression limit \(miss.limit)")
            } else {
                #expect(f.worst <= miss.limit, "\(model.rawValue) \(f.name): worst \(f.worst), regression limit \(miss.limit)")
            }
        }
    }

    /// Another model file (one byte appended: a different sha256) still loads on the integer path,
    /// calibrated at load, and says so once.
    @Test func modelWithoutTableFallsBackWithOneWarning() throws {
        var bytes = try Self.bytes(.irisLandmark)
        bytes.append(0)
        var messages: [String] = []
        let saved = ModelCalibrations.warning
        ModelCalibrations.warning = { messages.append($0) }
        defer { ModelCalibrations.warning = saved }
        for _ in 0..<2 {
            let interpreter = try ModelCalibrations.interpreter(model: bytes, name: "iris_landmark", path: .integer,
                                                                base: CalibrationModel.irisLandmark.fallback)
            #expect(!interpreter.calibratedFromTable)
            #expect(interpreter.activationBits == 8)
        }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("iris_landmark: no calibration table") == true)
        let float = try ModelCalibrations.interpreter(model: bytes, name: "iris_landmark", path: .float, base: .unit)
        #expect(!float.calibratedFromTable)
    }

    @Test func sha256OfKnownVectors() {
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // Lengths around the 55/56/64-byte padding boundaries, fed whole and in pieces.
        for n in [55, 56, 63, 64, 65, 127, 1000] {
            let bytes = [UInt8](repeating: 0x61, count: n)
            var pieces = SHA256()
            pieces.update(bytes[0..<(n / 3)])
            pieces.update(Array(bytes[(n / 3)...]))
            let hex = pieces.finalize().map { String(format: "%02x", $0) }.joined()
            #expect(hex == SHA256.hex(bytes), "n = \(n)")
        }
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}
