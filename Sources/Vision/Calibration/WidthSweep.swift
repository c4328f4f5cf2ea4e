import NeuralCore

/// Where a model's integer program loses accuracy, one operation at a time (issue 15: which
/// operations can run at int8, where the Cortex-A76's `sdot` pays, and which need int16).
///
/// Every tensor at `base` bits (8 or 16), then, for each operation whose kernel can change width
/// (not the copies: pooling, PAD, RESHAPE, RESIZE_BILINEAR follow their input), its output alone at
/// the other width, the real integer program (width conversions included) measured with
/// `IntegerAccuracy` on the given inputs. From an int8 base this ranks the operations by the
/// accuracy int16 gives back; from an int16 base by what int8 costs each alone. The table's `f`
/// records (float operations) are kept as they are in every trial.
///
/// Only calibration inputs are to be given; held-out images check a choice afterwards.
public struct WidthSweep {
    public struct Trial: Sendable {
        public var operation: Int
        public var kind: String
        /// The output tensor (a `w` record names it).
        public var tensor: Int
        /// Multiply-adds and output values (`RewrittenOperation`): what the width changes in cost.
        public var macs: Int
        public var values: Int
        /// The figures with this operation's output at the other width.
        public var figures: [IntegerAccuracy.Figure]
    }

    public var baseBits: Int
    /// The figures with every tensor at `baseBits`.
    public var base: IntegerAccuracy
    /// One per tried operation, in operation order.
    public var trials: [Trial]

    /// `table`'s ranges (and float operations) for `bytes`, at `baseBits` for every tensor.
    public init(model: CalibrationModel, bytes: [UInt8], table: CalibrationTable, calibration: IntegerCalibration,
                inputs: CalibrationInputs, baseBits: Int, log: (String) -> Void = { _ in }) throws(ModelError) {
        guard baseBits == 8 || baseBits == 16 else { throw .unsupported("a width sweep's base is 8 or 16 bits") }
        var t = Self.table(table, bits: baseBits)
        t.widths = [:]
        var settings = calibration
        settings.adopt(t)
        let reference = try Interpreter(model: bytes, path: .float)
        let operations = try reference.rewrittenOperations(calibration: settings)

        func accuracy(_ widths: [Int: Int]) throws(ModelError) -> IntegerAccuracy {
            try IntegerAccuracy(model: model, bytes: bytes, table: t, widths: widths, calibration: calibration,
                                reference: reference, inputs: inputs)
        }
        self.baseBits = baseBits
        base = try accuracy([:])
        log("all int\(baseBits): " + base.figures.map(\.summary).joined(separator: "; "))
        let trialBits = baseBits == 8 ? 16 : 8
        var trials: [Trial] = []
        for op in operations where !IntegerAccuracy.widthFollowingKinds.contains(op.kind) && !t.floatTensors.contains(op.output)
            && !(trialBits == 16 && op.kind == "PRELU") {
            let a = try accuracy([op.output: trialBits])
            let trial = Trial(operation: op.operation, kind: op.kind, tensor: op.output, macs: op.macs, values: op.outputCount,
                              figures: a.figures)
            trials.append(trial)
            log("op \(op.operation) \(op.kind) (tensor \(op.output), \(op.macs) MACs, \(op.outputCount) values) at int\(trialBits): "
                + a.figures.map(\.summary).joined(separator: "; "))
        }
        self.trials = trials
    }

    /// `table` with its settings' width set to `bits` (`width=8` / `width=16`).
    public static func table(_ table: CalibrationTable, bits: Int) -> CalibrationTable {
        var t = table
        let words = table.settings.split(separator: " ").filter { !$0.hasPrefix("width=") }.map(String.init)
        t.settings = (words + ["width=\(bits)"]).joined(separator: " ")
        return t
    }
}
