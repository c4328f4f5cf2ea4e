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

    /// One malloc arena for every thread. glibc gives each thread that allocates its own arena, and
    /// an arena keeps what it once held: the still thread's models (built per still) left
    /// 7 MiB resident in an arena of their own. The kiosk's threads allocate nothing per frame, so
    /// they do not contend for the one lock. Returns false where the C library has no such setting.
    @discardableResult
    public static func oneArena() -> Bool {
        booth_set_arena_max(1) == 1
    }

    /// Returns freed heap pages to the system (`malloc_trim`): after start-up, which builds and
    /// drops the still models to check them, and after each still, whose models are dropped too.
    public static func returnFreePages() {
        _ = booth_malloc_trim()
    }
}
