import Foundation
import ImageCore
import ImageFiles
import Kiosk
import TestSupport
import Testing

func smallJPEG() throws -> [UInt8] {
    let img = ImageBuffer(format: .rgb888, width: 32, height: 24)
    return try img.withImage { image in
        let p = image.luma
        for y in 0..<24 { for x in 0..<96 { p.row(y)[x] = UInt8((x * 7 + y * 3) & 0xFF) } }
        return try JPEGCodec().encode(image, quality: 90)
    }
}

@Suite struct PhotoStoreTests {
    @Test func savesDatedNumberedPhotosWithSidecarAndLatestLink() throws {
        let root = makeTemporaryDirectory() + "/photos"
        let store = try PhotoStore(root: root, minimumFreeBytes: 0)
        let jpeg = try smallJPEG()
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        let a = try store.save(jpeg: jpeg, sidecar: Array("{\"n\":1}".utf8), date: date)
        let b = try store.save(jpeg: jpeg, sidecar: Array("{\"n\":2}".utf8), date: date)
        #expect(a.jpeg.hasSuffix("-0001.jpg") && b.jpeg.hasSuffix("-0002.jpg"))
        let day = (a.jpeg as NSString).deletingLastPathComponent
        #expect((day as NSString).lastPathComponent.count == 10)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/latest.jpg").hasSuffix("-0002.jpg"))
        #expect(try ImageDecoder.decode(path: root + "/latest.jpg", as: .rgb888).width == 32)
        let attrs = try FileManager.default.attributesOfItem(atPath: a.jpeg)
        #expect((attrs[.posixPermissions] as? Int) == 0o640)
        #expect(try String(contentsOfFile: b.sidecar, encoding: .utf8) == "{\"n\":2}")
        // A new store (a restart) continues the numbering.
        let again = try PhotoStore(root: root, minimumFreeBytes: 0)
        #expect(try again.save(jpeg: jpeg, sidecar: [], date: date).jpeg.hasSuffix("-0003.jpg"))
    }

    @Test func refusesTheShotWhenTheDiskIsNearlyFull() throws {
        let root = makeTemporaryDirectory()
        let store = try PhotoStore(root: root, minimumFreeBytes: Int64.max / 2)
        let jpeg = try smallJPEG()
        do {
            _ = try store.save(jpeg: jpeg, sidecar: [])
            Issue.record("saved on a full disk")
        } catch {
            guard case .diskNearlyFull = error else { Issue.record("wrong error \(error)"); return }
            #expect(error.description.contains("disk nearly full"))
        }
        let visible = try FileManager.default.subpathsOfDirectory(atPath: root).filter { !$0.hasPrefix(".") }
        #expect(visible.isEmpty)
    }

    @Test func staleTemporariesAreRemovedAtStart() throws {
        let root = makeTemporaryDirectory()
        _ = FileManager.default.createFile(atPath: root + "/.booth-1.jpg.99.tmp", contents: Data([1, 2]))
        _ = try PhotoStore(root: root, minimumFreeBytes: 0)
        #expect(!FileManager.default.fileExists(atPath: root + "/.booth-1.jpg.99.tmp"))
    }
}
