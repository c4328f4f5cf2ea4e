import Foundation
import NeuralCore
import TestSupport
import Vision
import Testing

/// `ModelStore.map`: the same bytes and the same errors as `read`, and builds from a mapping that
/// run the same bits as builds from the read bytes.
@Suite struct ModelStoreMapTests {
    @Test func aMappedFileHoldsTheReadBytes() throws {
        let store = ModelStore(directory: Fixtures.models)
        for file in ModelFile.all {
            let mapped = try store.map(file)
            #expect(mapped.isLent, "\(file)")
            #expect(Array(mapped) == (try store.read(file)), "\(file)")
            #expect(SHA256.hex(mapped) == file.sha256, "\(file)")
        }
    }

    @Test func missingEmptyCorruptAndWrongFilesAreToldApartAsWhenRead() throws {
        let dir = makeTemporaryDirectory()
        let store = ModelStore(directory: dir)
        let path = store.path(.faceLandmark)
        #expect(throws: ModelStoreError.missing(path)) { try store.map(.faceLandmark) }

        _ = FileManager.default.createFile(atPath: path, contents: Data())
        do { _ = try store.map(.faceLandmark); Issue.record("an empty file was mapped") } catch {
            guard case .invalid(let p, .truncated) = error else { Issue.record("\(error)"); return }
            #expect(p == path)
        }

        try Data("not a model at all".utf8).write(to: URL(fileURLWithPath: path))
        do { _ = try store.map(.faceLandmark); Issue.record("a corrupt file was mapped") } catch {
            guard case .invalid(let p, _) = error else { Issue.record("\(error)"); return }
            #expect(p == path && error.kind == .badData)
        }

        let iris = try Data(contentsOf: URL(fileURLWithPath: Fixtures.models + "/" + ModelFile.irisLandmark.fileName))
        try iris.write(to: URL(fileURLWithPath: path))
        do { _ = try store.map(.faceLandmark); Issue.record("the iris model was mapped as the mesh") } catch {
            guard case .invalid(_, .wrongModel) = error else { Issue.record("\(error)"); return }
        }

        // A folder where the file should be: unreadable, not a crash.
        try FileManager.default.createDirectory(atPath: store.path(.irisLandmark), withIntermediateDirectories: false)
        #expect(throws: ModelStoreError.unreadable(store.path(.irisLandmark))) { try store.map(.irisLandmark) }
    }

    @Test("a build from a mapping takes it and runs the same bits as one from the read bytes",
          arguments: [ModelFile.handLandmark, .irisLandmark])
    func buildsFromAMappingRunTheSame(file: ModelFile) throws {
        let store = ModelStore(directory: Fixtures.models)
        let bytes = try store.read(file)
        var mapped = try store.map(file)
        let path: ExecutionPath = file == .handLandmark ? .float : .integer
        let fromMapping = try Interpreter(taking: &mapped, path: path, keepingWeights: false)
        #expect(mapped.isEmpty, "the mapping is handed over")
        let fromBytes = try Interpreter(model: bytes, path: path, keepingWeights: false)
        for i in 0..<fromBytes.inputCount {
            var k: UInt32 = 7
            fromBytes.withInput(i) { x in for j in x.indices { k = k &* 1_664_525 &+ 1_013_904_223; x[j] = Float(k >> 8) / Float(1 << 24) } }
            fromBytes.withInput(i) { x in fromMapping.withInput(i) { y in for j in x.indices { y[j] = x[j] } } }
        }
        fromBytes.run()
        fromMapping.run()
        for o in 0..<fromBytes.outputCount {
            let a = fromBytes.withOutput(o) { Array($0) }, b = fromMapping.withOutput(o) { Array($0) }
            #expect(a.map(\.bitPattern) == b.map(\.bitPattern), "\(file) output \(o)")
        }
    }
}
