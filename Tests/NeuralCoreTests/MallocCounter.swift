#if canImport(Glibc)
import CMallocCounter
import Glibc

/// Counts the heap allocations one thread makes while a closure runs, through the C interposer in
/// `Tests/CMallocCounter` (which defines `malloc` & co. for this test process; Package.swift
/// exports those symbols from the test executable so the dynamic loader binds every allocation —
/// Swift runtime, Foundation, NeuralCore — to it). Measurements are serialised by a mutex;
/// allocations of other threads (tests running in parallel) are not counted.
enum MallocCounter {
    /// Whether the interposer is bound (false when the executable does not export `malloc`).
    static var isActive: Bool {
        var p: UnsafeMutableRawPointer? = nil
        let n = count { p = booth_malloc_probe(1) }
        free(p)
        return n == 1
    }

    /// Runs `body` and returns how many allocation calls it made on this thread.
    static func count(_ body: () -> Void) -> Int {
        pthread_mutex_lock(&measurementLock)
        defer { pthread_mutex_unlock(&measurementLock) }
        booth_malloc_count_begin()
        body()
        return booth_malloc_count_end()
    }
}

nonisolated(unsafe) private var measurementLock = pthread_mutex_t()
#endif
