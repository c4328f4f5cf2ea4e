#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Gives whole memory pages back to the system while the memory stays allocated: their contents
/// become zero on the next touch (`madvise(MADV_DONTNEED)`), so they leave resident memory at once
/// instead of when the buffer is freed. A no-op without a C library (the Embedded aarch64 build of
/// the cores has no `madvise`).
enum ResidentPages {
    /// Bytes per page (4096 where there is no C library to ask).
    static var size: Int {
#if canImport(Glibc) || canImport(Darwin)
        return Int(sysconf(Int32(_SC_PAGESIZE)))
#else
        return 4096
#endif
    }

    /// Returns the pages that lie wholly inside `start..<start + bytes` (the partial pages at either
    /// end stay: they may hold other data). The caller must never read the range's values again.
    static func release(_ start: UnsafeMutableRawPointer, bytes: Int) {
        let page = size
        let first = (Int(bitPattern: start) + page - 1) / page * page
        let end = (Int(bitPattern: start) + bytes) / page * page
        guard end > first, let p = UnsafeMutableRawPointer(bitPattern: first) else { return }
#if canImport(Glibc) || canImport(Darwin)
        _ = madvise(p, end - first, MADV_DONTNEED)
#endif
    }
}
