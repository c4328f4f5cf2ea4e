/// A non-owning view of a whole image: format, size, up to three planes and its metadata.
/// Width, height, stride, pixel format, sequence and timestamp travel together in this value.
public struct Image: @unchecked Sendable {
    public var format: PixelFormat
    public var width: Int
    public var height: Int
    public var planes: (Plane, Plane, Plane)
    public var metadata: FrameMetadata

    @inlinable
    public init(format: PixelFormat, width: Int, height: Int, planes: (Plane, Plane, Plane), metadata: FrameMetadata = FrameMetadata()) {
        self.format = format
        self.width = width
        self.height = height
        self.planes = planes
        self.metadata = metadata
    }

    /// Plane `index` (0 ..< format.planeCount).
    @inlinable public func plane(_ index: Int) -> Plane {
        precondition(index >= 0 && index < format.planeCount, "plane index out of range")
        switch index {
        case 0: return planes.0
        case 1: return planes.1
        default: return planes.2
        }
    }

    /// Y plane for YUV formats, the only plane otherwise.
    @inlinable public var luma: Plane { planes.0 }
}
