import Foundation
import Hardware
import Kiosk
import TestSupport
import Testing

/// The photo save path with the disk failing under it (ENOSPC, EIO at write, fsync, rename and
/// the directory's fsync, for the sidecar's file and the photo's): the clear error, nothing of
/// the shot left behind, the earlier photos and `latest.jpg` untouched, and the next shot saved
/// once the fault is gone.
@Suite struct PhotoStoreFaultTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var call: FaultInjector.Call
        /// Calls of that kind that pass first (a save makes, per file: write ×1, fsync ×2 — the
        /// file's, then the directory's —, rename ×1; the sidecar's file first).
        var after: Int
        var errno: Int32
        var testDescription: String { "\(call) #\(after + 1) \(errno == ENOSPC ? "ENOSPC" : "EIO")" }
    }

    static let cases: [Case] = [
        Case(call: .write, after: 0, errno: ENOSPC),    // the sidecar
        Case(call: .write, after: 1, errno: ENOSPC),    // the JPEG
        Case(call: .fsync, after: 2, errno: ENOSPC),    // the JPEG's fsync
        Case(call: .open, after: 2, errno: ENOSPC),     // the JPEG's temporary file
        Case(call: .write, after: 1, errno: EIO),
        Case(call: .fsync, after: 0, errno: EIO),       // the sidecar's fsync
        Case(call: .fsync, after: 2, errno: EIO),
        Case(call: .fsync, after: 3, errno: EIO),       // the day folder's fsync after the JPEG's rename
        Case(call: .rename, after: 0, errno: EIO),
        Case(call: .rename, after: 1, errno: EIO),
    ]

    static let date = Date(timeIntervalSince1970: 1_790_000_000)

    func files(in dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    }

    @Test(arguments: cases) func aFailedSaveLeavesNothingAndTheNextShotWorks(_ c: Case) throws {
        let root = makeTemporaryDirectory() + "/photos"
        let faults = FaultInjector()
        let store = try PhotoStore(root: root, minimumFreeBytes: 0, syscalls: faults.syscalls)
        let jpeg = try smallJPEG()
        let first = try store.save(jpeg: jpeg, sidecar: Array("{\"n\":1}".utf8), date: Self.date)
        let day = (first.jpeg as NSString).deletingLastPathComponent
        let before = try files(in: day)

        faults.fail(c.call, with: c.errno, after: c.after)
        do {
            let saved = try store.save(jpeg: jpeg, sidecar: Array("{\"n\":2}".utf8), date: Self.date)
            Issue.record("saved \(saved.jpeg) despite \(c.testDescription)")
        } catch {
            if c.errno == ENOSPC {
                guard case .diskNearlyFull = error else { Issue.record("wrong error \(error)"); return }
                #expect(error.description.contains("disk nearly full"))
            } else {
                guard case .writeFailed(let why) = error else { Issue.record("wrong error \(error)"); return }
                #expect(why.contains("photo not saved") && why.contains("EIO"), "\(why)")
            }
        }
        #expect(faults.failures(of: c.call) >= 1)
        #expect(try files(in: day) == before)   // no partial photo, no orphan sidecar, no temporary
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/latest.jpg")
                .hasSuffix((first.jpeg as NSString).lastPathComponent))

        // Space is back (the device recovered): the next shot is saved whole, with its sidecar.
        faults.clear()
        let next = try store.save(jpeg: jpeg, sidecar: Array("{\"n\":3}".utf8), date: Self.date)
        #expect(try Data(contentsOf: URL(fileURLWithPath: next.jpeg)) == Data(jpeg))
        #expect(try String(contentsOfFile: next.sidecar, encoding: .utf8) == "{\"n\":3}")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/latest.jpg")
                .hasSuffix((next.jpeg as NSString).lastPathComponent))
        #expect(try files(in: day).count == before.count + 2)
    }

    @Test func aFullDiskWhileCheckingSpaceIsAClearError() throws {
        let root = makeTemporaryDirectory() + "/photos"
        let faults = FaultInjector()
        let store = try PhotoStore(root: root, minimumFreeBytes: 0, syscalls: faults.syscalls)
        faults.fail(.statvfs, with: EIO, times: 1)
        #expect(throws: StorageError.notWritable(path: root, reason: Errno.io.description)) {
            try store.save(jpeg: try smallJPEG(), sidecar: [], date: Self.date)
        }
        #expect(try store.save(jpeg: try smallJPEG(), sidecar: [], date: Self.date).jpeg.hasSuffix("-0001.jpg"))
    }

    @Test func aFailedLatestLinkDoesNotLoseThePhotoAndIsRepairedAtStart() throws {
        let root = makeTemporaryDirectory() + "/photos"
        let faults = FaultInjector()
        let store = try PhotoStore(root: root, minimumFreeBytes: 0, syscalls: faults.syscalls)
        let jpeg = try smallJPEG()
        let first = try store.save(jpeg: jpeg, sidecar: [], date: Self.date)
        faults.fail(.symlink, with: EIO, times: 1)
        let second = try store.save(jpeg: jpeg, sidecar: [], date: Self.date)   // saved: the link is secondary
        #expect(faults.failures(of: .symlink) == 1)
        #expect(FileManager.default.fileExists(atPath: second.jpeg))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/latest.jpg")
                .hasSuffix((first.jpeg as NSString).lastPathComponent))
        _ = try PhotoStore(root: root, minimumFreeBytes: 0)   // a restart repairs the link
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/latest.jpg")
                .hasSuffix((second.jpeg as NSString).lastPathComponent))
    }
}
