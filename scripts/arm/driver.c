/*
 * booth-conformance: the C `main` of the aarch64 conformance binary. It reads the golden file
 * and hands it to the Embedded Swift entry points of the Conformance module (@_cdecl), then
 * returns their status. Built by CMakeLists.txt, run under qemu-aarch64-static by scripts/arm/test.
 *
 *   booth-conformance [--models DIR] GOLDEN   run every kernel (and, with DIR, the integer
 *                                             networks on DIR's .tflite files), compare with GOLDEN
 *   booth-conformance --print [--models DIR] [GOLDEN]   also print every checksum line
 *   booth-conformance --list            list kernels and variant indices
 *   booth-conformance --bench KERNEL VARIANT WIDTH HEIGHT ITERATIONS
 *   booth-conformance --net MODEL.tflite float|int ITERATIONS [TABLE]
 *                                       load one model on one path, run it ITERATIONS times
 *                                       (with TABLE: its CalibrationTable text, e.g. per-layer widths)
 *   booth-conformance --frame MODELS_DIR frame|detector ITERATIONS
 *                                       one live 640x480 frame's vision work (FrameBench) on the
 *                                       integer path, ITERATIONS times
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>

#if defined(__x86_64__)
/* The host build (x86_64-unknown-none-elf, for instruction counts only) reads the stack canary
 * from this global like the aarch64 code does; x86_64 glibc keeps its canary in TLS instead. */
uintptr_t __stack_chk_guard = 0x595e9fbd94fda766u;
#endif

int32_t booth_conformance_run(const uint8_t *golden, ptrdiff_t count, int32_t flags,
                              const uint8_t *const *model_names, const uint8_t *const *model_bytes,
                              const ptrdiff_t *model_sizes, ptrdiff_t model_count);
int32_t booth_conformance_bench(const uint8_t *name, ptrdiff_t name_count, int32_t variant,
                                ptrdiff_t width, ptrdiff_t height, ptrdiff_t iterations);
int32_t booth_conformance_list(void);
int32_t booth_conformance_net(const uint8_t *name, ptrdiff_t name_count, const uint8_t *bytes, ptrdiff_t count,
                              int32_t path, ptrdiff_t iterations);
int32_t booth_conformance_net_table(const uint8_t *name, ptrdiff_t name_count, const uint8_t *bytes, ptrdiff_t count,
                                    int32_t path, ptrdiff_t iterations, const uint8_t *table, ptrdiff_t table_count);
int32_t booth_conformance_frame(int32_t part, const uint8_t *mesh, ptrdiff_t mesh_count, const uint8_t *landscape,
                                ptrdiff_t landscape_count, const uint8_t *detector, ptrdiff_t detector_count,
                                ptrdiff_t iterations);

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

#define MAX_MODELS 16

/* Reads DIR/NAME, or returns NULL (and prints why). */
static uint8_t *read_model(const char *dir, const char *name, size_t *count) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return read_file(path, count);
}

/* `--OPTION ARG FIRST|SECOND ITERATIONS`: 0 for FIRST, 1 for SECOND, -1 when the arguments are
 * not that (then *iterations is not set). */
static int choice_and_count(int argc, char **argv, const char *first, const char *second, long *iterations) {
    if (argc != 5) return -1;
    int choice = strcmp(argv[3], first) == 0 ? 0 : strcmp(argv[3], second) == 0 ? 1 : -1;
    char *end = NULL;
    long n = strtol(argv[4], &end, 10);
    if (choice < 0 || !end || end == argv[4] || *end != '\0' || n < 0) return -1;
    *iterations = n;
    return choice;
}

/* `--frame DIR frame|detector ITERATIONS`: FrameBench on DIR's models. */
static int run_frame(int argc, char **argv) {
    long iterations = -1;
    int part = choice_and_count(argc, argv, "frame", "detector", &iterations);
    if (part < 0) {
        fprintf(stderr, "usage: %s --frame MODELS_DIR frame|detector ITERATIONS\n", argv[0]);
        return 2;
    }
    size_t counts[3] = {0, 0, 0};
    uint8_t *bytes[3] = {NULL, NULL, NULL};
    if (part == 0) {
        if (!(bytes[0] = read_model(argv[2], "face_landmark.tflite", &counts[0]))) return 2;
        if (!(bytes[1] = read_model(argv[2], "selfie_segmentation_landscape.tflite", &counts[1]))) { free(bytes[0]); return 2; }
    } else if (!(bytes[2] = read_model(argv[2], "face_detection_short_range.tflite", &counts[2]))) {
        return 2;
    }
    int32_t r = booth_conformance_frame(part, bytes[0], (ptrdiff_t)counts[0], bytes[1], (ptrdiff_t)counts[1],
                                        bytes[2], (ptrdiff_t)counts[2], (ptrdiff_t)iterations);
    for (int i = 0; i < 3; i++) free(bytes[i]);
    if (r < 0) return 2;
    printf("frame %s %ld %d\n", argv[3], iterations, r);
    return 0;
}

/* Reads every *.tflite file in `dir`; returns the count, or -1 when `dir` cannot be read. */
static ptrdiff_t read_models(const char *dir, char **names, uint8_t **bytes, ptrdiff_t *sizes) {
    DIR *d = opendir(dir);
    if (!d) { perror(dir); return -1; }
    ptrdiff_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < MAX_MODELS) {
        size_t len = strlen(e->d_name);
        if (len < 8 || strcmp(e->d_name + len - 7, ".tflite") != 0) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t count = 0;
        uint8_t *data = read_file(path, &count);
        if (!data) { closedir(d); return -1; }
        names[n] = strdup(e->d_name);
        bytes[n] = data;
        sizes[n] = (ptrdiff_t)count;
        n++;
    }
    closedir(d);
    return n;
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
    if (argc >= 2 && strcmp(argv[1], "--frame") == 0) return run_frame(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "--net") == 0) {
        long iterations = -1;
        int path = choice_and_count(argc == 6 ? 5 : argc, argv, "float", "int", &iterations);
        if (path < 0) {
            fprintf(stderr, "usage: %s --net MODEL.tflite float|int ITERATIONS [TABLE]\n", argv[0]);
            return 2;
        }
        size_t count = 0, table_count = 0;
        uint8_t *data = read_file(argv[2], &count), *table = NULL;
        if (!data) return 2;
        if (argc == 6 && !(table = read_file(argv[5], &table_count))) { free(data); return 2; }
        const char *base = strrchr(argv[2], '/');
        base = base ? base + 1 : argv[2];
        int32_t r = table ? booth_conformance_net_table((const uint8_t *)base, (ptrdiff_t)strlen(base), data,
                                                        (ptrdiff_t)count, path, (ptrdiff_t)iterations, table,
                                                        (ptrdiff_t)table_count)
                          : booth_conformance_net((const uint8_t *)base, (ptrdiff_t)strlen(base), data,
                                                  (ptrdiff_t)count, path, (ptrdiff_t)iterations);
        free(table);
        free(data);
        if (r < 0) return 2;
        printf("net %s %s %ld %d\n", base, argv[3], iterations, r);
        return 0;
    }
    int32_t flags = 0;
    const char *models = NULL, *golden_path = NULL;
    for (int arg = 1; arg < argc; arg++) {
        if (strcmp(argv[arg], "--print") == 0) flags |= 1;
        else if (strcmp(argv[arg], "--models") == 0 && arg + 1 < argc) models = argv[++arg];
        else if (!golden_path && argv[arg][0] != '-') golden_path = argv[arg];
        else {
            fprintf(stderr, "usage: %s [--print] [--models DIR] [GOLDEN] | --list | --bench KERNEL VARIANT W H N\n", argv[0]);
            return 2;
        }
    }
    if (!golden_path && flags == 0) {
        fprintf(stderr, "usage: %s [--print] [--models DIR] [GOLDEN] | --list | --bench KERNEL VARIANT W H N\n", argv[0]);
        return 2;
    }
    uint8_t *golden = NULL;
    size_t golden_count = 0;
    if (golden_path && !(golden = read_file(golden_path, &golden_count))) return 2;
    char *names[MAX_MODELS];
    uint8_t *bytes[MAX_MODELS];
    ptrdiff_t sizes[MAX_MODELS];
    ptrdiff_t model_count = -1;
    if (models && (model_count = read_models(models, names, bytes, sizes)) < 0) return 2;
    int32_t status = booth_conformance_run(golden, (ptrdiff_t)golden_count, flags,
                                           (const uint8_t *const *)names, (const uint8_t *const *)bytes,
                                           sizes, model_count);
    for (ptrdiff_t i = 0; i < model_count; i++) { free(names[i]); free(bytes[i]); }
    free(golden);
    return status;
}
