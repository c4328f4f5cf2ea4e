#define _GNU_SOURCE
#include "cmalloccounter.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static volatile int counting = 0;
static pthread_t counting_thread;
static volatile long allocation_count = 0;

static inline void note_allocation(void) {
    if (counting && pthread_equal(pthread_self(), counting_thread)) {
        allocation_count += 1;
    }
}

void booth_malloc_count_begin(void) {
    counting_thread = pthread_self();
    allocation_count = 0;
    counting = 1;
}

long booth_malloc_count_end(void) {
    counting = 0;
    return allocation_count;
}

void *booth_malloc_probe(unsigned long size) {
    return malloc(size);
}

void *malloc(size_t size) {
    note_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
    note_allocation();
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    note_allocation();
    return __libc_realloc(p, size);
}

void *memalign(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    note_allocation();
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (p == NULL) return ENOMEM;
    *out = p;
    return 0;
}
