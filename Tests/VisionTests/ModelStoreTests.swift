import Foundation
import NeuralCore
import TestSupport
import Vision
import Testing

@Suite struct ModelStoreTests {
    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func pinnedHashesEqualTheFetchScripts() throws {
        let script = try String(contentsOfFile: Fixtures.packageRoot + "/scripts/fetch-models", encoding: .utf8)
        for file in ModelFile.all {
            #expect(script.contains("\"\(file.fileName)|") && script.contains("|\(file.sha256)|"), "\(file) differs from scripts/fetch-models")
        }
    }

    @Test func everyCalibratedAndSegmentationModelIsInTheCatalog() {
        let names = Set(ModelFile.all.map(\.fileName))
        for m in CalibrationModel.allCases { #expect(names.contains(m.fileName), "\(m.fileName)") }
        for m in SegmentationModel.allCases { #expect(names.contains(m.fileName), "\(m.fileName)") }
        #expect(names.count == ModelFile.all.count, "a file listed twice")
    }

    @Test func fetchedModelsMatchTheirHashesAndShapes() throws {
        let store = ModelStore(directory: Fixtures.models)
        for file in ModelFile.all {
            #expect(store.sha256(file) == file.sha256, "\(file)")
            let model = try TFLiteModel(bytes: try store.read(file))
            #expect(file.hasShapes(of: model), "\(file)")
        }
    }

    @Test func theSearchPathEndsInTheInstalledDataDirectories() {
        let path = ModelStore.searchPath
        #expect(path.first == "models")
        #expect(path.suffix(2) == ["/usr/local/share/booth/models", "/usr/share/booth/models"])
        // The test runner's own PREFIX/share/booth comes right after ./models.
        #expect(path.count == 4 && path[1].hasSuffix("/share/booth/models"), "\(path)")
    }

    @Test func aNamedFolderThatIsNotOneIsRefusedWithItsSource() throws {
        #expect(throws: ModelStoreError.notAFolder("/nonexistent/m", source: "--models")) {
            try ModelStore.locate(option: "/nonexistent/m")
        }
        let file = makeTemporaryDirectory() + "/plain"
        _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        #expect(throws: ModelStoreError.notAFolder(file, source: "--models")) { try ModelStore.locate(option: file) }
    }

    @Test func missingCorruptAndWrongFilesAreToldApart() throws {
        let dir = makeTemporaryDirectory()
        let store = ModelStore(directory: dir)
        #expect(throws: ModelStoreError.missing(dir + "/face_landmark.tflite")) { try store.read(.faceLandmark) }
        #expect(ModelStoreError.missing("x").kind == .config)

        try Data("not a model at all".utf8).write(to: URL(fileURLWithPath: store.path(.faceLandmark)))
        do { _ = try store.read(.faceLandmark); Issue.record("a corrupt file was read") } catch {
            guard case .invalid(let path, _) = error else { Issue.record("\(error)"); return }
            #expect(path == dir + "/face_landmark.tflite" && error.kind == .badData)
        }

        // A valid model in the wrong slot: refused by its shapes, naming the file.
        let iris = try Data(contentsOf: URL(fileURLWithPath: Fixtures.models + "/" + ModelFile.irisLandmark.fileName))
        try iris.write(to: URL(fileURLWithPath: store.path(.faceLandmark)))
        do { _ = try store.read(.faceLandmark); Issue.record("the iris model was read as the mesh") } catch {
            guard case .invalid(_, .wrongModel(let why)) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("1×64×64×3") && why.contains("1×192×192×3"), "\(why)")
            #expect(error.description.hasPrefix(dir + "/face_landmark.tflite: not the expected model"), "\(error)")
        }
        #expect(throws: ModelStoreError.missing(dir + "/iris_landmark.tflite")) { try store.read(.irisLandmark) }
    }
}

extension ModelStoreTests {
    @Test func aSearchThatFindsOnlyAnIncompleteFolderSaysWhatItLacks() {
        let error = ModelStoreError.notFound(searched: ["models", "/usr/share/booth/models"],
                                             lacking: ["models/face_detection_full_range_sparse.tflite"])
        #expect(error.description == "models not found in models, /usr/share/booth/models (run scripts/fetch-models, or give --models DIR)"
                + "; missing models/face_detection_full_range_sparse.tflite")
        #expect(error.kind == .config)
        #expect(!ModelStoreError.notFound(searched: ["models"], lacking: []).description.contains("missing"))
    }
}
