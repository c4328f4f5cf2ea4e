import CSyscalls

/// Process-wide allocator settings for a long-running kiosk.
public enum ProcessMemory {
    /// Large buffers (stills, PNG screens, JPEG output) straight from mmap, returned to the system
    /// when freed. By default glibc raises its mmap threshold after the first large free; big
    /// short-lived buffers then come from the brk heap, where a small long-lived allocation that
    /// lands in a freed hole makes the next big buffer extend the heap: resident memory that only
    /// grows. Returns false where the C library has no such setting.
    @discardableResult
    public static func largeBuffersFromMmap(threshold bytes: Int = 256 << 10) -> Bool {
        booth_set_mmap_threshold(Int32(clamping: bytes)) == 1
    }
}
