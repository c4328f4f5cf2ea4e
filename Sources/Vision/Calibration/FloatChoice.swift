import NeuralCore

/// The operations of a model the integer path computes in float32 (`FloatIsland`), chosen offline
/// by measured error on the calibration inputs (issue 16: float for the layers that need it). The
/// choice is shipped as `f` records in the model's `CalibrationTable` (`scripts/calibrate`).
///
/// Operations of the `kinds` asked for (e.g. PRELU, which has no int16 kernel) go to float first;
/// then greedy, one operation per round, on the real integer program (`Search`):
/// 1. every operation not yet chosen is tried in float alone with the ones chosen so far, on the
///    `sample` calibration inputs the current program does worst on, and ranked by the error it
///    removes per unit of the cost it adds (`Cost`: a static estimate of the instructions a float
///    run adds, from the shapes; `byCost: false` ranks by the error alone, the choice shipped in
///    session 7); the `confirm` best
/// 2. are run on every calibration input, and the best of them by the same ranking is chosen if
///    it lowers the score.
/// Rounds stop when every figure's worst is within `margin` of its bound (`margin · bound` for
/// the distances, the IoU's `1 − margin · (1 − bound)`), after `maxOperations`, or when no
/// operation helps. With `byCost`, once the margin is met the chosen operations are taken back to
/// integer, costliest first, wherever the margin holds without them. With `prune`, every chosen
/// operation (forced ones too) is then taken back, costliest first, wherever no calibration
/// input's figure gets worse without it (`Search.prune`), whether or not the margin is met;
/// `startingFrom` prunes an existing choice (a shipped table's) instead of searching; with `trim`,
/// its operations are first taken back, costliest first, wherever the margin still holds.
///
/// The score of a program is, summed over its figures, the worst plus the mean error as a share of
/// the bound (for IoU: of `1 − bound`). For the face detectors the figures are taken per anchor
/// before decoding (`IntegerAccuracy.anchorErrors`): the decoded ones jump where an anchor crosses
/// the threshold or the top anchor changes, and a greedy choice on them chased those jumps (8
/// float operations made the held-out score Δ worse, 0.030 → 0.059). Only calibration inputs are
/// used; the held-out images check the result afterwards.
public struct FloatChoice {
    /// One round: the operation chosen, the figures with it and the estimated cost of the set.
    public struct Round: Sendable {
        public var operation: Int
        public var kind: String
        public var tensor: Int
        public var figures: [IntegerAccuracy.Figure]
        public var cost: Double
    }

    /// The tensors whose writing operation runs in float (the table's `f` records).
    public var floatTensors: Set<Int>
    public var rounds: [Round]
    /// Operations taken back to integer afterwards: by the margin (`byCost` only), then by `prune`.
    public var dropped: [Int]
    /// The figures of the all-integer program and of the chosen one on the calibration inputs.
    public var before: [IntegerAccuracy.Figure]
    public var after: [IntegerAccuracy.Figure]
    /// The estimated instructions per inference the chosen float operations add (`Cost`).
    public var cost: Double

    public init(model: CalibrationModel, bytes: [UInt8], table: CalibrationTable, calibration: IntegerCalibration,
                inputs: CalibrationInputs, margin: Float = 0.8, maxOperations: Int = 8, sample: Int = 12, confirm: Int = 4,
                kinds: Set<String> = [], byCost: Bool = true, prune: Bool = false, trim: Bool = false, startingFrom start: Set<Int>? = nil,
                log: (String) -> Void = { _ in }) throws(ModelError) {
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

        /// Per input, per figure: the error of the program with `floats` in float as a share of
        /// what its bound allows (for IoU: of `1 − bound`; NaN: no figure on that input).
        func shares(_ floats: Set<Int>, _ indices: [Int]) throws(ModelError) -> [[Float]] {
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
                let e = model.detector.map { IntegerAccuracy.anchorErrors($0, o, references[i]) }
                    ?? IntegerAccuracy.measure(model, o, references[i])
                out.append(bounds.indices.map { f in
                    bounds[f].higherIsBetter ? (1 - e[f]) / (1 - bounds[f].bound) : e[f] / bounds[f].bound
                })
            }
            return out
        }
        /// Shares back to values, summarised.
        func figures(_ s: [[Float]]) -> [IntegerAccuracy.Figure] {
            IntegerAccuracy.figures(model, values: bounds.indices.map { f in
                s.map { bounds[f].higherIsBetter ? 1 - $0[f] * (1 - bounds[f].bound) : $0[f] * bounds[f].bound }
            })
        }

        let costs = Cost(operations)
        let forced = operations.filter { kinds.contains($0.kind) }
        let search = Search(candidates: operations.map(\.output), inputCount: inputs.count, shares: shares,
                            cost: costs.of, byCost: byCost, margin: margin, maxOperations: maxOperations,
                            sample: sample, confirm: confirm)
        let byTensor = Dictionary(operations.map { ($0.output, $0) }, uniquingKeysWith: { a, _ in a })
        func report(_ event: Search.Event) {
            switch event {
            case .start(let s): log("all integer: " + figures(s).map(\.summary).joined(separator: "; "))
            case .forced(let s, let cost):
                log("\(forced.count) operations of kind \(kinds.sorted().joined(separator: ", ")) in float (cost \(Cost.format(cost))): "
                    + figures(s).map(\.summary).joined(separator: "; "))
            case .chosen(let t, let s, let cost):
                let op = byTensor[t]!
                log("op \(op.operation) \(op.kind) (tensor \(t), \(op.macs) MACs) in float, cost so far \(Cost.format(cost)): "
                    + figures(s).map(\.summary).joined(separator: "; "))
            case .dropped(let t, let s, let cost):
                let op = byTensor[t]!
                log("op \(op.operation) \(op.kind) (tensor \(t)) back to integer, cost \(Cost.format(cost)): "
                    + figures(s).map(\.summary).joined(separator: "; "))
            case .stuck: log("no operation in float lowers the error further")
            }
        }
        var result: (start: [[Float]], chosen: Set<Int>, steps: [Search.Step], dropped: [Int], shares: [[Float]])
        if let start {
            // An existing choice (a shipped table's `f` records), only pruned.
            let unknown = start.subtracting(operations.map(\.output))
            guard unknown.isEmpty else {
                throw .unsupported("float tensors \(unknown.sorted()) are not outputs of the model's operations")
            }
            let all = Array(0..<inputs.count)
            let none = try shares([], all)
            report(.start(none))
            let with = try shares(start, all)
            log("the starting \(start.count) float operations: " + figures(with).map(\.summary).joined(separator: "; "))
            result = (none, start, [], [], with)
        } else {
            result = try search.run(forced: Set(forced.map(\.output)), log: report)
        }
        if trim && start != nil {
            // An existing choice taken back while the margin holds (`Search.trim`).
            let t = try search.trim(result.chosen, current: result.shares, log: report)
            result.chosen = t.chosen
            result.dropped += t.dropped
            result.shares = t.shares
        }
        if prune {
            let p = try search.prune(result.chosen, current: result.shares, log: report)
            result.chosen = p.chosen
            result.dropped += p.pruned
            result.shares = p.shares
        }
        before = figures(result.start)
        var rounds: [Round] = []
        for step in result.steps {
            let op = byTensor[step.tensor]!
            rounds.append(Round(operation: op.operation, kind: op.kind, tensor: step.tensor, figures: figures(step.shares),
                                cost: step.cost))
        }
        floatTensors = result.chosen
        self.rounds = rounds
        dropped = result.dropped.map { byTensor[$0]!.operation }
        after = figures(result.shares)
        cost = costs.of(result.chosen)
    }
}

extension FloatChoice {
    /// The static estimate of what a set of float operations adds to one inference, in aarch64
    /// instructions (the unit of issue 15's counts; an estimate from shapes, not a count):
    /// - `perMAC` per multiply-add run in float rather than integer. On cortex-a72 the float
    ///   path runs these models in 1.5–2.35× the integer path's instructions (make bench-arm,
    ///   2026-11-25), i.e. about 0.1–0.25 more per MAC; on cortex-a76 int8 `sdot` makes the gap
    ///   larger. 0.2 is taken for both.
    /// - `perEdgeValue` per value dequantised into or quantised out of a float run
    ///   (`FloatIsland`: the NEON boundary conversions, about 8 instructions per 4 values).
    ///   Consecutive float operations form one run, so a value passed between them costs
    ///   nothing: the cost is of the set, not a sum over its operations.
    public struct Cost: Sendable {
        public static let perMAC = 0.2
        public static let perEdgeValue = 2.0
        let operations: [RewrittenOperation]
        /// Output tensor → index into `operations`; tensor → indices of the operations reading it.
        let index: [Int: Int]
        let readers: [Int: [Int]]

        package init(_ operations: [RewrittenOperation]) {
            self.operations = operations
            var index: [Int: Int] = [:], readers: [Int: [Int]] = [:]
            for (k, op) in operations.enumerated() {
                index[op.output] = k
                for t in op.reads { readers[t, default: []].append(k) }
            }
            self.index = index
            self.readers = readers
        }

        /// The estimated instructions per inference the operations writing `tensors` add when
        /// they run in float.
        public func of(_ tensors: Set<Int>) -> Double {
            let ks = tensors.compactMap { index[$0] }.sorted()
            var total = 0.0
            var i = 0
            while i < ks.count {
                var j = i
                while j + 1 < ks.count && ks[j + 1] == ks[j] + 1 { j += 1 }
                let run = ks[i]...ks[j]
                var produced = Set<Int>(), entered = Set<Int>()
                var values = 0, macs = 0
                for k in run {
                    let op = operations[k]
                    macs += op.macs
                    for (t, n) in zip(op.reads, op.readCounts) where !produced.contains(t) && !entered.contains(t) {
                        entered.insert(t)
                        values += n
                    }
                    produced.insert(op.output)
                }
                for k in run {
                    let op = operations[k]
                    if op.isModelOutput || (readers[op.output] ?? []).contains(where: { !run.contains($0) }) { values += op.outputCount }
                }
                total += Self.perMAC * Double(macs) + Self.perEdgeValue * Double(values)
                i = j + 1
            }
            return total
        }

        public static func format(_ c: Double) -> String {
            c >= 1e6 ? String(Double(Int(c / 1e4)) / 100) + " M" : String(Int(c / 1e3)) + " k"
        }
    }

    /// The greedy search, on errors given as shares of what each figure's bound allows (per input,
    /// per figure; NaN: no figure on that input), so that it can be run on any error function.
    ///
    /// Each round tries every candidate not yet chosen on the `sample` inputs the current set does
    /// worst on, and ranks them by the score they remove (`score`). When `byCost`, the ones that
    /// remove at least half of what the best one removes come first, ranked per unit of the
    /// estimated cost they add to the chosen set (the marginal cost, at least the cheapest single
    /// operation's, since joining two float runs can make it negative); the `confirm` first are
    /// run on every input, and of those that remove at least half of what the best of them
    /// removes, the one with the most per cost is chosen (without `byCost`: the one that removes
    /// the most), if it lowers the score.
    /// Rounds stop when every figure's worst share is within `margin`, after `maxOperations`, or
    /// when no candidate helps. When `byCost` and the margin is met, chosen operations are then
    /// taken back to integer, costliest first, wherever the margin still holds without them.
    package struct Search {
        package enum Event {
            case start([[Float]])
            case forced([[Float]], Double)
            case chosen(Int, [[Float]], Double)
            case dropped(Int, [[Float]], Double)
            case stuck
        }

        package struct Step {
            package var tensor: Int
            package var shares: [[Float]]
            package var cost: Double
        }

        package var candidates: [Int]
        package var inputCount: Int
        package var shares: (Set<Int>, [Int]) throws(ModelError) -> [[Float]]
        package var cost: (Set<Int>) -> Double
        package var byCost: Bool
        package var margin: Float
        package var maxOperations: Int
        package var sample: Int
        package var confirm: Int

        package init(candidates: [Int], inputCount: Int, shares: @escaping (Set<Int>, [Int]) throws(ModelError) -> [[Float]],
                     cost: @escaping (Set<Int>) -> Double, byCost: Bool, margin: Float, maxOperations: Int, sample: Int,
                     confirm: Int) {
            self.candidates = candidates
            self.inputCount = inputCount
            self.shares = shares
            self.cost = cost
            self.byCost = byCost
            self.margin = margin
            self.maxOperations = maxOperations
            self.sample = sample
            self.confirm = confirm
        }

        /// Summed over figures: the worst share plus the mean share.
        package static func score(_ e: [[Float]]) -> Float {
            guard let figures = e.first?.count else { return 0 }
            var s: Float = 0
            for f in 0..<figures {
                let v = e.map { $0[f] }.filter { !$0.isNaN }
                guard !v.isEmpty else { continue }
                s += v.max()! + v.reduce(0, +) / Float(v.count)
            }
            return s
        }

        package func meets(_ e: [[Float]]) -> Bool {
            !e.contains { $0.contains { !$0.isNaN && $0 > margin } }
        }

        package func run(forced: Set<Int>, log: (Event) -> Void = { _ in }) throws(ModelError)
            -> (start: [[Float]], chosen: Set<Int>, steps: [Step], dropped: [Int], shares: [[Float]]) {
            let all = Array(0..<inputCount)
            var chosen: Set<Int> = []
            let start = try shares(chosen, all)
            var current = start
            log(.start(start))
            var steps: [Step] = []
            if !forced.isEmpty {
                chosen = forced
                current = try shares(chosen, all)
                for t in forced.sorted() { steps.append(Step(tensor: t, shares: current, cost: cost(chosen))) }
                log(.forced(current, cost(chosen)))
            }
            let floor = max(candidates.map { cost([$0]) }.filter { $0 > 0 }.min() ?? 1, 1)
            let least: Float = byCost ? 0.5 : 1
            func value(_ gain: Float, _ t: Int) -> Double {
                guard byCost else { return Double(gain) }
                return Double(gain) / max(cost(chosen.union([t])) - cost(chosen), floor)
            }
            while !meets(current) && chosen.count < maxOperations + forced.count {
                let perInput = current.map { e in e.map { $0.isNaN ? 0 : $0 }.max() ?? 0 }
                let worst = all.sorted { perInput[$0] > perInput[$1] }.prefix(sample).map { $0 }
                let sampled = Self.score(worst.map { current[$0] })
                var ranked: [(tensor: Int, gain: Float)] = []
                for t in candidates where !chosen.contains(t) {
                    ranked.append((t, sampled - Self.score(try shares(chosen.union([t]), worst))))
                }
                // Per cost only among the operations that remove at least `least` of what the best
                // one removes: ranked per cost alone, the near-free ones (a squeeze-and-excite
                // convolution on 1×1 values) win every round with gains too small to reach the
                // margin in `maxOperations` rounds (landscape: worst IoU 0.942 → 0.955 in 8 rounds).
                let top = ranked.map(\.gain).max() ?? 0
                ranked.sort { a, b in
                    let ea = a.gain >= least * top, eb = b.gain >= least * top
                    if ea != eb { return ea }
                    return ea ? value(a.gain, a.tensor) > value(b.gain, b.tensor) : a.gain > b.gain
                }
                var best: (tensor: Int, shares: [[Float]], gain: Float, value: Double)?
                let now = Self.score(current)
                var confirmed: [(tensor: Int, shares: [[Float]], gain: Float)] = []
                for r in ranked.prefix(confirm) {
                    let e = try shares(chosen.union([r.tensor]), all)
                    let gain = now - Self.score(e)
                    if gain > 0 { confirmed.append((r.tensor, e, gain)) }
                }
                let most = confirmed.map(\.gain).max() ?? 0
                for c in confirmed where c.gain >= least * most {
                    let v = value(c.gain, c.tensor)
                    if best == nil || v > best!.value { best = (c.tensor, c.shares, c.gain, v) }
                }
                guard let best else {
                    log(.stuck)
                    break
                }
                chosen.insert(best.tensor)
                current = best.shares
                steps.append(Step(tensor: best.tensor, shares: current, cost: cost(chosen)))
                log(.chosen(best.tensor, current, cost(chosen)))
            }
            var dropped: [Int] = []
            if byCost && meets(current) {
                (chosen, dropped, current) = try trim(chosen, keeping: forced, current: current, log: log)
            }
            return (start, chosen, steps, dropped, current)
        }

        /// The margin's take-back: each operation of `chosen` but `keeping` back to integer, the
        /// costliest first (cost at the time of the ordering), wherever every figure's worst share
        /// stays within `margin` without it; `current` are the shares with `chosen`.
        package func trim(_ chosen: Set<Int>, keeping: Set<Int> = [], current: [[Float]], log: (Event) -> Void = { _ in })
            throws(ModelError) -> (chosen: Set<Int>, dropped: [Int], shares: [[Float]]) {
            let all = Array(0..<inputCount)
            var chosen = chosen, current = current, dropped: [Int] = []
            let saving = { (t: Int) in cost(chosen) - cost(chosen.subtracting([t])) }
            for t in chosen.subtracting(keeping).sorted(by: { saving($0) != saving($1) ? saving($0) > saving($1) : $0 < $1 }) {
                let fewer = chosen.subtracting([t])
                let e = try shares(fewer, all)
                guard meets(e) else { continue }
                chosen = fewer
                current = e
                dropped.append(t)
                log(.dropped(t, current, cost(chosen)))
            }
            return (chosen, dropped, current)
        }

        /// Whether `e` is no worse than `than` on every input and figure (NaN where `than` has
        /// NaN: no figure there either way).
        package static func noWorse(_ e: [[Float]], than: [[Float]]) -> Bool {
            zip(e, than).allSatisfy { a, b in
                zip(a, b).allSatisfy { x, y in x.isNaN ? y.isNaN : !y.isNaN && x <= y }
            }
        }

        /// Each operation of `chosen` back to integer, the costliest first, wherever no
        /// calibration input's figure gets worse without it (`noWorse`, on every input: a float
        /// operation that buys nothing, e.g. a PRELU between two integer operations, whose float
        /// version rounds its output the same way); `current` are the shares with `chosen`. Unlike
        /// the margin's take-back, this one also runs while the margin is missed.
        package func prune(_ chosen: Set<Int>, current: [[Float]], log: (Event) -> Void = { _ in }) throws(ModelError)
            -> (chosen: Set<Int>, pruned: [Int], shares: [[Float]]) {
            let all = Array(0..<inputCount)
            var chosen = chosen, current = current, pruned: [Int] = []
            let saving = { (t: Int, set: Set<Int>) in cost(set) - cost(set.subtracting([t])) }
            let order = chosen.sorted { a, b in
                let sa = saving(a, chosen), sb = saving(b, chosen)
                return sa != sb ? sa > sb : a < b
            }
            for t in order {
                let fewer = chosen.subtracting([t])
                let e = try shares(fewer, all)
                guard Self.noWorse(e, than: current) else { continue }
                chosen = fewer
                current = e
                pruned.append(t)
                log(.dropped(t, current, cost(chosen)))
            }
            return (chosen, pruned, current)
        }
    }
}
