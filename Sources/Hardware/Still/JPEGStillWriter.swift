import ImageCore
import ImageFiles

/// The real `StillWriter`: JPEG through TurboJPEG. I420 stills (libcamera's still stream) are
/// compressed straight from their planes, 4:2:0, with no RGB round trip; RGB888/XRGB8888 and
/// Gray8 are accepted too. NV12 is refused (convert to I420 first). One TurboJPEG handle, made
/// once; not for concurrent use (the kiosk has one still worker).
public final class JPEGStillWriter: StillWriter {
    public let quality: Int
    private let codec = JPEGCodec()

    /// `quality` 1...100 (the config's `jpeg_quality`).
    public init(quality: Int = 92) {
        precondition((1...100).contains(quality), "JPEG quality must be 1...100")
        self.quality = quality
    }

    public func write(_ still: Image) throws(ImageFileError) -> [UInt8] {
        try codec.encode(still, quality: quality)
    }
}
