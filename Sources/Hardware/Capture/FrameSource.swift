import ImageCore

/// Where a source puts a preview frame: the frame ring's `produce(metadata:_:)`. The source calls
/// it with the frame's metadata and a closure that fills the slot's image; the ring never blocks
/// (it recycles the oldest unleased slot and counts the drop). Returns whether a slot was filled.
public typealias FrameDelivery = (FrameMetadata, (Image) -> Void) -> Bool

/// A source of camera frames: libcamera on a board (`LibcameraSource`), a folder of images
/// (`FolderReplaySource`) or a moving pattern (`SyntheticSource`) elsewhere.
///
/// The kiosk's capture thread calls `pump` in a loop. Preview frames are I420 at
/// `previewWidth`×`previewHeight`; a still (after `requestStill`) is handed to `still` as a view
/// that is valid only during that call — the still worker copies or encodes it there.
public protocol FrameSource: AnyObject {
    /// A short human-readable name ("libcamera /base/soc/i2c0mux/i2c@1/imx708@1a", "synthetic").
    var name: String { get }
    var previewWidth: Int { get }
    var previewHeight: Int { get }
    /// Starts streaming.
    func start() throws(HardwareError)
    /// Stops streaming; frames in flight are dropped. Safe to call twice.
    func stop()
    /// Waits up to `timeoutMilliseconds` for frames and delivers every one that is ready.
    /// Returns the number of preview frames delivered. Throws when the device fails.
    func pump(timeoutMilliseconds: Int32, deliver: FrameDelivery, still: (Image) -> Void) throws(HardwareError) -> Int
    /// Asks for one full-resolution still with a coming frame.
    func requestStill() throws(HardwareError)
}
