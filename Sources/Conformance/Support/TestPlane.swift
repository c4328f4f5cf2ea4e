import ImageCore

/// An owned plane for conformance cases: any stride (odd ones included), `Plane.requiredPadding`
/// readable bytes after the last row, every byte (slack and padding too) seeded, so a kernel that
/// reads or writes outside its rows shows up as a difference. Freed on deinit.
public final class TestPlane {
    public let plane: Plane
    /// All bytes the plane may touch: rows, stride slack, tail padding.
    public let byteCount: Int
    @usableFromInline let storage: UnsafeMutableRawPointer

    /// A `width`×`height` plane of `bytesPerPixel`, rows `slack` bytes longer than the pixels.
    public init(width: Int, height: Int, bytesPerPixel: Int, slack: Int, random: inout ConformanceRandom) {
        precondition(width > 0 && height > 0 && bytesPerPixel > 0 && slack >= 0, "bad test plane shape")
        let stride = width * bytesPerPixel + slack
        let padding = Plane.requiredPadding
        byteCount = (height - 1) * stride + width * bytesPerPixel + padding
        storage = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        random.fill(storage, count: byteCount)
        plane = Plane(base: storage, width: width, height: height, stride: stride,
                      bytesPerPixel: bytesPerPixel, padding: padding)
    }

    /// A flat buffer of `count` elements of `elementSize` bytes (one row, no slack), every byte
    /// seeded; for tensors and other non-image data.
    public convenience init(count: Int, elementSize: Int, random: inout ConformanceRandom) {
        self.init(width: count, height: 1, bytesPerPixel: elementSize, slack: 0, random: &random)
    }

    /// The first row as `count` elements of `T` (the storage is 64-byte aligned).
    public func elements<T>(as type: T.Type) -> UnsafeMutablePointer<T> {
        storage.assumingMemoryBound(to: T.self)
    }

    /// A plane of the same shape whose bytes (all of them) copy `other`'s.
    public init(copying other: TestPlane) {
        byteCount = other.byteCount
        storage = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        storage.copyMemory(from: other.storage, byteCount: byteCount)
        let p = other.plane
        plane = Plane(base: storage, width: p.width, height: p.height, stride: p.stride,
                      bytesPerPixel: p.bytesPerPixel, padding: p.padding)
    }

    deinit { storage.deallocate() }

    /// Offset of the first byte that differs from `other` (same shape), or nil when all bytes,
    /// slack and padding included, are equal.
    public func firstDifference(from other: TestPlane) -> Int? {
        precondition(byteCount == other.byteCount, "comparing planes of different shapes")
        let a = UnsafeRawPointer(storage).assumingMemoryBound(to: UInt8.self)
        let b = UnsafeRawPointer(other.storage).assumingMemoryBound(to: UInt8.self)
        for i in 0..<byteCount where a[i] != b[i] { return i }
        return nil
    }

    /// Whether byte `offset` lies in a row's pixels (not slack or padding).
    public func isPixel(offset: Int) -> Bool {
        let row = offset / plane.stride
        return row < plane.height && offset - row * plane.stride < plane.rowBytes
    }
}
