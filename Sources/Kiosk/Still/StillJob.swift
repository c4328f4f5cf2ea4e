#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import ImageCore

/// One shutter press's still, made upright out of the camera's buffer, with what the booth knew then.
struct StillJob: @unchecked Sendable {
    var image: ImageBuffer
    var metadata: FrameMetadata
    var live: LiveState
    /// Whether the preview hid the background at the press (the still matches what was shown).
    var hideBackground: Bool
    var date: Date
}

/// The result the main loop shows on the review screen.
struct StillResult: @unchecked Sendable {
    var saved: SavedPhoto?
    /// Scaled-down copy of the saved photo (XRGB8888) for the review screen and the thumbnail.
    var thumbnail: ImageBuffer?
    var message: String
}
