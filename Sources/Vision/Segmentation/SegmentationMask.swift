import ImageCore

/// A person mask: 0 background … 255 person, one byte per pixel.
///
/// `plane` covers the frame pixel for pixel in the frame's own (buffer) orientation, whatever
/// rotation and letterboxing the model needed; `modelPlane` is the model-resolution mask and
/// `mapping` says how it maps onto the frame (at the accurate level, the last model run's: the
/// people's crop when one was made). Both views point into the segmenter's buffers and
/// stay valid until its next `segment` call.
public struct SegmentationMask: @unchecked Sendable {
    public let plane: Plane
    public let modelPlane: Plane
    public let mapping: MaskMapping
    public let level: SegmentationLevel

    public var width: Int { plane.width }
    public var height: Int { plane.height }
}
