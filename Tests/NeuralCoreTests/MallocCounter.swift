#if canImport(Glibc)
import Glibc

/// Counts the heap allocations one thread makes while a closure runs, by interposing the C
/// allocator for this test process.
///
/// This file defines `malloc`, `calloc`, `realloc`, `memalign`, `aligned_alloc` and
/// `posix_memalign`. The NeuralCoreTests target links with `--export-dynamic-symbol` for each
/// (Package.swift), so the dynamic loader binds every allocation in the process — Swift runtime,
/// Foundation, NeuralCore — to these definitions. Each bumps a counter when the calling thread is
/// the one being measured, then forwards to glibc's own implementation (`__libc_malloc` & co.,
/// which glibc exports for interposers). The state is plain globals with constant initialisers, so
/// nothing here can allocate or lazily initialise inside the allocator. Measurements are serialised
/// by a mutex; allocations of other threads (tests running in parallel) are not counted.
///
/// The definitions use `@c(name)` (SE-0495, Swift 6.3: the supported spelling of the old
/// underscored `@_cdecl`). swiftc still warns that `malloc` & co. are "reserved for the Swift
/// runtime … will become an error": the warning is about the symbol names, whichever attribute
/// declares them, so no Swift spelling avoids it. The lasting fix is to define the six entry
/// points in a small C target that this test target depends on (a Package.swift change).
enum MallocCounter {
    /// Whether the interposer is bound (false when the executable does not export `malloc`).
    static var isActive: Bool {
        var p: UnsafeMutableRawPointer? = nil
        let n = count { p = malloc(1) }
        free(p)
        return n == 1
    }

    /// Runs `body` and returns how many allocation calls it made on this thread.
    static func count(_ body: () -> Void) -> Int {
        pthread_mutex_lock(&measurementLock)
        defer { pthread_mutex_unlock(&measurementLock) }
        countingThread = pthread_self()
        allocationCount = 0
        countingActive = true
        body()
        countingActive = false
        return allocationCount
    }
}

nonisolated(unsafe) private var countingActive = false
nonisolated(unsafe) private var countingThread: pthread_t = 0
nonisolated(unsafe) private var allocationCount = 0
nonisolated(unsafe) private var measurementLock = pthread_mutex_t()

@inline(__always)
private func noteAllocation() {
    if countingActive && pthread_equal(pthread_self(), countingThread) != 0 {
        allocationCount &+= 1
    }
}

@_silgen_name("__libc_malloc") private func libcMalloc(_ size: Int) -> UnsafeMutableRawPointer?
@_silgen_name("__libc_calloc") private func libcCalloc(_ n: Int, _ size: Int) -> UnsafeMutableRawPointer?
@_silgen_name("__libc_realloc") private func libcRealloc(_ p: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer?
@_silgen_name("__libc_memalign") private func libcMemalign(_ alignment: Int, _ size: Int) -> UnsafeMutableRawPointer?

@c(malloc) public func countingMalloc(_ size: Int) -> UnsafeMutableRawPointer? {
    noteAllocation()
    return libcMalloc(size)
}

@c(calloc) public func countingCalloc(_ n: Int, _ size: Int) -> UnsafeMutableRawPointer? {
    noteAllocation()
    return libcCalloc(n, size)
}

@c(realloc) public func countingRealloc(_ p: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
    noteAllocation()
    return libcRealloc(p, size)
}

@c(memalign) public func countingMemalign(_ alignment: Int, _ size: Int) -> UnsafeMutableRawPointer? {
    noteAllocation()
    return libcMemalign(alignment, size)
}

@c(aligned_alloc) public func countingAlignedAlloc(_ alignment: Int, _ size: Int) -> UnsafeMutableRawPointer? {
    noteAllocation()
    return libcMemalign(alignment, size)
}

@c(posix_memalign) public func countingPosixMemalign(
    _ out: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ alignment: Int, _ size: Int
) -> Int32 {
    noteAllocation()
    guard alignment >= MemoryLayout<Int>.size, alignment & (alignment - 1) == 0 else { return EINVAL }
    guard let p = libcMemalign(alignment, size) else { return ENOMEM }
    out.pointee = p
    return 0
}
#endif
