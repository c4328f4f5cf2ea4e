import Foundation
import Kiosk
import TestSupport
import Vision
import Testing

@Suite struct ModelFilesTests {
    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func pinnedHashesEqualTheFetchScripts() throws {
        let script = try String(contentsOfFile: Fixtures.packageRoot + "/scripts/fetch-models", encoding: .utf8)
        for (name, hash) in ModelFiles.pinned {
            #expect(script.contains("\"\(name)|") && script.contains("|\(hash)|"), "\(name) differs from scripts/fetch-models")
        }
    }

    @Test func fetchedModelsMatchTheirHashes() throws {
        let dir = Fixtures.models
        for (name, hash) in ModelFiles.pinned {
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name)"))
            #expect(SHA256.hex(data) == hash, "\(name)")
        }
    }
}
