import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Posix
import ImageCore
import ImageFiles
import NeuralCore
import Vision

/// `booth model calibrate`: records a model's `CalibrationTable` on real images (the float path
/// over the crops the pipeline makes, with camera-like variations; see `CalibrationInputs`) and
/// checks the integer path against the float path on held-out images. `scripts/calibrate` drives it.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Record a model's integer calibration table on real images, and check it on held-out ones.")

    @Argument(help: "The model: \(CalibrationModel.allCases.map(\.rawValue).joined(separator: ", ")).")
    var model: String
    @Option(help: "Models folder (default: $BOOTH_MODELS or ./models).") var models: String?
    @Option(name: .customLong("images"), help: "A folder of calibration images (JPEG/PNG); repeatable.")
    var imageFolders: [String] = []
    @Option(name: .customLong("held-out"), help: "A folder of held-out images to check on; repeatable.")
    var heldOutFolders: [String] = []
    @Option(help: "Variants per region: the region as is, then camera-like variations (≥ 1).") var variants = 3
    @Option(help: "Variants per region when checking (1: the held-out images as they are).") var checkVariants = 1
    @Option(help: "Share of inputs whose extremes each range covers (0 < c ≤ 1; 1: min/max over all).")
    var coverage: Float = 1
    @Option(help: "Narrow each recorded range to the least mean squared quantisation error at this width (8 or 16; 0: min/max as covered).")
    var clipBits = 0
    @Option(help: "Cross-layer equalisation before calibrating: activations (by the recorded channel ranges), weights (by the filters) or none.")
    var equalize: Equalization = .activations
    @Option(help: "Activation width: automatic (int16 for per-pixel outputs, else int8), int8 or int16.")
    var activations: Width = .automatic
    @Flag(help: "Also report what int8 weights alone cost (the float path with int8-rounded filters).")
    var weightsOnly = false
    @Option(help: "Print the per-tensor integer error on this held-out input (an index).") var diagnose: Int?
    @Option(help: "Write the table as a Swift source file here (Sources/Vision/Calibration/Tables/…).")
    var output: String?
    @Option(help: "Choose per-layer widths for an int16 model: int8 where the calibration images' figures stay within this share of their bound (see PrecisionChoice; e.g. 0.003).")
    var narrowBudget: Float?
    @Flag(help: "With --narrow-budget: one contiguous int8 block, shrunk from its more sensitive end, instead of operations one by one.")
    var narrowBlock = false
    @Option(help: "Run up to this many operations in float, chosen one at a time by the error they remove on the calibration images (see FloatChoice; 0: none).")
    var floatOps = 0
    @Option(help: "With --float-ops: stop once every figure's worst is within this share of its bound.")
    var floatMargin: Float = 0.8
    @Option(help: "With --float-ops: every operation of these kinds (e.g. PRELU) in float first, comma-separated.")
    var floatKinds: String = ""
    @Option(help: "With --float-ops: rank operations by the error they remove per unit of estimated cost (cost, the default; FloatChoice.Cost) or by the error alone (error).")
    var floatBy: FloatRanking = .cost
    @Flag(help: "Take each float operation back to integer, costliest first, wherever no calibration input's figure gets worse without it (after --float-ops; without --float-ops: prunes the shipped table's float operations).")
    var floatPrune = false
    @Flag(help: "Without --float-ops: take the shipped table's float operations back to integer, costliest first, wherever every calibration figure's worst stays within --float-margin of its bound (then --float-prune, if given).")
    var floatTrim = false
    @Option(help: "Research: every tensor at this width (8 or 16), then each operation alone at the other width, measured on the calibration images (see WidthSweep); prints one line per operation.")
    var sweepWidths: Int?
    @Flag(help: "Research: take each float operation of the shipped table (or BOOTH_CALIBRATION_TABLES') back to integer alone and print, on the --images inputs, the integer program's figures and a float simulation's with only its filter, only its activations, or both rounded (see IslandSensitivity).")
    var islandSensitivity = false
    @Option(help: "With --island-sensitivity: the filters' width in the simulation (8: the integer path's).")
    var weightBits = 8

    enum Equalization: String, ExpressibleByArgument { case activations, weights, none }
    enum Width: String, ExpressibleByArgument { case automatic, int8, int16 }
    enum FloatRanking: String, ExpressibleByArgument { case cost, error }

    /// The model's load-time settings with the chosen rewrites.
    func settings(_ which: CalibrationModel) -> IntegerCalibration {
        var c = which.fallback
        c.equalize = equalize != .none
        c.activationAwareEqualization = equalize == .activations
        switch activations {
        case .automatic: c.activations = .automatic
        case .int8: c.activations = .int8
        case .int16: c.activations = .int16
        }
        return c
    }

    func validate() throws {
        guard CalibrationModel(rawValue: model) != nil else {
            throw ValidationError("unknown model '\(model)'; one of \(CalibrationModel.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard variants >= 1, checkVariants >= 1 else { throw ValidationError("--variants and --check-variants must be at least 1") }
        guard coverage > 0 && coverage <= 1 else { throw ValidationError("--coverage must be in (0, 1]") }
        guard [0, 8, 16].contains(clipBits) else { throw ValidationError("--clip-bits must be 0, 8 or 16") }
        guard !imageFolders.isEmpty || !heldOutFolders.isEmpty else { throw ValidationError("give --images, --held-out or both") }
        if output != nil && imageFolders.isEmpty { throw ValidationError("--output needs --images") }
        guard floatOps >= 0 else { throw ValidationError("--float-ops must be at least 0") }
        guard floatMargin > 0 && floatMargin <= 1 else { throw ValidationError("--float-margin must be in (0, 1]") }
        if floatOps > 0 && imageFolders.isEmpty { throw ValidationError("--float-ops needs --images") }
        if floatPrune && imageFolders.isEmpty { throw ValidationError("--float-prune needs --images") }
        if floatTrim && (imageFolders.isEmpty || floatOps > 0) { throw ValidationError("--float-trim needs --images and no --float-ops") }
        if let narrowBudget {
            guard narrowBudget >= 0 && narrowBudget < 1 else { throw ValidationError("--narrow-budget must be in [0, 1)") }
            guard !imageFolders.isEmpty else { throw ValidationError("--narrow-budget needs --images") }
        }
        if islandSensitivity {
            guard !imageFolders.isEmpty else { throw ValidationError("--island-sensitivity needs --images") }
            guard weightBits >= 2 && weightBits <= 16 else { throw ValidationError("--weight-bits must be in 2...16") }
        }
        if let sweepWidths {
            guard sweepWidths == 8 || sweepWidths == 16 else { throw ValidationError("--sweep-widths must be 8 or 16") }
            guard !imageFolders.isEmpty else { throw ValidationError("--sweep-widths needs --images") }
        }
    }

    func run() throws {
        guard let which = CalibrationModel(rawValue: model) else { throw ExitCode(64) }
        let directory = try ModelOptions.store(models).directory
        let path = directory + "/" + which.fileName
        let bytes = try ModelCommand.load(path)
        let sha = Vision.SHA256.hex(bytes)
        let faces: FaceAnalyzer
        do { faces = try FaceAnalyzer(modelDirectory: directory, path: .float) } catch {
            throw CommandFailure("cannot load the face models from \(directory): \(error)")
        }

        if islandSensitivity { return try islands(which, bytes: bytes, faces: faces) }

        var table: CalibrationTable?
        if !imageFolders.isEmpty {
            let images = try Self.load(imageFolders)
            let inputs = images.withImages { views in
                CalibrationInputs(model: which, images: views, detector: faces.detector,
                                  landmarker: faces.landmarker, variants: variants)
            }
            print("\(which.rawValue): \(images.count) calibration images, \(inputs.faceCount) faces, \(inputs.count) inputs")
            do {
                let parsed = try TFLiteModel(bytes: bytes)
                table = try images.withImages { (_: [Image]) throws(ModelError) in
                    try CalibrationTable.record(model: parsed, modelSHA256: sha, calibration: settings(which),
                                                count: inputs.count, coverage: coverage, clipBits: clipBits) { i, tensor in inputs.fill(i, tensor) }
                }
            } catch { throw CommandFailure("\(path): \(error.description)") }
            if let narrowBudget, let recorded = table {
                let choice = try images.withImages { views throws(ModelError) -> PrecisionChoice in
                    let quick = CalibrationInputs(model: which, images: views, detector: faces.detector,
                                                  landmarker: faces.landmarker, variants: 1)
                    return try PrecisionChoice(model: which, bytes: bytes, table: recorded, calibration: settings(which),
                                               inputs: quick, budget: narrowBudget, contiguous: narrowBlock) { print("  " + $0) }
                }
                table?.widths = choice.widths
                let ops = choice.trials.filter(\.accepted).map { String($0.operation) }.joined(separator: " ")
                print("\(which.rawValue): \(choice.widths.count) of \(choice.trials.count) operations at int8 (ops \(ops)); "
                    + "calibration figures " + choice.before.figures.map(\.summary).joined(separator: "; ") + " → "
                    + choice.after.figures.map(\.summary).joined(separator: "; "))
            }
            if floatOps > 0 || floatPrune || floatTrim, let recorded = table {
                var start: Set<Int>?
                if floatOps == 0 {
                    guard let shipped = ModelCalibrations.table(forModel: bytes) else {
                        throw CommandFailure("--float-prune or --float-trim without --float-ops starts from the shipped table, and \(which.fileName) has none")
                    }
                    start = shipped.floatTensors
                    print("\(which.rawValue): " + (floatTrim ? "trimming" : "pruning") + " the shipped table's \(shipped.floatTensors.count) float operations")
                }
                let choice = try images.withImages { views throws(ModelError) -> FloatChoice in
                    let quick = CalibrationInputs(model: which, images: views, detector: faces.detector,
                                                  landmarker: faces.landmarker, variants: 1)
                    return try FloatChoice(model: which, bytes: bytes, table: recorded, calibration: settings(which),
                                           inputs: quick, margin: floatMargin, maxOperations: floatOps,
                                           kinds: Set(floatKinds.split(separator: ",").map(String.init)),
                                           byCost: floatBy == .cost, prune: floatPrune, trim: floatTrim, startingFrom: start) { print("  " + $0) }
                }
                table?.floatTensors = choice.floatTensors
                let dropped = choice.dropped.isEmpty ? "" : ", " + choice.dropped.map(String.init).joined(separator: " ") + " taken back"
                let chosen = start != nil ? "the shipped table's \(start!.count)" : "ops " + choice.rounds.map { String($0.operation) }.joined(separator: " ")
                print("\(which.rawValue): \(choice.floatTensors.count) operations in float (" + chosen + dropped + "), estimated cost "
                    + FloatChoice.Cost.format(choice.cost) + " instructions per inference; calibration figures "
                    + choice.after.map(\.summary).joined(separator: "; "))
            }
            if let sweepWidths, let recorded = table {
                let sweep = try images.withImages { views throws(ModelError) -> WidthSweep in
                    let quick = CalibrationInputs(model: which, images: views, detector: faces.detector,
                                                  landmarker: faces.landmarker, variants: 1)
                    return try WidthSweep(model: which, bytes: bytes, table: recorded, calibration: settings(which),
                                          inputs: quick, baseBits: sweepWidths) { print("  " + $0) }
                }
                print("\(which.rawValue): width sweep from int\(sweepWidths): \(sweep.trials.count) operations tried")
            }
            if let output, let table {
                let header = "\(which.fileName), sha256 \(sha): recorded by `booth model calibrate` (scripts/calibrate)\n"
                    + "// on \(inputs.count) inputs from \(images.count) images (\(inputs.faceCount) faces), "
                    + "\(variants) variants per region, coverage \(coverage)" + (clipBits > 0 ? ", ranges clipped for int\(clipBits)." : ".")
                    + (floatPrune ? " Float operations that changed no calibration figure taken back (--float-prune)." : "")
                    + (floatTrim ? " The shipped float operations taken back where the calibration figures keep the margin (--float-trim, --float-margin \(floatMargin))." : "")
                try Self.swiftSource(name: Self.identifier(which), header: header, text: table.text())
                    .write(toFile: output, atomically: true, encoding: .utf8)
                print("\(which.rawValue): table written to \(output)")
            }
        }

        if !heldOutFolders.isEmpty {
            let images = try Self.load(heldOutFolders)
            var calibration = settings(which)
            if let table = table ?? ModelCalibrations.table(forModel: bytes) { calibration.adopt(table) }
            let source = table != nil ? "the table just recorded" : calibration.table != nil ? "the shipped table" : "load-time calibration"
            let integer: Interpreter, reference: Interpreter
            do {
                integer = try Interpreter(model: bytes, path: .integer, calibration: calibration)
                reference = try Interpreter(model: bytes, path: .float)
            } catch { throw CommandFailure("\(path): \(error.description)") }
            let report = images.withImages { views -> IntegerAccuracy in
                let inputs = CalibrationInputs(model: which, images: views, detector: faces.detector,
                                               landmarker: faces.landmarker, variants: checkVariants, seed: 0x4E1D)
                print("\(which.rawValue): \(images.count) held-out images, \(inputs.faceCount) faces, \(inputs.count) inputs; "
                    + "integer (int\(integer.activationBits), \(integer.calibratedFromTable ? source : "load-time calibration")) against float")
                if let diagnose, diagnose >= 0, diagnose < inputs.count {
                    var input = [Float](repeating: 0, count: integer.inputShape(0).reduce(1, *))
                    input.withUnsafeMutableBufferPointer { inputs.fill(diagnose, $0) }
                    for r in integer.integerDiagnostics(input: input) {
                        print("  tensor \(r.tensor) \(r.operation): max error \(r.maxError) (\(r.maxError / r.scale) steps), "
                            + "rms \(r.rmsError), range [\(r.lower), \(r.upper)], scale \(r.scale) \(r.name)")
                    }
                }
                if weightsOnly {
                    let weights = IntegerAccuracy(model: which, reference: reference, inputs: inputs) { _, input in
                        reference.floatOutputsWithInt8Weights(input: input)
                    }
                    for f in weights.figures { print("  int8 weights only: \(f.summary)") }
                }
                return IntegerAccuracy(model: which, integer: integer, reference: reference, inputs: inputs)
            }
            for f in report.figures { print("  \(f.summary)") }
            if let m = integer.integerMemory {
                print("  integer program memory: \(m.bytes) bytes, of which \(m.floatRunBytes) in \(m.floatRuns) float runs")
            }
        }
    }

    /// `--island-sensitivity`: each float operation of the model's table back to integer alone, on
    /// the calibration inputs (one variant per region, as `FloatChoice` scores them): the real
    /// integer program's figures, then the float simulation's with the filter only, the
    /// activations only and both rounded. Detectors are scored per anchor (`anchorErrors`).
    func islands(_ which: CalibrationModel, bytes: [UInt8], faces: FaceAnalyzer) throws {
        guard let table = ModelCalibrations.table(forModel: bytes), !table.floatTensors.isEmpty else {
            throw CommandFailure("\(which.fileName) has no table with float operations")
        }
        let images = try Self.load(imageFolders)
        var calibration = settings(which)
        calibration.adopt(table)
        let reference: Interpreter
        do { reference = try Interpreter(model: bytes, path: .float) } catch { throw CommandFailure("\(which.fileName): \(error)") }
        let n = reference.inputShape(0).reduce(1, *)
        let inputs: [[Float]] = images.withImages { views in
            let c = CalibrationInputs(model: which, images: views, detector: faces.detector, landmarker: faces.landmarker, variants: 1)
            return (0..<c.count).map { i in
                var x = [Float](repeating: 0, count: n)
                x.withUnsafeMutableBufferPointer { c.fill(i, $0) }
                return x
            }
        }
        func error(_ out: [[Float]], _ ref: [[Float]]) -> [Float] {
            which.detector.map { IntegerAccuracy.anchorErrors($0, out, ref) } ?? IntegerAccuracy.measure(which, out, ref)
        }
        func summary(_ e: [[Float]]) -> String {
            guard let first = e.first else { return "no inputs" }
            return first.indices.map { f in
                let v = e.map { $0[f] }.filter { !$0.isNaN }
                guard !v.isEmpty else { return "figure \(f): none" }
                let worst = which == .selfieSegmentation || which == .selfieSegmentationLandscape ? v.min()! : v.max()!
                return "f\(f) worst " + String(cFormat: "%.4f", Double(worst)) + " mean " + String(cFormat: "%.4f", Double(v.reduce(0, +) / Float(v.count)))
            }.joined(separator: ", ")
        }
        func real(_ floats: Set<Int>) throws -> [[Float]] {
            var t = table
            t.floatTensors = floats
            var c = settings(which)
            c.adopt(t)
            let integer = try Interpreter(model: bytes, path: .integer, calibration: c)
            return inputs.indices.map { i in
                _ = reference.withInput(0) { $0.update(fromContentsOf: inputs[i]) }
                reference.run()
                let ref = (0..<reference.outputCount).map { k in reference.withOutput(k) { Array($0) } }
                _ = integer.withInput(0) { $0.update(fromContentsOf: inputs[i]) }
                integer.run()
                return error((0..<integer.outputCount).map { k in integer.withOutput(k) { Array($0) } }, ref)
            }
        }
        let floats = table.floatTensors
        print("\(which.rawValue): \(inputs.count) calibration inputs, \(floats.count) float operations; figures per anchor (detectors) "
            + "as f0 = face score Δ, f1 = box Δ px; filters at \(weightBits) bits in the simulation")
        print("table as shipped: integer " + summary(try real(floats)))
        print("all integer: integer " + summary(try real([])))
        let s = try reference.islandSensitivity(inputs: inputs, calibration: calibration, floatTensors: floats,
                                                trials: floats.sorted(), weightBits: weightBits, error: error)
        print("table as shipped: simulated " + summary(s.base))
        for t in s.trials {
            var rest = floats
            rest.remove(t.output)
            print("op \(t.operation) \(t.kind) (tensor \(t.output), int\(t.bits)) in integer: real " + summary(try real(rest))
                + " | simulated both " + summary(t.both) + " | filter only " + summary(t.weights)
                + " | activations only " + summary(t.activations))
        }
    }

    /// Every JPEG/PNG in `folders`, decoded as RGB888, in name order.
    static func load(_ folders: [String]) throws -> [ImageBuffer] {
        var out: [ImageBuffer] = []
        let decoder = ImageDecoder()
        for folder in folders {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
                throw CommandFailure("cannot read the folder \(folder)")
            }
            for name in names.sorted() where ["jpg", "jpeg", "png"].contains(Path.pathExtension(name).lowercased()) {
                do { out.append(try decoder.decode(path: folder + "/" + name, as: .rgb888)) } catch {
                    throw CommandFailure("\(folder)/\(name): \(error)")
                }
            }
        }
        guard !out.isEmpty else { throw CommandFailure("no JPEG or PNG images in \(folders.joined(separator: ", "))") }
        return out
    }

    /// `face_landmark` → `faceLandmark`.
    static func identifier(_ m: CalibrationModel) -> String {
        let parts = m.rawValue.split(separator: "_")
        return parts[0] + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func swiftSource(name: String, header: String, text: String) -> String {
        "// Generated — do not edit. The integer calibration table of " + header + "\n"
            + "extension ModelCalibrations {\n    static let " + name + " = \"\"\"\n"
            + text.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n")
            + "\n        \"\"\"\n}\n"
    }
}
