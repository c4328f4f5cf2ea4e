import NeuralCore

/// The operations of a model the integer path computes in float32 (`FloatIsland`), chosen offline
/// by measured error on the calibration inputs (issue 16: float for the layers that need it). The
/// choice is shipped as `f` records in the model's `CalibrationTable` (`scripts/calibrate`).
///
/// Operations of the `kinds` asked for (e.g. PRELU, which has no int16 kernel) go to float first;
/// then greedy, one operation per round, on the real integer program:
/// 1. every operation not yet chosen is tried in float alone with the ones chosen so far, on the
///    `sample` calibration inputs the current program does worst on; the `confirm` best by that
///    score
/// 2. are run on every calibration input, and the best of them is chosen if it lowers the score.
/// Rounds stop when every figure's worst is within `margin` of its bound (`margin · bound` for
/// the distances, the IoU's `1 − margin · (1 − bound)`), after `maxOperations`, or when no
/// operation helps.
///
/// The score of a program is, summed over its figures, the worst plus the mean error as a share of
/// the bound (for IoU: of `1 − bound`). For the face detectors the figures are taken per anchor
/// before decoding (`IntegerAccuracy.anchorErrors`): the decoded ones jump where an anchor crosses
/// the threshold or the top anchor changes, and a greedy choice on them chased those jumps (8
/// float operations made the held-out score Δ worse, 0.030 → 0.059). Only calibration inputs are used; the held-out images check
/// the result afterwards.
public struct FloatChoice {
    /// One round: the operation chosen and the figures with it.
    public struct Round: Sendable {
        public var operation: Int
        public var kind: String
        public var tensor: Int
        public var figures: [IntegerAccuracy.Figure]
    }

    /// The tensors whose writing operation runs in float (the table's `f` records).
    public var floatTensors: Set<Int>
    public var rounds: [Round]
    /// The figures of the all-integer program on the calibration inputs.
    public var before: [IntegerAccuracy.Figure]

    public init(model: CalibrationModel, bytes: [UInt8], table: CalibrationTable, calibration: IntegerCalibration,
                inputs: CalibrationInputs, margin: Float = 0.8, maxOperations: Int = 8, sample: Int = 12, confirm: Int = 4,
                kinds: Set<String> = [], log: (String) -> Void = { _ in }) throws(ModelError) {
        guard margin > 0 && margin <= 1 else { throw .unsupported("the float-choice margin must be in (0, 1]") }
        guard inputs.count > 0 else { throw .unsupported("choosing float operations needs calibration inputs") }
        var base = table
        base.floatTensors = []
        let reference = try Interpreter(model: bytes, path: .float)
        var settings = calibration
        settings.adopt(base)
        let operations = try reference.rewrittenOperations(calibration: settings)

        // The float outputs of every input, computed once.
        let n = reference.inputShape(0).reduce(1, *)
        var input = [Float](repeating: 0, count: n)
        var references: [[[Float]]] = []
        for i in 0..<inputs.count {
            input.withUnsafeMutableBufferPointer { inputs.fill(i, $0) }
            reference.withInput(0) { $0.update(fromContentsOf: input) }
            reference.run()
            references.append((0..<reference.outputCount).map { k in reference.withOutput(k) { Array($0) } })
        }
        let bounds = IntegerAccuracy.bounds(model)

        /// Per input, per figure: the error of the program with `floats` in float (NaN: none).
        func errors(_ floats: Set<Int>, _ indices: [Int]) throws(ModelError) -> [[Float]] {
            var t = base
            t.floatTensors = floats
            var c = calibration
            c.adopt(t)
            let integer = try Interpreter(model: bytes, path: .integer, calibration: c)
            var out: [[Float]] = []
            for i in indices {
                input.withUnsafeMutableBufferPointer { inputs.fill(i, $0) }
                integer.withInput(0) { $0.update(fromContentsOf: input) }
                integer.run()
                let o = (0..<integer.outputCount).map { k in integer.withOutput(k) { Array($0) } }
                if let detector = model.detector {
                    out.append(IntegerAccuracy.anchorErrors(detector, o, references[i]))
                } else {
                    out.append(IntegerAccuracy.measure(model, o, references[i]))
                }
            }
            return out
        }
        /// A figure's value as a share of what its bound allows.
        func share(_ v: Float, _ f: Int) -> Float {
            bounds[f].higherIsBetter ? (1 - v) / (1 - bounds[f].bound) : v / bounds[f].bound
        }
        func score(_ e: [[Float]]) -> Float {
            var s: Float = 0
            for f in bounds.indices {
                let v = e.map { $0[f] }.filter { !$0.isNaN }.map { share($0, f) }
                guard !v.isEmpty else { continue }
                s += v.max()! + v.reduce(0, +) / Float(v.count)
            }
            return s
        }
        func meets(_ e: [[Float]]) -> Bool {
            for f in bounds.indices {
                let v = e.map { $0[f] }.filter { !$0.isNaN }.map { share($0, f) }
                if let w = v.max(), w > margin { return false }
            }
            return true
        }
        func figures(_ e: [[Float]]) -> [IntegerAccuracy.Figure] {
            IntegerAccuracy.figures(model, values: bounds.indices.map { f in e.map { $0[f] } })
        }

        let all = Array(0..<inputs.count)
        var chosen: Set<Int> = []
        var current = try errors(chosen, all)
        before = figures(current)
        log("all integer: " + before.map(\.summary).joined(separator: "; "))
        var rounds: [Round] = []
        // Every operation of the given kinds first (not counted against `maxOperations`).
        let forced = operations.filter { kinds.contains($0.kind) }
        if !forced.isEmpty {
            chosen = Set(forced.map(\.output))
            current = try errors(chosen, all)
            for op in forced {
                rounds.append(Round(operation: op.operation, kind: op.kind, tensor: op.output, figures: figures(current)))
            }
            log("\(forced.count) operations of kind \(kinds.sorted().joined(separator: ", ")) in float: "
                + figures(current).map(\.summary).joined(separator: "; "))
        }
        while !meets(current) && chosen.count < maxOperations + forced.count {
            // The inputs the current program does worst on.
            let perInput = current.map { e in bounds.indices.map { e[$0].isNaN ? 0 : share(e[$0], $0) }.max() ?? 0 }
            let worst = all.sorted { perInput[$0] > perInput[$1] }.prefix(sample).map { $0 }
            var ranked: [(op: RewrittenOperation, score: Float)] = []
            for op in operations where !chosen.contains(op.output) {
                ranked.append((op, score(try errors(chosen.union([op.output]), worst))))
            }
            ranked.sort { $0.score < $1.score }
            var best: (op: RewrittenOperation, errors: [[Float]])?
            for r in ranked.prefix(confirm) {
                let e = try errors(chosen.union([r.op.output]), all)
                if score(e) < (best.map { score($0.errors) } ?? score(current)) { best = (r.op, e) }
            }
            guard let best else {
                log("no operation in float lowers the error further")
                break
            }
            chosen.insert(best.op.output)
            current = best.errors
            rounds.append(Round(operation: best.op.operation, kind: best.op.kind, tensor: best.op.output, figures: figures(current)))
            log("op \(best.op.operation) \(best.op.kind) (tensor \(best.op.output)) in float: "
                + figures(current).map(\.summary).joined(separator: "; "))
        }
        floatTensors = chosen
        self.rounds = rounds
    }
}
