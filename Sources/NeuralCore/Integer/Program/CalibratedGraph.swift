/// Passes 1 and 2 of the integer lowering (`IntegerProgram`): the graph rewritten for integer
/// arithmetic, with the activation range of every tensor.
///
/// 1. Rewrites, as `calibration` asks: standalone RELUs folded into the op before them
///    (`ActivationFusion`), then cross-layer equalisation (`CrossLayerEqualization`), against
///    activation ranges per channel when `activationAwareEqualization` is set.
/// 2. Ranges: a `CalibrationTable` recorded offline for this graph replaces both load-time runs
///    (see `CalibrationTable`); otherwise the float path runs on the calibration set
///    (`RangeRecorder`).
struct CalibratedGraph {
    /// The rewritten graph (the one every later pass and the steps describe).
    var graph: Graph
    /// `(min, max)` per tensor of `graph`.
    var ranges: [(Float, Float)]
    /// The ranges came from `calibration.table`, not a load-time run.
    var usedTable: Bool

    init(_ graph: Graph, calibration: IntegerCalibration) throws(ModelError) {
        var graph = graph
        try self.init(taking: &graph, calibration: calibration)
    }

    /// Rewrites `graph` itself: when the caller holds the only reference to its constants (as
    /// `Interpreter` does on the integer path), equalisation rescales them in place instead of
    /// writing a second copy of every weight beside the first.
    init(taking graph: inout Graph, calibration: IntegerCalibration) throws(ModelError) {
        if calibration.fuseActivations { _ = ActivationFusion.apply(&graph) }
        let table = calibration.usableTable(graph)
        usedTable = table != nil
        if calibration.equalize {
            let candidates = CrossLayerEqualization.candidates(graph)
            var channels: [Int: [Float]] = [:]
            if calibration.activationAwareEqualization {
                if let table { channels = table.channels } else {
                    channels = try RangeRecorder.record(graph: graph, calibration: calibration, perChannel: candidates).channels
                }
            }
            _ = CrossLayerEqualization.apply(&graph, activationRanges: channels)
        }
        if let table { ranges = table.ranges } else { ranges = try RangeRecorder.record(graph: graph, calibration: calibration) }
        guard ranges.count == graph.tensors.count else {
            throw .malformed("the calibration covers " + String(ranges.count) + " tensors, the graph has "
                             + String(graph.tensors.count))
        }
        self.graph = graph
    }
}
