// booth-vmcheck: exercises DRMDisplay against a real kernel driver (bochs-drm in QEMU, see
// scripts/vm/run). Also used on the host to write the expected screen.
//
//   booth-vmcheck pattern WIDTH HEIGHT OUT.ppm   expected screen as a binary PPM
//   booth-vmcheck drm [/dev/dri/card0]           run the display checks, then wait for "go" on
//                                                stdin (the host takes a screendump meanwhile)
// Output lines start with "VMCHECK"; the last is "VMCHECK PASS" or "VMCHECK FAIL: …".
import CDRM
import Hardware
import ImageCore
#if canImport(Glibc)
import Glibc
#endif

/// The known pattern: red ramp across, green ramp down, blue 32-px checkerboard, white border.
func patternPixel(x: Int, y: Int, width: Int, height: Int) -> (UInt8, UInt8, UInt8) {
    if x < 2 || y < 2 || x >= width - 2 || y >= height - 2 { return (255, 255, 255) }
    let r = UInt8(x * 255 / max(width - 1, 1))
    let g = UInt8(y * 255 / max(height - 1, 1))
    let b: UInt8 = ((x / 32) + (y / 32)) & 1 == 1 ? 200 : 40
    return (r, g, b)
}

func draw(_ image: Image, solid: UInt32? = nil) {
    let p = image.planes.0
    for y in 0..<p.height {
        let row = UnsafeMutableRawPointer(p.row(y)).assumingMemoryBound(to: UInt32.self)
        for x in 0..<p.width {
            if let solid { row[x] = solid; continue }
            let (r, g, b) = patternPixel(x: x, y: y, width: p.width, height: p.height)
            row[x] = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        }
    }
}

func mismatches(_ image: Image) -> Int {
    let p = image.planes.0
    var bad = 0
    for y in 0..<p.height {
        let row = UnsafeMutableRawPointer(p.row(y)).assumingMemoryBound(to: UInt32.self)
        for x in 0..<p.width {
            let (r, g, b) = patternPixel(x: x, y: y, width: p.width, height: p.height)
            if row[x] & 0xFF_FFFF != UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) { bad += 1 }
        }
    }
    return bad
}

func writePattern(width: Int, height: Int, to path: String) -> Int32 {
    var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
    bytes.reserveCapacity(bytes.count + width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            let (r, g, b) = patternPixel(x: x, y: y, width: width, height: height)
            bytes += [r, g, b]
        }
    }
    guard let f = fopen(path, "wb") else { return 1 }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    fclose(f)
    return 0
}

func say(_ line: String) {
    print("VMCHECK \(line)")
    fflush(nil)
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func runDRM(device: String) -> Int32 {
    var failures: [String] = []
    func check(_ ok: Bool, _ what: String) {
        say((ok ? "ok   " : "FAIL ") + what)
        if !ok { failures.append(what) }
    }

    // 1. A connector that does not exist: a clear error listing the real ones.
    do {
        _ = try DRMDisplay(configuration: .init(devicePath: device, connector: "HDMI-A-9"))
        check(false, "unknown connector is rejected")
    } catch {
        check({ if case .connectorNotFound = error { return true }; return false }(), "unknown connector is rejected: \(error)")
    }

    var previousFB: UInt32 = 0
    var crtc: UInt32 = 0
    do {
        // 2. Open, mode-set, flip.
        let display = try DRMDisplay(configuration: .init(devicePath: device, bufferCount: 2))
        say("display: \(display.name), previous framebuffer \(display.previousFramebuffer)")
        previousFB = display.previousFramebuffer
        crtc = display.crtc

        // 3. A second client is not DRM master: its mode-set is refused with a clear error.
        do {
            _ = try DRMDisplay(configuration: .init(devicePath: device))
            check(false, "second client is refused (not DRM master)")
        } catch {
            check(error == .notDisplayMaster(path: device), "second client is refused: \(error)")
        }

        // 4. Flip through the buffers: two solid frames, then the pattern.
        let start = now()
        let flips = 60
        for i in 0..<flips {
            let image = try display.beginFrame()
            draw(image, solid: i % 2 == 0 ? 0x0000_00FF : 0x0000_FF00)
            try display.present()
        }
        let image = try display.beginFrame()
        draw(image)
        try display.present()
        try display.waitForFlip()
        let elapsed = now() - start
        say("\(flips + 1) page flips in \(format2(elapsed)) s (\(Int(Double(flips + 1) / elapsed)) flips/s)")

        // 5. Readback of the scanned-out buffer.
        let bad = mismatches(display.frontImage)
        check(bad == 0, "dumb-buffer readback matches the pattern (\(bad) pixels differ)")

        // 6. Hold the screen for the host's screendump.
        say("SCREEN READY \(display.width)x\(display.height)")
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) == 1 && byte != UInt8(ascii: "\n") {}
    } catch {
        check(false, "display set-up and flipping: \(error)")
    }

    // 7. Deinit restored the previous CRTC framebuffer.
    let fd = open(device, O_RDWR | O_CLOEXEC)
    if fd >= 0, crtc != 0, let c = drmModeGetCrtc(fd, crtc) {
        check(c.pointee.buffer_id == previousFB, "previous CRTC framebuffer restored (\(c.pointee.buffer_id) == \(previousFB))")
        drmModeFreeCrtc(c)
        close(fd)
    }

    // 8. Triple buffering: flips never wait for the buffer being drawn.
    do {
        let display = try DRMDisplay(configuration: .init(devicePath: device, bufferCount: 3))
        for i in 0..<30 {
            draw(try display.beginFrame(), solid: i % 3 == 0 ? 0x00FF_0000 : 0x0000_00FF)
            try display.present()
        }
        draw(try display.beginFrame())
        try display.present()
        try display.waitForFlip()
        let bad = mismatches(display.frontImage)
        check(bad == 0, "triple-buffered flips end on the pattern (\(bad) pixels differ)")
    } catch {
        check(false, "triple buffering: \(error)")
    }

    if failures.isEmpty {
        say("PASS")
        return 0
    }
    say("FAIL: \(failures.joined(separator: "; "))")
    return 1
}

func format2(_ v: Double) -> String {
    let hundredths = Int((v * 100).rounded())
    return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
}

let args = CommandLine.arguments
if args.count == 5, args[1] == "pattern", let w = Int(args[2]), let h = Int(args[3]) {
    exit(writePattern(width: w, height: h, to: args[4]))
} else if args.count >= 2, args[1] == "drm" {
    exit(runDRM(device: args.count >= 3 ? args[2] : "/dev/dri/card0"))
} else {
    print("usage: booth-vmcheck pattern W H OUT.ppm | booth-vmcheck drm [DEVICE]")
    exit(2)
}
