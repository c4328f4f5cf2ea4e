import Foundation
import ImageFiles
import Syscalls
import TestSupport
import Testing

/// `FileIO` with the kernel failing under it (ENOSPC, EIO at each step of the atomic write):
/// the error names the file and the cause, the old content stays, no temporary file is left.
@Suite struct FileIOFaultTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var call: FaultInjector.Call
        var errno: Int32
        var expected: String
        var testDescription: String { "\(call) \(Errno(rawValue: errno).name)" }
    }

    static let cases: [Case] = [
        Case(call: .open, errno: ENOSPC, expected: "no space left on device"),
        Case(call: .write, errno: ENOSPC, expected: "no space left on device"),
        Case(call: .fsync, errno: ENOSPC, expected: "no space left on device"),
        Case(call: .write, errno: EIO, expected: "Input/output error"),
        Case(call: .fsync, errno: EIO, expected: "Input/output error"),
        Case(call: .close, errno: EIO, expected: "Input/output error"),
        Case(call: .rename, errno: EIO, expected: "Input/output error"),
    ]

    @Test(arguments: cases) func aFailedWriteKeepsTheOldContent(_ c: Case) throws {
        let dir = makeTemporaryDirectory()
        let path = dir + "/photo.jpg"
        try FileIO.writeAtomically([1, 2, 3], to: path)
        let faults = FaultInjector()
        faults.fail(c.call, with: c.errno, times: 1)
        do {
            try FileIO.writeAtomically([UInt8](repeating: 9, count: 5000), to: path, syscalls: faults.syscalls)
            Issue.record("the write succeeded despite \(c.testDescription)")
        } catch {
            #expect(error.path == path)
            #expect(error.description.contains(c.expected), "\(error)")
        }
        #expect(faults.failures(of: c.call) == 1)
        #expect(try FileIO.read(path) == [1, 2, 3])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["photo.jpg"])
        // The fault is gone: the same write now goes through.
        try FileIO.writeAtomically([7, 7], to: path, syscalls: faults.syscalls)
        #expect(try FileIO.read(path) == [7, 7])
    }

    @Test func aFailedDirectorySyncIsReportedAfterTheRename() throws {
        let dir = makeTemporaryDirectory()
        let path = dir + "/a.bin"
        let faults = FaultInjector()
        faults.fail(.fsync, with: EIO, after: 1, times: 1)   // the file's fsync passes, the directory's fails
        #expect(throws: SystemCallError(call: "fsync(\(dir))", errno: .io)) {
            try [UInt8]([4, 5]).withUnsafeBytes { try FileIO.publish($0, to: path, syscalls: faults.syscalls) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["a.bin"])   // no temporary left
    }

    @Test func aReadErrorNamesTheFileAndTheErrno() throws {
        let path = makeTemporaryDirectory() + "/x.bin"
        try FileIO.writeAtomically([1, 2, 3, 4], to: path)
        let faults = FaultInjector()
        faults.fail(.read, with: EIO)
        #expect(throws: ImageFileError.cannotOpen(path: path, errno: EIO)) { try FileIO.read(path, syscalls: faults.syscalls) }
        #expect(faults.failures(of: .read) == 1)
    }
}
