#if canImport(Glibc) && arch(x86_64)
import Glibc

/// glibc's `mallinfo2()` (bytes in use by malloc, and in mmapped chunks), which Swift's Glibc
/// module does not declare. Looked up with dlsym; the struct (ten size_t) is returned through a
/// hidden result pointer, which the x86-64 System V ABI passes as the first argument — hence the
/// architecture guard.
struct HeapStatistics {
    var arena = 0, ordblks = 0, smblks = 0, hblks = 0, hblkhd = 0, usmblks = 0, fsmblks = 0, uordblks = 0, fordblks = 0, keepcost = 0

    static func current() -> HeapStatistics {
        typealias Function = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
        guard let symbol = dlsym(nil, "mallinfo2") else {  // RTLD_DEFAULT
            fatalError("mallinfo2 not found")
        }
        let function = unsafeBitCast(symbol, to: Function.self)
        var stats = HeapStatistics()
        withUnsafeMutableBytes(of: &stats) { _ = function($0.baseAddress!) }
        return stats
    }
}
#endif
