import NeuralCore
import TestSupport
import Testing

/// `SlicedRun`: a run spread over calls, with other programs sharing the arena run (on other
/// inputs) between its slices, gives the outputs of one `run()` on a private arena, bit for bit.
/// The live face tracker runs its detector this way (`FaceTracker.detectionSlices`).
@Suite(.serialized) struct SlicedRunTests {
    @Test("sliced runs with other models between slices match a whole run bit for bit", arguments: [2, 3, 5])
    func slicedRunsMatchWholeRuns(slices: Int) throws {
        let models: [(name: String, calibration: IntegerCalibration)] = [
            ("face_detection_full_range_sparse", .signedUnit), ("face_detection_short_range", .signedUnit),
        ]
        let others = try [("selfie_segmentation_landscape", IntegerCalibration.unit), ("face_landmark", .unit)].map {
            (try LiteRTReferenceTests.modelBytes($0.0), $0.1)
        }
        for model in models {
            guard let bytes = try? LiteRTReferenceTests.modelBytes(model.name) else {
                Issue.record("model \(model.name) missing")
                continue
            }
            let own = try Interpreter(model: bytes, path: .integer, calibration: model.calibration)
            let arena = SharedArena(capacity: 16 << 20)
            let sliced = try Interpreter(model: bytes, path: .integer, calibration: model.calibration, sharing: arena)
            let between = try others.map { try Interpreter(model: $0.0, path: .integer, calibration: $0.1, sharing: arena) }
            arena.withUnsafeMutableBytes { integer, boundary in
                integer.initializeMemory(as: UInt8.self, repeating: 0xA5)
                boundary.initializeMemory(as: UInt8.self, repeating: 0x5A)
            }
            let run = SlicedRun(sliced, slices: slices)
            #expect(run.count == slices, "\(model.name): \(run.count) slices for \(slices)")
            #expect(run.keptByteCount > 0)
            // Slices of about equal cost: none above twice the mean.
            let mean = run.sliceCosts.reduce(0, +) / run.sliceCosts.count
            #expect(run.sliceCosts.allSatisfy { $0 <= 2 * mean }, "\(model.name): slice costs \(run.sliceCosts)")
            print("sliced run \(model.name) in \(slices): costs \(run.sliceCosts), \(run.keptByteCount) bytes kept")
            for round in 0..<2 {
                let seed = UInt64(round + 1)
                let expected = SharedArenaTests.run(own, seed: seed)
                let values = SharedArenaTests.input(count: sliced.inputShape(0).reduce(1, *), seed: seed)
                _ = sliced.withInput(0) { $0.update(fromContentsOf: values) }
                run.start()
                var calls = 0
                while true {
                    calls += 1
                    if run.step() { break }
                    #expect(run.running)
                    // The other programs run on their own inputs between two slices.
                    for (k, other) in between.enumerated() { _ = SharedArenaTests.run(other, seed: UInt64(100 + k + calls)) }
                }
                #expect(calls == slices && !run.running)
                let got = (0..<sliced.outputCount).map { k in sliced.withOutput(k) { $0.map(\.bitPattern) } }
                #expect(got == expected, "\(model.name), \(slices) slices, round \(round): outputs differ from a whole run")
            }
        }
    }

    @Test("the float path and one slice run whole on the first step")
    func floatPathRunsWhole() throws {
        let bytes = try LiteRTReferenceTests.modelBytes("face_detection_short_range")
        let float = try Interpreter(model: bytes, path: .float)
        let run = SlicedRun(float, slices: 4)
        #expect(run.count == 1)
        run.start()
        #expect(run.step() && !run.running)
    }
}
