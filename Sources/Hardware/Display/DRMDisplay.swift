import CDRM
import ImageCore
#if canImport(Glibc)
import Glibc
import Syscalls
#endif

/// The screen through DRM/KMS (libdrm), with two or three XRGB8888 dumb buffers and page flips.
///
/// Set-up in `init`, in order: open the card, pick the connector (by name, e.g. "HDMI-A-1", or
/// the first connected one), its mode (the requested size or the preferred mode), a CRTC the
/// connector's encoder can drive; remember that CRTC's current state; create the dumb buffers
/// (one extra row each, so SIMD drawing kernels may over-read), add framebuffers, mmap each once;
/// set the mode on a black buffer. The renderer draws into the back buffer `drawFrame`
/// lends it; `present()` queues a page flip with `DRM_MODE_PAGE_FLIP_EVENT` and the flip event is
/// taken with `drmHandleEvent` after `poll` on the card's fd. The previous CRTC is restored, the
/// buffers unmapped and destroyed, on deinit.
///
/// Open, dumb-buffer ioctls, mmap and poll go through `SystemCalls`; mode-setting uses libdrm's
/// own calls (drmModeGetResources, drmModeSetCrtc, drmModePageFlip, drmHandleEvent), whose
/// `-errno` results are mapped here: EACCES/EPERM on a mode-set or flip is "not DRM master".
public final class DRMDisplay: DisplaySink {
    public struct Configuration: Sendable, Equatable {
        public var devicePath: String
        /// Connector name ("HDMI-A-1", "DSI-1", "Virtual-1"); nil or "" = first connected.
        public var connector: String?
        /// Wanted mode size; nil = the connector's preferred mode.
        public var modeWidth: Int?
        public var modeHeight: Int?
        /// 2 (double) or 3 (triple) buffering.
        public var bufferCount: Int

        public init(devicePath: String = "/dev/dri/card0", connector: String? = nil, modeWidth: Int? = nil,
                    modeHeight: Int? = nil, bufferCount: Int = 2) {
            precondition(bufferCount == 2 || bufferCount == 3, "DRM display uses two or three buffers")
            self.devicePath = devicePath
            self.connector = connector
            self.modeWidth = modeWidth
            self.modeHeight = modeHeight
            self.bufferCount = bufferCount
        }
    }

    /// A dumb buffer with its framebuffer, mapped: `createBuffer` returns one only once every
    /// step succeeded (and undoes the steps that did when one fails).
    struct DumbBuffer {
        let handle: UInt32, framebuffer: UInt32
        /// Bytes per row, and bytes mapped at `map`.
        let pitch: Int, size: Int
        let map: UnsafeMutableRawPointer
    }

    public let name: String
    public let width: Int
    public let height: Int
    public let connectorName: String
    public let refreshHz: Int

    private let sys: SystemCalls
    private let fd: Int32
    private let path: String
    private var connectorID: UInt32
    private var crtcID: UInt32 = 0
    private var mode = drmModeModeInfo()
    private var saved: UnsafeMutablePointer<drmModeCrtc>?
    private var buffers: [DumbBuffer] = []
    private var front = 0
    private var back = 1
    private var pending = -1
    private var modeSet = false

    /// Seconds `present`/`drawFrame` wait for a flip event before calling the display stuck.
    public static let flipTimeoutMilliseconds: Int32 = 1_000

    public init(configuration: Configuration, syscalls: SystemCalls = .live) throws(HardwareError) {
        sys = syscalls
        path = configuration.devicePath
        let fd: Int32
        do {
            fd = try syscalls.open(path, flags: O_RDWR)
        } catch {
            throw HardwareError.opening("display", path, error, permissionHint: "add the user to the video group")
        }
        let picked: (UInt32, String, drmModeModeInfo, UInt32)
        do {
            picked = try Self.pick(fd: fd, path: path, configuration)
        } catch {
            try? syscalls.close(fd)
            throw error
        }
        let (connector, pickedName, pickedMode, crtc) = picked
        self.fd = fd
        connectorID = connector
        connectorName = pickedName
        mode = pickedMode
        crtcID = crtc
        width = Int(pickedMode.hdisplay)
        height = Int(pickedMode.vdisplay)
        refreshHz = Int(pickedMode.vrefresh)
        name = "DRM \(path) \(pickedName) \(width)x\(height)@\(refreshHz)"
        // Fully initialised: from here on, deinit releases whatever was set up if a step throws.
        saved = drmModeGetCrtc(fd, crtc)

        for _ in 0..<configuration.bufferCount { buffers.append(try createBuffer()) }
        for b in buffers { b.map.initializeMemory(as: UInt8.self, repeating: 0, count: b.size) }
        try setMode(buffer: 0)
        front = 0
        back = 1
    }

    deinit {
        if pending >= 0 { try? waitForFlip() }
        if modeSet { restoreCrtc() }
        if let saved { drmModeFreeCrtc(saved) }
        for b in buffers { destroy(b) }
        try? sys.close(fd)
    }

    // MARK: Picking connector, mode and CRTC

    static func connectorName(_ c: drmModeConnector) -> String {
        let type = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown\(c.connector_type)"
        return "\(type)-\(c.connector_type_id)"
    }

    static func pick(fd: Int32, path: String, _ configuration: Configuration) throws(HardwareError)
        -> (UInt32, String, drmModeModeInfo, UInt32) {
        guard let resources = drmModeGetResources(fd) else {
            let e = Errno(rawValue: errno)
            throw HardwareError.unsupported(device: "display", detail: "\(path) is not a KMS display (drmModeGetResources: \(e))")
        }
        defer { drmModeFreeResources(resources) }
        let res = resources.pointee
        var names: [String] = []
        var chosen: UnsafeMutablePointer<drmModeConnector>?
        var firstName: String?
        let wanted = configuration.connector.flatMap { $0.isEmpty ? nil : $0 }
        for i in 0..<Int(res.count_connectors) {
            guard let c = drmModeGetConnector(fd, res.connectors[i]) else { continue }
            let n = connectorName(c.pointee)
            names.append(n)
            if firstName == nil { firstName = n }
            let matches = wanted.map { $0 == n } ?? (c.pointee.connection == DRM_MODE_CONNECTED)
            if matches && chosen == nil {
                chosen = c
            } else {
                drmModeFreeConnector(c)
            }
        }
        guard let connector = chosen else {
            if let wanted { throw HardwareError.connectorNotFound(name: wanted, available: names) }
            throw HardwareError.connectorDisconnected(name: firstName ?? "any (the card has no connectors)")
        }
        defer { drmModeFreeConnector(connector) }
        let conn = connector.pointee
        let name = connectorName(conn)
        if conn.connection != DRM_MODE_CONNECTED || conn.count_modes == 0 {
            throw HardwareError.connectorDisconnected(name: name)
        }
        // Mode: the asked-for size, else the preferred one, else the first.
        var mode: drmModeModeInfo?
        let modes = (0..<Int(conn.count_modes)).map { conn.modes[$0] }
        if let w = configuration.modeWidth, let h = configuration.modeHeight {
            mode = modes.first { Int($0.hdisplay) == w && Int($0.vdisplay) == h }
            if mode == nil {
                let list = modes.map { "\($0.hdisplay)x\($0.vdisplay)" }
                throw HardwareError.unsupported(device: "display \(name)", detail: "no \(w)x\(h) mode; modes: \(list.joined(separator: ", "))")
            }
        } else {
            mode = modes.first { $0.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 } ?? modes.first
        }
        // CRTC: the one the current encoder drives, else one an encoder of the connector can use.
        var crtc: UInt32 = 0
        if conn.encoder_id != 0, let enc = drmModeGetEncoder(fd, conn.encoder_id) {
            crtc = enc.pointee.crtc_id
            drmModeFreeEncoder(enc)
        }
        if crtc == 0 {
            search: for e in 0..<Int(conn.count_encoders) {
                guard let enc = drmModeGetEncoder(fd, conn.encoders[e]) else { continue }
                defer { drmModeFreeEncoder(enc) }
                for i in 0..<Int(res.count_crtcs) where enc.pointee.possible_crtcs & (1 << UInt32(i)) != 0 {
                    crtc = res.crtcs[i]
                    break search
                }
            }
        }
        if crtc == 0 {
            throw HardwareError.unsupported(device: "display \(name)", detail: "no CRTC can drive this connector")
        }
        return (conn.connector_id, name, mode!, crtc)
    }

    // MARK: Buffers

    private func createBuffer() throws(HardwareError) -> DumbBuffer {
        // One extra row: tail padding for kernels that over-read (Plane.requiredPadding).
        var create = drm_mode_create_dumb(height: UInt32(mode.vdisplay) + 1, width: UInt32(mode.hdisplay), bpp: 32,
                                          flags: 0, handle: 0, pitch: 0, size: 0)
        do {
            try sys.ioctl(fd, booth_drm_ioctl_mode_create_dumb(), &create, name: "DRM_IOCTL_MODE_CREATE_DUMB")
        } catch {
            throw HardwareError.system(device: "display", error: error)
        }
        var fb: UInt32 = 0
        let r = drmModeAddFB(fd, UInt32(mode.hdisplay), UInt32(mode.vdisplay), 24, 32, create.pitch, create.handle, &fb)
        if r != 0 {
            destroy(handle: create.handle, framebuffer: 0)
            throw Self.kmsError(r, doing: "drmModeAddFB", path: path)
        }
        var map = drm_mode_map_dumb(handle: create.handle, pad: 0, offset: 0)
        do {
            try sys.ioctl(fd, booth_drm_ioctl_mode_map_dumb(), &map, name: "DRM_IOCTL_MODE_MAP_DUMB")
            let base = try sys.mmap(length: Int(create.size), protection: PROT_READ | PROT_WRITE, flags: MAP_SHARED,
                                    fd: fd, offset: Int(map.offset))
            return DumbBuffer(handle: create.handle, framebuffer: fb, pitch: Int(create.pitch), size: Int(create.size), map: base)
        } catch {
            destroy(handle: create.handle, framebuffer: fb)
            throw HardwareError.system(device: "display", error: error)
        }
    }

    private func destroy(_ b: DumbBuffer) {
        try? sys.munmap(b.map, length: b.size)
        destroy(handle: b.handle, framebuffer: b.framebuffer)
    }

    /// Removes the framebuffer (when one was added) and destroys the dumb buffer.
    private func destroy(handle: UInt32, framebuffer: UInt32) {
        if framebuffer != 0 { _ = drmModeRmFB(fd, framebuffer) }
        var d = drm_mode_destroy_dumb(handle: handle)
        _ = try? sys.ioctl(fd, booth_drm_ioctl_mode_destroy_dumb(), &d, name: "DRM_IOCTL_MODE_DESTROY_DUMB")
    }

    static func kmsError(_ r: Int32, doing what: String, path: String) -> HardwareError {
        let e = Errno(rawValue: r < 0 ? -r : errno)
        switch e {
        case .accessDenied, .notPermitted: return .notDisplayMaster(path: path)
        case .noDevice: return .deviceGone(device: "display", detail: "\(path) went away during \(what)")
        default: return .system(device: "display", error: SystemCallError(call: what, errno: e))
        }
    }

    private func setMode(buffer index: Int) throws(HardwareError) {
        var connector = connectorID
        let r = drmModeSetCrtc(fd, crtcID, buffers[index].framebuffer, 0, 0, &connector, 1, &mode)
        if r != 0 { throw Self.kmsError(r, doing: "drmModeSetCrtc", path: path) }
        modeSet = true
    }

    private func restoreCrtc() {
        guard let saved else {
            _ = drmModeSetCrtc(fd, crtcID, 0, 0, 0, nil, 0, nil)
            return
        }
        var c = saved.pointee
        if c.mode_valid != 0 && c.buffer_id != 0 {
            var connector = connectorID
            _ = drmModeSetCrtc(fd, c.crtc_id, c.buffer_id, c.x, c.y, &connector, 1, &c.mode)
        } else {
            _ = drmModeSetCrtc(fd, c.crtc_id, 0, 0, 0, nil, 0, nil)
        }
    }

    private func image(_ index: Int) -> Image {
        let b = buffers[index]
        let plane = Plane(base: b.map, width: width, height: height, stride: b.pitch, bytesPerPixel: 4,
                          padding: b.size - ((height - 1) * b.pitch + width * 4))
        let empty = Plane(base: b.map, width: 0, height: 0, stride: 0, bytesPerPixel: 1, padding: 0)
        return Image(format: .xrgb8888, width: width, height: height, planes: (plane, empty, empty))
    }

    // MARK: Drawing and flipping

    /// The CRTC driving the screen, and the framebuffer it showed before this display took it
    /// (0 when it was off) — what deinit restores.
    public var crtc: UInt32 { crtcID }
    public var previousFramebuffer: UInt32 { saved?.pointee.buffer_id ?? 0 }

    /// Lends what is on screen now (for readback checks) to `body`: the last buffer whose flip
    /// completed. The view must not escape `body`.
    public func withFrontImage<Result>(_ body: (Image) -> Result) -> Result { body(image(front)) }

    /// Page-flip events received since the display was opened.
    public private(set) var completedFlips = 0

    public func drawFrame(_ draw: (Image) -> Void) throws(HardwareError) {
        // Double buffering: the back buffer is the one still scanned out until the flip lands.
        if pending >= 0 && back == front { try waitForFlip() }
        draw(image(back))
    }

    public func present() throws(HardwareError) {
        if pending >= 0 { try waitForFlip() }
        let r = drmModePageFlip(fd, crtcID, buffers[back].framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT),
                                Unmanaged.passUnretained(self).toOpaque())
        if r != 0 { throw Self.kmsError(r, doing: "drmModePageFlip", path: path) }
        pending = back
        back = (0..<buffers.count).first { $0 != pending && $0 != front } ?? front
        if buffers.count == 2 { back = front }
    }

    /// Waits for the queued flip's event (poll + drmHandleEvent).
    public func waitForFlip() throws(HardwareError) {
        while pending >= 0 {
            let ready: Int16
            do {
                ready = try sys.pollReadable(fd, timeoutMilliseconds: Self.flipTimeoutMilliseconds)
            } catch {
                throw HardwareError.system(device: "display", error: error)
            }
            if ready == 0 {
                pending = -1
                throw HardwareError.deviceGone(device: "display", detail: "no page-flip event within \(Self.flipTimeoutMilliseconds) ms")
            }
            var context = drmEventContext()
            context.version = 2
            context.page_flip_handler = { _, _, _, _, userData in
                guard let userData else { return }
                Unmanaged<DRMDisplay>.fromOpaque(userData).takeUnretainedValue().flipCompleted()
            }
            let r = drmHandleEvent(fd, &context)
            if r != 0 { throw Self.kmsError(r, doing: "drmHandleEvent", path: path) }
        }
    }

    private func flipCompleted() {
        guard pending >= 0 else { return }
        completedFlips += 1
        front = pending
        pending = -1
    }
}
