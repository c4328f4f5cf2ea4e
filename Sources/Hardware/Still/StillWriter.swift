import ImageCore
import ImageFiles

/// Turns a full-resolution, upright still into the bytes of the photo file (DESIGN: Hardware's
/// `StillWriter`). The kiosk's still worker calls it once per photo, off the preview path; the
/// bytes then go to storage beside their sidecar. Real: `JPEGStillWriter` (TurboJPEG straight
/// from the YUV planes). Fake: `RecordingStillWriter` (records each still, fails on demand).
public protocol StillWriter: AnyObject {
    /// The encoded photo. Throws when the still cannot be encoded (unsupported format, codec error).
    func write(_ still: Image) throws(ImageFileError) -> [UInt8]
}
