import NeuralCore

/// Per-layer activation widths for a model whose base width is int16, chosen offline by measured
/// sensitivity (issue 16): int8 where it costs nothing measurable, int16 where it does. The choice
/// is shipped as `w` records in the model's `CalibrationTable` (`scripts/calibrate`).
///
/// 1. **Rank** the operations by what int8 costs each alone (`Interpreter.precisionSensitivity`:
///    the integer path simulated in float, one output at a time at int8, scored by the mean
///    |Δ| of output 0 against the float path over the calibration inputs).
/// 2. **One block** (`contiguous`): the operations from the first to the last
///    candidate at int8, then the block shrunk from its more sensitive end (by the ranking) until
///    the real integer program keeps the figures within `budget` (below). A block needs width
///    conversions only at its edges and on the skip connections that cross them; scattered int8
///    operations each pay a conversion on both sides, which measured slower than all-int16 on
///    aarch64 (scripts/arm/bench).
///    On the landscape model no block of even one operation passed (the worst IoU over the
///    calibration photos drops from 0.942 to ≤ 0.935).
///    **Or greedily** (the default), least sensitive first: an operation's output goes to int8 if the real
///    integer program (with the widths accepted so far plus this one, conversions included) keeps
///    every accuracy figure (`IntegerAccuracy`) on the calibration inputs within `budget` of the
///    all-int16 program: the worst within `budget · bound`, the mean within a quarter of it.
///    Operations whose kernel copies values (pooling, pad, reshape, resize) follow their input and
///    are not tried.
///
/// Only calibration inputs are used; the held-out images check the result afterwards.
public struct PrecisionChoice {
    /// One tried operation.
    public struct Trial: Sendable {
        public var operation: Int
        public var kind: String
        public var tensor: Int
        /// The simulated cost of int8 for this operation alone (mean |Δ| of output 0).
        public var sensitivity: Float
        public var accepted: Bool
        /// The first figure's worst with this operation at int8 (and every accepted one).
        public var worst: Float
    }

    /// Tensor → bits for the tensors at int8 (the table's `w` records).
    public var widths: [Int: Int]
    public var trials: [Trial]
    /// The figures of the all-base program and of the chosen one, on the calibration inputs.
    public var before: IntegerAccuracy
    public var after: IntegerAccuracy

    /// Chooses for `bytes` (a model whose `calibration`, with `table` adopted, resolves to int16).
    /// `inputs` are the calibration inputs; `sample` of them (evenly spaced) rank the operations.
    public init(model: CalibrationModel, bytes: [UInt8], table: CalibrationTable, calibration: IntegerCalibration,
                inputs: CalibrationInputs, budget: Float, contiguous: Bool = false, sample: Int = 8,
                log: (String) -> Void = { _ in }) throws(ModelError) {
        guard budget >= 0 else { throw .unsupported("a precision budget below zero") }
        var settings = calibration
        var base = table
        base.widths = [:]
        settings.adopt(base)
        let reference = try Interpreter(model: bytes, path: .float)
        guard settings.activationWidth(for: reference.graph) == .int16 else {
            throw .unsupported("per-layer widths are chosen for int16 models; this one runs int8")
        }
        let n = reference.inputShape(0).reduce(1, *)
        var ranking: [[Float]] = []
        let step = max(1, inputs.count / max(1, sample))
        for i in stride(from: 0, to: inputs.count, by: step) where ranking.count < sample {
            var x = [Float](repeating: 0, count: n)
            x.withUnsafeMutableBufferPointer { inputs.fill(i, $0) }
            ranking.append(x)
        }
        let (_, ops) = try reference.precisionSensitivity(inputs: ranking, calibration: settings, baseBits: 16, trialBits: 8) { out, ref in
            guard let o = out.first, let r = ref.first, !o.isEmpty, o.count == r.count else { return .infinity }
            var s: Float = 0
            for i in 0..<o.count { s += abs(o[i] - r[i]) }
            return s / Float(o.count)
        }

        func accuracy(_ widths: [Int: Int]) throws(ModelError) -> IntegerAccuracy {
            try IntegerAccuracy(model: model, bytes: bytes, table: base, widths: widths, calibration: calibration,
                                reference: reference, inputs: inputs)
        }
        func within(_ a: IntegerAccuracy, of b: IntegerAccuracy) -> Bool {
            for (x, y) in zip(a.figures, b.figures) {
                let allowance = budget * y.bound
                let worse = y.higherIsBetter ? y.worst - x.worst : x.worst - y.worst
                let worseMean = y.higherIsBetter ? y.mean - x.mean : x.mean - y.mean
                if worse > allowance || worseMean > allowance / 4 { return false }
            }
            return true
        }

        before = try accuracy([:])
        log("all int16: " + before.figures.map(\.summary).joined(separator: "; "))
        var chosen: [Int: Int] = [:]
        var trials: [Trial] = []
        var current = before
        let candidates = ops.filter { !IntegerAccuracy.widthFollowingKinds.contains($0.kind) }
        if contiguous {
            let byOrder = candidates.sorted { $0.operation < $1.operation }
            var lo = 0, hi = byOrder.count - 1
            while lo <= hi {
                var trial: [Int: Int] = [:]
                for s in byOrder[lo...hi] { trial[s.output] = 8 }
                let a = try accuracy(trial)
                let ok = within(a, of: before)
                log("ops \(byOrder[lo].operation)…\(byOrder[hi].operation) at int8: " + (ok ? "kept" : "too costly") + ", "
                    + (a.figures.first?.summary ?? ""))
                if ok {
                    chosen = trial
                    current = a
                    for s in byOrder[lo...hi] {
                        trials.append(Trial(operation: s.operation, kind: s.kind, tensor: s.output, sensitivity: s.error,
                                            accepted: true, worst: a.figures.first?.worst ?? 0))
                    }
                    break
                }
                // Drop the end the ranking calls more sensitive; big steps while the block is long.
                let step = max(1, (hi - lo + 1) / 16)
                if byOrder[lo].error >= byOrder[hi].error { lo += step } else { hi -= step }
            }
        } else {
            for s in candidates.sorted(by: { $0.error < $1.error }) {
                var trial = chosen
                trial[s.output] = 8
                let a = try accuracy(trial)
                let ok = within(a, of: before)
                if ok { chosen = trial; current = a }
                trials.append(Trial(operation: s.operation, kind: s.kind, tensor: s.output, sensitivity: s.error, accepted: ok,
                                    worst: a.figures.first?.worst ?? 0))
                log("op \(s.operation) \(s.kind) sensitivity \(s.error): " + (ok ? "int8" : "int16") + ", "
                    + (a.figures.first?.summary ?? ""))
            }
        }
        widths = chosen
        self.trials = trials
        after = current
    }
}
