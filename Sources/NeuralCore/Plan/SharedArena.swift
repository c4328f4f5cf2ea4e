/// One block of integer-path working memory for several interpreters that never run at the same
/// time (one thread runs them one after another, as the kiosk's vision thread runs the face
/// detector, the face mesh and the live segmenter). Each integer program's activations and GEMM
/// scratch then start at the same address, so resident memory is the largest program's need, not
/// the sum (2.2 MiB in booth mode: the full-range detector's int16 arena alone is 2.2 MiB).
///
/// This is sound because a run leaves nothing in its arena for the next run: every step writes
/// its output before a later step reads it, the model's inputs and outputs live in each
/// interpreter's own float tensors, and nothing is placed in the arena at load
/// (`SharedArenaTests` runs one model between two runs of another and compares with private
/// arenas bit for bit, and runs on an arena filled with a pattern). Interpreters that share one
/// must not run concurrently; the owner of the interpreters keeps them on one thread.
///
/// The block is reserved at `capacity` bytes and never touched here: the pages a program never
/// uses stay out of resident memory (large blocks come from their own mapping).
public final class SharedArena {
    /// Bytes reserved; a program that needs more fails to load with `ModelError.unsupported`.
    public let capacity: Int
    let base: UnsafeMutableRawPointer
    /// The largest claim so far: the bytes the sharing interpreters can make resident.
    public private(set) var claimedBytes = 0

    /// Reserves `capacity` bytes (64-byte aligned).
    public init(capacity: Int) {
        precondition(capacity > 0, "a shared arena needs a positive capacity")
        self.capacity = capacity
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryPlan.alignment)
    }

    deinit { base.deallocate() }

    /// Lends the claimed bytes (the part the sharing programs use) to `body`, e.g. to fill them
    /// with a pattern and check that no run depends on what the memory held before it.
    public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) -> R) -> R {
        body(UnsafeMutableRawBufferPointer(start: base, count: claimedBytes))
    }

    /// The block's start for a program that needs `bytes`; throws when `bytes` exceeds the capacity.
    func claim(_ bytes: Int) throws(ModelError) -> UnsafeMutableRawPointer {
        guard bytes <= capacity else {
            throw .unsupported("the model needs " + String(bytes) + " bytes of integer working memory; the shared arena holds "
                               + String(capacity))
        }
        claimedBytes = max(claimedBytes, bytes)
        return base
    }
}
