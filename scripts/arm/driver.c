/*
 * booth-conformance: the C `main` of the aarch64 conformance binary. It reads the golden file
 * and hands it to the Embedded Swift entry points of the Conformance module (@_cdecl), then
 * returns their status. Built by CMakeLists.txt, run under qemu-aarch64-static by scripts/arm/test.
 *
 *   booth-conformance GOLDEN            run every kernel, compare with GOLDEN; exit 0 when all pass
 *   booth-conformance --print [GOLDEN]  also print every checksum line (golden format)
 *   booth-conformance --list            list kernels and variant indices
 *   booth-conformance --bench KERNEL VARIANT WIDTH HEIGHT ITERATIONS
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
/* The host build (x86_64-unknown-none-elf, for instruction counts only) reads the stack canary
 * from this global like the aarch64 code does; x86_64 glibc keeps its canary in TLS instead. */
uintptr_t __stack_chk_guard = 0x595e9fbd94fda766u;
#endif

int32_t booth_conformance_run(const uint8_t *golden, ptrdiff_t count, int32_t flags);
int32_t booth_conformance_bench(const uint8_t *name, ptrdiff_t name_count, int32_t variant,
                                ptrdiff_t width, ptrdiff_t height, ptrdiff_t iterations);
int32_t booth_conformance_list(void);

static uint8_t *read_file(const char *path, size_t *count) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return NULL; }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) { fclose(f); return NULL; }
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        cap *= 2;
        buf = realloc(buf, cap);
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) { perror(path); free(buf); return NULL; }
    *count = n;
    return buf;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 2 && strcmp(argv[1], "--list") == 0) return booth_conformance_list();
    if (argc == 7 && strcmp(argv[1], "--bench") == 0) {
        int32_t r = booth_conformance_bench((const uint8_t *)argv[2], (ptrdiff_t)strlen(argv[2]), atoi(argv[3]),
                                            atol(argv[4]), atol(argv[5]), atol(argv[6]));
        if (r < 0) { fprintf(stderr, "unknown kernel or variant: %s %s\n", argv[2], argv[3]); return 2; }
        printf("bench %s %s %d\n", argv[2], argv[3], r);
        return 0;
    }
    int32_t flags = 0;
    int arg = 1;
    if (arg < argc && strcmp(argv[arg], "--print") == 0) { flags |= 1; arg++; }
    if (arg < argc) {
        size_t count = 0;
        uint8_t *golden = read_file(argv[arg], &count);
        if (!golden) return 2;
        int32_t status = booth_conformance_run(golden, (ptrdiff_t)count, flags);
        free(golden);
        return status;
    }
    if (flags == 0) {
        fprintf(stderr, "usage: %s [--print] GOLDEN | --list | --bench KERNEL VARIANT W H N\n", argv[0]);
        return 2;
    }
    return booth_conformance_run(NULL, 0, flags);
}
