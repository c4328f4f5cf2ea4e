import Foundation
import Hardware
import ImageCore
import ImageFiles
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct DisplayTests {
    @Test func pngDisplayWritesEveryNthFrameAndSnapshots() throws {
        var template = Array("/tmp/booth-png-XXXXXX".utf8CString)
        let dir = String(cString: mkdtemp(&template)!)
        defer { _ = system("rm -rf '\(dir)'") }
        let display = PNGDisplay(directory: dir, width: 64, height: 32, everyNth: 3)
        for frame in 0..<5 {
            try display.drawFrame { image in
                #expect(image.format == .xrgb8888)
                let p = image.planes.0
                for y in 0..<p.height {
                    let row = UnsafeMutableRawPointer(p.row(y)).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<p.width { row[x] = x < 32 ? 0x00FF_0000 : UInt32(frame) * 40 }  // red | blue level
                }
            }
            if frame == 4 { display.requestSnapshot() }
            try display.present()
        }
        try display.flush()   // the writer thread has the last screen
        #expect(display.writtenCount == 3 && display.lastWritten == dir + "/screen-000004.png")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["screen-000000.png", "screen-000003.png", "screen-000004.png"])
        // (The decoded buffer used to be a temporary whose view outlived it.)
        let decoded = try ImageDecoder.decode(path: dir + "/screen-000003.png", as: .rgb888)
        let (left, middle) = decoded.withImage { image in
            let row = image.planes.0.row(10)
            return (Array(UnsafeBufferPointer(start: row, count: 3)), Array(UnsafeBufferPointer(start: row + 3 * 40, count: 3)))
        }
        #expect(left == [255, 0, 0])
        #expect(middle == [0, 0, 120])
    }

    /// A screen the writer thread cannot write is reported by the next flush (and only once).
    @Test func pngDisplayReportsAFailedWrite() throws {
        let display = PNGDisplay(directory: "/nonexistent-booth-dir", width: 16, height: 8, everyNth: 1)
        try display.drawFrame { _ in }
        try display.present()
        #expect(throws: HardwareError.self) { try display.flush() }
        try display.flush()
        #expect(display.writtenCount == 0)
    }

    @Test func nullDisplayCountsFrames() throws {
        let display = NullDisplay(width: 32, height: 16)
        try display.drawFrame { _ in }
        try display.present()
        try display.present()
        #expect(display.presentedCount == 2)
    }

    @Test func missingCardIsDeviceNotFound() {
        let kernel = MockKernel()
        #expect(throws: HardwareError.deviceNotFound(device: "display", path: "/dev/dri/card7")) {
            _ = try DRMDisplay(configuration: .init(devicePath: "/dev/dri/card7"), syscalls: kernel.syscalls)
        }
    }

    @Test func permissionDeniedNamesTheGroup() {
        let kernel = MockKernel()
        kernel.inject(.open, EINTR, EACCES)
        do {
            _ = try DRMDisplay(configuration: .init(), syscalls: kernel.syscalls)
            Issue.record("expected EACCES")
        } catch {
            #expect(error.description.contains("permission denied"))
            #expect(error.description.contains("video group"))
        }
        #expect(kernel.counts[.open] == 2)
    }

    @Test func aFileThatIsNotAKMSDeviceIsRejectedAndClosed() throws {
        // /dev/null opens, but drmModeGetResources fails on it.
        nonisolated(unsafe) var closed = false
        var calls = SystemCalls.live
        let liveClose = calls.rawClose
        calls.rawClose = { fd in closed = true; return liveClose(fd) }
        do {
            _ = try DRMDisplay(configuration: .init(devicePath: "/dev/null"), syscalls: calls)
            Issue.record("expected /dev/null to be rejected")
        } catch {
            guard case .unsupported = error else { Issue.record("wrong error \(error)"); return }
            #expect(error.description.contains("not a KMS display"))
        }
        #expect(closed)
    }

    @Test func notMasterAndDisconnectedMessagesAreClear() {
        #expect(HardwareError.notDisplayMaster(path: "/dev/dri/card0").description.contains("not DRM master"))
        #expect(HardwareError.connectorDisconnected(name: "HDMI-A-1").description.contains("HDMI-A-1 is not connected"))
        #expect(HardwareError.connectorNotFound(name: "HDMI-A-2", available: ["HDMI-A-1", "DSI-1"]).description
            == "display connector HDMI-A-2 not found; available: HDMI-A-1, DSI-1")
    }
}
