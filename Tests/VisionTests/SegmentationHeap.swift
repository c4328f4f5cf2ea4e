#if canImport(Glibc) && arch(x86_64)
import Glibc

/// Bytes glibc's malloc has in use (`mallinfo2().uordblks + hblkhd`), for the segmentation
/// allocation checks. `mallinfo2` is not declared by Swift's Glibc module, so it is looked up
/// with `dlsym(RTLD_DEFAULT)` (handle 0); its ten-`size_t` struct comes back through the hidden
/// result pointer that the x86-64 System V ABI passes first — hence the architecture guard.
enum SegmentationHeap {
    static func bytesInUse() -> Int {
        typealias Function = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
        guard let symbol = dlsym(nil, "mallinfo2") else { return -1 }
        let function = unsafeBitCast(symbol, to: Function.self)
        var fields = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &fields) { _ = function($0.baseAddress!) }
        return fields.7 + fields.4   // uordblks + hblkhd
    }
}
#endif
