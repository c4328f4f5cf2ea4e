#ifndef CMALLOCCOUNTER_H
#define CMALLOCCOUNTER_H

/// A counting interposer for the C allocator, for tests that prove code allocates nothing.
///
/// This target defines malloc, calloc, realloc, memalign, aligned_alloc and posix_memalign. A test
/// executable that links it and exports those symbols (`--export-dynamic-symbol`, see
/// Package.swift) has every allocation in the process bound here: each call is counted when it
/// comes from the thread being measured, then forwarded to glibc's own implementation
/// (`__libc_malloc` & co., exported by glibc for interposers). The state is plain globals, so
/// nothing here allocates or initialises lazily inside the allocator.

/// Starts counting the calling thread's allocation calls (from zero).
void booth_malloc_count_begin(void);

/// Stops counting; returns the calls counted since `booth_malloc_count_begin`.
long booth_malloc_count_end(void);

/// `malloc(size)` called from C, for the check that the interposer is bound (a Swift
/// `malloc` followed by `free` may be removed by the optimiser as a dead pair).
void *booth_malloc_probe(unsigned long size);

#endif
