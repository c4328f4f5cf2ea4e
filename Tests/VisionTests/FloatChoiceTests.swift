import Foundation
import NeuralCore
import Testing
import TestSupport
import Vision

/// `FloatChoice`'s search ranked by cost (`FloatChoice.Search`, `FloatChoice.Cost`): on error
/// functions given directly (one figure, as shares of its bound; the search is the one
/// `booth model calibrate --float-ops` runs on a real program), a cheap and an expensive operation
/// that fix the same error; an operation the margin no longer needs is taken back; pruning what
/// changes nothing; and the cost
/// estimate of a real model's operations (shapes, runs of consecutive operations).
@Suite struct FloatChoiceTests {
    /// One figure on four inputs: every input's share is `value(set)`.
    static func search(costs: [Int: Double], byCost: Bool, value: @escaping (Set<Int>) -> Float) -> FloatChoice.Search {
        FloatChoice.Search(candidates: costs.keys.sorted(), inputCount: 4,
                           shares: { set, indices in indices.map { _ in [value(set)] } },
                           cost: { set in set.reduce(0) { $0 + costs[$1]! } }, byCost: byCost, margin: 0.8,
                           maxOperations: 4, sample: 2, confirm: 3)
    }

    /// Tensor 1 (cost 1000) and tensor 2 (cost 10) each bring the error within the margin; 1 a
    /// little further. Ranked by the error alone the search takes 1; ranked per cost, 2.
    @Test func theCheapFixWinsWhenCostCounts() throws {
        let costs: [Int: Double] = [1: 1000, 2: 10, 3: 1]
        let value: (Set<Int>) -> Float = { set in
            set.contains(1) ? 0.4 : set.contains(2) ? 0.5 : set.contains(3) ? 1.95 : 2
        }
        let byError = try Self.search(costs: costs, byCost: false, value: value).run(forced: [])
        #expect(byError.chosen == [1])
        let byCost = try Self.search(costs: costs, byCost: true, value: value).run(forced: [])
        #expect(byCost.chosen == [2], "chosen \(byCost.chosen.sorted())")
        #expect(byCost.shares.allSatisfy { $0[0] <= 0.8 })
        #expect(byCost.steps.map(\.tensor) == [2] && byCost.steps[0].cost == 10)
    }

    /// A cheap partial fix (tensor 1, removing over half of what 2 removes) is chosen first, the
    /// expensive full one (2) next; with 2 the margin holds without 1, so 1 goes back to integer. Ranked by the error alone, 2 comes
    /// first and the search stops there.
    @Test func anOperationTheMarginNoLongerNeedsIsTakenBack() throws {
        let costs: [Int: Double] = [1: 10, 2: 100]
        let value: (Set<Int>) -> Float = { set in
            set.contains(2) ? (set.contains(1) ? 0.45 : 0.5) : set.contains(1) ? 1.2 : 2
        }
        let r = try Self.search(costs: costs, byCost: true, value: value).run(forced: [])
        #expect(r.steps.map(\.tensor) == [1, 2])
        #expect(r.dropped == [1])
        #expect(r.chosen == [2])
        #expect(r.shares.allSatisfy { $0[0] == 0.5 })
        // A fix removing less than half of what the best removes is not taken for its price.
        let weak = try Self.search(costs: costs, byCost: true) { set in
            set.contains(2) ? (set.contains(1) ? 0.45 : 0.5) : set.contains(1) ? 1.6 : 2
        }.run(forced: [])
        #expect(weak.steps.map(\.tensor) == [2] && weak.chosen == [2])
        let byError = try Self.search(costs: costs, byCost: false, value: value).run(forced: [])
        #expect(byError.steps.map(\.tensor) == [2] && byError.dropped.isEmpty)
    }

    /// Nothing helps: no operation is chosen, and the forced ones stay even when they cost.
    @Test func forcedOperationsStayAndUselessOnesAreNotChosen() throws {
        let costs: [Int: Double] = [1: 10, 2: 100, 3: 5]
        let r = try Self.search(costs: costs, byCost: true) { set in set.contains(3) ? 0.5 : 2 }.run(forced: [3])
        #expect(r.chosen == [3])
        #expect(r.dropped.isEmpty)
        let none = try Self.search(costs: costs, byCost: true) { _ in 2 }.run(forced: [])
        #expect(none.chosen.isEmpty && none.steps.isEmpty)
    }

    /// Pruning takes back, costliest first, every operation without which no input gets worse,
    /// forced ones too and while the margin is missed: 2 (the costliest) is the only one that
    /// helps and stays; 3 helps input 1 alone and stays; 1 changes nothing and goes.
    @Test func pruningTakesBackWhatChangesNothing() throws {
        let costs: [Int: Double] = [1: 50, 2: 100, 3: 5]
        let search = FloatChoice.Search(
            candidates: costs.keys.sorted(), inputCount: 4,
            shares: { set, indices in
                indices.map { i in [(set.contains(2) ? 1.5 : 2) + (i == 1 && !set.contains(3) ? 0.25 : 0)] }
            },
            cost: { set in set.reduce(0) { $0 + costs[$1]! } }, byCost: true, margin: 0.8, maxOperations: 4, sample: 2,
            confirm: 3)
        let all: Set<Int> = [1, 2, 3]
        let current = try search.shares(all, Array(0..<4))
        var order: [Int] = []
        let r = try search.prune(all, current: current) { event in
            if case .dropped(let t, _, _) = event { order.append(t) }
        }
        #expect(r.chosen == [2, 3], "kept \(r.chosen.sorted())")
        #expect(r.pruned == [1] && order == [1])
        #expect(r.shares == current)
        // No worse means on every input: a better worst bought with a worse other input stays.
        #expect(FloatChoice.Search.noWorse([[0.5], [0.4]], than: [[0.5], [0.4]]))
        #expect(!FloatChoice.Search.noWorse([[0.3], [0.45]], than: [[0.5], [0.4]]))
        #expect(FloatChoice.Search.noWorse([[.nan], [0.4]], than: [[.nan], [0.4]]))
        #expect(!FloatChoice.Search.noWorse([[0.1], [0.4]], than: [[.nan], [0.4]]))
    }

    /// Trimming an existing choice (`--float-trim`): costliest first, each operation goes back to
    /// integer only while every input's share stays within the margin, and what is kept stays.
    /// 2 (cost 100) alone would break the margin (0.9) and stays; 1 (cost 50) goes (0.6); then 3
    /// (cost 5) would break it (0.85 on input 2, with 1 gone) and stays; `keeping` protects 1.
    @Test func trimmingKeepsTheMargin() throws {
        let costs: [Int: Double] = [1: 50, 2: 100, 3: 5]
        let search = FloatChoice.Search(
            candidates: costs.keys.sorted(), inputCount: 4,
            shares: { set, indices in
                indices.map { i in
                    [0.3 + (set.contains(2) ? 0 : 0.6) + (set.contains(1) ? 0 : 0.3) + (set.contains(3) || i != 2 ? 0 : 0.25)]
                }
            },
            cost: { set in set.reduce(0) { $0 + costs[$1]! } }, byCost: false, margin: 0.8, maxOperations: 4, sample: 2,
            confirm: 3)
        let all: Set<Int> = [1, 2, 3]
        let current = try search.shares(all, Array(0..<4))
        var order: [Int] = []
        let r = try search.trim(all, current: current) { event in
            if case .dropped(let t, _, _) = event { order.append(t) }
        }
        #expect(r.chosen == [2, 3], "kept \(r.chosen.sorted())")
        #expect(r.dropped == [1] && order == [1])
        #expect(r.shares.allSatisfy { $0[0] <= 0.8 })
        #expect(r.shares.map { $0[0] } == [0.6, 0.6, 0.6, 0.6])
        // With 1 kept, 3 alone is not needed (0.55 on input 2).
        let kept = try search.trim(all, keeping: [1], current: current)
        #expect(kept.chosen == [1, 2] && kept.dropped == [3], "kept \(kept.chosen.sorted())")
    }

    /// The estimate on the landscape model's rewritten graph: the stem convolution's MACs from
    /// its shapes (256×144×3 input, 3×3 stride 2, 16 outputs); two consecutive operations are one
    /// float run, cheaper than the two runs apart (the value between them is not converted); and
    /// the cost of a set does not depend on its order.
    @Test func costOfALandscapeStem() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.models + "/selfie_segmentation_landscape.tflite")))
        let interpreter = try Interpreter(model: bytes, path: .float)
        var calibration = IntegerCalibration.unit
        calibration.activations = .int8
        let ops = try interpreter.rewrittenOperations(calibration: calibration)
        let first = try #require(ops.first { $0.kind == "CONV_2D" })
        #expect(first.macs == 72 * 128 * 16 * 27, "\(first.macs) MACs")
        #expect(first.outputCount == 72 * 128 * 16)
        let cost = FloatChoice.Cost(ops)
        // An operation whose output only the next one reads.
        let k = try #require(ops.indices.dropLast().first { k in
            ops[k + 1].reads.contains(ops[k].output) && !ops.enumerated().contains { $0.offset != k + 1 && $0.element.reads.contains(ops[k].output) }
        })
        let a = ops[k].output, b = ops[k + 1].output
        #expect(cost.of([a, b]) < cost.of([a]) + cost.of([b]))
        #expect(cost.of([a, b]) == cost.of([b, a]))
        #expect(cost.of([a]) >= FloatChoice.Cost.perMAC * Double(ops[k].macs)
                + FloatChoice.Cost.perEdgeValue * Double(ops[k].outputCount))
        #expect(cost.of([]) == 0)
    }
}
