/// Activation statistics of one model, recorded offline by running the float path over real images
/// (`CalibrationRecorder`, driven by `scripts/calibrate`) and shipped with Booth, so that the
/// integer path needs no calibration run at load.
///
/// It holds what `IntegerProgram` would otherwise measure at load on the generated set:
/// - `channels`: the largest |value| per channel of each cross-layer-equalisation candidate (a
///   depthwise output, on the graph after `ActivationFusion`), for activation-aware equalisation;
/// - `lower`/`upper`: every tensor's range on the graph after fusion and equalisation.
/// Both depend on the graph rewrites, so the table names the settings it was recorded with and
/// `matches(_:calibration:)` refuses it for other settings or another tensor count.
///
/// Text format (ASCII, one record per line, floats as the hexadecimal IEEE-754 bit pattern so
/// that reading needs no float parser and round-trips exactly):
/// ```
/// booth-calibration 1
/// model <sha256 of the .tflite file>
/// settings fuse=1 equalize=1 aware=1 width=auto
/// tensors <count>
/// r <tensor> <lower bits> <upper bits>        (one per tensor with a range)
/// c <tensor> <channels> <bits> <bits> …       (one per equalisation candidate)
/// w <tensor> <8|16>                           (optional: a tensor's activation width)
/// f <tensor>                                  (optional: the operation writing it runs in float)
/// ```
/// `w` records give tensors a width other than the model's (`IntegerProgram`, `WidthPlan`); they
/// are chosen offline from measured sensitivity (`scripts/calibrate`, `booth model calibrate
/// --widths`). `f` records name the operations the integer program computes in float32 with the
/// float path's kernels (`FloatIsland`), chosen offline by measured error (`FloatChoice`).
/// Lines starting with `#` are comments.
public struct CalibrationTable: Sendable, Equatable {
    public static let formatVersion = 1
    /// Lowercase hex sha256 of the model file the table belongs to.
    public var modelSHA256: String
    /// `IntegerCalibration.graphSettings` of the recording.
    public var settings: String
    /// Tensor count of the rewritten graph.
    public var tensorCount: Int
    /// Per-tensor range; `lower > upper` marks a tensor without one (constants).
    public var lower: [Float]
    public var upper: [Float]
    /// Largest |value| per channel of each equalisation candidate.
    public var channels: [Int: [Float]]
    /// Activation bits (8 or 16) of the tensors that differ from the model's width.
    public var widths: [Int: Int]
    /// Tensors whose writing operation runs in float (`FloatIsland`).
    public var floatTensors: Set<Int>

    public init(modelSHA256: String, settings: String, lower: [Float], upper: [Float], channels: [Int: [Float]],
                widths: [Int: Int] = [:], floatTensors: Set<Int> = []) {
        precondition(lower.count == upper.count, "one lower and one upper bound per tensor")
        self.modelSHA256 = modelSHA256
        self.settings = settings
        self.tensorCount = lower.count
        self.lower = lower
        self.upper = upper
        self.channels = channels
        self.widths = widths
        self.floatTensors = floatTensors
    }

    /// Records the table of `model` by running its float path over `count` inputs, each written
    /// into the model's input (float32 NHWC, in the model's value range) by `fill(index, input)`;
    /// `fill` is called twice per input when activation-aware equalisation needs a first pass.
    /// The rewrites are those `calibration` asks for, applied exactly as `IntegerProgram` applies
    /// them at load. `coverage` is `RangeRecorder`'s (1: min/max over every input). `clipBits` 8 or
    /// 16 then narrows each range to the one whose quantisation at that width has the least mean
    /// squared error over the recorded values (`RangeRecorder.clipped`, a second pass); 0 keeps them.
    public static func record(model: TFLiteModel, modelSHA256: String, calibration: IntegerCalibration,
                              count: Int, coverage: Float = 1, clipBits: Int = 0,
                              fill: (Int, UnsafeMutableBufferPointer<Float>) -> Void) throws(ModelError) -> CalibrationTable {
        guard clipBits == 0 || clipBits == 8 || clipBits == 16 else { throw .unsupported("range clipping is for 8 or 16 bits") }
        guard count > 0 else { throw .unsupported("calibration needs at least one input") }
        var graph = try Graph(model: model)
        if calibration.fuseActivations { ActivationFusion.apply(&graph) }
        var channels: [Int: [Float]] = [:]
        if calibration.equalize {
            if calibration.activationAwareEqualization {
                channels = try RangeRecorder.record(graph: graph, perChannel: CrossLayerEqualization.candidates(graph),
                                                    count: count, coverage: 1, fill: fill).channels
            }
            CrossLayerEqualization.apply(&graph, activationRanges: channels)
        }
        var ranges = try RangeRecorder.record(graph: graph, perChannel: [], count: count, coverage: coverage, fill: fill).ranges
        if clipBits > 0 { ranges = try RangeRecorder.clipped(graph: graph, ranges: ranges, bits: clipBits, count: count, fill: fill) }
        return CalibrationTable(modelSHA256: modelSHA256, settings: calibration.graphSettings,
                                lower: ranges.map { $0.0 }, upper: ranges.map { $0.1 }, channels: channels)
    }

    /// Whether the table fits `graph` (after the rewrites `calibration` asks for).
    public func matches(tensorCount n: Int, calibration: IntegerCalibration) -> Bool {
        n == tensorCount && settings == calibration.graphSettings
    }

    /// The ranges as `RangeRecorder` returns them.
    var ranges: [(Float, Float)] {
        var out: [(Float, Float)] = []
        out.reserveCapacity(tensorCount)
        for t in 0..<tensorCount { out.append((lower[t], upper[t])) }
        return out
    }

    /// The table in the text format above.
    public func text() -> String {
        var s = "booth-calibration " + String(Self.formatVersion) + "\n"
        s += "model " + modelSHA256 + "\n"
        s += "settings " + settings + "\n"
        s += "tensors " + String(tensorCount) + "\n"
        for t in 0..<tensorCount where lower[t] <= upper[t] {
            s += "r " + String(t) + " " + Self.hex(lower[t]) + " " + Self.hex(upper[t]) + "\n"
        }
        for t in channels.keys.sorted() {
            guard let values = channels[t] else { continue }
            s += "c " + String(t) + " " + String(values.count)
            for v in values { s += " " + Self.hex(v) }
            s += "\n"
        }
        for t in widths.keys.sorted() {
            guard let b = widths[t] else { continue }
            s += "w " + String(t) + " " + String(b) + "\n"
        }
        for t in floatTensors.sorted() { s += "f " + String(t) + "\n" }
        return s
    }

    static func hex(_ v: Float) -> String {
        let digits = String(v.bitPattern, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Reads the text format; a malformed table is a `ModelError.malformed` naming the line.
    public init(parsing text: String) throws(ModelError) {
        var sha = "", settings = "", count = -1
        var lower: [Float] = [], upper: [Float] = []
        var channels: [Int: [Float]] = [:]
        var widths: [Int: Int] = [:]
        var floatTensors: Set<Int> = []
        var lineNumber = 0
        var sawHeader = false
        for raw in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let fields = raw.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            guard let key = fields.first, !key.hasPrefix("#") else { continue }
            func bad(_ why: String) -> ModelError {
                .malformed("calibration table line " + String(lineNumber) + ": " + why)
            }
            func int(_ s: String) throws(ModelError) -> Int {
                guard let v = Int(s), v >= 0 else { throw bad("'" + s + "' is not a count") }
                return v
            }
            func float(_ s: String) throws(ModelError) -> Float {
                guard s.utf8.count == 8, let bits = UInt32(s, radix: 16) else { throw bad("'" + s + "' is not 8 hex digits") }
                let v = Float(bitPattern: bits)
                guard v.isFinite else { throw bad("'" + s + "' is not a finite float") }
                return v
            }
            if !sawHeader {
                guard fields.count == 2, key == "booth-calibration" else { throw bad("not a Booth calibration table") }
                guard try int(fields[1]) == Self.formatVersion else { throw bad("format version " + fields[1] + " is not 1") }
                sawHeader = true
                continue
            }
            switch key {
            case "model":
                guard fields.count == 2, fields[1].utf8.count == 64 else { throw bad("expected 'model <sha256>'") }
                sha = fields[1]
            case "settings":
                settings = fields.dropFirst().joined(separator: " ")
            case "tensors":
                guard fields.count == 2 else { throw bad("expected 'tensors <count>'") }
                count = try int(fields[1])
                lower = [Float](repeating: .infinity, count: count)
                upper = [Float](repeating: -.infinity, count: count)
            case "r":
                guard count >= 0 else { throw bad("a range before 'tensors'") }
                guard fields.count == 4 else { throw bad("expected 'r <tensor> <lower> <upper>'") }
                let t = try int(fields[1])
                guard t < count else { throw bad("tensor " + fields[1] + " is past the tensor count") }
                let lo = try float(fields[2]), hi = try float(fields[3])
                guard lo <= hi else { throw bad("lower bound above upper bound") }
                lower[t] = lo
                upper[t] = hi
            case "c":
                guard count >= 0 else { throw bad("channel maxima before 'tensors'") }
                guard fields.count >= 3 else { throw bad("expected 'c <tensor> <channels> <values>…'") }
                let t = try int(fields[1]), n = try int(fields[2])
                guard t < count else { throw bad("tensor " + fields[1] + " is past the tensor count") }
                guard fields.count == 3 + n else { throw bad("expected " + fields[2] + " channel values") }
                var values: [Float] = []
                for f in fields[3...] { values.append(try float(f)) }
                channels[t] = values
            case "w":
                guard count >= 0 else { throw bad("a width before 'tensors'") }
                guard fields.count == 3 else { throw bad("expected 'w <tensor> <8|16>'") }
                let t = try int(fields[1]), b = try int(fields[2])
                guard t < count else { throw bad("tensor " + fields[1] + " is past the tensor count") }
                guard b == 8 || b == 16 else { throw bad("width " + fields[2] + " is not 8 or 16") }
                widths[t] = b
            case "f":
                guard count >= 0 else { throw bad("a float operation before 'tensors'") }
                guard fields.count == 2 else { throw bad("expected 'f <tensor>'") }
                let t = try int(fields[1])
                guard t < count else { throw bad("tensor " + fields[1] + " is past the tensor count") }
                floatTensors.insert(t)
            default:
                throw bad("unknown record '" + key + "'")
            }
        }
        guard sawHeader else { throw .malformed("calibration table is empty") }
        guard !sha.isEmpty, count >= 0 else { throw .malformed("calibration table lacks its 'model' or 'tensors' line") }
        self.init(modelSHA256: sha, settings: settings, lower: lower, upper: upper, channels: channels, widths: widths,
                  floatTensors: floatTensors)
    }
}
