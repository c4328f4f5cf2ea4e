import ImageCore
import ImageFiles
#if canImport(Glibc)
import Glibc
import Syscalls
#endif

/// Replays a folder of JPEG/PNG/PPM images as camera frames, at a set rate, looping.
///
/// All files are decoded once at start-up (upright, EXIF applied) into I420 buffers of their own
/// size; files that are not images or do not decode are skipped and listed in `skipped` (the
/// operator sees them at start), and an empty result is an error. Each frame is scaled into the
/// ring slot at the preview size by a nearest-neighbour fit that keeps the aspect (centred,
/// letterboxed in black) — the one copy per frame; a still is the whole decoded image.
public final class FolderReplaySource: FrameSource {
    public let name: String
    public let previewWidth: Int
    public let previewHeight: Int
    public let framesPerSecond: Int?
    /// Each image is shown for this many frames before the next (a person holding still).
    public let framesPerImage: Int
    /// Files that were skipped, with why.
    public private(set) var skipped: [(path: String, reason: String)] = []
    public var imageCount: Int { images.count }

    private var images: [ImageBuffer] = []
    private let clock: MonotonicClock
    private let sys: SystemCalls
    private var index = 0
    private var sequence: UInt64 = 0
    private var pacer: FramePacer
    private var running = false
    private var stillWanted = false

    public init(folder: String, previewWidth: Int = 640, previewHeight: Int = 480, framesPerSecond: Int? = 15,
                framesPerImage: Int = 1, clock: MonotonicClock = .system, syscalls: SystemCalls = .live) throws(HardwareError) {
        precondition(framesPerImage > 0, "framesPerImage must be positive")
        self.framesPerImage = framesPerImage
        name = "folder \(folder)"
        self.previewWidth = previewWidth
        self.previewHeight = previewHeight
        self.framesPerSecond = framesPerSecond
        pacer = FramePacer(framesPerSecond: framesPerSecond)
        self.clock = clock
        self.sys = syscalls
        let files = try Self.listImages(in: folder)
        let decoder = ImageDecoder()
        for file in files {
            do {
                images.append(try decoder.decode(path: file, as: .i420))
            } catch {
                skipped.append((file, error.description))
            }
        }
        if images.isEmpty {
            throw HardwareError.unsupported(device: "folder camera", detail: "\(folder) holds no readable JPEG/PNG/PPM image")
        }
    }

    /// Image files in `folder` (by extension), sorted by name.
    static func listImages(in folder: String) throws(HardwareError) -> [String] {
        guard let dir = opendir(folder) else {
            throw HardwareError.deviceNotFound(device: "folder camera", path: folder)
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            let lower = name.lowercased()
            if name.hasPrefix(".") { continue }
            if [".jpg", ".jpeg", ".png", ".ppm", ".pgm"].contains(where: { lower.hasSuffix($0) }) { names.append(name) }
        }
        return names.sorted().map { folder.hasSuffix("/") ? folder + $0 : folder + "/" + $0 }
    }

    public func start() throws(HardwareError) {
        running = true
        pacer.start(at: clock.now())
    }

    public func stop() { running = false }

    public func requestStill() throws(HardwareError) { stillWanted = true }

    public func pump(timeoutMilliseconds: Int32, deliver: FrameDelivery, still: (Image) -> Void) throws(HardwareError) -> Int {
        guard running else { return 0 }
        guard pacer.waitForFrame(clock: clock, syscalls: sys, timeoutMilliseconds: timeoutMilliseconds) else { return 0 }
        let metadata = FrameMetadata(sequence: sequence, timestampNanoseconds: clock.now())
        images[index].withImage(metadata: metadata) { source in
            _ = deliver(metadata) { slot in Self.fit(source, into: slot) }
            if stillWanted {
                stillWanted = false
                still(source)
            }
        }
        sequence += 1
        if sequence % UInt64(framesPerImage) == 0 { index = (index + 1) % images.count }
        return 1
    }

    /// Nearest-neighbour fit of an I420 image into an I420 slot, aspect kept, black borders: what
    /// the folder camera shows of each image (public for tests that need the kiosk's exact frame).
    public static func fit(_ s: Image, into d: Image) {
        // Width-limited when d.w/s.w ≤ d.h/s.h, else height-limited.
        let widthLimited = d.width * s.height <= d.height * s.width
        let fitW = widthLimited ? d.width : max(1, s.width * d.height / s.height)
        let fitH = widthLimited ? max(1, s.height * d.width / s.width) : d.height
        let offX = (d.width - fitW) / 2 & ~1, offY = (d.height - fitH) / 2 & ~1
        for p in 0..<3 {
            let sp = s.plane(p), dp = d.plane(p)
            let sub = p == 0 ? 1 : 2
            let black: UInt8 = p == 0 ? 16 : 128
            let ox = offX / sub, oy = offY / sub
            let fw = (fitW + sub - 1) / sub, fh = (fitH + sub - 1) / sub
            for y in 0..<dp.height {
                let row = dp.row(y)
                let inY = y >= oy && y < oy + fh
                let sy = inY ? min(sp.height - 1, (y - oy) * sp.height / max(fh, 1)) : 0
                let srow = sp.row(sy)
                for x in 0..<dp.width {
                    if inY && x >= ox && x < ox + fw {
                        row[x] = srow[min(sp.width - 1, (x - ox) * sp.width / max(fw, 1))]
                    } else {
                        row[x] = black
                    }
                }
            }
        }
    }
}
