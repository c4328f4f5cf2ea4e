// booth-vmcheck: exercises DRMDisplay against a real kernel driver (bochs-drm in QEMU, see
// scripts/vm/run) with the kiosk's own overlay screens (Kiosk's `OverlayScenes`: the
// `OverlayRenderer` with fixed inputs). Also used on the host to write the expected screens.
//
//   booth-vmcheck expected WIDTH HEIGHT DIR   every scene as DIR/<scene>.ppm (binary PPM), plus
//                                             DIR/adjust-green.ppm (the negative control)
//   booth-vmcheck drm [/dev/dri/card0]        run the display checks; after each scene is on
//                                             screen, print "VMCHECK SCREEN READY <scene> WxH" and
//                                             wait for a line on stdin (the host's screendump)
//   booth-vmcheck camera [FRAMES]             open the UVC gadget webcam of scripts/vm/camera
//                                             through LibcameraSource (640×480 YUV420), start it,
//                                             capture FRAMES (default 10) and check every pixel;
//                                             FRAMES 0: run 3 s and require no frame
// Output lines start with "VMCHECK"; the last is "VMCHECK PASS" or "VMCHECK FAIL: …".
import CDRM
import Hardware
import ImageCore
import Kiosk
#if canImport(Glibc)
import Glibc
#endif

/// The passport profile the scenes use (profiles/icao.toml; /usr/share/booth/profiles in the VM).
let profileName = "icao"

/// PASS (0) when every check held, else FAIL with the failed checks (1).
func outcome(_ failures: [String]) -> Int32 {
    if failures.isEmpty {
        say("PASS")
        return 0
    }
    say("FAIL: \(failures.joined(separator: "; "))")
    return 1
}

func differing(_ display: DRMDisplay, _ reference: ImageBuffer) -> Int {
    reference.withImage { ref in display.withFrontImage { OverlayScenes.differingPixels($0, ref) } }
}

func fill(_ image: Image, _ colour: UInt32) {
    let p = image.planes.0
    for y in 0..<p.height {
        let row = UnsafeMutableRawPointer(p.row(y)).assumingMemoryBound(to: UInt32.self)
        for x in 0..<p.width { row[x] = colour }
    }
}

func writePPM(_ image: Image, to path: String) -> Bool {
    var bytes = Array("P6\n\(image.width) \(image.height)\n255\n".utf8)
    bytes.reserveCapacity(bytes.count + image.width * image.height * 3)
    for y in 0..<image.height {
        let row = UnsafeRawPointer(image.planes.0.row(y)).assumingMemoryBound(to: UInt32.self)
        for x in 0..<image.width {
            let v = row[x]
            bytes += [UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
        }
    }
    guard let f = fopen(path, "wb") else { return false }
    defer { fclose(f) }
    return bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) } == bytes.count
}

func writeExpected(width: Int, height: Int, directory: String) -> Int32 {
    let scenes: OverlayScenes
    do { scenes = try OverlayScenes(screenWidth: width, screenHeight: height, profileName: profileName) } catch {
        print("booth-vmcheck: \(error)")
        return 1
    }
    let screen = ImageBuffer(format: .xrgb8888, width: width, height: height)
    return screen.withImage { image in
        for scene in OverlayScenes.Scene.allCases {
            scenes.render(scene, into: image)
            guard writePPM(image, to: "\(directory)/\(scene.name).ppm") else { print("booth-vmcheck: cannot write \(directory)"); return 1 }
        }
        scenes.render(.adjust, into: image, guideGreen: true)
        return writePPM(image, to: "\(directory)/adjust-green.ppm") ? 0 : 1
    }
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

func waitForHost() {
    var byte: UInt8 = 0
    while read(STDIN_FILENO, &byte, 1) == 1 && byte != UInt8(ascii: "\n") {}
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
    var references: [ImageBuffer] = []
    var scenes: OverlayScenes? = nil
    do {
        // 2. Open, mode-set.
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

        // 4. The overlay scenes, and each rendered once into memory by the same renderer: the
        //    reference for the dumb-buffer readback (the host renders its own for the screendump).
        let w = display.width, h = display.height
        var t = now()
        let s = try OverlayScenes(screenWidth: w, screenHeight: h, profileName: profileName)
        scenes = s
        for scene in OverlayScenes.Scene.allCases {
            let b = ImageBuffer(format: .xrgb8888, width: w, height: h)
            b.withImage { s.render(scene, into: $0) }
            references.append(b)
        }
        say("\(references.count) scenes rendered into memory in \(format2(now() - t)) s")

        // 5. Flips: 60 solid frames, counted by their page-flip events.
        t = now()
        let before = display.completedFlips
        let flips = 60
        for i in 0..<flips {
            try display.drawFrame { fill($0, i % 2 == 0 ? 0x0000_00FF : 0x0000_FF00) }
            try display.present()
        }
        try display.waitForFlip()
        let elapsed = now() - t
        check(display.completedFlips - before == flips, "\(flips) page flips presented, \(display.completedFlips - before) flip events in \(format2(elapsed)) s (\(Int(Double(flips) / elapsed)) flips/s)")

        // 6. Each scene drawn by the overlay renderer straight into the back buffer, flipped,
        //    read back from the scanned-out dumb buffer, then held for the host's screendump.
        for scene in OverlayScenes.Scene.allCases {
            t = now()
            try display.drawFrame { s.render(scene, into: $0) }
            try display.present()
            try display.waitForFlip()
            let bad = differing(display, references[scene.rawValue])
            check(bad == 0, "scene \(scene.name): readback vs in-VM rendering, \(bad) of \(w * h) pixels differ (\(format2(now() - t)) s)")
            if scene == .adjust {
                // The comparison can fail: one changed pixel, and the guide turned green.
                let reference = references[scene.rawValue]
                let flip = { reference.withImage { ref in
                    (UnsafeMutableRawPointer(ref.planes.0.row(h / 2)).assumingMemoryBound(to: UInt32.self) + w / 3).pointee ^= 0x0000_0001
                } }
                flip()
                let one = differing(display, reference)
                flip()
                check(one == 1, "self-test: one changed pixel is caught (\(one) differ)")
                let green = ImageBuffer(format: .xrgb8888, width: w, height: h)
                green.withImage { s.render(.adjust, into: $0, guideGreen: true) }
                let oval = differing(display, green)
                check(oval > 0, "self-test: the guide's red→green change is caught (\(oval) pixels differ)")
            }
            say("SCREEN READY \(scene.name) \(w)x\(h)")
            waitForHost()
        }
    } catch {
        check(false, "display set-up, flipping and scenes: \(error)")
    }

    // 7. Deinit restored the previous CRTC framebuffer.
    let fd = open(device, O_RDWR | O_CLOEXEC)
    if fd >= 0, crtc != 0, let c = drmModeGetCrtc(fd, crtc) {
        check(c.pointee.buffer_id == previousFB, "previous CRTC framebuffer restored (\(c.pointee.buffer_id) == \(previousFB))")
        drmModeFreeCrtc(c)
        close(fd)
    }

    // 8. Triple buffering: flips never wait for the buffer being drawn; ends on a scene.
    if let s = scenes {
        do {
            let display = try DRMDisplay(configuration: .init(devicePath: device, bufferCount: 3))
            for i in 0..<30 {
                try display.drawFrame { fill($0, i % 3 == 0 ? 0x00FF_0000 : 0x0000_00FF) }
                try display.present()
            }
            try display.drawFrame { s.render(.countdown, into: $0) }
            try display.present()
            try display.waitForFlip()
            check(display.completedFlips == 31, "triple buffering: 31 flips presented, \(display.completedFlips) flip events")
            let bad = differing(display, references[OverlayScenes.Scene.countdown.rawValue])
            check(bad == 0, "triple-buffered flips end on the countdown scene (\(bad) pixels differ)")
        } catch {
            check(false, "triple buffering: \(error)")
        }
    }

    return outcome(failures)
}

/// Pixels (of all three planes) of an I420 frame that differ from frame `n` of the pattern
/// scripts/vm/uvc-gadget.c feeds (its `draw_frame`).
func cameraFrameMismatches(_ image: Image, n: UInt32) -> Int {
    var bad = 0
    let y = image.planes.0, u = image.planes.1, v = image.planes.2
    for r in 0..<y.height {
        let row = y.row(r)
        for x in 0..<y.width {
            let want = r < 8 && x < 256 ? ((n >> UInt32(x / 8)) & 1 == 1 ? 235 : 16) : 16 + (x + 2 * r + 3 * Int(n)) % 220
            if Int(row[x]) != want { bad += 1 }
        }
    }
    for r in 0..<u.height {
        let ru = u.row(r), rv = v.row(r)
        for x in 0..<u.width {
            if Int(ru[x]) != 16 + (2 * x + r + Int(n)) % 224 { bad += 1 }
            if Int(rv[x]) != 16 + (x + 3 * r + 5 * Int(n)) % 224 { bad += 1 }
        }
    }
    return bad
}

func runCamera(frames wanted: Int) -> Int32 {
    var failures: [String] = []
    func check(_ ok: Bool, _ what: String) {
        say((ok ? "ok   " : "FAIL ") + what)
        if !ok { failures.append(what) }
    }
    do {
        let manager = try LibcameraManager()
        let cameras = manager.cameras
        check(cameras.count == 1, "libcamera \(LibcameraManager.version) lists \(cameras.count) camera(s): \(cameras.map { "\($0.model) \($0.id)" })")
        let source = try LibcameraSource(manager: manager, configuration: .init(previewWidth: 640, previewHeight: 480, captureStills: false))
        check(source.previewWidth == 640 && source.previewHeight == 480,
              "\(source.name) configured: viewfinder YUV420 \(source.previewWidth)×\(source.previewHeight)")
        let slot = ImageBuffer(format: .i420, width: source.previewWidth, height: source.previewHeight)
        var frames: [(sequence: UInt64, stamp: UInt32?, bad: Int)] = []
        let start = now()
        try source.start()
        check(true, "capture started")
        let limit: Double = wanted == 0 ? 3 : 60
        while (wanted == 0 || frames.count < wanted) && now() - start < limit {
            _ = try source.pump(timeoutMilliseconds: 1_000, deliver: { metadata, fill in
                slot.withImage(metadata: metadata) { image in
                    fill(image)
                    let stamp = SyntheticSource.decodeSequence(from: image)
                    frames.append((metadata.sequence, stamp, stamp.map { cameraFrameMismatches(image, n: $0) } ?? -1))
                }
                return true
            }, still: { _ in })
        }
        source.stop()
        let elapsed = now() - start
        for f in frames {
            say("frame \(f.sequence): pattern #\(f.stamp.map(String.init) ?? "?"), \(f.bad) of \(640 * 480 * 3 / 2) bytes differ")
        }
        check(frames.count >= wanted, "\(frames.count) frames captured in \(format2(elapsed)) s\(wanted == 0 ? " (none required)" : "")")
        if wanted > 0 {
            check(frames.allSatisfy { $0.bad == 0 }, "every frame is the fed pattern, byte for byte")
            let stamps = frames.compactMap(\.stamp)
            check(stamps.count == frames.count && zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "the fed frame numbers increase")
            check(zip(frames, frames.dropFirst()).allSatisfy { $0.sequence < $1.sequence }, "libcamera's sequence numbers increase")
        }
    } catch {
        check(false, "camera: \(error)")
    }
    return outcome(failures)
}

func format2(_ v: Double) -> String {
    let hundredths = Int((v * 100).rounded())
    return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
}

let args = CommandLine.arguments
if args.count == 5, args[1] == "expected", let w = Int(args[2]), let h = Int(args[3]) {
    exit(writeExpected(width: w, height: h, directory: args[4]))
} else if args.count >= 2, args[1] == "drm" {
    exit(runDRM(device: args.count >= 3 ? args[2] : "/dev/dri/card0"))
} else if args.count >= 2, args[1] == "camera" {
    exit(runCamera(frames: args.count >= 3 ? Int(args[2]) ?? 10 : 10))
} else {
    print("usage: booth-vmcheck expected W H DIR | booth-vmcheck drm [DEVICE] | booth-vmcheck camera [FRAMES]")
    exit(2)
}
