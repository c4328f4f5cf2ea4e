import NeuralCore
import TestSupport
import Testing

/// `SharedArena`: integer programs that share their working memory and float tensors give the
/// outputs they give with memory of their own, bit for bit, whatever ran in between and whatever
/// the memory held before the first run (both blocks are filled with a pattern first). The programs of the
/// kiosk's vision thread (detector, mesh, live segmenter) rely on this; so does the integer
/// arena, which is no longer zeroed at load.
@Suite(.serialized) struct SharedArenaTests {
    /// int8 (short-range detector, mesh) and int16 (landscape segmenter) programs.
    static let models: [(name: String, calibration: IntegerCalibration)] = [
        ("face_detection_short_range", .signedUnit), ("selfie_segmentation_landscape", .unit), ("face_landmark", .unit),
    ]

    /// A seeded, image-like input in [-1, 1]: smooth gradients plus noise.
    static func input(count: Int, seed: UInt64) -> [Float] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { i in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let noise = Float(state % 1000) / 1000 - 0.5
            return max(-1, min(1, 0.8 * Float((i * 7 + Int(seed)) % 255) / 127.5 - 0.8 + 0.4 * noise))
        }
    }

    static func run(_ interpreter: Interpreter, seed: UInt64) -> [[UInt32]] {
        let values = input(count: interpreter.inputShape(0).reduce(1, *), seed: seed)
        _ = interpreter.withInput(0) { $0.update(fromContentsOf: values) }
        interpreter.run()
        return (0..<interpreter.outputCount).map { k in interpreter.withOutput(k) { $0.map(\.bitPattern) } }
    }

    @Test("programs sharing one arena, run in turn on a pattern-filled block, match private arenas bit for bit")
    func interleavedRunsMatchPrivateArenas() throws {
        let bytes = try Self.models.map { try LiteRTReferenceTests.modelBytes($0.name) }
        let own = try zip(bytes, Self.models).map { try Interpreter(model: $0, path: .integer, calibration: $1.calibration) }
        let arena = SharedArena(capacity: 16 << 20)
        let shared = try zip(bytes, Self.models).map {
            try Interpreter(model: $0, path: .integer, calibration: $1.calibration, sharing: arena)
        }
        #expect(arena.claimedBytes > 0 && arena.claimedBytes <= arena.capacity)
        #expect(arena.claimedBoundaryBytes > 0 && arena.claimedBoundaryBytes <= arena.capacity)
        arena.withUnsafeMutableBytes { integer, boundary in
            integer.initializeMemory(as: UInt8.self, repeating: 0xA5)
            boundary.initializeMemory(as: UInt8.self, repeating: 0x5A)
        }
        for round in 0..<2 {
            for (i, model) in Self.models.enumerated() {
                let seed = UInt64(10 * round + i + 1)
                let expected = Self.run(own[i], seed: seed), got = Self.run(shared[i], seed: seed)
                #expect(got == expected, "\(model.name), round \(round): outputs differ from the model's own arena")
            }
        }
    }

    /// A calibration with the outputs of `convolutions` (indices among the model's CONV_2Ds, and
    /// `then` more operations after each) computed in float: one float run each.
    static func withFloatRuns(_ bytes: [UInt8], convolutions: [Int], then: Int = 0) throws -> IntegerCalibration {
        var table = try MixedPrecisionTests.table(bytes, settings: .unit)
        let ops = try Interpreter(model: bytes, path: .float).graph.operations
        let convs = ops.indices.filter { if case .conv2D = ops[$0].kind { return true } else { return false } }
        table.floatTensors = Set(convolutions.flatMap { c in (0...then).map { ops[convs[c] + $0].output } })
        var calibration = IntegerCalibration.unit
        calibration.adopt(table)
        return calibration
    }

    /// The float runs' arena (`FloatIsland`) lies in the shared block, inside its claim, and the
    /// runs need nothing of it zeroed: the landscape segmenter (int16) and the mesh (int8), each
    /// with two float runs, overwrite each other's runs' memory and give their private-arena bits.
    @Test("float runs' arenas are inside the shared block's claim, and interleaved runs match private arenas bit for bit")
    func floatRunsShareTheArena() throws {
        let names = ["selfie_segmentation_landscape", "face_landmark"]
        let bytes = try names.map { try LiteRTReferenceTests.modelBytes($0) }
        let calibrations = try [Self.withFloatRuns(bytes[0], convolutions: [2, 6], then: 1),
                                Self.withFloatRuns(bytes[1], convolutions: [1, 5])]
        let own = try zip(bytes, calibrations).map { try Interpreter(model: $0, path: .integer, calibration: $1) }
        let arena = SharedArena(capacity: 16 << 20)
        let shared = try zip(bytes, calibrations).map { try Interpreter(model: $0, path: .integer, calibration: $1, sharing: arena) }
        arena.withUnsafeMutableBytes { integer, boundary in
            for (name, interpreter) in zip(names, shared) {
                guard let runs = interpreter.floatRunArena, let memory = interpreter.integerMemory else {
                    Issue.record("\(name): no float runs"); continue
                }
                #expect(memory.floatRuns == 2, "\(name)")
                #expect(runs.count > 0)
                let start = UnsafeRawPointer(integer.baseAddress!).distance(to: runs.baseAddress!)
                #expect(start >= 0 && start + runs.count <= integer.count,
                        "\(name): float runs' arena at \(start)+\(runs.count), outside the shared claim of \(integer.count) bytes")
            }
            integer.initializeMemory(as: UInt8.self, repeating: 0xA5)
            boundary.initializeMemory(as: UInt8.self, repeating: 0x5A)
        }
        for round in 0..<2 {
            for (i, name) in names.enumerated() {
                let seed = UInt64(10 * round + i + 1)
                let expected = Self.run(own[i], seed: seed), got = Self.run(shared[i], seed: seed)
                #expect(got == expected, "\(name), round \(round): outputs differ from the model's own arena")
            }
        }
    }

    /// The float path in a shared arena (the still path's palm detector and hand model): the
    /// whole activation arena in the boundary block, not zeroed, and no float weights kept beside
    /// the program's (`keepingWeights: false`): the same bits as interpreters of their own.
    @Test("float-path interpreters sharing one arena, without their graph's weights, match their own arenas bit for bit")
    func floatPathSharesTheBoundaryBlock() throws {
        let names = ["palm_detection_lite", "hand_landmark_lite"]
        let bytes = try names.map { try LiteRTReferenceTests.modelBytes($0) }
        let own = try bytes.map { try Interpreter(model: $0, path: .float) }
        let arena = SharedArena(capacity: 32 << 20)
        let shared = try bytes.map { try Interpreter(model: $0, path: .float, sharing: arena, keepingWeights: false) }
        #expect(arena.claimedBytes == 0)
        #expect(arena.claimedBoundaryBytes == own.map(\.arenaByteCount).max())
        for (name, interpreter) in zip(names, shared) {
            #expect(interpreter.graph.constants.isEmpty, "\(name) kept its float weights")
        }
        #expect(own.allSatisfy { !$0.graph.constants.isEmpty })
        arena.withUnsafeMutableBytes { _, boundary in boundary.initializeMemory(as: UInt8.self, repeating: 0x5A) }
        for round in 0..<2 {
            for (i, name) in names.enumerated() {
                let seed = UInt64(10 * round + i + 1)
                let expected = Self.run(own[i], seed: seed), got = Self.run(shared[i], seed: seed)
                #expect(got == expected, "\(name), round \(round): outputs differ from the model's own arena")
            }
        }
    }

    /// The kiosk's lent layout: the live integer programs and the still's float palm and hand
    /// models in one arena whose float plans go in the integer block, run in turn on pattern-filled
    /// blocks, with the pages past the integer programs' claim released between rounds
    /// (`releasePages`: they come back zeroed): the same bits as interpreters of their own.
    @Test("float-path interpreters lent the integer block of integer programs' arena, pages released between rounds, match their own arenas")
    func floatPlansInTheIntegerBlock() throws {
        let intBytes = try Self.models.map { try LiteRTReferenceTests.modelBytes($0.name) }
        let floatNames = ["palm_detection_lite", "hand_landmark_lite"]
        let floatBytes = try floatNames.map { try LiteRTReferenceTests.modelBytes($0) }
        let ownInt = try zip(intBytes, Self.models).map { try Interpreter(model: $0, path: .integer, calibration: $1.calibration) }
        let ownFloat = try floatBytes.map { try Interpreter(model: $0, path: .float) }
        let arena = SharedArena(capacity: 32 << 20, floatPlansInIntegerBlock: true)
        let sharedInt = try zip(intBytes, Self.models).map {
            try Interpreter(model: $0, path: .integer, calibration: $1.calibration, sharing: arena)
        }
        let live = arena.claimedBytes
        let boundary = arena.claimedBoundaryBytes
        let sharedFloat = try floatBytes.map { try Interpreter(model: $0, path: .float, sharing: arena, keepingWeights: false) }
        #expect(arena.claimedBytes == max(live, ownFloat.map(\.arenaByteCount).max()!))
        #expect(arena.claimedBoundaryBytes == boundary, "a float plan went to the boundary block")
        arena.withUnsafeMutableBytes { integer, boundary in
            integer.initializeMemory(as: UInt8.self, repeating: 0xA5)
            boundary.initializeMemory(as: UInt8.self, repeating: 0x5A)
        }
        for round in 0..<2 {
            for (i, model) in Self.models.enumerated() {
                let seed = UInt64(10 * round + i + 1)
                #expect(Self.run(sharedInt[i], seed: seed) == Self.run(ownInt[i], seed: seed), "\(model.name), round \(round)")
            }
            for (i, name) in floatNames.enumerated() {
                let seed = UInt64(10 * round + i + 5)
                #expect(Self.run(sharedFloat[i], seed: seed) == Self.run(ownFloat[i], seed: seed), "\(name), round \(round)")
            }
            arena.releasePages(from: live)
        }
    }

    /// The kiosk's lending by residency (`residency`, `releasePages(notIn:)`): a still's models
    /// run in the live programs' arena after a snapshot; the pages they made resident past the
    /// live claim come back zeroed, and the live program still gives its own arena's bits.
    @Test("pages made resident after a residency snapshot are given back, and the live program's runs are unchanged")
    func pagesResidentSinceASnapshotAreReleased() throws {
        let detector = try LiteRTReferenceTests.modelBytes("face_detection_short_range")
        let own = try Interpreter(model: detector, path: .integer, calibration: .signedUnit)
        let arena = SharedArena(capacity: 32 << 20, floatPlansInIntegerBlock: true)
        let live = try Interpreter(model: detector, path: .integer, calibration: .signedUnit, sharing: arena)
        let liveBytes = arena.claimedBytes
        let iris = try Interpreter(model: try LiteRTReferenceTests.modelBytes("iris_landmark"), path: .integer, sharing: arena)
        let hand = try Interpreter(model: try LiteRTReferenceTests.modelBytes("hand_landmark_lite"), path: .float, sharing: arena,
                                   keepingWeights: false)
        #expect(arena.claimedBytes > liveBytes + (1 << 20), "the hand model's plan reaches past the live claim")
        #expect(Self.run(live, seed: 1) == Self.run(own, seed: 1))
        // As in the kiosk, no page past the live claim is resident before the still (the block may
        // come from heap pages a test before this one touched, where the kiosk's is a fresh mapping).
        // The kernel may make such pages resident again between the release and the snapshot
        // (khugepaged collapsing the huge page around the end of the live claim, with transparent
        // huge pages `always`): those count as resident before the still, and
        // `releasePages(notIn:)` rightly keeps them, so release again until the snapshot has none.
        let page = 1 << 16   // past the live claim by more than any page size
        func residentPastTheClaim() -> [Bool] {
            arena.withUnsafeMutableBytes { integer, _ in
                ResidentPages.snapshot(integer.baseAddress! + liveBytes + page, bytes: integer.count - liveBytes - page)
            }
        }
        var before = arena.residency(), residentBefore: [Bool] = []
        for _ in 0..<10 {
            arena.releasePages(from: liveBytes)
            before = arena.residency()
            residentBefore = residentPastTheClaim()
            if !residentBefore.contains(true) { break }
        }
        _ = Self.run(iris, seed: 2)
        _ = Self.run(hand, seed: 3)
        #expect(residentPastTheClaim().contains(true),
                "the lent models made no page past the live claim resident: the check below would prove nothing")
        arena.releasePages(notIn: before)
        // Only pages that were not resident at the snapshot must come back zeroed (the others are
        // the live programs' to keep; normally there are none, see above).
        let nonZero = arena.withUnsafeMutableBytes { integer, _ -> Int in
            let pageSize = ResidentPages.size
            let region = UnsafeMutableRawBufferPointer(rebasing: integer[(liveBytes + page)...])
            let first = (Int(bitPattern: region.baseAddress!) + pageSize - 1) / pageSize * pageSize
                - Int(bitPattern: region.baseAddress!)
            var count = 0
            for (i, wasResident) in residentBefore.enumerated() where !wasResident {
                let lo = first + i * pageSize, hi = min(lo + pageSize, region.count)
                count += region[lo..<hi].reduce(0) { $0 + ($1 != 0 ? 1 : 0) }
            }
            return count
        }
        #expect(residentBefore.filter { $0 }.count <= residentBefore.count / 100,
                "\(residentBefore.filter { $0 }.count) of \(residentBefore.count) pages past the live claim stayed resident after ten releases")
        #expect(nonZero == 0, "bytes the lent models left past the live claim")
        #expect(Self.run(live, seed: 4) == Self.run(own, seed: 4))
    }

    @Test("a program larger than the shared arena is refused at load, naming the sizes")
    func tooSmallArenaIsRefused() throws {
        let bytes = try LiteRTReferenceTests.modelBytes("selfie_segmentation_landscape")
        let arena = SharedArena(capacity: 4096)
        do {
            _ = try Interpreter(model: bytes, path: .integer, calibration: .unit, sharing: arena)
            Issue.record("a 4 KiB shared arena was accepted")
        } catch {
            guard case .unsupported(let what) = error else { Issue.record("unexpected error \(error)"); return }
            #expect(what.contains("shared arena holds 4096"))
        }
        #expect(arena.claimedBytes == 0 && arena.claimedBoundaryBytes <= arena.capacity)
    }
}
