/// A model file's bytes as the reader reads them: read-only memory that stays valid while any copy
/// of this value lives. Either an array's storage, or memory lent by its owner until the last copy
/// is gone (a read-only file mapping: `ModelStore.map`, which unmaps it then).
///
/// A mapping's pages are the file's own (clean, shared with the page cache): only the pages the
/// parse touches become resident, and the ones it gives back (`FilePages`) are simply dropped and
/// would be read from the file again. An array's bytes are given back only when the parse holds
/// the only reference to them (`Interpreter(taking:)`); they then read as zero.
public struct ModelBytes: RandomAccessCollection, @unchecked Sendable {
    public typealias Index = Int
    public typealias Element = UInt8

    private let base: UnsafePointer<UInt8>?
    public let count: Int
    private let owner: Owner
    /// Whether the bytes are lent by an owner (a file mapping) rather than an array's storage.
    public var isLent: Bool { owner.array == nil }

    /// Keeps the storage alive; releases lent memory when the last copy goes.
    private final class Owner {
        let array: [UInt8]?
        let release: (() -> Void)?
        init(array: [UInt8]?, release: (() -> Void)?) { self.array = array; self.release = release }
        deinit { release?() }
    }

    /// The bytes of `array` (its storage is kept, never copied).
    public init(_ array: [UInt8]) {
        let owner = Owner(array: array, release: nil)
        self.owner = owner
        // The owner's array is never mutated, so its storage stays where it is.
        base = owner.array!.withUnsafeBufferPointer { $0.baseAddress }
        count = array.count
    }

    /// `count` bytes at `start`, valid until `release` is called (once, when the last copy of this
    /// value is gone).
    public init(lending start: UnsafeRawPointer, count: Int, release: @escaping () -> Void) {
        owner = Owner(array: nil, release: release)
        base = start.assumingMemoryBound(to: UInt8.self)
        self.count = count
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The byte at `i` (checked by the reader: `FlatBuffer.check`).
    @inline(__always)
    public subscript(i: Int) -> UInt8 {
        precondition(i >= 0 && i < count, "model byte index out of range")
        return base.unsafelyUnwrapped[i]
    }

    /// Lends the bytes to `body`.
    public func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        let r = try body(UnsafeBufferPointer(start: base, count: count))
        withExtendedLifetime(owner) {}
        return r
    }
}

extension ModelBytes {
#if !hasFeature(Embedded)
    /// The bytes in one piece (`SHA256.update` and other readers of contiguous storage; without
    /// it a generic reader would copy them into an array first). Not in Embedded Swift, which has
    /// no untyped `rethrows`.
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        let r = try body(UnsafeBufferPointer(start: base, count: count))
        withExtendedLifetime(owner) {}
        return r
    }
#endif

    /// Lends the bytes to `body` in pieces of `chunk` bytes, in order. A file mapping's pages go
    /// back after each piece (they are the file's clean pages: dropped, and read again if touched
    /// again), so reading the whole file once (a checksum) never makes it resident at once.
    public func forEachChunk(_ chunk: Int = 1 << 18, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let base else { return }
        var from = 0
        while from < count {
            let n = Swift.min(chunk, count - from)
            body(UnsafeBufferPointer(start: base + from, count: n))
            if isLent { ResidentPages.release(UnsafeMutableRawPointer(mutating: base + from), bytes: n) }
            from += n
        }
        withExtendedLifetime(owner) {}
    }
}
