import NeuralCore

/// A whole network as an instruction-count workload (`scripts/arm/bench`, `make bench-arm`): one
/// model of `NetworkConformance.models` loaded on the float or the integer path (calibration and
/// weight packing included), fed the conformance input, then run `iterations` times. Counting at
/// two iteration numbers and subtracting leaves the cost of one inference.
public enum NetworkBench {
    /// Why a bench could not run.
    public enum Failure: Error {
        /// The file is not one of `NetworkConformance.models` (its input range is unknown).
        case unknownModel(String)
        /// The model did not load.
        case model(ModelError)

        public var description: String {
            switch self {
            case .unknownModel(let file):
                var known = ""
                for m in NetworkConformance.models { known += (known.isEmpty ? "" : ", ") + m.file }
                return "no input range for \(file) (known models: \(known))"
            case .model(let error): return error.description
            }
        }
    }

    /// Runs `file` (`bytes`) `iterations` times on the integer path (or the float one); returns a
    /// checksum of the outputs' bits, so the work cannot be optimised away. `table`, when not
    /// empty, is a `CalibrationTable`'s text the integer path adopts (its ranges and widths).
    public static func run(file: String, bytes: [UInt8], integer: Bool, iterations: Int,
                           table: [UInt8] = []) throws(Failure) -> UInt64 {
        guard let model = NetworkConformance.models.first(where: { file.utf8.elementsEqual($0.file.utf8) }) else {
            throw .unknownModel(file)
        }
        let interpreter: Interpreter
        do throws(ModelError) {
            var calibration = IntegerCalibration(inputLower: model.lower, inputUpper: model.upper)
            if !table.isEmpty { calibration.adopt(try CalibrationTable(parsing: String(decoding: table, as: UTF8.self))) }
            interpreter = try Interpreter(model: try TFLiteModel(bytes: bytes), path: integer ? .integer : .float,
                                          calibration: calibration)
        } catch {
            throw .model(error)
        }
        NetworkConformance.fillInput(interpreter, lower: model.lower, upper: model.upper)
        for _ in 0..<iterations { interpreter.run() }
        var h = FNV1a()
        for o in 0..<interpreter.outputCount {
            interpreter.withOutput(o) { if let base = $0.baseAddress { h.combine(base, count: $0.count * 4) } }
        }
        return h.value
    }
}
