/* NeuralCore's aarch64 inner loops (see include/CNeuralKernels.h). */
#include "CNeuralKernels.h"

#include <string.h>

#if defined(__aarch64__)
#include <arm_neon.h>
#if defined(__linux__)
#include <sys/auxv.h>
#endif

int booth_neon_available(void) { return 1; }

int booth_cpu_has_dotprod(void) {
#if defined(__linux__)
    /* HWCAP_ASIMDDP (asm/hwcap.h): bit 20. */
    return (getauxval(AT_HWCAP) & (1UL << 20)) != 0;
#else
    return 0;
#endif
}

/* The output stage's constants for four channels. */
typedef struct {
    int32x4_t left, multiplier, negative_right;
} stage4;

/* TFLite's MultiplyByQuantizedMultiplier on four lanes, bit for bit: a wrapping left shift,
 * `sqrdmulh` (SaturatingRoundingDoublingHighMul: (x·m + 2^30) >> 31 for m ≠ INT32_MIN, the only
 * saturating case being x = m = INT32_MIN), then gemmlowp's RoundingDivideByPOT fix-up: negative
 * values move down by one before `srshl`'s round-half-up shift, which makes it round half away
 * from zero. Then the zero point (wrapping) and the clamp. */
static inline int32x4_t requantize4(int32x4_t acc, stage4 s, int32x4_t zp, int32x4_t lo, int32x4_t hi) {
    int32x4_t x = vshlq_s32(acc, s.left);
    x = vqrdmulhq_s32(x, s.multiplier);
    int32x4_t fixup = vshrq_n_s32(vandq_s32(x, s.negative_right), 31);
    x = vrshlq_s32(vqaddq_s32(x, fixup), s.negative_right);
    x = vaddq_s32(x, zp);
    return vminq_s32(vmaxq_s32(x, lo), hi);
}

/* Sixteen int32 lanes stored as `kind` at `out` (`valid` of them). */
static inline void store16(int kind, void *out, int32x4_t v0, int32x4_t v1, int32x4_t v2, int32x4_t v3,
                           ptrdiff_t valid) {
    if (kind == BOOTH_OUT_INT8) {
        int8x16_t b = vcombine_s8(vmovn_s16(vcombine_s16(vmovn_s32(v0), vmovn_s32(v1))),
                                  vmovn_s16(vcombine_s16(vmovn_s32(v2), vmovn_s32(v3))));
        if (valid == 16) { vst1q_s8((int8_t *)out, b); return; }
        int8_t tmp[16];
        vst1q_s8(tmp, b);
        memcpy(out, tmp, (size_t)valid);
    } else if (kind == BOOTH_OUT_INT16) {
        int16x8_t lo = vcombine_s16(vmovn_s32(v0), vmovn_s32(v1));
        int16x8_t hi = vcombine_s16(vmovn_s32(v2), vmovn_s32(v3));
        if (valid == 16) { vst1q_s16((int16_t *)out, lo); vst1q_s16((int16_t *)out + 8, hi); return; }
        int16_t tmp[16];
        vst1q_s16(tmp, lo);
        vst1q_s16(tmp + 8, hi);
        memcpy(out, tmp, (size_t)valid * 2);
    } else {
        if (valid == 16) {
            int32_t *o = (int32_t *)out;
            vst1q_s32(o, v0); vst1q_s32(o + 4, v1); vst1q_s32(o + 8, v2); vst1q_s32(o + 12, v3);
            return;
        }
        int32_t tmp[16];
        vst1q_s32(tmp, v0); vst1q_s32(tmp + 4, v1); vst1q_s32(tmp + 8, v2); vst1q_s32(tmp + 12, v3);
        memcpy(out, tmp, (size_t)valid * 4);
    }
}

/* One k step of a row: 16 channels += w[16] · x[lane]. */
#define MLAL_ROW(c, wl, wh, x, lane)                                  \
    do {                                                              \
        c[0] = vmlal_lane_s16(c[0], vget_low_s16(wl), x, lane);       \
        c[1] = vmlal_high_lane_s16(c[1], wl, x, lane);                \
        c[2] = vmlal_lane_s16(c[2], vget_low_s16(wh), x, lane);       \
        c[3] = vmlal_high_lane_s16(c[3], wh, x, lane);                \
    } while (0)

/* `R` rows (1...4) × 16 channels of one block: the register tile. Accumulators start at
 * `start` (the bias, or 0 for raw output); k runs four at a time with each row's four
 * activations in one d register (`smlal` by lane), then one at a time. */
static inline __attribute__((always_inline)) void tile(
    const int16_t *a, ptrdiff_t a_stride, ptrdiff_t depth, const int16_t *w, int R,
    const int32x4_t start[4], int32x4_t c[4][4]) {
    for (int r = 0; r < 4; r++)
        for (int j = 0; j < 4; j++) c[r][j] = start[j];
    const int16_t *a0 = a, *a1 = a + a_stride, *a2 = a + 2 * a_stride, *a3 = a + 3 * a_stride;
    ptrdiff_t k = 0;
    for (; k + 4 <= depth; k += 4) {
        int16x4_t x0 = vld1_s16(a0 + k);
        int16x4_t x1 = R > 1 ? vld1_s16(a1 + k) : x0;
        int16x4_t x2 = R > 2 ? vld1_s16(a2 + k) : x0;
        int16x4_t x3 = R > 3 ? vld1_s16(a3 + k) : x0;
        const int16_t *wk = w + k * 16;
#define STEP(lane)                                                            \
        do {                                                                  \
            int16x8_t wl = vld1q_s16(wk + lane * 16), wh = vld1q_s16(wk + lane * 16 + 8); \
            MLAL_ROW(c[0], wl, wh, x0, lane);                                 \
            if (R > 1) MLAL_ROW(c[1], wl, wh, x1, lane);                      \
            if (R > 2) MLAL_ROW(c[2], wl, wh, x2, lane);                      \
            if (R > 3) MLAL_ROW(c[3], wl, wh, x3, lane);                      \
        } while (0)
        STEP(0); STEP(1); STEP(2); STEP(3);
#undef STEP
    }
    for (; k < depth; k++) {
        int16x8_t wl = vld1q_s16(w + k * 16), wh = vld1q_s16(w + k * 16 + 8);
        int16x4_t x0 = vld1_dup_s16(a0 + k);
        MLAL_ROW(c[0], wl, wh, x0, 0);
        if (R > 1) { int16x4_t x1 = vld1_dup_s16(a1 + k); MLAL_ROW(c[1], wl, wh, x1, 0); }
        if (R > 2) { int16x4_t x2 = vld1_dup_s16(a2 + k); MLAL_ROW(c[2], wl, wh, x2, 0); }
        if (R > 3) { int16x4_t x3 = vld1_dup_s16(a3 + k); MLAL_ROW(c[3], wl, wh, x3, 0); }
    }
}

/* All rows of one block, tiles of 4 rows then 1; `kind` and `R` are constants after inlining. */
static inline __attribute__((always_inline)) void gemm_block(
    const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth, const int16_t *w, ptrdiff_t n0,
    ptrdiff_t valid, const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int kind) {
    size_t esize = kind == BOOTH_OUT_INT8 ? 1 : kind == BOOTH_OUT_INT16 ? 2 : 4;
    char *o = (char *)out + (size_t)n0 * esize;
    int32x4_t start[4];
    stage4 s[4];
    int32x4_t zp = vdupq_n_s32(0), lo = zp, hi = zp;
    if (kind == BOOTH_OUT_INT32) {
        for (int j = 0; j < 4; j++) start[j] = vdupq_n_s32(0);
        memset(s, 0, sizeof s);
    } else {
        for (int j = 0; j < 4; j++) {
            start[j] = vld1q_s32(stage->bias + n0 + 4 * j);
            s[j].left = vld1q_s32(stage->left_shift + n0 + 4 * j);
            s[j].multiplier = vld1q_s32(stage->multiplier + n0 + 4 * j);
            s[j].negative_right = vnegq_s32(vld1q_s32(stage->right_shift + n0 + 4 * j));
        }
        zp = vdupq_n_s32(stage->zero_point);
        lo = vdupq_n_s32(stage->minimum);
        hi = vdupq_n_s32(stage->maximum);
    }
    ptrdiff_t r = 0;
    int32x4_t c[4][4];
    for (; r + 4 <= rows; r += 4) {
        tile(a + r * a_stride, a_stride, depth, w, 4, start, c);
        for (int i = 0; i < 4; i++) {
            if (kind != BOOTH_OUT_INT32)
                for (int j = 0; j < 4; j++) c[i][j] = requantize4(c[i][j], s[j], zp, lo, hi);
            store16(kind, o + (size_t)((r + i) * out_stride) * esize, c[i][0], c[i][1], c[i][2], c[i][3], valid);
        }
    }
    for (; r < rows; r++) {
        tile(a + r * a_stride, a_stride, depth, w, 1, start, c);
        if (kind != BOOTH_OUT_INT32)
            for (int j = 0; j < 4; j++) c[0][j] = requantize4(c[0][j], s[j], zp, lo, hi);
        store16(kind, o + (size_t)(r * out_stride) * esize, c[0][0], c[0][1], c[0][2], c[0][3], valid);
    }
}

static void gemm_s16_int8(const int16_t *a, ptrdiff_t rows, ptrdiff_t as, ptrdiff_t depth, const int16_t *w,
                          ptrdiff_t channels, const booth_output_stage *stage, void *out, ptrdiff_t os) {
    for (ptrdiff_t n0 = 0; n0 < channels; n0 += 16)
        gemm_block(a, rows, as, depth, w + n0 * depth, n0, channels - n0 < 16 ? channels - n0 : 16, stage, out, os,
                   BOOTH_OUT_INT8);
}

static void gemm_s16_int16(const int16_t *a, ptrdiff_t rows, ptrdiff_t as, ptrdiff_t depth, const int16_t *w,
                           ptrdiff_t channels, const booth_output_stage *stage, void *out, ptrdiff_t os) {
    for (ptrdiff_t n0 = 0; n0 < channels; n0 += 16)
        gemm_block(a, rows, as, depth, w + n0 * depth, n0, channels - n0 < 16 ? channels - n0 : 16, stage, out, os,
                   BOOTH_OUT_INT16);
}

static void gemm_s16_int32(const int16_t *a, ptrdiff_t rows, ptrdiff_t as, ptrdiff_t depth, const int16_t *w,
                           ptrdiff_t channels, void *out, ptrdiff_t os) {
    for (ptrdiff_t n0 = 0; n0 < channels; n0 += 16)
        gemm_block(a, rows, as, depth, w + n0 * depth, n0, channels - n0 < 16 ? channels - n0 : 16, NULL, out, os,
                   BOOTH_OUT_INT32);
}

void booth_gemm_s16(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth,
                    const int16_t *w, ptrdiff_t channels, const booth_output_stage *stage,
                    void *out, ptrdiff_t out_stride, int out_kind) {
    switch (out_kind) {
    case BOOTH_OUT_INT8: gemm_s16_int8(a, rows, a_stride, depth, w, channels, stage, out, out_stride); break;
    case BOOTH_OUT_INT16: gemm_s16_int16(a, rows, a_stride, depth, w, channels, stage, out, out_stride); break;
    default: gemm_s16_int32(a, rows, a_stride, depth, w, channels, out, out_stride); break;
    }
}

#else /* not aarch64: never chosen */

int booth_neon_available(void) { return 0; }
int booth_cpu_has_dotprod(void) { return 0; }

void booth_gemm_s16(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth,
                    const int16_t *w, ptrdiff_t channels, const booth_output_stage *stage,
                    void *out, ptrdiff_t out_stride, int out_kind) {
    (void)a; (void)rows; (void)a_stride; (void)depth; (void)w; (void)channels; (void)stage;
    (void)out; (void)out_stride; (void)out_kind;
}

#endif
