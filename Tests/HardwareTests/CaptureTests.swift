import Hardware
import ImageCore
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A one-slot stand-in for the frame ring's `produce`: fills its buffer and counts.
final class SlotSink {
    let buffer: ImageBuffer
    var produced: [FrameMetadata] = []
    init(width: Int, height: Int) { buffer = ImageBuffer(format: .i420, width: width, height: height) }
    func produce(metadata: FrameMetadata, _ fill: (Image) -> Void) -> Bool {
        buffer.withImage(metadata: metadata) { fill($0) }
        produced.append(metadata)
        return true
    }
}

private func randomImage(_ format: PixelFormat, _ w: Int, _ h: Int, strideSlack: Int, seed: UInt64) -> ([UInt8], Image) {
    var rng = SeededGenerator(seed: seed)
    var sizes: [(Int, Int, Int, Int)] = []  // w, h, bpp, stride
    for p in 0..<format.planeCount {
        let s = format.planeSize(plane: p, width: w, height: h)
        let bpp = format.bytesPerPixel(plane: p)
        sizes.append((s.width, s.height, bpp, s.width * bpp + strideSlack))
    }
    let total = sizes.reduce(0) { $0 + $1.3 * $1.1 }
    let bytes = (0..<total).map { _ in UInt8.random(in: 0...255, using: &rng) }
    return (bytes, Image(format: format, width: w, height: h, planes: (
        Plane(base: UnsafeMutableRawPointer(mutating: bytes.withUnsafeBytes { $0.baseAddress! }), width: 0, height: 0, stride: 0, bytesPerPixel: 1, padding: 0),
        Plane(base: UnsafeMutableRawPointer(mutating: bytes.withUnsafeBytes { $0.baseAddress! }), width: 0, height: 0, stride: 0, bytesPerPixel: 1, padding: 0),
        Plane(base: UnsafeMutableRawPointer(mutating: bytes.withUnsafeBytes { $0.baseAddress! }), width: 0, height: 0, stride: 0, bytesPerPixel: 1, padding: 0))))
}

@Suite struct CaptureTests {
    @Test(arguments: [(PixelFormat.i420, 7), (.nv12, 0), (.nv12, 5), (.i420, 0)])
    func frameCopyHonoursStridesAndDeinterleaves(format: PixelFormat, slack: Int) {
        let w = 37, h = 23
        var rng = SeededGenerator(seed: 42)
        // Source planes in one allocation with odd strides.
        let yStride = w + slack, cStride = (format == .nv12 ? 2 * ((w + 1) / 2) : (w + 1) / 2) + slack
        let ch = (h + 1) / 2
        let total = yStride * h + cStride * ch * 2
        let src = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 64)
        defer { src.deallocate() }
        for i in 0..<total { src.storeBytes(of: UInt8.random(in: 0...255, using: &rng), toByteOffset: i, as: UInt8.self) }
        let cw = (w + 1) / 2
        let y = Plane(base: src, width: w, height: h, stride: yStride, bytesPerPixel: 1, padding: 0)
        let c1 = Plane(base: src + yStride * h, width: cw, height: ch, stride: cStride, bytesPerPixel: format == .nv12 ? 2 : 1, padding: 0)
        let c2 = Plane(base: src + yStride * h + cStride * ch, width: format == .nv12 ? 0 : cw, height: format == .nv12 ? 0 : ch, stride: cStride, bytesPerPixel: 1, padding: 0)
        let source = Image(format: format, width: w, height: h, planes: (y, c1, c2))
        let dst = ImageBuffer(format: .i420, width: w, height: h)
        dst.withImage { dstImage in
            FrameCopy.copyYUV420(from: source, to: dstImage)
            let d = dstImage
            for row in 0..<h { for x in 0..<w { #expect(d.planes.0.row(row)[x] == y.row(row)[x]) } }
            for row in 0..<ch {
                for x in 0..<cw {
                    let (u, v) = format == .nv12 ? (c1.row(row)[2 * x], c1.row(row)[2 * x + 1]) : (c1.row(row)[x], c2.row(row)[x])
                    #expect(d.planes.1.row(row)[x] == u)
                    #expect(d.planes.2.row(row)[x] == v)
                }
            }
        }
    }

    @Test func syntheticFramesMoveAndCarryTheirSequence() throws {
        let source = SyntheticSource(width: 320, height: 240, framesPerSecond: nil, stillWidth: 640, stillHeight: 480)
        try source.start()
        let sink = SlotSink(width: 320, height: 240)
        var previous: [UInt8] = []
        var stills = 0
        for i in 0..<5 {
            if i == 3 { try source.requestStill() }
            let n = try source.pump(timeoutMilliseconds: 0, deliver: sink.produce, still: { image in
                stills += 1
                #expect(image.width == 640)
                #expect(SyntheticSource.decodeSequence(from: image) == 3)
            })
            #expect(n == 1)
            let (stamp, row) = sink.buffer.withImage { image in
                (SyntheticSource.decodeSequence(from: image), Array(UnsafeBufferPointer(start: image.planes.0.row(100), count: 320)))
            }
            #expect(stamp == UInt32(i))
            #expect(row != previous, "the pattern moves")
            previous = row
        }
        #expect(stills == 1)
        #expect(sink.produced.map(\.sequence) == [0, 1, 2, 3, 4])
    }

    @Test func syntheticRateWaitsForTheNextFrame() throws {
        let time = ManualClock()
        let kernel = MockKernel()
        let source = SyntheticSource(width: 256, height: 16, framesPerSecond: 10, clock: time.clock, syscalls: kernel.syscalls)
        try source.start()
        let sink = SlotSink(width: 256, height: 16)
        #expect(try source.pump(timeoutMilliseconds: 0, deliver: sink.produce, still: { _ in }) == 1)
        #expect(try source.pump(timeoutMilliseconds: 0, deliver: sink.produce, still: { _ in }) == 0)
        time.advance(milliseconds: 100)
        #expect(try source.pump(timeoutMilliseconds: 0, deliver: sink.produce, still: { _ in }) == 1)
    }

    @Test func libcameraWithNoCameraSaysSoGracefully() throws {
        let manager = try LibcameraManager()
        #expect(LibcameraManager.version.hasPrefix("v0.") || LibcameraManager.version.hasPrefix("0."))
        let cameras = manager.cameras
        if cameras.isEmpty {
            #expect(throws: HardwareError.noCamera) {
                _ = try LibcameraSource(manager: manager, configuration: .init())
            }
            #expect(HardwareError.noCamera.description.contains("no camera found"))
        } else {
            print("note: \(cameras.count) camera(s) present: \(cameras)")
        }
        #expect(throws: HardwareError.self) { _ = try LibcameraManager() }  // one manager per process
    }
}

/// A source that delivers frames until told to fail.
final class FlakySource: FrameSource {
    let name = "flaky"
    let previewWidth = 256, previewHeight = 8
    var failNextPump = false
    func start() throws(HardwareError) {}
    func stop() {}
    func requestStill() throws(HardwareError) {}
    func pump(timeoutMilliseconds: Int32, deliver: FrameDelivery, still: (Image) -> Void) throws(HardwareError) -> Int {
        if failNextPump { throw HardwareError.deviceGone(device: "camera", detail: "unplugged") }
        return 1
    }
}

@Suite struct ReconnectTests {
    @Test func backoffDoublesUpToTheMaximum() {
        let b = ReconnectingFrameSource.Backoff(initialMilliseconds: 500, maximumMilliseconds: 4_000)
        #expect((1...6).map { b.delay(attempt: $0) } == [500, 1_000, 2_000, 4_000, 4_000, 4_000])
    }

    @Test func lostCameraIsReportedThenReopenedWithBackoff() throws {
        let time = ManualClock()
        let kernel = MockKernel()
        var events: [FrameSourceEvent] = []
        var opens = 0
        var failOpens = 0
        var current: FlakySource?
        let source = ReconnectingFrameSource(
            name: "camera", previewWidth: 256, previewHeight: 8,
            backoff: .init(initialMilliseconds: 500, maximumMilliseconds: 8_000),
            clock: time.clock, syscalls: kernel.syscalls,
            onEvent: { events.append($0) },
            open: { () throws(HardwareError) -> any FrameSource in
                opens += 1
                if failOpens > 0 {
                    failOpens -= 1
                    throw HardwareError.noCamera
                }
                let s = FlakySource()
                current = s
                return s
            })
        let sink = SlotSink(width: 256, height: 8)
        try source.start()
        #expect(events == [.connected(attempt: 0)])
        #expect(source.pump(timeoutMilliseconds: 0, deliver: sink.produce, still: { _ in }) == 1)

        // Unplug: one .lost, no frames, no reopen before the back-off.
        current!.failNextPump = true
        failOpens = 2
        #expect(source.pump(timeoutMilliseconds: 0, deliver: sink.produce, still: { _ in }) == 0)
        #expect(events.last == .lost(.deviceGone(device: "camera", detail: "unplugged")))
        #expect(!source.isAvailable)
        #expect(source.pump(timeoutMilliseconds: 0, deliver: sink.produce, still: { _ in }) == 0)
        #expect(opens == 1)

        time.advance(milliseconds: 500)
        _ = source.pump(timeoutMilliseconds: 0, deliver: sink.produce, still: { _ in })
        #expect(events.last == .reconnectFailed(.noCamera, attempt: 1, retryInMilliseconds: 1_000))
        time.advance(milliseconds: 999)
        _ = source.pump(timeoutMilliseconds: 0, deliver: sink.produce, still: { _ in })
        #expect(opens == 2, "still waiting out the back-off")
        time.advance(milliseconds: 1)
        _ = source.pump(timeoutMilliseconds: 0, deliver: sink.produce, still: { _ in })
        #expect(events.last == .reconnectFailed(.noCamera, attempt: 2, retryInMilliseconds: 2_000))
        time.advance(milliseconds: 2_000)
        _ = source.pump(timeoutMilliseconds: 0, deliver: sink.produce, still: { _ in })
        #expect(events.last == .connected(attempt: 3))
        #expect(source.isAvailable)
        #expect(source.pump(timeoutMilliseconds: 0, deliver: sink.produce, still: { _ in }) == 1)
        #expect(opens == 4)
    }
}

@Suite struct FolderReplayTests {
    /// Writes a binary PPM of a solid colour.
    static func writePPM(_ path: String, width: Int, height: Int, rgb: (UInt8, UInt8, UInt8)) {
        var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
        for _ in 0..<(width * height) { bytes += [rgb.0, rgb.1, rgb.2] }
        let f = fopen(path, "wb")!
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
        fclose(f)
    }

    @Test func replaysImagesInNameOrderLoopingAndSkipsBadFiles() throws {
        var template = Array("/tmp/booth-replay-XXXXXX".utf8CString)
        let dir = String(cString: mkdtemp(&template)!)
        defer { _ = system("rm -rf '\(dir)'") }
        Self.writePPM(dir + "/a.ppm", width: 64, height: 48, rgb: (255, 255, 255))   // white, 4:3
        Self.writePPM(dir + "/b.ppm", width: 48, height: 96, rgb: (0, 0, 0))         // black, portrait
        let junk = fopen(dir + "/c.jpg", "wb")!
        fputs("not a jpeg", junk)
        fclose(junk)
        Self.writePPM(dir + "/.hidden.ppm", width: 8, height: 8, rgb: (0, 0, 0))

        let source = try FolderReplaySource(folder: dir, previewWidth: 320, previewHeight: 240, framesPerSecond: nil)
        #expect(source.imageCount == 2)
        #expect(source.skipped.map(\.path) == [dir + "/c.jpg"])
        try source.start()
        let sink = SlotSink(width: 320, height: 240)
        var centreLuma: [UInt8] = []
        var edgeLuma: [UInt8] = []
        for _ in 0..<4 {
            #expect(try source.pump(timeoutMilliseconds: 0, deliver: sink.produce, still: { _ in }) == 1)
            sink.buffer.withImage { image in
                centreLuma.append(image.planes.0.row(120)[160])
                edgeLuma.append(image.planes.0.row(120)[5])
            }
        }
        #expect(centreLuma.map { $0 > 200 } == [true, false, true, false], "white, black, white, black")
        #expect(edgeLuma[0] > 200, "4:3 image fills a 4:3 slot")
        #expect(edgeLuma[1] == 16, "portrait image is letterboxed in black")
        #expect(sink.produced.map(\.sequence) == [0, 1, 2, 3])
    }

    @Test func emptyOrMissingFolderIsAnError() {
        #expect(throws: HardwareError.deviceNotFound(device: "folder camera", path: "/nonexistent/booth")) {
            _ = try FolderReplaySource(folder: "/nonexistent/booth")
        }
    }
}
