import CCameraLoader
import ImageCore
#if canImport(Glibc)
import Glibc
import Syscalls
#endif

/// Preview (and still) frames from libcamera.
///
/// Set-up, in order, all in `init`: acquire the camera, configure roles Viewfinder (YUV420 at
/// the board's preview size) and StillCapture (YUV420 at full sensor resolution), allocate the
/// buffers once, mmap every dmabuf once (through `SystemCalls`). `start` queues one request per
/// viewfinder buffer. libcamera's completion callback only hands the request off (queue + eventfd,
/// in the shim); `pump` polls that eventfd, copies each preview frame once from its mmap'd buffer
/// into the ring slot (the one copy that remains — see `FrameCopy`), hands a still to `still` as a
/// zero-copy view, then re-queues the request.
///
/// A disconnected camera, a failing re-queue or a run of failed frames throws; wrap the source in
/// `ReconnectingFrameSource` to keep trying.
public final class LibcameraSource: FrameSource {
    public struct Configuration: Sendable, Equatable {
        /// libcamera camera id, or nil for the first camera.
        public var cameraID: String?
        public var previewWidth: Int
        public var previewHeight: Int
        public var captureStills: Bool
        public init(cameraID: String? = nil, previewWidth: Int = 640, previewHeight: Int = 480, captureStills: Bool = true) {
            self.cameraID = cameraID
            self.previewWidth = previewWidth
            self.previewHeight = previewHeight
            self.captureStills = captureStills
        }
    }

    /// Consecutive failed or cancelled frames, while running, that count as the camera failing.
    public static let failedFrameLimit = 8

    public let name: String
    public private(set) var previewWidth: Int
    public private(set) var previewHeight: Int
    public private(set) var stillWidth = 0
    public private(set) var stillHeight = 0

    private let manager: LibcameraManager
    private let camera: OpaquePointer
    private let sys: SystemCalls
    private let eventFD: Int32
    private var mappings: [(address: UnsafeMutableRawPointer, length: Int)] = []
    private var previewImages: [Image] = []
    private var stillImages: [Image] = []
    private var running = false
    private var failedInARow = 0

    public init(manager: LibcameraManager, configuration: Configuration, syscalls: SystemCalls = .live) throws(HardwareError) {
        self.manager = manager
        self.sys = syscalls
        let available = manager.cameras
        if available.isEmpty { throw HardwareError.noCamera }
        if let id = configuration.cameraID, !available.contains(where: { $0.id == id }) {
            throw HardwareError.cameraNotFound(id: id, available: available.map(\.id))
        }
        let chosen = configuration.cameraID.flatMap { id in available.first { $0.id == id } } ?? available[0]
        name = "libcamera \(chosen.model.isEmpty ? chosen.id : "\(chosen.model) \(chosen.id)")"

        var handle: OpaquePointer?
        let r = ccamera_open(manager.handle, chosen.id, &handle)
        guard r == 0, let handle else {
            throw Self.error(r, doing: "open \(chosen.id)")
        }
        camera = handle
        eventFD = ccamera_event_fd(handle)
        previewWidth = configuration.previewWidth
        previewHeight = configuration.previewHeight
        do {
            try configure(configuration)
        } catch {
            unmapAll()
            ccamera_free(handle)
            throw error
        }
    }

    deinit {
        stop()
        unmapAll()
        ccamera_free(camera)
    }

    static func error(_ r: Int32, doing what: String) -> HardwareError {
        switch Errno(rawValue: -r) {
        case .busy: return .busy(device: "camera", detail: "\(what): another program is using the camera")
        case .noDevice: return .deviceGone(device: "camera", detail: "\(what): the camera was disconnected")
        case .accessDenied, .notPermitted:
            return .permissionDenied(device: "camera", path: "/dev/media*, /dev/video*", hint: "add the user to the video group")
        default: return .cameraFailed(detail: "\(what): \(Errno(rawValue: -r))")
        }
    }

    private func configure(_ configuration: Configuration) throws(HardwareError) {
        var vf = ccamera_stream_info()
        var st = ccamera_stream_info()
        let r = ccamera_configure(camera, UInt32(configuration.previewWidth), UInt32(configuration.previewHeight),
                                  configuration.captureStills ? 1 : 0, &vf, &st)
        if r < 0 { throw Self.error(r, doing: "configure \(configuration.previewWidth)×\(configuration.previewHeight) YUV420") }
        previewWidth = Int(vf.width)
        previewHeight = Int(vf.height)
        previewImages = try mapBuffers(stream: Int32(CCAMERA_STREAM_VIEWFINDER), info: vf)
        if configuration.captureStills {
            stillWidth = Int(st.width)
            stillHeight = Int(st.height)
            stillImages = try mapBuffers(stream: Int32(CCAMERA_STREAM_STILL), info: st)
        }
    }

    static let fourccYUV420: UInt32 = 0x3231_5559  // 'YU12'
    static let fourccNV12: UInt32 = 0x3231_564E    // 'NV12'

    /// mmaps each dmabuf of the stream once and builds the image view of every buffer.
    private func mapBuffers(stream: Int32, info: ccamera_stream_info) throws(HardwareError) -> [Image] {
        let format: PixelFormat
        switch info.fourcc {
        case Self.fourccYUV420: format = .i420
        case Self.fourccNV12: format = .nv12
        default:
            throw HardwareError.unsupported(device: "camera", detail: "the camera offers no YUV 4:2:0 format (got fourcc 0x\(String(info.fourcc, radix: 16)))")
        }
        let width = Int(info.width), height = Int(info.height), stride = Int(info.stride)
        var mapped: [Int32: UnsafeMutableRawPointer] = [:]
        var images: [Image] = []
        for index in 0..<info.buffer_count {
            var planes = (ccamera_plane(), ccamera_plane(), ccamera_plane())
            let count = withUnsafeMutableBytes(of: &planes) {
                ccamera_buffer_planes(camera, stream, index, $0.baseAddress!.assumingMemoryBound(to: ccamera_plane.self))
            }
            if count <= 0 { throw Self.error(count == 0 ? -EINVAL : count, doing: "buffer planes") }
            let list = withUnsafeBytes(of: &planes) { Array($0.bindMemory(to: ccamera_plane.self).prefix(Int(count))) }
            // Map each distinct dmabuf once, as long as its furthest plane reaches.
            for fd in Set(list.map(\.fd)) where mapped[fd] == nil {
                let length = list.filter { $0.fd == fd }.map { Int($0.offset) + Int($0.length) }.max()!
                do {
                    let p = try sys.mmap(length: length, protection: PROT_READ, flags: MAP_SHARED, fd: fd, offset: 0)
                    mappings.append((p, length))
                    mapped[fd] = p
                } catch {
                    throw HardwareError.system(device: "camera", error: error)
                }
            }
            func base(_ plane: ccamera_plane) -> UnsafeMutableRawPointer { mapped[plane.fd]! + Int(plane.offset) }
            let chromaH = (height + 1) / 2, chromaW = (width + 1) / 2
            let chromaStride = format == .i420 ? stride / 2 : stride
            // Planes: as libcamera lists them, or (single-plane buffers) split by stride.
            let y = base(list[0])
            let p1 = list.count > 1 ? base(list[1]) : y + stride * height
            let p2 = list.count > 2 ? base(list[2]) : p1 + chromaStride * chromaH
            let lumaPlane = Plane(base: y, width: width, height: height, stride: stride, bytesPerPixel: 1, padding: 0)
            let chroma1 = Plane(base: p1, width: chromaW, height: chromaH, stride: chromaStride,
                                bytesPerPixel: format == .nv12 ? 2 : 1, padding: 0)
            let chroma2 = format == .i420
                ? Plane(base: p2, width: chromaW, height: chromaH, stride: chromaStride, bytesPerPixel: 1, padding: 0)
                : Plane(base: p1, width: 0, height: 0, stride: 0, bytesPerPixel: 1, padding: 0)
            images.append(Image(format: format, width: width, height: height, planes: (lumaPlane, chroma1, chroma2)))
        }
        return images
    }

    private func unmapAll() {
        for m in mappings { try? sys.munmap(m.address, length: m.length) }
        mappings.removeAll()
    }

    public func start() throws(HardwareError) {
        guard !running else { return }
        let r = ccamera_start(camera)
        if r < 0 { throw Self.error(r, doing: "start") }
        running = true
        failedInARow = 0
    }

    public func stop() {
        guard running else { return }
        running = false
        _ = ccamera_stop(camera)
    }

    public func requestStill() throws(HardwareError) {
        let r = ccamera_request_still(camera)
        if r < 0 { throw HardwareError.unsupported(device: "camera", detail: "no still stream was configured") }
    }

    public func pump(timeoutMilliseconds: Int32, deliver: FrameDelivery, still: (Image) -> Void) throws(HardwareError) -> Int {
        do {
            if try sys.pollReadable(eventFD, timeoutMilliseconds: timeoutMilliseconds) == 0 { return 0 }
        } catch {
            throw HardwareError.system(device: "camera", error: error)
        }
        var delivered = 0
        var frame = ccamera_frame()
        while true {
            let r = ccamera_next_frame(camera, &frame)
            if r == 0 { break }
            if r < 0 { throw Self.error(r, doing: "capture") }
            if frame.status == Int32(CCAMERA_FRAME_OK) {
                failedInARow = 0
                var metadata = FrameMetadata(sequence: frame.sequence, timestampNanoseconds: frame.timestamp_ns)
                if frame.exposure_us >= 0 { metadata.exposureMicroseconds = UInt32(clamping: frame.exposure_us) }
                var source = previewImages[Int(frame.viewfinder_buffer)]
                source.metadata = metadata
                if deliver(metadata, { slot in FrameCopy.copyYUV420(from: source, to: slot) }) { delivered += 1 }
                if frame.still_buffer >= 0 {
                    var image = stillImages[Int(frame.still_buffer)]
                    image.metadata = metadata
                    still(image)
                }
            } else if running {
                failedInARow += 1
                if failedInARow >= Self.failedFrameLimit {
                    throw HardwareError.cameraFailed(detail: "\(failedInARow) frames in a row failed or were cancelled")
                }
            }
            let q = ccamera_requeue(camera, frame.request)
            if q < 0 { throw Self.error(q, doing: "re-queue request") }
        }
        return delivered
    }
}
