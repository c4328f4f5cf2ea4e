import Foundation
import Posix
import Syscalls
import Synchronization
import Testing

/// The Foundation-free helpers the kiosk uses, checked against the Foundation calls they replace.
struct FormatTests {
    @Test func cFormatGivesStringFormatsTextForTheKiosksFormats() {
        var rng = SystemRandomNumberGenerator()
        let formats = ["%.1f", "%.2f", "%.3f", "%8.3f", "%.0f", "(cpu %.2f/%.2f)", "%.1f images/s"]
        var values: [Double] = [0, -0.0, 0.05, -0.05, 0.25, 0.35, 1.0005, 2.5, 3.5, 1e20, -1e-9, 123456.789,
                                .infinity, -.infinity, .nan, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
        for _ in 0..<2000 {
            values.append(Double.random(in: -1000...1000, using: &rng))
            values.append(Double(Int.random(in: -100_000...100_000, using: &rng)) / 1000)   // ties at the last digit
            values.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &rng)))
        }
        for format in formats {
            for v in values {
                let args: [CVarArg] = format.contains("/") ? [v, v * 3] : [v]
                #expect(String(cFormat: format, args[0], args.count > 1 ? args[1] : 0.0) == String(format: format, arguments: args),
                        "\(format) of \(v)")
            }
        }
    }

    @Test func cFormatGivesStringFormatsTextForIntegers() {
        for v in [0, 1, 7, 42, 999, 1000, 9999, 10_000, 123_456, -3] {
            #expect(String(cFormat: "%04ld", v) == String(format: "%04d", v))
            #expect(String(cFormat: "%02ld%02ld%02ld", v, v, v) == String(format: "%02d%02d%02d", v, v, v))
            #expect(String(cFormat: "#%ld x=%.0f", v, Double(v) + 0.5) == String(format: "#%d x=%.0f", v, Double(v) + 0.5))
        }
    }

    @Test func cFormatGrowsPastItsFirstBuffer() {
        let long = String(cFormat: "%300.2f|%ld", 1.5, 7)
        #expect(long.utf8.count == 302)
        #expect(long == String(repeating: " ", count: 296) + "1.50|7")
    }
}

struct PathTests {
    /// Paths as the kiosk and the commands see them; NSString's answer is the expected one.
    static let paths = ["", "/", "a/", "/a", "/a/", "a/b", "a/b/", "a/b.jpg", "a/b.jpg/", ".jpg", "a/.jpg", "a.",
                        "a/b.", "a.b.c", "a.b/c", "/a.b/c", "..", "a/..", "./a.png", "/x.png", "a..b",
                        "a/.hidden.jpg", "a.b/", "~/a.jpg", "dir/file.JPEG", "a b/c d.e f", "é/ü.ß", "a/b.c/", "a/.",
                        "/var/lib/booth/photos/2026-11-28/booth-065704-0001.jpg", "photos/../out/x.png"]

    @Test func lastComponentExtensionAndDeletingAsNSString() {
        for p in Self.paths {
            let ns = p as NSString
            #expect(Path.lastComponent(p) == ns.lastPathComponent, "\(p)")
            #expect(Path.pathExtension(p) == ns.pathExtension, "\(p)")
            #expect(Path.deletingExtension(p) == ns.deletingPathExtension, "\(p)")
            for name in ["n.jpg", "", "/n/", "x"] {
                #expect(Path.appending(p, name) == ns.appendingPathComponent(name), "\(p) + \(name)")
            }
        }
    }

    @Test func deletingLastComponentAsNSString() {
        // Foundation 6.3's NSString traps on "a", "a/" and "." (String._startOfLastPathComponent): below.
        for p in Self.paths where p != "a/" {
            #expect(Path.deletingLastComponent(p) == (p as NSString).deletingLastPathComponent, "\(p)")
        }
    }

    @Test func loneNamesAndSlashes() {
        #expect(Path.deletingLastComponent("a") == "")
        #expect(Path.deletingLastComponent("a/") == "")
        #expect(Path.deletingLastComponent(".") == "")
        #expect(Path.deletingLastComponent("/") == "/")
        #expect(Path.deletingLastComponent("/a") == "/")
        #expect(Path.lastComponent("//") == "/")
        #expect(Path.pathExtension("...") == "")
        #expect(Path.deletingExtension("a.tar.gz") == "a.tar")
        // Runs of slashes stay (NSString gives "x/y" and "x").
        #expect(Path.deletingExtension("x//y.png") == "x//y")
        #expect(Path.deletingLastComponent("x//y.png") == "x")
    }
}

struct ThreadAndConditionTests {
    @Test func threadRunsItsClosureUnderItsNameAndJoins() {
        let seen = Mutex<String>("")
        let t = PosixThread(name: "booth-a-very-long-thread-name") {
            let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            seen.withLock { $0 = comm }
        }
        t.join()
        #expect(seen.withLock { $0 } == "booth-a-very-lo\n")   // the kernel's 15 bytes
    }

    @Test func conditionWakesAWaiterAndTimesOut() {
        let condition = Condition()
        nonisolated(unsafe) var flag = false
        let waiter = PosixThread(name: "waiter") {
            condition.lock()
            while !flag { condition.wait() }
            condition.unlock()
        }
        condition.lock()
        flag = true
        condition.broadcast()
        condition.unlock()
        waiter.join()

        let start = MonotonicTime.now()
        condition.lock()
        let signalled = condition.wait(until: start.adding(.milliseconds(30)))
        condition.unlock()
        #expect(!signalled)
        #expect(MonotonicTime.now().seconds(since: start) >= 0.03)
    }

    @Test func lockExcludes() {
        let lock = Lock()
        nonisolated(unsafe) var count = 0
        let threads = (0..<4).map { i in
            PosixThread(name: "adder-\(i)") { for _ in 0..<10_000 { lock.withLock { count += 1 } } }
        }
        for t in threads { t.join() }
        #expect(count == 40_000)
    }
}

struct FileDescriptorIOTests {
    @Test func readAllReadsProcFilesAndLargeFilesWhole() throws {
        let status = try #require(FileDescriptorIO.readText("/proc/self/status"))
        #expect(status.contains("VmRSS:") && status.contains("VmHWM:"))
        let smaps = try #require(FileDescriptorIO.readAll("/proc/self/smaps"))
        #expect(smaps.count > 16_384)   // more than the first chunk, from a file that reports size 0

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("posix-io-\(getpid())").path
        defer { unlink(path) }
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        #expect(FileDescriptorIO.readAll(path) == bytes)
        #expect(FileDescriptorIO.readAll(path + "-missing") == nil)
    }

    @Test func writeExistingWritesButNeverCreates() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("posix-w-\(getpid())").path
        defer { unlink(path) }
        #expect(!FileDescriptorIO.writeExisting(path, "x"))
        #expect(!FileManager.default.fileExists(atPath: path))
        FileManager.default.createFile(atPath: path, contents: Data())
        #expect(FileDescriptorIO.writeExisting(path, "héllo"))
        #expect(FileDescriptorIO.readText(path) == "héllo")
    }

    /// Through `SystemCalls`: an interrupted or short write is continued, an interrupted read
    /// retried, and any other failure is a plain `false` / `nil` (nothing half-written reported as done).
    @Test func interruptedAndShortCallsAreContinuedAndFailuresReported() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("posix-k-\(getpid())").path
        defer { unlink(path) }
        FileManager.default.createFile(atPath: path, contents: Data())

        let writes = Mutex(0)
        var calls = SystemCalls.live
        calls.rawWrite = { fd, buffer, count in
            let n = writes.withLock { $0 += 1; return $0 }
            if n == 1 { return -Int(EINTR) }
            return SystemCalls.live.rawWrite(fd, buffer, min(count, 3))   // three bytes at a time
        }
        #expect(FileDescriptorIO.writeExisting(path, "interrupted and short", calls: calls))
        #expect(writes.withLock { $0 } > 2)

        let reads = Mutex(0)
        calls.rawRead = { fd, buffer, count in
            let n = reads.withLock { $0 += 1; return $0 }
            return n == 1 ? -Int(EINTR) : SystemCalls.live.rawRead(fd, buffer, count)
        }
        #expect(FileDescriptorIO.readText(path, calls: calls) == "interrupted and short")

        calls.rawRead = { _, _, _ in -Int(EIO) }
        #expect(FileDescriptorIO.readAll(path, calls: calls) == nil)
        calls.rawWrite = { _, _, _ in -Int(ENOSPC) }
        #expect(!FileDescriptorIO.writeExisting(path, "full disk", calls: calls))
    }
}

struct DirectoriesTests {
    @Test func createMakesMissingParentsAndSaysWhetherItCreatedThePath() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("posix-dirs-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try Directories.create(root + "/a/b/c", mode: 0o750))
        #expect(Directories.isDirectory(root + "/a/b/c"))
        #expect(try !Directories.create(root + "/a/b", mode: 0o750))
        #expect(Directories.make(root + "/a/b/c/") == nil)
        FileManager.default.createFile(atPath: root + "/file", contents: Data())
        #expect(Directories.make(root + "/file") == ENOTDIR)
        #expect(Directories.make(root + "/file/below") == ENOTDIR)
    }

    @Test func createThrowsTheFailingCallsErrorAndStopsThere() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("posix-dirs-e-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let made = Mutex([String]())
        var calls = SystemCalls.live
        calls.rawMkdir = { path, mode in
            let p = String(cString: path)
            if p.hasSuffix("/deny") { return -EACCES }
            made.withLock { $0.append(p) }
            return SystemCalls.live.rawMkdir(path, mode)
        }
        do {
            try Directories.create(root + "/deny/x/y", mode: 0o700, calls: calls)
            Issue.record("a refused parent was not reported")
        } catch {
            #expect(error.errno == .accessDenied && error.call.contains("/deny"))
        }
        #expect(!Directories.isDirectory(root + "/deny"))
        // y and x were tried (ENOENT), then deny refused: nothing is tried after the refusal.
        #expect(made.withLock { $0 } == [root + "/deny/x/y", root + "/deny/x"])
    }
}
