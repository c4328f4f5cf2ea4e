import ImageCore

/// One preview frame and everything the kiosk concluded about it, carried from the vision stage
/// to the present stage (rpicam-apps' completed request): the upright frame (rotated once, by the
/// vision stage, as it leaves the ring), the live state computed on it and, when the background
/// is hidden, the person mask of the same frame. Allocated once per `FrameRecords`; a record is
/// written by one stage and read by another, never both at once.
final class FrameRecord: @unchecked Sendable {
    /// The upright preview frame (I420) and its metadata.
    let upright: ImageBuffer
    private(set) var metadata = FrameMetadata()
    /// Faces, rules and verdict of this frame.
    var live = LiveState()
    /// The person mask of this frame (Gray8, frame-sized), valid when `hasMask`.
    let mask: ImageBuffer
    var hasMask = false

    init(width: Int, height: Int) {
        upright = ImageBuffer(format: .i420, width: width, height: height)
        mask = ImageBuffer(format: .gray8, width: width, height: height)
    }

    /// Fills `upright` from a ring frame: rotated when the camera is mounted turned, else copied.
    /// Resets the mask (the vision stage sets it again when it segments this frame).
    func take(_ frame: Image, rotation: Rotation?) {
        if let rotation { Rotate.run(frame, upright.image(), rotation) } else { CopyPlane.run(frame, upright.image()) }
        metadata = frame.metadata
        hasMask = false
    }

    /// The upright frame with its metadata (a view valid while this record is held).
    var frame: Image { upright.image(metadata: metadata) }

    /// The mask plane, or nil when this frame was not segmented.
    var maskPlane: Plane? { hasMask ? mask.image().luma : nil }
}
