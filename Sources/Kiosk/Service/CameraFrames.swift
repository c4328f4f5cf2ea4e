import Hardware
import ImageCore

/// Preview frames of a camera as RGB, for tools that take a stream (`booth greet --input
/// camera`): each frame converted from I420 into one buffer allocated once and handed to a
/// closure. Not the kiosk's path (that runs through the frame ring).
public enum CameraFrames {
    /// Why the frames stopped.
    public enum Failure: Error, CustomStringConvertible {
        case camera(HardwareError)
        /// No frame for `seconds` after `done` of `count` frames.
        case stalled(seconds: Int, done: Int, count: Int)

        public var description: String {
            switch self {
            case .camera(let e): return "camera: \(e.description)"
            case .stalled(let s, let done, let count): return "camera: no frame for \(s) s after \(done) of \(count) frames"
            }
        }
    }

    /// Starts `source`, hands `count` frames to `process` and stops it. Five seconds without a
    /// frame is `.stalled`; an error `process` throws ends the run and is rethrown as it is.
    public static func pump(_ source: some FrameSource, count: Int, process: (Image) throws -> Void) throws {
        let yuv = ImageBuffer(format: .i420, width: source.previewWidth, height: source.previewHeight)
        let rgb = ImageBuffer(format: .rgb888, width: source.previewWidth, height: source.previewHeight)
        do { try source.start() } catch { throw Failure.camera(error) }
        defer { source.stop() }
        var done = 0, idle = 0
        let stallSeconds = 5
        while done < count {
            let got: Int
            do {
                got = try source.pump(timeoutMilliseconds: 1000, deliver: { _, fill in
                    yuv.withImage { fill($0) }; return true
                }, still: { _ in })
            } catch {
                throw Failure.camera(error)
            }
            if got > 0 {
                try rgb.withImage { out in
                    yuv.withImage { YUVToRGB.run($0, out, matrix: .bt601Full) }
                    try process(out)
                }
                done += 1
                idle = 0
            } else {
                idle += 1
                if idle >= stallSeconds { throw Failure.stalled(seconds: stallSeconds, done: done, count: count) }
            }
        }
    }
}
