/// The integer-path memory of several interpreters that never run at the same time (one thread
/// runs them one after another, as the kiosk's vision thread runs the face detector, the face
/// mesh and the live segmenter), in two blocks: every integer program's activations, GEMM
/// scratch and float runs' arena (`FloatIsland`, the operations its calibration table computes in
/// float) start at one, and every interpreter's float tensors (on the integer path only the
/// model's inputs and outputs are used) at the other. Resident memory is then the largest
/// model's need, not the sum (3.3 MiB less in booth mode, where the full-range detector's int16
/// arena alone is 2.2 MiB; the float runs' arenas, 0.9–1.9 MB per model, count once too).
///
/// This is sound because a run leaves nothing in its arena for the next run: every step writes
/// its output before a later step reads it and nothing is placed in the arena at load
/// (`SharedArenaTests` runs one model between two runs of another and compares with private
/// arenas bit for bit, on blocks filled with a pattern first). The rules for the owner:
/// - interpreters that share one must not run concurrently (keep them on one thread);
/// - an interpreter's outputs are valid until any interpreter sharing the arena runs, and its
///   input must be written after the last run of another one (read the outputs straight after
///   `run()`, write the input straight before it, as the Vision stages do).
///
/// Each block is reserved at `capacity` bytes and never touched here: the pages a model never
/// uses stay out of resident memory (large blocks come from their own mapping).
public final class SharedArena {
    /// Bytes reserved per block; a model that needs more fails to load with `ModelError.unsupported`.
    public let capacity: Int
    let base: UnsafeMutableRawPointer
    let boundaryBase: UnsafeMutableRawPointer
    /// The largest claim so far (integer block): the bytes the sharing programs can make resident.
    public private(set) var claimedBytes = 0
    /// The largest float plan so far (boundary block; only its inputs' and outputs' pages are used).
    public private(set) var claimedBoundaryBytes = 0
    /// Where a float-path interpreter's whole activation arena goes: false, the boundary block
    /// (beside the other float plans); true, the integer block, so that a float model run between
    /// integer ones (the kiosk's still palm and hand models, lent the live models' memory under
    /// their lock) makes resident only what the integer programs' pages do not already cover.
    public let floatPlansInIntegerBlock: Bool

    /// Reserves two blocks of `capacity` bytes (64-byte aligned).
    public init(capacity: Int, floatPlansInIntegerBlock: Bool = false) {
        precondition(capacity > 0, "a shared arena needs a positive capacity")
        self.capacity = capacity
        self.floatPlansInIntegerBlock = floatPlansInIntegerBlock
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryPlan.alignment)
        boundaryBase = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryPlan.alignment)
    }

    deinit {
        base.deallocate()
        boundaryBase.deallocate()
    }

    /// Lends the claimed bytes of both blocks (integer, float) to `body`, e.g. to fill them with a
    /// pattern and check that no run depends on what the memory held before it.
    public func withUnsafeMutableBytes<R>(_ body: (_ integer: UnsafeMutableRawBufferPointer,
                                                   _ boundary: UnsafeMutableRawBufferPointer) -> R) -> R {
        body(UnsafeMutableRawBufferPointer(start: base, count: claimedBytes),
             UnsafeMutableRawBufferPointer(start: boundaryBase, count: claimedBoundaryBytes))
    }

    /// The integer block's start for a program that needs `bytes`; throws when `bytes` exceeds
    /// the capacity.
    func claim(_ bytes: Int) throws(ModelError) -> UnsafeMutableRawPointer {
        try check(bytes, "bytes of integer working memory")
        claimedBytes = max(claimedBytes, bytes)
        return base
    }

    /// The boundary block's start for an interpreter whose float plan takes `bytes`; throws when
    /// `bytes` exceeds the capacity.
    func claimBoundary(_ bytes: Int) throws(ModelError) -> UnsafeMutableRawPointer {
        try check(bytes, "bytes of float tensors")
        claimedBoundaryBytes = max(claimedBoundaryBytes, bytes)
        return boundaryBase
    }

    /// The start of a float-path interpreter's activation arena of `bytes` (see
    /// `floatPlansInIntegerBlock`); throws when `bytes` exceeds the capacity.
    func claimFloatPlan(_ bytes: Int) throws(ModelError) -> UnsafeMutableRawPointer {
        floatPlansInIntegerBlock ? try claim(bytes) : try claimBoundary(bytes)
    }

    /// Returns the integer block's pages from `offset` on to the system (their contents become
    /// zero on the next touch): after a larger model lent the block has run, the pages only it
    /// used leave resident memory again. Call it while no interpreter sharing the arena runs.
    /// (A no-op without a C library: the Embedded aarch64 build of the cores has no `madvise`.)
    public func releasePages(from offset: Int) {
        let start = max(offset, 0)
        guard claimedBytes > start else { return }
        ResidentPages.release(base + start, bytes: claimedBytes - start)
    }

    /// Which pages of the two blocks are resident, one flag per page (`ResidentPages.snapshot`).
    public struct Residency: Sendable {
        let integer: [Bool]
        let boundary: [Bool]
    }

    /// The blocks' resident pages now: taken before a model lent the arena runs, so that
    /// `releasePages(notIn:)` can give back exactly the pages it made resident.
    public func residency() -> Residency {
        Residency(integer: ResidentPages.snapshot(base, bytes: capacity), boundary: ResidentPages.snapshot(boundaryBase, bytes: capacity))
    }

    /// Returns the pages of both blocks that were not resident in `before` (their contents become
    /// zero on the next touch): what the models lent the arena since made resident, below the
    /// live models' claim too (pages their runs never touch) and in the boundary block (the lent
    /// integer models' inputs and outputs). Call it while no interpreter sharing the arena runs;
    /// it is sound because a run leaves nothing in the arena for the next one.
    public func releasePages(notIn before: Residency) {
        ResidentPages.release(base, bytes: capacity, except: before.integer)
        ResidentPages.release(boundaryBase, bytes: capacity, except: before.boundary)
    }

    private func check(_ bytes: Int, _ what: String) throws(ModelError) {
        guard bytes <= capacity else {
            throw .unsupported("the model needs " + String(bytes) + " " + what + "; the shared arena holds " + String(capacity))
        }
    }
}
