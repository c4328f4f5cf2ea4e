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
        upright.withImage { dst in
            if let rotation { Rotate.run(frame, dst, rotation) } else { CopyPlane.run(frame, dst) }
        }
        metadata = frame.metadata
        hasMask = false
    }

    /// Makes `plane` (frame-sized) this frame's person mask.
    func setMask(_ plane: Plane) {
        mask.withImage { CopyPlane.simd(plane, $0.luma) }
        hasMask = true
    }

    /// Lends `body` the upright frame with its metadata, and the mask plane when this frame was
    /// segmented; the views must not escape.
    func withFrame<R>(_ body: (_ frame: Image, _ mask: Plane?) -> R) -> R {
        upright.withImage(metadata: metadata) { frame in
            hasMask ? mask.withImage { body(frame, $0.luma) } : body(frame, nil)
        }
    }
}
