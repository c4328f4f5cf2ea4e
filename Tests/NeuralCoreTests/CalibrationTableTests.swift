import Foundation
import NeuralCore
import TestSupport
import Testing

/// `CalibrationTable`: recorded on a model, written, read back exactly, and refused when malformed
/// or recorded for another graph.
@Suite struct CalibrationTableTests {
    static let sha = String(repeating: "ab", count: 32)
    /// The first two lines of a well-formed table, for the malformed cases.
    static let head = "booth-calibration 1\nmodel " + String(repeating: "0", count: 64) + "\n"

    static func small() -> CalibrationTable {
        CalibrationTable(modelSHA256: sha, settings: IntegerCalibration.unit.graphSettings,
                         lower: [-1, .infinity, 0, -0.125], upper: [1, -.infinity, 6.5, 3.0e-7],
                         channels: [2: [0.5, 1.25, 3]], widths: [0: 16, 3: 8])
    }

    @Test func textRoundTripsExactly() throws {
        let table = Self.small()
        let text = table.text()
        #expect(text.hasPrefix("booth-calibration 1\nmodel " + Self.sha + "\n"))
        #expect(!text.contains("r 1 "), "a tensor without a range is not written")
        #expect(text.contains("\nw 0 16\nw 3 8\n"))
        let back = try CalibrationTable(parsing: "# a comment\n" + text)
        #expect(back == table)
    }

    @Test(arguments: [
        ("", "empty"),
        ("booth-calibration 2\n", "format version"),
        ("not a table\n", "not a Booth calibration table"),
        ("booth-calibration 1\nmodel abc\n", "model <sha256>"),
        (Self.head + "r 0 00000000 3f800000\n", "before 'tensors'"),
        (Self.head + "tensors 2\nr 5 00000000 3f800000\n", "past the tensor count"),
        (Self.head + "tensors 2\nr 0 3f800000 00000000\n", "lower bound above upper"),
        (Self.head + "tensors 2\nr 0 0000zz00 3f800000\n", "8 hex digits"),
        (Self.head + "tensors 2\nr 0 7f800000 7f800000\n", "finite"),
        (Self.head + "tensors 2\nc 0 3 00000000\n", "channel values"),
        (Self.head + "tensors 2\nq 1\n", "unknown record"),
        ("booth-calibration 1\ntensors 2\n", "lacks its 'model'"),
        (Self.head + "tensors 2\nw 1 12\n", "not 8 or 16"),
        (Self.head + "tensors 2\nw 2 8\n", "past the tensor count"),
        (Self.head + "w 0 8\n", "width before 'tensors'"),
        (Self.head + "f 1\ntensors 2\n", "float operation before 'tensors'"),
        (Self.head + "tensors 2\nf 2\n", "past the tensor count"),
        (Self.head + "tensors 2\nf 1 8\n", "expected 'f <tensor>'"),
        (Self.head + "tensors 2\nf x\n", "not a count"),
    ])
    func malformedTablesAreRefusedWithTheReason(text: String, reason: String) {
        #expect {
            _ = try CalibrationTable(parsing: text)
        } throws: { error in
            guard let e = error as? ModelError, case .malformed(let what) = e else { return false }
            return what.contains(reason)
        }
    }

    /// A table recorded on the model replaces the load-time run; a table for another graph or
    /// other settings is not used.
    @Test func recordedTableIsUsedOnlyWhereItFits() throws {
        let bytes = try LiteRTReferenceTests.modelBytes("face_detection_short_range")
        let model = try TFLiteModel(bytes: bytes)
        var state: UInt64 = 7
        let table = try CalibrationTable.record(model: model, modelSHA256: Self.sha, calibration: .signedUnit, count: 3) { _, input in
            for i in 0..<input.count {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                input[i] = Float(state >> 40) / Float(1 << 24) * 2 - 1
            }
        }
        #expect(table.lower[0] >= -1 && table.upper[0] <= 1 && table.lower[0] < table.upper[0])
        #expect(!table.channels.isEmpty, "activation-aware equalisation records channel maxima")
        var calibration = IntegerCalibration.signedUnit
        calibration.adopt(try CalibrationTable(parsing: table.text()))
        let withTable = try Interpreter(model: model, path: .integer, calibration: calibration)
        #expect(withTable.calibratedFromTable)

        var other = calibration
        other.equalize = false  // a different graph than the one recorded
        #expect(!(try Interpreter(model: model, path: .integer, calibration: other)).calibratedFromTable)
        var short = table
        short.lower.removeLast(); short.upper.removeLast(); short.tensorCount -= 1
        var shortCalibration = IntegerCalibration.signedUnit
        shortCalibration.adopt(short)
        #expect(!(try Interpreter(model: model, path: .integer, calibration: shortCalibration)).calibratedFromTable)
        #expect(!(try Interpreter(model: model, path: .float)).calibratedFromTable)
    }

    @Test func zeroInputsAreRefused() throws {
        let model = try TFLiteModel(bytes: try LiteRTReferenceTests.modelBytes("iris_landmark"))
        #expect(throws: ModelError.self) {
            _ = try CalibrationTable.record(model: model, modelSHA256: Self.sha, calibration: .unit, count: 0) { _, _ in }
        }
    }

    /// `clipBits`: every range narrowed to its least-squared-error one inside the recorded range
    /// (the model input's and bounds at zero kept), some strictly; other widths refused.
    @Test func clippedRangesLieInsideTheRecordedOnes() throws {
        let model = try TFLiteModel(bytes: try LiteRTReferenceTests.modelBytes("face_detection_short_range"))
        func record(_ bits: Int) throws -> CalibrationTable {
            var state: UInt64 = 11
            return try CalibrationTable.record(model: model, modelSHA256: Self.sha, calibration: .signedUnit, count: 3,
                                               clipBits: bits) { _, input in
                for i in 0..<input.count {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    input[i] = Float(state >> 40) / Float(1 << 24) * 2 - 1
                }
            }
        }
        let full = try record(0), clipped = try record(8)
        #expect(full.tensorCount == clipped.tensorCount)
        #expect(full.lower[0] == clipped.lower[0] && full.upper[0] == clipped.upper[0], "the model input keeps its range")
        var narrower = 0
        for t in 0..<full.tensorCount where full.lower[t] <= full.upper[t] {
            #expect(clipped.lower[t] >= full.lower[t] && clipped.upper[t] <= full.upper[t] && clipped.lower[t] <= clipped.upper[t],
                    "tensor \(t): [\(clipped.lower[t]), \(clipped.upper[t])] outside [\(full.lower[t]), \(full.upper[t])]")
            if full.lower[t] >= 0 { #expect(clipped.lower[t] == full.lower[t], "tensor \(t): a lower bound at or above zero stays") }
            if clipped.lower[t] > full.lower[t] || clipped.upper[t] < full.upper[t] { narrower += 1 }
        }
        #expect(narrower > 0)
        #expect(throws: ModelError.self) { _ = try record(12) }
    }
}
