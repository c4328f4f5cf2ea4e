#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Gives whole memory pages back to the system while the memory stays allocated: their contents
/// become zero on the next touch (`madvise(MADV_DONTNEED)`), so they leave resident memory at once
/// instead of when the buffer is freed. A no-op without a C library (the Embedded aarch64 build of
/// the cores has no `madvise`).
package enum ResidentPages {
    /// Bytes per page (4096 where there is no C library to ask).
    package static var size: Int {
#if canImport(Glibc) || canImport(Darwin)
        return Int(sysconf(Int32(_SC_PAGESIZE)))
#else
        return 4096
#endif
    }

    /// Which of the pages that lie wholly inside `start..<start + bytes` are resident, in order
    /// (`mincore`); all false without a C library.
    package static func snapshot(_ start: UnsafeMutableRawPointer, bytes: Int) -> [Bool] {
        let page = size
        let first = (Int(bitPattern: start) + page - 1) / page * page
        let end = (Int(bitPattern: start) + bytes) / page * page
        guard end > first else { return [] }
        let count = (end - first) / page
#if canImport(Glibc) || canImport(Darwin)
        var flags = [UInt8](repeating: 0, count: count)
        let done = flags.withUnsafeMutableBufferPointer { f -> Bool in
            guard let p = UnsafeMutableRawPointer(bitPattern: first) else { return false }
#if canImport(Glibc)
            return mincore(p, end - first, f.baseAddress!) == 0
#else
            return f.baseAddress!.withMemoryRebound(to: CChar.self, capacity: count) { mincore(p, end - first, $0) == 0 }
#endif
        }
        // When residency cannot be read, every page counts as resident (none is given back).
        return done ? flags.map { $0 & 1 != 0 } : [Bool](repeating: true, count: count)
#else
        return [Bool](repeating: false, count: count)
#endif
    }

    /// Returns the pages wholly inside `start..<start + bytes` whose flag in `kept` (a
    /// `snapshot` of the same range) is false.
    static func release(_ start: UnsafeMutableRawPointer, bytes: Int, except kept: [Bool]) {
        let page = size
        let first = (Int(bitPattern: start) + page - 1) / page * page
        var i = 0
        while i < kept.count {
            guard !kept[i] else { i += 1; continue }
            var j = i
            while j < kept.count && !kept[j] { j += 1 }
            if let p = UnsafeMutableRawPointer(bitPattern: first + i * page) { release(p, bytes: (j - i) * page) }
            i = j
        }
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
