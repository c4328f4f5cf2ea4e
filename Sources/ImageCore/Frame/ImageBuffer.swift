/// Owns the memory of one image, allocated once: planes with rows aligned to 64 bytes and
/// `Plane.requiredPadding` bytes of tail padding after each plane. Freed on deinit.
public final class ImageBuffer: @unchecked Sendable {
    public static let rowAlignment = 64

    public let format: PixelFormat
    public let width: Int
    public let height: Int
    /// Total bytes allocated (all planes plus padding).
    public let byteCount: Int
    @usableFromInline let storage: UnsafeMutableRawPointer
    @usableFromInline let offsets: (Int, Int, Int)
    @usableFromInline let strides: (Int, Int, Int)

    /// Allocates zeroed storage for a `width`×`height` image of `format`: the unzeroed allocation
    /// plus one fill of every byte (planes and padding).
    public convenience init(format: PixelFormat, width: Int, height: Int) {
        self.init(unzeroedFormat: format, width: width, height: height)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
    }

    /// Allocates storage for a `width`×`height` image of `format` and leaves it as allocated (not
    /// zeroed), so a large buffer (malloc gives it its own mapping) costs no resident memory until
    /// it is written: for buffers whose every pixel is written before it is read, or that may never
    /// be used (a resize target at scale 1).
    public init(unzeroedFormat format: PixelFormat, width: Int, height: Int) {
        precondition(width > 0 && height > 0, "image size must be positive")
        (self.format, self.width, self.height) = (format, width, height)
        (offsets, strides, byteCount) = Self.layout(format, width, height)
        storage = .allocate(byteCount: byteCount, alignment: Self.rowAlignment)
    }

    /// Plane offsets, strides and total bytes: rows aligned, each plane padded and aligned.
    static func layout(_ format: PixelFormat, _ width: Int, _ height: Int) -> ((Int, Int, Int), (Int, Int, Int), Int) {
        var offs = (0, 0, 0)
        var strs = (0, 0, 0)
        var total = 0
        for i in 0..<format.planeCount {
            let size = format.planeSize(plane: i, width: width, height: height)
            let stride = ImageBuffer.align(size.width * format.bytesPerPixel(plane: i))
            let bytes = stride * size.height + Plane.requiredPadding
            switch i {
            case 0: offs.0 = total; strs.0 = stride
            case 1: offs.1 = total; strs.1 = stride
            default: offs.2 = total; strs.2 = stride
            }
            total += ImageBuffer.align(bytes)
        }
        return (offs, strs, total)
    }

    deinit { storage.deallocate() }

    @inlinable static func align(_ n: Int) -> Int { (n + rowAlignment - 1) & ~(rowAlignment - 1) }

    /// Lends the view of this buffer's pixels (readable and writable) to `body`. The view must not
    /// escape the closure: the buffer is kept alive until `body` returns, in release builds too,
    /// so every read and write inside it is covered (STYLE.md 16, "Borrow inside a closure").
    @inlinable
    public func withImage<Result: ~Copyable, Failure: Error>(
        metadata: FrameMetadata = FrameMetadata(), _ body: (Image) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { withExtendedLifetime(self) {} }
        return try body(view(metadata: metadata))
    }

    /// The escaping view of this buffer's pixels, for an owner that keeps the buffer in a stored
    /// property for its own lifetime and hands the view out under that lifetime (a display's
    /// screen, valid until `present()`). Everyone else uses `withImage`.
    @inlinable public func unsafeImage(metadata: FrameMetadata = FrameMetadata()) -> Image {
        view(metadata: metadata)
    }

    /// The view of this buffer's pixels; the caller keeps `self` alive while it is used (the ring
    /// holds its buffers for its own lifetime, `withImage` for the closure's).
    @inlinable func view(metadata: FrameMetadata) -> Image {
        func plane(_ i: Int, _ offset: Int, _ stride: Int) -> Plane {
            if i >= format.planeCount {
                return Plane(base: storage, width: 0, height: 0, stride: 0, bytesPerPixel: 1, padding: 0)
            }
            let size = format.planeSize(plane: i, width: width, height: height)
            let bpp = format.bytesPerPixel(plane: i)
            // Padding: everything readable after the last row up to the next plane (or the end).
            let end = i + 1 < format.planeCount ? (i == 0 ? offsets.1 : offsets.2) : byteCount
            let lastRowEnd = offset + (size.height - 1) * stride + size.width * bpp
            return Plane(base: storage + offset, width: size.width, height: size.height, stride: stride,
                         bytesPerPixel: bpp, padding: end - lastRowEnd)
        }
        return Image(format: format, width: width, height: height,
                     planes: (plane(0, offsets.0, strides.0), plane(1, offsets.1, strides.1), plane(2, offsets.2, strides.2)),
                     metadata: metadata)
    }
}
