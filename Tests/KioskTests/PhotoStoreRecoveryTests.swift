import Foundation
import Kiosk
import TestSupport
import Testing

/// The photo folder that heals: recreated when it vanishes, checked at start, and repaired after a
/// kill between the steps of a save.
@Suite struct PhotoStoreRecoveryTests {
    @Test func aVanishedFolderIsRecreatedAtTheNextSave() throws {
        let root = makeTemporaryDirectory() + "/photos"
        let store = try PhotoStore(root: root, minimumFreeBytes: 0)
        let jpeg = try smallJPEG()
        _ = try store.save(jpeg: jpeg, sidecar: Array("{}".utf8))
        try FileManager.default.removeItem(atPath: root)
        // The space check no longer reads "0 MiB free" from a missing folder.
        try store.checkSpace(for: 0)
        let again = try store.save(jpeg: jpeg, sidecar: Array("{}".utf8))
        #expect(again.jpeg.hasSuffix("-0001.jpg"), "\(again.jpeg)")
        #expect(FileManager.default.fileExists(atPath: again.jpeg) && FileManager.default.fileExists(atPath: again.sidecar))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/latest.jpg").hasSuffix("-0001.jpg"))
    }

    @Test func aFileInPlaceOfTheFolderIsRefusedAtStart() throws {
        let file = makeTemporaryDirectory() + "/photos"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: StorageError.notWritable(path: file, reason: "not a folder")) { try PhotoStore(root: file, minimumFreeBytes: 0) }
        #expect(PhotoStore.problem(with: file) != nil)
        #expect(throws: StorageError.self) { try PhotoStore(root: "/proc/booth-photos", minimumFreeBytes: 0) }
    }

    @Test func aKillBetweenTheStepsOfASaveIsRepairedAtStart() throws {
        let root = makeTemporaryDirectory() + "/photos"
        let jpeg = try smallJPEG()
        let store = try PhotoStore(root: root, minimumFreeBytes: 0)
        let saved = try (1...2).map { n in
            try store.save(jpeg: jpeg, sidecar: Array("{\"n\":\(n)}".utf8), date: Date(timeIntervalSince1970: 1_790_000_000))
        }
        let (a, b) = (saved[0], saved[1])
        // Killed after the JPEG's rename, before the link: latest.jpg still names the one before.
        unlink(root + "/latest.jpg")
        let day = ((a.jpeg as NSString).deletingLastPathComponent as NSString).lastPathComponent
        #expect(symlink(day + "/" + (a.jpeg as NSString).lastPathComponent, root + "/latest.jpg") == 0)
        // Killed after the sidecar, before the JPEG: a sidecar without its photo.
        let orphan = (b.sidecar as NSString).deletingLastPathComponent + "/booth-235959-0003.json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: orphan))
        _ = try PhotoStore(root: root, minimumFreeBytes: 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/latest.jpg") == day + "/" + (b.jpeg as NSString).lastPathComponent)
        #expect(!FileManager.default.fileExists(atPath: orphan))
        #expect(FileManager.default.fileExists(atPath: a.sidecar) && FileManager.default.fileExists(atPath: b.sidecar))
    }

    @Test func theSidecarIsPublishedBeforeThePhoto() throws {
        // Every published photo has its sidecar: the sidecar's inode change time is not later
        // than the photo's (the rename that publishes the JPEG comes second).
        let root = makeTemporaryDirectory() + "/photos"
        let store = try PhotoStore(root: root, minimumFreeBytes: 0)
        let saved = try store.save(jpeg: try smallJPEG(), sidecar: Array("{}".utf8))
        var js = stat(), ss = stat()
        #expect(stat(saved.jpeg, &js) == 0 && stat(saved.sidecar, &ss) == 0)
        let jt = Double(js.st_ctim.tv_sec) + Double(js.st_ctim.tv_nsec) / 1e9
        let st = Double(ss.st_ctim.tv_sec) + Double(ss.st_ctim.tv_nsec) / 1e9
        #expect(st <= jt, "sidecar \(st) after photo \(jt)")
    }

    @Test func aZeroReserveMeansZero() throws {
        let store = try PhotoStore(root: makeTemporaryDirectory(), minimumFreeBytes: 0)
        try store.checkSpace(for: 0)
        #expect(throws: StorageError.self) { try store.checkSpace(for: Int(store.freeBytes()) + 1) }
    }
}
