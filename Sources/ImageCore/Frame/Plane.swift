/// A non-owning view of one image plane: rows of `width * bytesPerPixel` bytes, `stride` bytes
/// apart, followed by at least `padding` readable bytes after the last row.
///
/// Padding is part of the contract (like XNNPACK's `XNN_OOB_READS`): SIMD kernels may read (never
/// write) up to `Plane.requiredPadding` bytes past the end of any row, so every plane Booth
/// allocates carries that much tail padding and every row has `stride - width*bpp` slack it may
/// read. The memory is owned elsewhere (an `ImageBuffer`, a frame-ring slot, an mmap'd dmabuf).
public struct Plane: @unchecked Sendable {
    /// Bytes a SIMD kernel may over-read past the last pixel of any row.
    public static let requiredPadding = 64

    public var base: UnsafeMutableRawPointer
    public var width: Int
    public var height: Int
    public var stride: Int
    public var bytesPerPixel: Int
    /// Readable bytes after the end of the last row (`base + (height-1)*stride + width*bpp`).
    public var padding: Int

    @inlinable
    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, bytesPerPixel: Int, padding: Int) {
        precondition(width >= 0 && height >= 0, "negative plane size")
        precondition(stride >= width * bytesPerPixel, "stride smaller than a row")
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
        self.bytesPerPixel = bytesPerPixel
        self.padding = padding
    }

    /// Bytes of pixel data in one row.
    @inlinable public var rowBytes: Int { width * bytesPerPixel }

    /// Pointer to the first byte of row `y`.
    @inlinable public func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        (base + y * stride).assumingMemoryBound(to: UInt8.self)
    }

    /// The view of a sub-rectangle (no copy). The sub-plane keeps the parent's stride, and its
    /// padding is what remains readable after its last row inside the parent.
    @inlinable public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Plane {
        precondition(x >= 0 && y >= 0 && w >= 0 && h >= 0 && x + w <= width && y + h <= height, "crop outside plane")
        let newBase = base + y * stride + x * bytesPerPixel
        let parentEnd = (height - 1) * stride + rowBytes + padding
        let subEnd = (y + max(h, 1) - 1) * stride + x * bytesPerPixel + w * bytesPerPixel
        return Plane(base: newBase, width: w, height: h, stride: stride, bytesPerPixel: bytesPerPixel,
                     padding: parentEnd - subEnd)
    }
}
