/* NeuralCore's aarch64 inner loops (see include/CNeuralKernels.h). */
#include "CNeuralKernels.h"

#include <stdlib.h>
#include <string.h>

#if defined(__aarch64__)
/* GCC's scheduling before register allocation hoists the loads and products of a fully
 * unrolled tile until the accumulators spill (the int8 GEMM's 16-k loop: 373 instructions with
 * it, 240 without); the scheduling after allocation still runs. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-schedule-insns")
#endif
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

#include "neural_stage_neon.h"

/* TFLite's MultiplyByQuantizedMultiplier on four lanes, bit for bit: a wrapping left shift,
 * `sqrdmulh` (SaturatingRoundingDoublingHighMul: (x·m + 2^30) >> 31 for m ≠ INT32_MIN, the only
 * saturating case being x = m = INT32_MIN), then gemmlowp's RoundingDivideByPOT fix-up: negative
 * values move down by one before `srshl`'s round-half-up shift, which makes it round half away
 * from zero. Then the zero point (wrapping) and the clamp. */
static inline int32x4_t scale4(int32x4_t acc, stage4 s, int32x4_t zp, int shifted) {
    int32x4_t x = shifted ? vshlq_s32(acc, s.left) : acc;
    x = vqrdmulhq_s32(x, s.multiplier);
    x = vrshlq_s32(fixup_by(x, s.negative_right, shifted), s.negative_right);
    return vaddq_s32(x, zp);
}

/* scale4 for the 8-channel depthwise rows (dw3_row, dw3_half_s8_pairs): `shifted` (left shifts
 * present) and `addzp` (a zero point other than 0) are constants of the caller's specialisation,
 * `zp` its zero-point vector. */
#define DW_SCALE(v, st)                                                                          \
    ({                                                                                           \
        int32x4_t x_ = shifted ? vshlq_s32(v, st.left) : v;                                      \
        x_ = vqrdmulhq_s32(x_, st.multiplier);                                                   \
        x_ = vrshlq_s32(fixup_by(x_, st.negative_right, shifted), st.negative_right);            \
        addzp ? vaddq_s32(x_, zp) : x_;                                                          \
    })

static inline int32x4_t requantize4(int32x4_t acc, stage4 s, int32x4_t zp, int32x4_t lo, int32x4_t hi) {
    return vminq_s32(vmaxq_s32(scale4(acc, s, zp, 1), lo), hi);
}

/* A depthwise group's 16 channels from `cc`: the accumulator start (bias − input zero point ×
 * the channel's tap sum) and the output stage's constants, set up once per group. */
static inline __attribute__((always_inline)) void depthwise_group16(const booth_output_stage *stage,
                                                                    const int32_t *tap_sums, int32x4_t izp,
                                                                    ptrdiff_t cc, int32x4_t start[4], stage4 s[4]) {
    for (int j = 0; j < 4; j++) {
        start[j] = vmlsq_s32(vld1q_s32(stage->bias + cc + 4 * j), izp, vld1q_s32(tap_sums + cc + 4 * j));
        s[j].left = vld1q_s32(stage->left_shift + cc + 4 * j);
        s[j].multiplier = vld1q_s32(stage->multiplier + cc + 4 * j);
        s[j].negative_right = vnegq_s32(vld1q_s32(stage->right_shift + cc + 4 * j));
    }
}

/* Sixteen int32 lanes stored as `kind` at `out` (`valid` of them), narrowed by truncation. */
static inline void store16(int kind, void *out, int32x4_t v0, int32x4_t v1, int32x4_t v2, int32x4_t v3,
                           ptrdiff_t valid) {
    if (kind == BOOTH_OUT_INT8) {
        int8x16_t b = vcombine_s8(vmovn_s16(vcombine_s16(vmovn_s32(v0), vmovn_s32(v1))),
                                  vmovn_s16(vcombine_s16(vmovn_s32(v2), vmovn_s32(v3))));
        if (valid == 16) vst1q_s8((int8_t *)out, b);
        else store_bytes(out, b, b, (size_t)valid);
    } else if (kind == BOOTH_OUT_INT16) {
        int16x8_t lo = vcombine_s16(vmovn_s32(v0), vmovn_s32(v1));
        int16x8_t hi = vcombine_s16(vmovn_s32(v2), vmovn_s32(v3));
        if (valid == 16) { vst1q_s16((int16_t *)out, lo); vst1q_s16((int16_t *)out + 8, hi); }
        else store_bytes(out, vreinterpretq_s8_s16(lo), vreinterpretq_s8_s16(hi), (size_t)valid * 2);
    } else {
        int32_t *o = (int32_t *)out;
        if (valid == 16) {
            vst1q_s32(o, v0); vst1q_s32(o + 4, v1); vst1q_s32(o + 8, v2); vst1q_s32(o + 12, v3);
            return;
        }
        if (valid >= 8) { vst1q_s32(o, v0); vst1q_s32(o + 4, v1); o += 8; v0 = v2; v1 = v3; valid -= 8; }
        store_bytes(o, vreinterpretq_s8_s32(v0), vreinterpretq_s8_s32(v1), (size_t)valid * 4);
    }
}

/* One k step of a row: 16 channels += w[16] · x[lane]. */
#define MLAL_ROW(c, wl, wh, x, lane)                                  \
    do {                                                              \
        c[0] = vmlal_lane_s16(c[0], vget_low_s16(wl), x, lane);       \
        c[1] = vmlal_high_lane_s16(c[1], wl, x, lane);                \
        if (!half) {                                                  \
            c[2] = vmlal_lane_s16(c[2], vget_low_s16(wh), x, lane);   \
            c[3] = vmlal_high_lane_s16(c[3], wh, x, lane);            \
        }                                                             \
    } while (0)

/* `R` rows (1...4) × 16 channels of one block: the register tile. Accumulators start at
 * `start` (the bias, or 0 for raw output); k runs four at a time with each row's four
 * activations in one d register (`smlal` by lane), then one at a time. With `half` (a last
 * block of at most 8 valid channels) only channels 0...7 are computed; 8...15 keep `start`. */
static inline __attribute__((always_inline)) void tile(
    const int16_t *a, ptrdiff_t a_stride, ptrdiff_t depth, const int16_t *w, int R, int half,
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
            int16x8_t wl = vld1q_s16(wk + lane * 16), wh = half ? wl : vld1q_s16(wk + lane * 16 + 8); \
            MLAL_ROW(c[0], wl, wh, x0, lane);                                 \
            if (R > 1) MLAL_ROW(c[1], wl, wh, x1, lane);                      \
            if (R > 2) MLAL_ROW(c[2], wl, wh, x2, lane);                      \
            if (R > 3) MLAL_ROW(c[3], wl, wh, x3, lane);                      \
        } while (0)
        STEP(0); STEP(1); STEP(2); STEP(3);
#undef STEP
    }
    for (; k < depth; k++) {
        int16x8_t wl = vld1q_s16(w + k * 16), wh = half ? wl : vld1q_s16(w + k * 16 + 8);
        int16x4_t x0 = vld1_dup_s16(a0 + k);
        MLAL_ROW(c[0], wl, wh, x0, 0);
        if (R > 1) { int16x4_t x1 = vld1_dup_s16(a1 + k); MLAL_ROW(c[1], wl, wh, x1, 0); }
        if (R > 2) { int16x4_t x2 = vld1_dup_s16(a2 + k); MLAL_ROW(c[2], wl, wh, x2, 0); }
        if (R > 3) { int16x4_t x3 = vld1_dup_s16(a3 + k); MLAL_ROW(c[3], wl, wh, x3, 0); }
    }
}

/* The accumulator start and output-stage constants of channels n0 ..< n0 + 4·G. With `row_sums`
 * (int8 rows read raw) the start subtracts zero_point · Σw; without (NULL: rows already centred)
 * it is the bias alone. */
static inline __attribute__((always_inline)) void stage_constants(
    const booth_output_stage *stage, const int32_t *row_sums, int32_t zero_point, ptrdiff_t n0, int G, int kind,
    int32x4_t *start, stage4 *s) {
    int32x4_t zp = vdupq_n_s32(zero_point);
    for (int j = 0; j < G; j++) {
        int32x4_t sums = row_sums ? vld1q_s32(row_sums + n0 + 4 * j) : vdupq_n_s32(0);
        if (kind == BOOTH_OUT_INT32) {
            start[j] = vmulq_s32(vnegq_s32(zp), sums);
            s[j].left = s[j].multiplier = s[j].negative_right = vdupq_n_s32(0);
        } else {
            int32x4_t bias = vld1q_s32(stage->bias + n0 + 4 * j);
            start[j] = row_sums ? vmlsq_s32(bias, zp, sums) : bias;
            s[j].left = vld1q_s32(stage->left_shift + n0 + 4 * j);
            s[j].multiplier = vld1q_s32(stage->multiplier + n0 + 4 * j);
            s[j].negative_right = vnegq_s32(vld1q_s32(stage->right_shift + n0 + 4 * j));
        }
    }
}

/* The output zero point and clamp bounds as vectors (zeros for raw int32 output). */
static inline void clamp_constants(const booth_output_stage *stage, int kind, int32x4_t *zp, int32x4_t *lo,
                                   int32x4_t *hi) {
    *zp = vdupq_n_s32(kind == BOOTH_OUT_INT32 ? 0 : stage->zero_point);
    *lo = vdupq_n_s32(kind == BOOTH_OUT_INT32 ? 0 : stage->minimum);
    *hi = vdupq_n_s32(kind == BOOTH_OUT_INT32 ? 0 : stage->maximum);
}

/* Sixteen accumulators requantised and stored as `kind` (BOOTH_OUT_INT8 or _INT16; `valid` of
 * them): `scale4`, then saturating narrows and the clamp in the narrow type, 8 or 16 lanes per
 * instruction. The same values as `requantize4`'s int32 clamp, because the clamp bounds lie in
 * the output type's range (OutputStage's invariant): clamp(sat(v)) = clamp(v) there. */
static inline __attribute__((always_inline)) void requantize_store16(
    int kind, int32x4_t v0, int32x4_t v1, int32x4_t v2, int32x4_t v3, const stage4 s[4], int shifted, int32x4_t zp,
    int32x4_t lo, int32x4_t hi, void *out, ptrdiff_t valid) {
    int16x8_t h0 = vqmovn_high_s32(vqmovn_s32(scale4(v0, s[0], zp, shifted)), scale4(v1, s[1], zp, shifted));
    int16x8_t h1 = vqmovn_high_s32(vqmovn_s32(scale4(v2, s[2], zp, shifted)), scale4(v3, s[3], zp, shifted));
    int16x8_t lo16 = vcombine_s16(vmovn_s32(lo), vmovn_s32(lo)), hi16 = vcombine_s16(vmovn_s32(hi), vmovn_s32(hi));
    if (kind == BOOTH_OUT_INT8) {
        int8x16_t b = vqmovn_high_s16(vqmovn_s16(h0), h1);
        b = vminq_s8(vmaxq_s8(b, vcombine_s8(vmovn_s16(lo16), vmovn_s16(lo16))),
                     vcombine_s8(vmovn_s16(hi16), vmovn_s16(hi16)));
        if (valid == 16) vst1q_s8((int8_t *)out, b);
        else store_bytes(out, b, b, (size_t)valid);
    } else {
        h0 = vminq_s16(vmaxq_s16(h0, lo16), hi16);
        h1 = vminq_s16(vmaxq_s16(h1, lo16), hi16);
        if (valid == 16) { vst1q_s16((int16_t *)out, h0); vst1q_s16((int16_t *)out + 8, h1); }
        else store_bytes(out, vreinterpretq_s8_s16(h0), vreinterpretq_s8_s16(h1), (size_t)valid * 2);
    }
}

/* The `shifted` flag of sixteen channels (general_stage4): whether any has a left shift
 * (OutputStage's are 0...31; most are 0, and the `sshl` by 0 is then left out) or no right shift
 * (else the fix-up is one `ssra`). Loop-invariant in the callers' row loops. */
static inline int general_stage16(const stage4 s[4]) {
    return general_stage4(s[0]) | general_stage4(s[1]) | general_stage4(s[2]) | general_stage4(s[3]);
}

/* One row of a 4×16 tile: requantised (unless raw int32) and stored as `kind`. */
static inline __attribute__((always_inline)) void finish_row16(int kind, int32x4_t c[4], const stage4 s[4], int32x4_t zp,
                                                               int32x4_t lo, int32x4_t hi, char *out, ptrdiff_t valid) {
    if (kind == BOOTH_OUT_INT32) store16(kind, out, c[0], c[1], c[2], c[3], valid);
    else if (general_stage16(s)) requantize_store16(kind, c[0], c[1], c[2], c[3], s, 1, zp, lo, hi, out, valid);
    else requantize_store16(kind, c[0], c[1], c[2], c[3], s, 0, zp, lo, hi, out, valid);
}

/* Four rows × 16 channels (8 with `half`) of one block from bias to stored output, with the
 * sixteen accumulators in named registers throughout: started from the bias, `smlal` by lane
 * (k eight at a time, then four, then one), then the output stage group by group over the four
 * rows (`out_row16`'s operations). No stack round trip of the accumulators (the array tile's
 * copy-in, spill and reload cost 1.2 M of landscape's 9.7 M). */
static inline __attribute__((always_inline)) void tile4_out(
    const int16_t *a, ptrdiff_t a_stride, ptrdiff_t depth, const int16_t *w, const int32_t *bias, int kind,
    int half, int shifted, int addzp, const stage4 *s, int32x4_t zp, int16x8_t lo16, int16x8_t hi16, char *o,
    ptrdiff_t o_stride, ptrdiff_t valid) {
    /* The bias and stage constants are read from memory in each tile: `opaque` hides that the
     * pointers do not change, so the compiler does not hoist 16 constants out of the row loop
     * and then spill them and move them around the k loop (it did: 30 instructions a tile). */
#define OPAQUE(p) __asm__("" : "+r"(p))
#define START(cA, cB, cC, cD)                                                          \
    do {                                                                               \
        OPAQUE(bias);                                                                  \
        cA = vld1q_s32(bias); cB = vld1q_s32(bias + 4);                                \
        if (!half) { cC = vld1q_s32(bias + 8); cD = vld1q_s32(bias + 12); }            \
        else cC = cD = vdupq_n_s32(0);                                                 \
    } while (0)
    int32x4_t c00, c01, c02, c03, c10, c11, c12, c13, c20, c21, c22, c23, c30, c31, c32, c33;
    START(c00, c01, c02, c03); START(c10, c11, c12, c13); START(c20, c21, c22, c23); START(c30, c31, c32, c33);
#undef START
    const int16_t *a0 = a, *a1 = a + a_stride, *a2 = a + 2 * a_stride, *a3 = a + 3 * a_stride;
/* `L` is `lane` (x a d register of four activations) or `laneq` (a q register of eight). */
#define ROW(L, cA, cB, cC, cD, x, lane)                                                \
    do {                                                                               \
        cA = vmlal_##L##_s16(cA, vget_low_s16(wl), x, lane);                           \
        cB = vmlal_high_##L##_s16(cB, wl, x, lane);                                    \
        if (!half) {                                                                   \
            cC = vmlal_##L##_s16(cC, vget_low_s16(wh), x, lane);                       \
            cD = vmlal_high_##L##_s16(cD, wh, x, lane);                                \
        }                                                                              \
    } while (0)
#define STEP(L, wk, lane)                                                              \
    do {                                                                               \
        int16x8_t wl = vld1q_s16(wk), wh = half ? wl : vld1q_s16(wk + 8);              \
        ROW(L, c00, c01, c02, c03, x0, lane);                                          \
        ROW(L, c10, c11, c12, c13, x1, lane);                                          \
        ROW(L, c20, c21, c22, c23, x2, lane);                                          \
        ROW(L, c30, c31, c32, c33, x3, lane);                                          \
    } while (0)
    ptrdiff_t k = 0;
    /* Eight k at a time: each row's eight activations in one q register (`smlal` by lane 0...7),
     * half the activation loads and loop steps of the four-k step below. */
    for (; k + 8 <= depth; k += 8) {
        int16x8_t x0 = vld1q_s16(a0 + k), x1 = vld1q_s16(a1 + k), x2 = vld1q_s16(a2 + k), x3 = vld1q_s16(a3 + k);
        const int16_t *wk = w + k * 16;
        STEP(laneq, wk, 0); STEP(laneq, wk + 16, 1); STEP(laneq, wk + 32, 2); STEP(laneq, wk + 48, 3);
        STEP(laneq, wk + 64, 4); STEP(laneq, wk + 80, 5); STEP(laneq, wk + 96, 6); STEP(laneq, wk + 112, 7);
    }
    for (; k + 4 <= depth; k += 4) {
        int16x4_t x0 = vld1_s16(a0 + k), x1 = vld1_s16(a1 + k), x2 = vld1_s16(a2 + k), x3 = vld1_s16(a3 + k);
        const int16_t *wk = w + k * 16;
        STEP(lane, wk, 0); STEP(lane, wk + 16, 1); STEP(lane, wk + 32, 2); STEP(lane, wk + 48, 3);
    }
    for (; k < depth; k++) {
        int16x4_t x0 = vld1_dup_s16(a0 + k), x1 = vld1_dup_s16(a1 + k), x2 = vld1_dup_s16(a2 + k),
                  x3 = vld1_dup_s16(a3 + k);
        STEP(lane, w + k * 16, 0);
    }
#undef STEP
#undef ROW
    OPAQUE(s);
#undef OPAQUE
    /* The four rows through the output stage (out_row16's operations) group by group, each
     * group's constants loaded once for the four rows rather than once per row. */
#define SCALE_GROUP(j, cA, cB, cC, cD)                                                               \
    do {                                                                                             \
        int32x4x2_t mr_ = vld1q_s32_x2((const int32_t *)(const void *)&s[j].multiplier);            \
        if (shifted) {                                                                               \
            int32x4_t left_ = s[j].left;                                                             \
            cA = vshlq_s32(cA, left_); cB = vshlq_s32(cB, left_);                                    \
            cC = vshlq_s32(cC, left_); cD = vshlq_s32(cD, left_);                                    \
        }                                                                                            \
        cA = vqrdmulhq_s32(cA, mr_.val[0]); cB = vqrdmulhq_s32(cB, mr_.val[0]);                      \
        cC = vqrdmulhq_s32(cC, mr_.val[0]); cD = vqrdmulhq_s32(cD, mr_.val[0]);                      \
        cA = vrshlq_s32(fixup_by(cA, mr_.val[1], shifted), mr_.val[1]);                              \
        cB = vrshlq_s32(fixup_by(cB, mr_.val[1], shifted), mr_.val[1]);                              \
        cC = vrshlq_s32(fixup_by(cC, mr_.val[1], shifted), mr_.val[1]);                              \
        cD = vrshlq_s32(fixup_by(cD, mr_.val[1], shifted), mr_.val[1]);                              \
        if (addzp) { cA = vaddq_s32(cA, zp); cB = vaddq_s32(cB, zp); cC = vaddq_s32(cC, zp); cD = vaddq_s32(cD, zp); } \
    } while (0)
    SCALE_GROUP(0, c00, c10, c20, c30);
    SCALE_GROUP(1, c01, c11, c21, c31);
    if (!half) {
        SCALE_GROUP(2, c02, c12, c22, c32);
        SCALE_GROUP(3, c03, c13, c23, c33);
    }
#undef SCALE_GROUP
    store_scaled16(kind, half, c00, c01, c02, c03, lo16, hi16, o, valid);
    store_scaled16(kind, half, c10, c11, c12, c13, lo16, hi16, o + o_stride, valid);
    store_scaled16(kind, half, c20, c21, c22, c23, lo16, hi16, o + 2 * o_stride, valid);
    store_scaled16(kind, half, c30, c31, c32, c33, lo16, hi16, o + 3 * o_stride, valid);
}

/* The rows of one block in 4-row tiles (`tile4_out`), for int8/int16 output; returns the rows
 * done (a multiple of 4). The flags become constants in each of the eight copies. */
static inline __attribute__((always_inline)) ptrdiff_t rows4_out(
    const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth, const int16_t *w, const int32_t *bias,
    int kind, int half, const stage4 *s, int32x4_t zp, int32x4_t lo, int32x4_t hi, char *o, ptrdiff_t o_stride,
    ptrdiff_t valid, int32_t zero_point) {
    int16x8_t lo16 = vcombine_s16(vmovn_s32(lo), vmovn_s32(lo)), hi16 = vcombine_s16(vmovn_s32(hi), vmovn_s32(hi));
    int shifted = general_stage16(s), addzp = zero_point != 0;
    ptrdiff_t r = 0;
#define RUN(SH, ZP)                                                                                        \
    for (; r + 4 <= rows; r += 4)                                                                           \
        tile4_out(a + r * a_stride, a_stride, depth, w, bias, kind, half, SH, ZP, s, zp, lo16, hi16,         \
                  o + r * o_stride, o_stride, valid)
    if (shifted) { if (addzp) RUN(1, 1); else RUN(1, 0); }
    else { if (addzp) RUN(0, 1); else RUN(0, 0); }
#undef RUN
    return r;
}

/* All rows of one block, tiles of 4 rows then 1; `kind` and `R` are constants after inlining. Int8 and
 * int16 output take their 4-row tiles through `rows4_out`; raw int32 through `tile`. */
static inline __attribute__((always_inline)) void gemm_block(
    const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth, const int16_t *w, ptrdiff_t n0,
    ptrdiff_t valid, const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int kind) {
    size_t esize = kind == BOOTH_OUT_INT8 ? 1 : kind == BOOTH_OUT_INT16 ? 2 : 4;
    char *o = (char *)out + (size_t)n0 * esize;
    int32x4_t start[4];
    stage4 s[4];
    stage_constants(stage, NULL, 0, n0, 4, kind, start, s);
    int32x4_t zp, lo, hi;
    clamp_constants(stage, kind, &zp, &lo, &hi);
    ptrdiff_t r = 0;
    int32x4_t c[4][4];
    if (kind != BOOTH_OUT_INT32)
        r = valid <= 8 ? rows4_out(a, rows, a_stride, depth, w, stage->bias + n0, kind, 1, s, zp, lo, hi, o,
                                   out_stride * (ptrdiff_t)esize, valid, stage->zero_point)
                       : rows4_out(a, rows, a_stride, depth, w, stage->bias + n0, kind, 0, s, zp, lo, hi, o,
                                   out_stride * (ptrdiff_t)esize, valid, stage->zero_point);
    if (valid <= 8) {
        /* A last block of 8 or fewer channels: half the products (channels 8...15 unused). */
        for (; kind == BOOTH_OUT_INT32 && r + 4 <= rows; r += 4) {
            tile(a + r * a_stride, a_stride, depth, w, 4, 1, start, c);
            for (int i = 0; i < 4; i++) finish_row16(kind, c[i], s, zp, lo, hi, o + (size_t)((r + i) * out_stride) * esize, valid);
        }
        for (; r < rows; r++) {
            tile(a + r * a_stride, a_stride, depth, w, 1, 1, start, c);
            finish_row16(kind, c[0], s, zp, lo, hi, o + (size_t)(r * out_stride) * esize, valid);
        }
        return;
    }
    for (; kind == BOOTH_OUT_INT32 && r + 4 <= rows; r += 4) {
        tile(a + r * a_stride, a_stride, depth, w, 4, 0, start, c);
        for (int i = 0; i < 4; i++) finish_row16(kind, c[i], s, zp, lo, hi, o + (size_t)((r + i) * out_stride) * esize, valid);
    }
    for (; r < rows; r++) {
        tile(a + r * a_stride, a_stride, depth, w, 1, 0, start, c);
        finish_row16(kind, c[0], s, zp, lo, hi, o + (size_t)(r * out_stride) * esize, valid);
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

/* What both int8-activation GEMMs (`smlal`, `sdot`) set up once per call: the output element
 * size, the depth rounded up to the 16-byte step of their packings, and the clamp constants. */
typedef struct {
    size_t esize;
    ptrdiff_t k16;
    int32x4_t zp, lo, hi;
    int32_t zp_scalar;
} gemm8_call;

static inline __attribute__((always_inline)) gemm8_call gemm8_begin(const booth_output_stage *stage, ptrdiff_t depth,
                                                                    int kind) {
    gemm8_call c;
    c.esize = kind == BOOTH_OUT_INT8 ? 1 : kind == BOOTH_OUT_INT16 ? 2 : 4;
    c.k16 = (depth + 15) / 16 * 16;
    clamp_constants(stage, kind, &c.zp, &c.lo, &c.hi);
    c.zp_scalar = kind == BOOTH_OUT_INT32 ? 0 : stage->zero_point;
    return c;
}

/* One block of 4·G channels from n0 (a packing of blocks of that width, `k_stride` filter bytes
 * per channel): how many are real, the block's packed filters, its first output column, and its accumulator starts and stage constants. */
typedef struct {
    ptrdiff_t valid;
    const int8_t *w;
    char *out;
} gemm8_block;

static inline __attribute__((always_inline)) gemm8_block gemm8_block_begin(
    const gemm8_call *call, const booth_output_stage *stage, const int8_t *w, ptrdiff_t k_stride, ptrdiff_t channels,
    const int32_t *row_sums, int32_t zero_point, ptrdiff_t n0, int G, int kind, void *out, int32x4_t *start, stage4 *s) {
    gemm8_block b;
    b.valid = channels - n0 < 4 * G ? channels - n0 : 4 * G;
    b.w = w + n0 * k_stride;
    b.out = (char *)out + (size_t)n0 * call->esize;
    stage_constants(stage, row_sums, zero_point, n0, G, kind, start, s);
    return b;
}

/* The public entry points' switch over the output kind: `impl(args..., kind)` inlined once per
 * kind, so `kind` is a constant inside. */
#define BOOTH_BY_OUT_KIND(out_kind, impl, ...)                                                  \
    do {                                                                                        \
        switch (out_kind) {                                                                     \
        case BOOTH_OUT_INT8: impl(__VA_ARGS__, BOOTH_OUT_INT8); break;                          \
        case BOOTH_OUT_INT16: impl(__VA_ARGS__, BOOTH_OUT_INT16); break;                        \
        default: impl(__VA_ARGS__, BOOTH_OUT_INT32); break;                                     \
        }                                                                                       \
    } while (0)

/* Four channel groups of one k-quad for `R` rows (1...4), the activations of row r in x[r]
 * (16 bytes, the quad being its pairs 2·q and 2·q + 1): each 16-byte filter register g holds
 * pair 2q of channels 4g...4g+3 in its low half and pair 2q+1 in its high half; `dup` spreads
 * each activation pair over four int16 lanes, `smull` + `smlal2` leave in int16 lane 2i + j
 * channel 4g+i's two products of k = 4q+j and 4q+2+j (|x·w| ≤ 128·127: the pair fits), and
 * `sadalp` adds each lane pair into channel 4g+i's int32 lane. No reduction is left for the end. */
#define PAIR_ROW(r, xr, q)                                                                        \
    do {                                                                                          \
        int16x8_t xs = vreinterpretq_s16_s8(xr);                                                  \
        int8x8_t lo = vreinterpret_s8_s16(vdup_laneq_s16(xs, 2 * (q)));                           \
        int8x16_t hi = vreinterpretq_s8_s16(vdupq_laneq_s16(xs, 2 * (q) + 1));                    \
        c[r][0] = vpadalq_s16(c[r][0], vmlal_high_s8(vmull_s8(vget_low_s8(w0), lo), w0, hi));     \
        if (G > 1) c[r][1] = vpadalq_s16(c[r][1], vmlal_high_s8(vmull_s8(vget_low_s8(w1), lo), w1, hi)); \
        if (G > 2) {                                                                              \
            c[r][2] = vpadalq_s16(c[r][2], vmlal_high_s8(vmull_s8(vget_low_s8(w2), lo), w2, hi)); \
            c[r][3] = vpadalq_s16(c[r][3], vmlal_high_s8(vmull_s8(vget_low_s8(w3), lo), w3, hi)); \
        }                                                                                         \
    } while (0)
/* Keeps the activation rows in vector registers: without it GCC 12 reloads each pair from
 * memory (`ldrsh` + `dup` from a general register: two instructions for one `dup` by lane). */
#define PAIR_KEEP(x0, x1, x2, x3) __asm__("" : "+w"(x0), "+w"(x1), "+w"(x2), "+w"(x3))
/* The R rows' sixteen activations at k (x0...x3, x0 standing in for absent rows) and the
 * filters of this k (`wk`). */
#define PAIR_ROWS()                                                                               \
    int8x16_t x0 = vld1q_s8(a + k);                                                               \
    int8x16_t x1 = R > 1 ? vld1q_s8(a + as + k) : x0;                                             \
    int8x16_t x2 = R > 2 ? vld1q_s8(a + 2 * as + k) : x0;                                         \
    int8x16_t x3 = R > 3 ? vld1q_s8(a + 3 * as + k) : x0;                                         \
    PAIR_KEEP(x0, x1, x2, x3);                                                                    \
    const int8_t *wk = w + k * 16
#define PAIR_QUAD(q)                                                                              \
    do {                                                                                          \
        int8x16_t w0 = vld1q_s8(wk + 64 * (q)), w1 = G > 1 ? vld1q_s8(wk + 64 * (q) + 16) : w0;    \
        int8x16_t w2 = G > 2 ? vld1q_s8(wk + 64 * (q) + 32) : w0;                                 \
        int8x16_t w3 = G > 2 ? vld1q_s8(wk + 64 * (q) + 48) : w0;                                 \
        PAIR_ROW(0, x0, q);                                                                       \
        if (R > 1) PAIR_ROW(1, x1, q);                                                            \
        if (R > 2) PAIR_ROW(2, x2, q);                                                            \
        if (R > 3) PAIR_ROW(3, x3, q);                                                            \
    } while (0)
/* The whole depth `k4` into `c`: sixteen k per activation load, then the last one to three quads. */
#define PAIR_DEPTH()                                                                              \
    do {                                                                                          \
        ptrdiff_t k = 0;                                                                          \
        for (; k + 16 <= k4; k += 16) {                                                           \
            PAIR_ROWS();                                                                          \
            PAIR_QUAD(0); PAIR_QUAD(1); PAIR_QUAD(2); PAIR_QUAD(3);                               \
        }                                                                                         \
        ptrdiff_t quads = (k4 - k) / 4;                                                           \
        if (quads > 0) {                                                                          \
            PAIR_ROWS();                                                                          \
            PAIR_QUAD(0);                                                                         \
            if (quads > 1) PAIR_QUAD(1);                                                          \
            if (quads > 2) PAIR_QUAD(2);                                                          \
        }                                                                                         \
    } while (0)

/* `R` rows (1...4) × 16 channels of one block over `k4` (the depth rounded up to 4), of which
 * the first `G` (1, 2 or 4) groups of four are computed (a last block of at most 4 or 8 valid
 * channels; the others keep `start`), the accumulators starting at `start`: sixteen k per activation load, then the last one to three
 * quads (rows are readable to the depth rounded up to 16; filters past the depth are zero). */
static inline __attribute__((always_inline)) void pair_tile(
    const int8_t *a, ptrdiff_t as, ptrdiff_t k4, const int8_t *w, int R, int G, const int32x4_t start[4],
    int32x4_t c[4][4]) {
    for (int r = 0; r < 4; r++)
        for (int j = 0; j < 4; j++) c[r][j] = start[j];
    PAIR_DEPTH();
}

/* Four rows × 16 channels (8 with G = 2) of one block from accumulator start to stored int8 /
 * int16 output, the accumulators local to the tile (so in registers: `pair_tile`'s caller-owned
 * array was copied in from `start` through the stack, spilled and reloaded for the output stage),
 * the start and stage constants read from memory in each tile (`OPAQUE`, as `tile4_out`), the
 * output stage by `out_row16` (the same values as `finish_row16`). */
static inline __attribute__((always_inline)) void pair_tile4_out(
    const int8_t *a, ptrdiff_t as, ptrdiff_t k4, const int8_t *w, int G, const int32x4_t *start, const stage4 *s,
    int shifted, int addzp, int kind, int32x4_t zp, int16x8_t lo16, int16x8_t hi16, char *o, ptrdiff_t o_stride,
    ptrdiff_t valid) {
#define OPAQUE(p) __asm__("" : "+r"(p))
    const int R = 4;
    int32x4_t c[4][4];
#pragma GCC unroll 4
    for (int r = 0; r < 4; r++) {
        const int32x4_t *st = start;
        OPAQUE(st);
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) c[r][j] = j < G ? st[j] : vdupq_n_s32(0);
    }
    PAIR_DEPTH();
    OPAQUE(s);
#undef OPAQUE
#pragma GCC unroll 4
    for (int r = 0; r < 4; r++)
        out_row16(kind, G == 2, shifted, addzp, c[r][0], c[r][1], c[r][2], c[r][3], s, zp, lo16, hi16, o + r * o_stride,
                  valid);
}

/* The 4-row tiles of one block through `pair_tile4_out` (int8/int16 output, G 2 or 4); returns the
 * rows done. The flags become constants in each of the four copies. */
static inline __attribute__((always_inline)) ptrdiff_t mlal_rows4_out(
    const int8_t *a, ptrdiff_t rows, ptrdiff_t as, ptrdiff_t k4, gemm8_block b, int G, const int32x4_t start[4],
    const stage4 s[4], const gemm8_call *call, ptrdiff_t os, int kind, int32_t zero_point) {
    int16x8_t lo16 = vcombine_s16(vmovn_s32(call->lo), vmovn_s32(call->lo));
    int16x8_t hi16 = vcombine_s16(vmovn_s32(call->hi), vmovn_s32(call->hi));
    int shifted = general_stage16(s), addzp = zero_point != 0;
    ptrdiff_t ob = os * (ptrdiff_t)call->esize, r = 0;
#define RUN(SH, ZP)                                                                                          \
    for (; r + 4 <= rows; r += 4)                                                                             \
        pair_tile4_out(a + r * as, as, k4, b.w, G, start, s, SH, ZP, kind, call->zp, lo16, hi16, b.out + r * ob, ob, \
                       b.valid)
    if (shifted) { if (addzp) RUN(1, 1); else RUN(1, 0); }
    else { if (addzp) RUN(0, 1); else RUN(0, 0); }
#undef RUN
    return r;
}

/* Every row of one block, tiles of 4 rows then the last 1...3, `G` groups of four channels. */
static inline __attribute__((always_inline)) void mlal_rows(
    const int8_t *a, ptrdiff_t rows, ptrdiff_t as, ptrdiff_t k4, gemm8_block b, int G, const int32x4_t start[4],
    const stage4 s[4], const gemm8_call *call, ptrdiff_t os, int kind) {
    int32x4_t c[4][4];
    ptrdiff_t r = 0;
    if (kind != BOOTH_OUT_INT32 && G > 1)
        r = mlal_rows4_out(a, rows, as, k4, b, G, start, s, call, os, kind, call->zp_scalar);
    for (; r + 4 <= rows; r += 4) {
        pair_tile(a + r * as, as, k4, b.w, 4, G, start, c);
        for (int i = 0; i < 4; i++)
            finish_row16(kind, c[i], s, call->zp, call->lo, call->hi, b.out + (size_t)((r + i) * os) * call->esize, b.valid);
    }
    ptrdiff_t left = rows - r;
    if (left == 3) pair_tile(a + r * as, as, k4, b.w, 3, G, start, c);
    else if (left == 2) pair_tile(a + r * as, as, k4, b.w, 2, G, start, c);
    else if (left == 1) pair_tile(a + r * as, as, k4, b.w, 1, G, start, c);
    for (int i = 0; i < left; i++)
        finish_row16(kind, c[i], s, call->zp, call->lo, call->hi, b.out + (size_t)((r + i) * os) * call->esize, b.valid);
}

static inline __attribute__((always_inline)) void gemm_s8_mlal(
    const int8_t *a, ptrdiff_t rows, ptrdiff_t as, ptrdiff_t depth, const int8_t *w, ptrdiff_t channels,
    const int32_t *row_sums, int32_t zero_point, const booth_output_stage *stage, void *out, ptrdiff_t os, int kind) {
    gemm8_call call = gemm8_begin(stage, depth, kind);
    ptrdiff_t k4 = (depth + 3) / 4 * 4;
    for (ptrdiff_t n0 = 0; n0 < channels; n0 += 16) {
        int32x4_t start[4];
        stage4 s[4];
        gemm8_block b = gemm8_block_begin(&call, stage, w, k4, channels, row_sums, zero_point, n0, 4, kind, out, start, s);
        if (b.valid <= 4) mlal_rows(a, rows, as, k4, b, 1, start, s, &call, os, kind);
        else if (b.valid <= 8) mlal_rows(a, rows, as, k4, b, 2, start, s, &call, os, kind);
        else mlal_rows(a, rows, as, k4, b, 4, start, s, &call, os, kind);
    }
}

void booth_gemm_s8_mlal(const int8_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth, const int8_t *w,
                        ptrdiff_t channels, const int32_t *row_sums, int32_t zero_point,
                        const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int out_kind) {
    BOOTH_BY_OUT_KIND(out_kind, gemm_s8_mlal, a, rows, a_stride, depth, w, channels, row_sums, zero_point, stage, out,
                      out_stride);
}

#define BOOTH_DOTPROD __attribute__((target("arch=armv8.2-a+dotprod")))

/* `R` rows (1...4) × 4·G channels (G 2 or 4: a last block of at most 8 valid channels computes
 * half) of one block from accumulator start to stored output, `sdot` by element: full chunks of 16
 * k (four lanes of each row's 16 bytes), then the last one to three quads of `k4` (the depth
 * rounded up to 4; rows are readable to the depth rounded up to 16, filters past the depth are
 * zero). The accumulators are local to the tile, so in named registers (the caller-owned array
 * of the first version was copied in from `start` through the stack and spilled inside the k
 * loop); the start and stage constants are read from memory in each tile (`OPAQUE`, as
 * `pair_tile4_out`); then each row through `out_row16`, or stored raw for BOOTH_OUT_INT32. */
static inline __attribute__((always_inline)) BOOTH_DOTPROD void dot_tile_out(
    const int8_t *a, ptrdiff_t as, ptrdiff_t k4, const int8_t *w, int R, int G, const int32x4_t *start,
    const stage4 *s, int shifted, int addzp, int kind, int32x4_t zp, int16x8_t lo16, int16x8_t hi16, char *o,
    ptrdiff_t o_stride, ptrdiff_t valid) {
#define OPAQUE(p) __asm__("" : "+r"(p))
    int32x4_t c[4][4];
#pragma GCC unroll 4
    for (int r = 0; r < R; r++) {
        const int32x4_t *st = start;
        OPAQUE(st);
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) c[r][j] = j < G ? st[j] : vdupq_n_s32(0);
    }
#define DOT_ROW(r, xr, q)                                                                          \
    do {                                                                                           \
        c[r][0] = vdotq_laneq_s32(c[r][0], w0, xr, q); c[r][1] = vdotq_laneq_s32(c[r][1], w1, xr, q); \
        if (G > 2) { c[r][2] = vdotq_laneq_s32(c[r][2], w2, xr, q); c[r][3] = vdotq_laneq_s32(c[r][3], w3, xr, q); } \
    } while (0)
#define DOT_QUAD(q)                                                                                \
    do {                                                                                           \
        int8x16_t w0 = vld1q_s8(w + 64 * (q)), w1 = vld1q_s8(w + 64 * (q) + 16);                   \
        int8x16_t w2 = G > 2 ? vld1q_s8(w + 64 * (q) + 32) : w0, w3 = G > 2 ? vld1q_s8(w + 64 * (q) + 48) : w0; \
        DOT_ROW(0, x0, q);                                                                         \
        if (R > 1) DOT_ROW(1, x1, q);                                                              \
        if (R > 2) DOT_ROW(2, x2, q);                                                              \
        if (R > 3) DOT_ROW(3, x3, q);                                                              \
    } while (0)
#define DOT_LOAD(k)                                                                                \
    int8x16_t x0 = vld1q_s8(a + (k));                                                              \
    int8x16_t x1 = R > 1 ? vld1q_s8(a + as + (k)) : x0;                                            \
    int8x16_t x2 = R > 2 ? vld1q_s8(a + 2 * as + (k)) : x0;                                        \
    int8x16_t x3 = R > 3 ? vld1q_s8(a + 3 * as + (k)) : x0
    ptrdiff_t k = 0;
    for (; k + 16 <= k4; k += 16, w += 256) {
        DOT_LOAD(k);
        DOT_QUAD(0); DOT_QUAD(1); DOT_QUAD(2); DOT_QUAD(3);
    }
    ptrdiff_t quads = (k4 - k) / 4;
    if (quads > 0) {
        DOT_LOAD(k);
        DOT_QUAD(0);
        if (quads > 1) DOT_QUAD(1);
        if (quads > 2) DOT_QUAD(2);
    }
#undef DOT_LOAD
#undef DOT_QUAD
#undef DOT_ROW
    OPAQUE(s);
#undef OPAQUE
#pragma GCC unroll 4
    for (int r = 0; r < R; r++) {
        if (kind == BOOTH_OUT_INT32) store16(kind, o + r * o_stride, c[r][0], c[r][1], c[r][2], c[r][3], valid);
        else out_row16(kind, G == 2, shifted, addzp, c[r][0], c[r][1], c[r][2], c[r][3], s, zp, lo16, hi16,
                       o + r * o_stride, valid);
    }
}

/* Every row of one block through `dot_tile_out`: 4-row tiles, then the last 1...3 rows. With
 * `flags` the stage's left shift and zero point are known to be used or not (`shifted`, `addzp`
 * constants in the copy); the other copies apply both (a shift by 0 and a zero point of 0 leave
 * the value as it is), so only the 4-row tiles of full blocks get the four variants. */
static inline __attribute__((always_inline)) BOOTH_DOTPROD void dot_rows(
    const int8_t *a, ptrdiff_t rows, ptrdiff_t as, ptrdiff_t k4, gemm8_block b, int G, const int32x4_t start[4],
    const stage4 s[4], const gemm8_call *call, ptrdiff_t os, int kind, int shifted, int addzp) {
    int16x8_t lo16 = vcombine_s16(vmovn_s32(call->lo), vmovn_s32(call->lo));
    int16x8_t hi16 = vcombine_s16(vmovn_s32(call->hi), vmovn_s32(call->hi));
    ptrdiff_t ob = os * (ptrdiff_t)call->esize, r = 0;
#define TILE(RR, SH, ZP) \
    dot_tile_out(a + r * as, as, k4, b.w, RR, G, start, s, SH, ZP, kind, call->zp, lo16, hi16, b.out + r * ob, ob, b.valid)
    for (; r + 4 <= rows; r += 4) TILE(4, shifted, addzp);
    ptrdiff_t left = rows - r;
    if (left == 3) TILE(3, 1, 1);
    else if (left == 2) TILE(2, 1, 1);
    else if (left == 1) TILE(1, 1, 1);
#undef TILE
}

static inline __attribute__((always_inline)) BOOTH_DOTPROD void gemm_s8_dot(
    const int8_t *a, ptrdiff_t rows, ptrdiff_t as, ptrdiff_t depth, const int8_t *w, ptrdiff_t channels,
    const int32_t *row_sums, int32_t zero_point, const booth_output_stage *stage, void *out, ptrdiff_t os, int kind) {
    gemm8_call call = gemm8_begin(stage, depth, kind);
    ptrdiff_t k4 = (depth + 3) / 4 * 4;
    int addzp = kind != BOOTH_OUT_INT32 && call.zp_scalar != 0;
    for (ptrdiff_t n0 = 0; n0 < channels; n0 += 16) {
        int32x4_t start[4];
        stage4 s[4];
        gemm8_block b = gemm8_block_begin(&call, stage, w, call.k16, channels, row_sums, zero_point, n0, 4, kind, out, start, s);
        int shifted = kind != BOOTH_OUT_INT32 && general_stage16(s);
#define ROWS(GG, SH, ZP) dot_rows(a, rows, as, k4, b, GG, start, s, &call, os, kind, SH, ZP)
        if (b.valid <= 8) ROWS(2, 1, 1);
        else if (kind == BOOTH_OUT_INT32) ROWS(4, 0, 0);
        else if (shifted) { if (addzp) ROWS(4, 1, 1); else ROWS(4, 1, 0); }
        else { if (addzp) ROWS(4, 0, 1); else ROWS(4, 0, 0); }
#undef ROWS
    }
}

BOOTH_DOTPROD void booth_gemm_s8_dot(const int8_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth,
                                     const int8_t *w, ptrdiff_t channels, const int32_t *row_sums, int32_t zero_point,
                                     const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int out_kind) {
    BOOTH_BY_OUT_KIND(out_kind, gemm_s8_dot, a, rows, a_stride, depth, w, channels, row_sums, zero_point, stage, out,
                      out_stride);
}

/* Sixteen channels of `x` as two int16x8 (int8 sign-extended). */
static inline void load16_s8(const int8_t *p, int16x8_t *lo, int16x8_t *hi) {
    int8x16_t v = vld1q_s8(p);
    *lo = vmovl_s8(vget_low_s8(v));
    *hi = vmovl_high_s8(v);
}

static inline void load16_s16(const int16_t *p, int16x8_t *lo, int16x8_t *hi) {
    *lo = vld1q_s16(p);
    *hi = vld1q_s16(p + 8);
}

/* The depthwise interior for one activation width; K (3 or 5, or 0 for any `k`) is a constant
 * after inlining. Channel groups outside, pixels inside: the group's stage constants and
 * accumulator start stay in registers across the row. */
#define DEPTHWISE_BODY(T, LOAD, K)                                                              \
    do {                                                                                        \
        const int kk = (K) ? (K) : k;                                                           \
        int32x4_t zp = vdupq_n_s32(stage->zero_point), lo = vdupq_n_s32(stage->minimum),        \
                  hi = vdupq_n_s32(stage->maximum), izp = vdupq_n_s32(zero_point);              \
        for (ptrdiff_t ch = 0; ch < channels; ch += 16) {                                       \
            ptrdiff_t cc = ch < channels - 16 ? ch : channels - 16;                             \
            int32x4_t start[4];                                                                 \
            stage4 s[4];                                                                        \
            depthwise_group16(stage, tap_sums, izp, cc, start, s);                              \
            const T *p = origin + cc;                                                           \
            T *o = out + cc;                                                                    \
            const int16_t *wc = w + cc;                                                         \
            for (ptrdiff_t px = 0; px < pixels; px++) {                                         \
                int32x4_t c0 = start[0], c1 = start[1], c2 = start[2], c3 = start[3];           \
                _Pragma("GCC unroll 5")                                                         \
                for (int ky = 0; ky < kk; ky++) {                                               \
                    const T *row = p + ky * row_stride;                                         \
                    const int16_t *wr = wc + (ptrdiff_t)(ky * kk) * tap_stride;                 \
                    _Pragma("GCC unroll 5")                                                     \
                    for (int kx = 0; kx < kk; kx++) {                                           \
                        int16x8_t xl, xh;                                                       \
                        LOAD(row + kx * channels, &xl, &xh);                                    \
                        int16x8_t wl = vld1q_s16(wr + kx * tap_stride);                         \
                        int16x8_t wh = vld1q_s16(wr + kx * tap_stride + 8);                     \
                        c0 = vmlal_s16(c0, vget_low_s16(xl), vget_low_s16(wl));                 \
                        c1 = vmlal_high_s16(c1, xl, wl);                                        \
                        c2 = vmlal_s16(c2, vget_low_s16(xh), vget_low_s16(wh));                 \
                        c3 = vmlal_high_s16(c3, xh, wh);                                        \
                    }                                                                           \
                }                                                                               \
                requantize_store16(sizeof(T) == 1 ? BOOTH_OUT_INT8 : BOOTH_OUT_INT16, c0, c1, c2, c3, s, 1, zp, lo, \
                                   hi, o, 16);                                                  \
                p += step;                                                                      \
                o += channels;                                                                  \
            }                                                                                   \
        }                                                                                       \
    } while (0)

/* Eight channels of a 3×3 depthwise interior row (`wide`: int16 activations, else int8): the
 * nine taps' filters (9 registers), the accumulator start and the stage constants stay in
 * registers across the row, 21 in all, so nothing is reloaded per pixel (16 channels at a time
 * need 18 filter registers and spilled). Per pixel: nine loads, 18 `smlal`, the output stage
 * without the `sshl` by 0 and the zero point 0 (the same values as `requantize_store16`). */
static inline __attribute__((always_inline)) void dw3_half(
    int wide, int shifted, int addzp, const void *origin, ptrdiff_t row_stride, ptrdiff_t step, ptrdiff_t pixels,
    ptrdiff_t channels, const int16_t *wc, ptrdiff_t tap_stride, int32x4_t start0, int32x4_t start1, stage4 s0,
    stage4 s1, int32x4_t zp, int16x8_t lo16, int16x8_t hi16, void *out) {
    int16x8_t wv[9];
#pragma GCC unroll 9
    for (int t = 0; t < 9; t++) wv[t] = vld1q_s16(wc + t * tap_stride);
    size_t esize = wide ? 2 : 1;
    const char *p = (const char *)origin;
    char *o = (char *)out;
    for (ptrdiff_t px = 0; px < pixels; px++) {
        int32x4_t c0 = start0, c1 = start1;
#pragma GCC unroll 3
        for (int ky = 0; ky < 3; ky++) {
#pragma GCC unroll 3
            for (int kx = 0; kx < 3; kx++) {
                const char *x = p + (size_t)(ky * row_stride + kx * channels) * esize;
                int16x8_t xv = wide ? vld1q_s16((const int16_t *)(const void *)x) : vmovl_s8(vld1_s8((const int8_t *)x));
                int t = ky * 3 + kx;
                c0 = vmlal_s16(c0, vget_low_s16(xv), vget_low_s16(wv[t]));
                c1 = vmlal_high_s16(c1, xv, wv[t]);
            }
        }
        int16x8_t h = vqmovn_high_s32(vqmovn_s32(DW_SCALE(c0, s0)), DW_SCALE(c1, s1));
        if (wide) vst1q_s16((int16_t *)(void *)o, vminq_s16(vmaxq_s16(h, lo16), hi16));
        else vst1_s8((int8_t *)o, vmin_s8(vmax_s8(vqmovn_s16(h), vmovn_s16(lo16)), vmovn_s16(hi16)));
        p += (size_t)step * esize;
        o += (size_t)channels * esize;
    }
}

/* All 16-channel groups of a 3×3 depthwise interior row, each as two halves through `dw3_half`,
 * its flags constant in each of four copies. (The last group overlaps the one before it when the
 * channels are not a multiple of 16, as in DEPTHWISE_BODY.) */
static inline __attribute__((always_inline)) void dw3_row(
    int wide, const void *origin, ptrdiff_t row_stride, ptrdiff_t step, ptrdiff_t pixels, ptrdiff_t channels,
    const int16_t *w, ptrdiff_t tap_stride, const int32_t *tap_sums, int32_t zero_point,
    const booth_output_stage *stage, void *out) {
    size_t esize = wide ? 2 : 1;
    int32x4_t zp = vdupq_n_s32(stage->zero_point), izp = vdupq_n_s32(zero_point);
    int16x8_t lo16 = vdupq_n_s16((int16_t)stage->minimum), hi16 = vdupq_n_s16((int16_t)stage->maximum);
    int addzp = stage->zero_point != 0;
    for (ptrdiff_t ch = 0; ch < channels; ch += 16) {
        ptrdiff_t cc = ch < channels - 16 ? ch : channels - 16;
        int32x4_t start[4];
        stage4 s[4];
        depthwise_group16(stage, tap_sums, izp, cc, start, s);
        const char *p = (const char *)origin + (size_t)cc * esize;
        char *o = (char *)out + (size_t)cc * esize;
        const int16_t *wc = w + cc;
        int shifted = general_stage16(s);
        for (int h = 0; h < 2; h++) {
            const char *ph = p + (size_t)(8 * h) * esize;
            char *oh = o + (size_t)(8 * h) * esize;
#define DW3(SH, ZP)                                                                                     \
            dw3_half(wide, SH, ZP, ph, row_stride, step, pixels, channels, wc + 8 * h, tap_stride, start[2 * h], \
                     start[2 * h + 1], s[2 * h], s[2 * h + 1], zp, lo16, hi16, oh)
            if (shifted) { if (addzp) DW3(1, 1); else DW3(1, 0); }
            else { if (addzp) DW3(0, 1); else DW3(0, 0); }
#undef DW3
        }
    }
}

/* Border pixels ox0 ..< ox1 of one output row: each pixel's taps clipped to the input (rows
 * ky0 ..< ky1 of the window, columns by the pixel), acc = bias + Σ x·w − zp·Σ w over those taps
 * (`smlal` then `smlsl` by the zero point: the reference's Σ (x − zp)·w in wrapping int32), then
 * the output stage. Here for one 16-channel group (from `cc`; `wide`: int16 activations), its
 * stage constants set up once for the run of pixels (they were loaded per pixel), the output
 * stage by `out_row16` (no `sshl` by 0, no zero point 0; the same values). */
static inline __attribute__((always_inline)) void border_group(
    int wide, int shifted, int addzp, int centred, const void *input, ptrdiff_t input_width, ptrdiff_t channels, ptrdiff_t k,
    ptrdiff_t stride, ptrdiff_t pad_left, ptrdiff_t iy0, ptrdiff_t ky0, ptrdiff_t ky1, ptrdiff_t ox0, ptrdiff_t ox1,
    const int16_t *w, ptrdiff_t tap_stride, int16_t izp, const int32x4_t *bias, const stage4 *s, int32x4_t zp,
    int16x8_t lo16, int16x8_t hi16, void *out_row, ptrdiff_t cc) {
    size_t esize = wide ? 2 : 1;
    for (ptrdiff_t ox = ox0; ox < ox1; ox++) {
        ptrdiff_t ix0 = ox * stride - pad_left;
        ptrdiff_t kx0 = ix0 < 0 ? -ix0 : 0;
        ptrdiff_t kx1 = input_width - ix0 < k ? input_width - ix0 : k;
        int32x4_t c0 = bias[0], c1 = bias[1], c2 = bias[2], c3 = bias[3];
        for (ptrdiff_t ky = ky0; ky < ky1; ky++) {
            for (ptrdiff_t kx = kx0; kx < kx1; kx++) {
                int16x8_t xl, xh;
                size_t at = (size_t)(((iy0 + ky) * input_width + ix0 + kx) * channels + cc);
                if (wide) load16_s16((const int16_t *)input + at, &xl, &xh);
                else load16_s8((const int8_t *)input + at, &xl, &xh);
                const int16_t *wt = w + (ky * k + kx) * tap_stride + cc;
                int16x8_t wl = vld1q_s16(wt), wh = vld1q_s16(wt + 8);
                c0 = vmlal_s16(c0, vget_low_s16(xl), vget_low_s16(wl));
                c1 = vmlal_high_s16(c1, xl, wl);
                c2 = vmlal_s16(c2, vget_low_s16(xh), vget_low_s16(wh));
                c3 = vmlal_high_s16(c3, xh, wh);
                if (!centred) {
                    c0 = vmlsl_n_s16(c0, vget_low_s16(wl), izp);
                    c1 = vmlsl_high_n_s16(c1, wl, izp);
                    c2 = vmlsl_n_s16(c2, vget_low_s16(wh), izp);
                    c3 = vmlsl_high_n_s16(c3, wh, izp);
                }
            }
        }
        out_row16(wide ? BOOTH_OUT_INT16 : BOOTH_OUT_INT8, 0, shifted, addzp, c0, c1, c2, c3, s, zp, lo16, hi16,
                  (char *)out_row + (size_t)(ox * channels + cc) * esize, 16);
    }
}

/* Border pixels ox0 ..< ox1 of one output row, channel groups outside (each group's constants
 * once), pixels inside (`border_group`); the flags constant in each of four copies, and for
 * int16 activations with zero point 0 (symmetric, as int16 paths are) four more without the
 * `smlsl` by the zero point (a third of the tap instructions). */
static inline __attribute__((always_inline)) void border_row(
    int wide, const void *input, ptrdiff_t input_width, ptrdiff_t channels, ptrdiff_t k, ptrdiff_t stride,
    ptrdiff_t pad_left, ptrdiff_t iy0, ptrdiff_t ky0, ptrdiff_t ky1, ptrdiff_t ox0, ptrdiff_t ox1, const int16_t *w,
    ptrdiff_t tap_stride, int32_t zero_point, const booth_output_stage *stage, void *out_row) {
    int32x4_t zp = vdupq_n_s32(stage->zero_point);
    int16x8_t lo16 = vdupq_n_s16((int16_t)stage->minimum), hi16 = vdupq_n_s16((int16_t)stage->maximum);
    int addzp = stage->zero_point != 0;
    const int16_t izp = (int16_t)zero_point;
    for (ptrdiff_t ch = 0; ch < channels; ch += 16) {
        ptrdiff_t cc = ch < channels - 16 ? ch : channels - 16;
        stage4 s[4];
        int32x4_t bias[4];
        for (int j = 0; j < 4; j++) {
            bias[j] = vld1q_s32(stage->bias + cc + 4 * j);
            s[j].left = vld1q_s32(stage->left_shift + cc + 4 * j);
            s[j].multiplier = vld1q_s32(stage->multiplier + cc + 4 * j);
            s[j].negative_right = vnegq_s32(vld1q_s32(stage->right_shift + cc + 4 * j));
        }
        int shifted = general_stage16(s);
#define BG(SH, ZP)                                                                                            \
        do {                                                                                                      \
            if (wide && izp == 0) BG_(SH, ZP, 1); else BG_(SH, ZP, 0);                                            \
        } while (0)
#define BG_(SH, ZP, CE)                                                                                       \
        border_group(wide, SH, ZP, CE, input, input_width, channels, k, stride, pad_left, iy0, ky0, ky1, ox0, ox1, w, \
                     tap_stride, izp, bias, s, zp, lo16, hi16, out_row, cc)
        if (shifted) { if (addzp) BG(1, 1); else BG(1, 0); }
        else { if (addzp) BG(0, 1); else BG(0, 0); }
#undef BG
#undef BG_
    }
}

void booth_depthwise_border_s8(const int8_t *input, ptrdiff_t input_width, ptrdiff_t channels, ptrdiff_t k,
                               ptrdiff_t stride, ptrdiff_t pad_left, ptrdiff_t iy0, ptrdiff_t ky0, ptrdiff_t ky1,
                               ptrdiff_t ox0, ptrdiff_t ox1, const int16_t *w, ptrdiff_t tap_stride,
                               int32_t zero_point, const booth_output_stage *stage, int8_t *out_row) {
    border_row(0, input, input_width, channels, k, stride, pad_left, iy0, ky0, ky1, ox0, ox1, w, tap_stride,
               zero_point, stage, out_row);
}

void booth_depthwise_border_s16(const int16_t *input, ptrdiff_t input_width, ptrdiff_t channels, ptrdiff_t k,
                                ptrdiff_t stride, ptrdiff_t pad_left, ptrdiff_t iy0, ptrdiff_t ky0, ptrdiff_t ky1,
                                ptrdiff_t ox0, ptrdiff_t ox1, const int16_t *w, ptrdiff_t tap_stride,
                                int32_t zero_point, const booth_output_stage *stage, int16_t *out_row) {
    border_row(1, input, input_width, channels, k, stride, pad_left, iy0, ky0, ky1, ox0, ox1, w, tap_stride,
               zero_point, stage, out_row);
}

void booth_depthwise_s8(const int8_t *origin, ptrdiff_t row_stride, ptrdiff_t step, ptrdiff_t pixels,
                        ptrdiff_t channels, int k, const int16_t *w, ptrdiff_t tap_stride, const int32_t *tap_sums,
                        int32_t zero_point, const booth_output_stage *stage, int8_t *out) {
    if (k == 3) dw3_row(0, origin, row_stride, step, pixels, channels, w, tap_stride, tap_sums, zero_point, stage, out);
    else if (k == 5) DEPTHWISE_BODY(int8_t, load16_s8, 5);
    else DEPTHWISE_BODY(int8_t, load16_s8, 0);
}

void booth_depthwise_s16(const int16_t *origin, ptrdiff_t row_stride, ptrdiff_t step, ptrdiff_t pixels,
                         ptrdiff_t channels, int k, const int16_t *w, ptrdiff_t tap_stride, const int32_t *tap_sums,
                         int32_t zero_point, const booth_output_stage *stage, int16_t *out) {
    if (k == 3) dw3_row(1, origin, row_stride, step, pixels, channels, w, tap_stride, tap_sums, zero_point, stage, out);
    else if (k == 5) DEPTHWISE_BODY(int16_t, load16_s16, 5);
    else DEPTHWISE_BODY(int16_t, load16_s16, 0);
}

/* ---- Whole int16 depthwise layers with input zero point 0 (booth_depthwise_layer_s16) ----
 * Eight channels at a time (8 `smlal` lanes), four output pixels of a row at a time: for each
 * window row, its K filters are loaded once and each input pixel under the four windows
 * ((4 − 1)·S + K of them) once, and every product the four pixels take from it is accumulated:
 * per window row and four pixels, K + 3·S + K loads and 8·K `smlal`/`smlal2` (the interior row
 * kernel loads 2 filters and 2 inputs per 16-channel tap: 25 × 8 instructions per 16 channels and
 * pixel for 5×5). Border pixels run the same code: a window column outside the input reads eight
 * zeros (the input zero point is 0, so a zero adds nothing, as a skipped tap), a window row outside
 * is skipped. The sums are the reference's (wrapping int32, each product exact), so the outputs
 * are bit for bit booth_depthwise_s16's and booth_depthwise_border_s16's. */
static const int16_t dw_zero8[8] = {0, 0, 0, 0, 0, 0, 0, 0};

static inline __attribute__((always_inline)) void dwl_group(
    int K, int S, int shifted, int addzp, int full, const int16_t *input, ptrdiff_t ih, ptrdiff_t iw, ptrdiff_t channels,
    ptrdiff_t pad_top, ptrdiff_t pad_left, ptrdiff_t oh, ptrdiff_t ow, const int16_t *wc, ptrdiff_t tap_stride,
    int32x4_t start0, int32x4_t start1, stage4 s0, stage4 s1, int32x4_t zp, int16x8_t lo16, int16x8_t hi16,
    int16_t *out) {
    const int J = 3 * S + K;
    const ptrdiff_t row_stride = iw * channels;
    /* 3×3: all nine filters stay in registers across the layer (the window rows are unrolled so
     * each names its three); 5×5 loads a window row's five per row and block. */
    int16x8_t w3[9];
    if (K == 3) {
#pragma GCC unroll 9
        for (int t = 0; t < 9; t++) w3[t] = vld1q_s16(wc + t * tap_stride);
    }
    for (ptrdiff_t oy = 0; oy < oh; oy++) {
        ptrdiff_t iy0 = oy * S - pad_top;
        ptrdiff_t ky0 = iy0 < 0 ? -iy0 : 0, ky1 = ih - iy0 < K ? ih - iy0 : K;
        for (ptrdiff_t ob = 0; ob < ow; ob += 4) {
            /* A last partial block is the last four pixels again (the same values). */
            ptrdiff_t ox = ob + 4 <= ow ? ob : ow - 4;
            ptrdiff_t ix0 = ox * S - pad_left;
            const int16_t *first = input + (iy0 + ky0) * row_stride;
            int32x4_t a0[4], a1[4];
#pragma GCC unroll 4
            for (int p = 0; p < 4; p++) { a0[p] = start0; a1[p] = start1; }
            /* One window row: its K filters (`WV(kx)`), then each of the J input columns (x, set
             * by LOAD_X) into the pixels whose window covers it. */
#define DWL_COLUMNS(LOAD_X, WV)                                                                     \
    do {                                                                                            \
        _Pragma("GCC unroll 11") for (int j = 0; j < J; j++) {                                      \
            int16x8_t x;                                                                            \
            LOAD_X;                                                                                 \
            _Pragma("GCC unroll 4") for (int p = 0; p < 4; p++) {                                   \
                int kx = j - S * p;                                                                 \
                if (kx < 0 || kx >= K) continue;                                                    \
                a0[p] = vmlal_s16(a0[p], vget_low_s16(x), vget_low_s16(WV(kx)));                    \
                a1[p] = vmlal_high_s16(a1[p], x, WV(kx));                                           \
            }                                                                                       \
        }                                                                                           \
    } while (0)
#define DWL_LOADED(kx) wv[kx]
#define DWL_HELD(kx) w3[ky * 3 + (kx)]
#define DWL_WINDOW_ROW(LOAD_X)                                                                      \
    do {                                                                                            \
        const int16_t *wr = wc + ky * K * tap_stride;                                               \
        int16x8_t wv[5];                                                                            \
        _Pragma("GCC unroll 5") for (int kx = 0; kx < K; kx++) wv[kx] = vld1q_s16(wr + kx * tap_stride); \
        DWL_COLUMNS(LOAD_X, DWL_LOADED);                                                            \
    } while (0)
            if (ix0 >= 0 && ix0 + J <= iw) {
                /* Every window column inside: one row pointer, the columns at fixed offsets. */
                const int16_t *row = first + ix0 * channels;
                if (K == 3) {
#pragma GCC unroll 3
                    for (int ky = 0; ky < 3; ky++) {
                        if (ky < ky0 || ky >= ky1) continue;
                        DWL_COLUMNS(x = vld1q_s16(row + j * channels), DWL_HELD);
                        row += row_stride;
                    }
                } else {
                    for (ptrdiff_t ky = ky0; ky < ky1; ky++, row += row_stride)
                        DWL_WINDOW_ROW(x = vld1q_s16(row + j * channels));
                }
            } else {
                const int16_t *xp[11];
                ptrdiff_t xs[11];
#pragma GCC unroll 11
                for (int j = 0; j < J; j++) {
                    ptrdiff_t ix = ix0 + j;
                    int inside = ix >= 0 && ix < iw;
                    xp[j] = inside ? first + ix * channels : dw_zero8;
                    xs[j] = inside ? row_stride : 0;
                }
                if (K == 3) {
#pragma GCC unroll 3
                    for (int ky = 0; ky < 3; ky++) {
                        if (ky < ky0 || ky >= ky1) continue;
                        DWL_COLUMNS(x = vld1q_s16(xp[j]); xp[j] += xs[j], DWL_HELD);
                    }
                } else {
                    for (ptrdiff_t ky = ky0; ky < ky1; ky++)
                        DWL_WINDOW_ROW(x = vld1q_s16(xp[j]); xp[j] += xs[j]);
                }
            }
#undef DWL_COLUMNS
#undef DWL_LOADED
#undef DWL_HELD
#undef DWL_WINDOW_ROW
            int16_t *o = out + (oy * ow + ox) * channels;
#pragma GCC unroll 4
            for (int p = 0; p < 4; p++) {
                int16x8_t h = vqmovn_high_s32(vqmovn_s32(DW_SCALE(a0[p], s0)), DW_SCALE(a1[p], s1));
                vst1q_s16(o + p * channels, full ? h : vminq_s16(vmaxq_s16(h, lo16), hi16));
            }
        }
    }
}

/* Channel group `ch` (of 8) of the whole depthwise layers (dwl_layer, the int8 3×3 layers): its
 * first channel (the last group overlaps the one before it when channels are no multiple of
 * 8), accumulator starts and output-stage constants (stage_constants) and `shifted` flag. */
static inline __attribute__((always_inline)) ptrdiff_t dw8_group_setup(
    const booth_output_stage *stage, const int32_t *tap_sums, int32_t zero_point, ptrdiff_t ch, ptrdiff_t channels,
    int kind, int32x4_t start[2], stage4 s[2], int *shifted) {
    ptrdiff_t cc = ch + 8 <= channels ? ch : channels - 8;
    stage_constants(stage, tap_sums, zero_point, cc, 2, kind, start, s);
    *shifted = general_stage4(s[0]) | general_stage4(s[1]);
    return cc;
}

static inline __attribute__((always_inline)) void dwl_layer(
    int K, int S, const int16_t *input, ptrdiff_t ih, ptrdiff_t iw, ptrdiff_t channels, ptrdiff_t pad_top,
    ptrdiff_t pad_left, ptrdiff_t oh, ptrdiff_t ow, const int16_t *w, ptrdiff_t tap_stride,
    const booth_output_stage *stage, int16_t *out) {
    int32x4_t zp = vdupq_n_s32(stage->zero_point);
    int16x8_t lo16 = vdupq_n_s16((int16_t)stage->minimum), hi16 = vdupq_n_s16((int16_t)stage->maximum);
    int addzp = stage->zero_point != 0;
    /* `full`: no zero point and int16's own bounds (no fused activation): the saturating narrow
       is the clamp, which the stores then leave out. */
    int full = !addzp && stage->minimum == INT16_MIN && stage->maximum == INT16_MAX;
    for (ptrdiff_t ch = 0; ch < channels; ch += 8) {
        int32x4_t start[2];
        stage4 s[2];
        int shifted;
        ptrdiff_t cc = dw8_group_setup(stage, NULL, 0, ch, channels, BOOTH_OUT_INT16, start, s, &shifted);
#define DWL(SH, ZP, FULL)                                                                                          \
        dwl_group(K, S, SH, ZP, FULL, input + cc, ih, iw, channels, pad_top, pad_left, oh, ow, w + cc, tap_stride,  \
                  start[0], start[1], s[0], s[1], zp, lo16, hi16, out + cc)
        if (shifted) { if (addzp) DWL(1, 1, 0); else if (full) DWL(1, 0, 1); else DWL(1, 0, 0); }
        else { if (addzp) DWL(0, 1, 0); else if (full) DWL(0, 0, 1); else DWL(0, 0, 0); }
#undef DWL
    }
}

int booth_depthwise_layer_s16(const int16_t *input, ptrdiff_t input_height, ptrdiff_t input_width,
                              ptrdiff_t channels, int k, ptrdiff_t stride, ptrdiff_t pad_top, ptrdiff_t pad_left,
                              ptrdiff_t output_height, ptrdiff_t output_width, const int16_t *w,
                              ptrdiff_t tap_stride, const booth_output_stage *stage, int16_t *out) {
    if (channels < 8 || output_width < 4) return 0;
#define DWL_LAYER(K, S)                                                                                     \
    dwl_layer(K, S, input, input_height, input_width, channels, pad_top, pad_left, output_height, output_width, \
              w, tap_stride, stage, out)
    if (k == 5 && stride == 1) DWL_LAYER(5, 1);
    else if (k == 5 && stride == 2) DWL_LAYER(5, 2);
    else if (k == 3 && stride == 1) DWL_LAYER(3, 1);
    else if (k == 3 && stride == 2) DWL_LAYER(3, 2);
    else return 0;
#undef DWL_LAYER
    return 1;
}

/* Sixteen activations as four int32x4. */
static inline void widen16_s8(const int8_t *p, int32x4_t v[4]) {
    int8x16_t x = vld1q_s8(p);
    int16x8_t lo = vmovl_s8(vget_low_s8(x)), hi = vmovl_high_s8(x);
    v[0] = vmovl_s16(vget_low_s16(lo)); v[1] = vmovl_high_s16(lo);
    v[2] = vmovl_s16(vget_low_s16(hi)); v[3] = vmovl_high_s16(hi);
}

static inline void widen16_s16(const int16_t *p, int32x4_t v[4]) {
    int16x8_t lo = vld1q_s16(p), hi = vld1q_s16(p + 8);
    v[0] = vmovl_s16(vget_low_s16(lo)); v[1] = vmovl_high_s16(lo);
    v[2] = vmovl_s16(vget_low_s16(hi)); v[3] = vmovl_high_s16(hi);
}

/* Sixteen elements of ADD or MUL; `bv` holds b (already widened) unless `b_splat`. */
static inline __attribute__((always_inline)) void elementwise16(
    const int32x4_t av[4], const int32x4_t bv[4], const booth_elementwise *p, int mul, int32x4_t out[4]) {
    int32x4_t zpo = vdupq_n_s32(p->output_zero_point), lo = vdupq_n_s32(p->minimum), hi = vdupq_n_s32(p->maximum);
    if (!mul) {
        /* (x1·s1 + x2·s2 + round) with the zero points folded into the constant: the same int32 in
         * wrapping arithmetic, then the arithmetic shift. */
        uint32_t c = (uint32_t)p->round - (uint32_t)p->scale1 * (uint32_t)p->zero_point1
                     - (uint32_t)p->scale2 * (uint32_t)p->zero_point2;
        int32x4_t k = vdupq_n_s32((int32_t)c), shift = vdupq_n_s32(-p->shift);
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) {
            int32x4_t v = vmlaq_n_s32(vmlaq_n_s32(k, av[j], p->scale1), bv[j], p->scale2);
            v = vaddq_s32(vshlq_s32(v, shift), zpo);
            out[j] = vminq_s32(vmaxq_s32(v, lo), hi);
        }
    } else {
        stage4 s = {vdupq_n_s32(p->left_shift), vdupq_n_s32(p->multiplier), vdupq_n_s32(-p->right_shift)};
        int32x4_t z1 = vdupq_n_s32(p->zero_point1), z2 = vdupq_n_s32(p->zero_point2);
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++)
            out[j] = requantize4(vmulq_s32(vsubq_s32(av[j], z1), vsubq_s32(bv[j], z2)), s, zpo, lo, hi);
    }
}

#define ELEMENTWISE_BODY(T, WIDEN, KIND, MUL)                                                   \
    do {                                                                                        \
        const booth_elementwise local = *params, *p = &local;                                   \
        int32x4_t av[4], bv[4], r[4];                                                           \
        for (int j = 0; j < 4; j++) bv[j] = vdupq_n_s32(period == 1 ? b[0] : 0);               \
        ptrdiff_t chunk = period == 1 ? count : period;                                         \
        for (ptrdiff_t base = 0; base < count; base += chunk) {                                 \
            ptrdiff_t i = 0;                                                                    \
            for (; i + 16 <= chunk; i += 16) {                                                  \
                WIDEN(a + base + i, av);                                                        \
                if (period != 1) WIDEN(b + i, bv);                                              \
                elementwise16(av, bv, p, MUL, r);                                                    \
                store16(KIND, out + base + i, r[0], r[1], r[2], r[3], 16);                      \
            }                                                                                   \
            if (i < chunk) {                                                                    \
                T ta[16] = {0}, tb[16] = {0}, to[16];                                           \
                ptrdiff_t n = chunk - i;                                                        \
                memcpy(ta, a + base + i, (size_t)n * sizeof(T));                                \
                if (period != 1) memcpy(tb, b + i, (size_t)n * sizeof(T));                      \
                WIDEN(ta, av);                                                                  \
                if (period != 1) WIDEN(tb, bv);                                                 \
                elementwise16(av, bv, p, MUL, r);                                                    \
                store16(KIND, to, r[0], r[1], r[2], r[3], 16);                                  \
                memcpy(out + base + i, to, (size_t)n * sizeof(T));                              \
            }                                                                                   \
        }                                                                                       \
    } while (0)

/* int8 ADD and MUL in int16/int8 narrows (end of file); 0 when the parameters are outside it. */
static int elementwise_s8_narrow(const int8_t *a, const int8_t *b, ptrdiff_t count, ptrdiff_t period,
                                 const booth_elementwise *p, int8_t *out);

void booth_elementwise_s8(const int8_t *a, const int8_t *b, ptrdiff_t count, ptrdiff_t period,
                          const booth_elementwise *params, int8_t *out) {
    if (elementwise_s8_narrow(a, b, count, period, params, out)) return;
    if (params->mul) ELEMENTWISE_BODY(int8_t, widen16_s8, BOOTH_OUT_INT8, 1);
    else ELEMENTWISE_BODY(int8_t, widen16_s8, BOOTH_OUT_INT8, 0);
}

/* Eight int16 ADD results: k + x1·s1 + x2·s2 by `smlal` of the int16 lanes by the scales (which
 * fit int16: ElementwiseParams keeps them ≤ 2^14 for int16), `k` the rounding constant with
 * both zero points folded in (and a broadcast scalar x2's product, `x2` then unused), then the
 * arithmetic shift and the output zero point in int32 (left out when it is 0, `zout`: int16
 * outputs are symmetric), a saturating narrow and the clamp in int16 (the bounds lie in int16):
 * elementwise16's values. */
static inline __attribute__((always_inline)) int16x8_t add8_s16(int16x8_t x1, int16x8_t x2, int splat, int zout,
                                                               int rounding, int full, int16_t s1, int16_t s2,
                                                               int32x4_t k, int32x4_t shift, int32x4_t zpo,
                                                               int16x8_t lo, int16x8_t hi) {
    int32x4_t v0, v1;
    if (rounding) {
        v0 = vmlal_n_s16(vmull_n_s16(vget_low_s16(x1), s1), vget_low_s16(x2), s2);
        v1 = vmlal_high_n_s16(vmull_high_n_s16(x1, s1), x2, s2);
        v0 = vrshlq_s32(v0, shift);
        v1 = vrshlq_s32(v1, shift);
    } else {
        v0 = vmlal_n_s16(k, vget_low_s16(x1), s1);
        v1 = vmlal_high_n_s16(k, x1, s1);
        if (!splat) {
            v0 = vmlal_n_s16(v0, vget_low_s16(x2), s2);
            v1 = vmlal_high_n_s16(v1, x2, s2);
        }
        v0 = vshlq_s32(v0, shift);
        v1 = vshlq_s32(v1, shift);
    }
    if (!zout) {
        v0 = vaddq_s32(v0, zpo);
        v1 = vaddq_s32(v1, zpo);
    }
    int16x8_t r = vqmovn_high_s32(vqmovn_s32(v0), v1);
    return full ? r : vminq_s16(vmaxq_s16(r, lo), hi);
}

/* The loop both int16 ADD and MUL run (`add_s16`, `mul_s16`): every period (`chunk` values, or the
 * whole tensor when b is one value), sixteen elements per step as two `OP8(x1, x2)` of eight,
 * the tail through a zero-padded copy; a broadcast b is the vector `BSPLAT`. */
#define S16_ROWS(BSPLAT, OP8)                                                                        \
    do {                                                                                             \
        ptrdiff_t chunk = splat ? count : period;                                                    \
        for (ptrdiff_t base = 0; base < count; base += chunk) {                                      \
            ptrdiff_t i = 0;                                                                         \
            for (; i + 16 <= chunk; i += 16) {                                                       \
                int16x8_t a0 = vld1q_s16(a + base + i), a1 = vld1q_s16(a + base + i + 8);           \
                int16x8_t b0 = splat ? (BSPLAT) : vld1q_s16(b + i), b1 = splat ? (BSPLAT) : vld1q_s16(b + i + 8); \
                vst1q_s16(out + base + i, OP8(a0, b0));                                              \
                vst1q_s16(out + base + i + 8, OP8(a1, b1));                                          \
            }                                                                                        \
            if (i < chunk) {                                                                         \
                int16_t ta[16] = {0}, tb[16] = {0}, to[16];                                          \
                ptrdiff_t n = chunk - i;                                                             \
                memcpy(ta, a + base + i, (size_t)n * sizeof(int16_t));                               \
                if (!splat) memcpy(tb, b + i, (size_t)n * sizeof(int16_t));                          \
                int16x8_t b0 = splat ? (BSPLAT) : vld1q_s16(tb), b1 = splat ? (BSPLAT) : vld1q_s16(tb + 8); \
                vst1q_s16(to, OP8(vld1q_s16(ta), b0));                                               \
                vst1q_s16(to + 8, OP8(vld1q_s16(ta + 8), b1));                                       \
                memcpy(out + base + i, to, (size_t)n * sizeof(int16_t));                             \
            }                                                                                        \
        }                                                                                            \
    } while (0)

/* ADD's constant term (int16 and int8): the rounding constant with both zero points' products
 * folded in and, for a broadcast x2 (`splat`), its product `b0`·scale2; wrapping, as the
 * reference's int32 sums. */
static inline int32_t add_constant(const booth_elementwise *p, int splat, int32_t b0) {
    uint32_t c = (uint32_t)p->round - (uint32_t)p->scale1 * (uint32_t)p->zero_point1
                 - (uint32_t)p->scale2 * (uint32_t)p->zero_point2;
    if (splat) c += (uint32_t)p->scale2 * (uint32_t)b0;
    return (int32_t)c;
}

/* int16 ADD, every period (S16_ROWS). `rounding` (both zero points 0, no broadcast, the scales
 * within ±2^14 and `round` = 2^(shift−1)): the products start with `smull` and the rounding
 * shift is one `srshl`, without the per-vector copies of the constant that `smlal` overwrites.
 * |x·s| ≤ 2^29, so x1·s1 + x2·s2 + round stays inside int32 and `srshl`'s rounding (computed
 * without overflow) equals the reference's wrapping sum then arithmetic shift. */
static inline __attribute__((always_inline)) void add_s16(const int16_t *a, const int16_t *b, ptrdiff_t count,
                                                          ptrdiff_t period, const booth_elementwise *p, int zout,
                                                          int rounding, int full, int16_t *out) {
    int splat = period == 1;
    int32x4_t k = vdupq_n_s32(add_constant(p, splat, splat ? b[0] : 0)), shift = vdupq_n_s32(-p->shift), zpo = vdupq_n_s32(p->output_zero_point);
    int16x8_t lo = vdupq_n_s16((int16_t)p->minimum), hi = vdupq_n_s16((int16_t)p->maximum);
    int16_t s1 = (int16_t)p->scale1, s2 = (int16_t)p->scale2;
    int16x8_t zero = vdupq_n_s16(0);
#define ADD8(x1, x2) add8_s16(x1, x2, splat, zout, rounding, full, s1, s2, k, shift, zpo, lo, hi)
    S16_ROWS(zero, ADD8);
#undef ADD8
}

/* Eight int16 MUL results: (x1 − zp1)·(x2 − zp2) exactly in int32 (`ssubl` then `mul`, or
 * `smull` when both zero points are 0, as int16 paths' are), MultiplyByQuantizedMultiplier,
 * the output zero point, then a saturating narrow and the clamp in int16 (the bounds lie in
 * int16): elementwise16's values. */
static inline __attribute__((always_inline)) int16x8_t mul8_s16(int16x8_t x1, int16x8_t x2, int centred, int shifted,
                                                               int full, int16x4_t z1, int16x4_t z2, stage4 s,
                                                               int32x4_t zpo, int16x8_t lo, int16x8_t hi) {
    int32x4_t v0, v1;
    if (centred) {
        v0 = vmull_s16(vget_low_s16(x1), vget_low_s16(x2));
        v1 = vmull_high_s16(x1, x2);
    } else {
        v0 = vmulq_s32(vsubl_s16(vget_low_s16(x1), z1), vsubl_s16(vget_low_s16(x2), z2));
        v1 = vmulq_s32(vsubl_s16(vget_high_s16(x1), z1), vsubl_s16(vget_high_s16(x2), z2));
    }
    int16x8_t r = vqmovn_high_s32(vqmovn_s32(scale4(v0, s, zpo, shifted)), scale4(v1, s, zpo, shifted));
    return full ? r : vminq_s16(vmaxq_s16(r, lo), hi);
}

/* int16 MUL, every period (S16_ROWS). */
static inline __attribute__((always_inline)) void mul_s16(const int16_t *a, const int16_t *b, ptrdiff_t count,
                                                          ptrdiff_t period, const booth_elementwise *p, int centred,
                                                          int shifted, int zout, int full, int16_t *out) {
    stage4 s = {vdupq_n_s32(p->left_shift), vdupq_n_s32(p->multiplier), vdupq_n_s32(-p->right_shift)};
    int16x4_t z1 = vdup_n_s16((int16_t)p->zero_point1), z2 = vdup_n_s16((int16_t)p->zero_point2);
    /* A constant zero when `zout` (the output zero point is 0): its additions fold away. */
    int32x4_t zpo = zout ? vdupq_n_s32(0) : vdupq_n_s32(p->output_zero_point);
    int16x8_t lo = vdupq_n_s16((int16_t)p->minimum), hi = vdupq_n_s16((int16_t)p->maximum);
    int splat = period == 1;
    int16x8_t bs = vdupq_n_s16(splat ? b[0] : 0);
#define MUL8(x1, x2) mul8_s16(x1, x2, centred, shifted, full, z1, z2, s, zpo, lo, hi)
    S16_ROWS(bs, MUL8);
#undef MUL8
}
#undef S16_ROWS

void booth_elementwise_s16(const int16_t *a, const int16_t *b, ptrdiff_t count, ptrdiff_t period,
                           const booth_elementwise *params, int16_t *out) {
    if (params->mul && params->minimum >= INT16_MIN && params->maximum <= INT16_MAX) {
        /* `shifted`: scale4's general stage (a left shift, or no right shift). */
        int centred = params->zero_point1 == 0 && params->zero_point2 == 0;
        int shifted = params->left_shift != 0 || params->right_shift <= 0;
        int zout = params->output_zero_point == 0;
        /* `full`: the bounds are int16's own (no fused activation), which the saturating narrow
           already applies, so the clamp is left out (on the centred, zero-output-point forms). */
        int full = params->minimum == INT16_MIN && params->maximum == INT16_MAX;
        if (centred && !shifted && zout && full) mul_s16(a, b, count, period, params, 1, 0, 1, 1, out);
        else if (centred && zout && full) mul_s16(a, b, count, period, params, 1, 1, 1, 1, out);
        else if (centred && !shifted && zout) mul_s16(a, b, count, period, params, 1, 0, 1, 0, out);
        else if (centred && zout) mul_s16(a, b, count, period, params, 1, 1, 1, 0, out);
        else if (centred && !shifted) mul_s16(a, b, count, period, params, 1, 0, 0, 0, out);
        else if (centred) mul_s16(a, b, count, period, params, 1, 1, 0, 0, out);
        else if (!shifted) mul_s16(a, b, count, period, params, 0, 0, 0, 0, out);
        else mul_s16(a, b, count, period, params, 0, 1, 0, 0, out);
    } else if (params->mul) ELEMENTWISE_BODY(int16_t, widen16_s16, BOOTH_OUT_INT16, 1);
    else if (params->scale1 >= INT16_MIN && params->scale1 <= INT16_MAX && params->scale2 >= INT16_MIN &&
             params->scale2 <= INT16_MAX && params->minimum >= INT16_MIN && params->maximum <= INT16_MAX) {
        int zout = params->output_zero_point == 0;
        int rounding = period != 1 && params->zero_point1 == 0 && params->zero_point2 == 0 &&
                       params->scale1 >= -16384 && params->scale1 <= 16384 && params->scale2 >= -16384 &&
                       params->scale2 <= 16384 && params->shift >= 0 && params->shift <= 30 &&
                       params->round == (params->shift > 0 ? (int32_t)(1u << (params->shift - 1)) : 0);
        /* `full`: as for MUL, on the zero-output-point forms with a second tensor. */
        int full = params->minimum == INT16_MIN && params->maximum == INT16_MAX;
        if (period == 1 && zout) add_s16(a, b, count, 1, params, 1, 0, 0, out);
        else if (period == 1) add_s16(a, b, count, 1, params, 0, 0, 0, out);
        else if (rounding && zout && full) add_s16(a, b, count, period, params, 1, 1, 1, out);
        else if (rounding && zout) add_s16(a, b, count, period, params, 1, 1, 0, out);
        else if (rounding) add_s16(a, b, count, period, params, 0, 1, 0, out);
        else if (zout && full) add_s16(a, b, count, period, params, 1, 0, 1, out);
        else if (zout) add_s16(a, b, count, period, params, 1, 0, 0, out);
        else add_s16(a, b, count, period, params, 0, 0, 0, out);
    } else ELEMENTWISE_BODY(int16_t, widen16_s16, BOOTH_OUT_INT16, 0);
}

/* booth_prelu_s8's narrow form (prelu_narrow) of sixteen int8 values `q`, the first of the
 * channel whose negative-side multiplier is neg[0]: x = q − zp_in in int16 (`ssubl`), widened, the
 * multiplier picked by x's sign, `mul` and the rounding shift (`srshl`), then the output zero
 * point and the clamp as two saturating narrows around a saturating add. */
static inline __attribute__((always_inline)) int8x16_t prelu16_narrow(int8x16_t q, int8x16_t zpi8, const int32_t *neg,
                                                                     int32x4_t pos, int32x4_t sh, int16x8_t zpo) {
    int16x8_t x0 = vsubl_s8(vget_low_s8(q), vget_low_s8(zpi8)), x1 = vsubl_high_s8(q, zpi8);
    int32x4_t x[4] = {vmovl_s16(vget_low_s16(x0)), vmovl_high_s16(x0), vmovl_s16(vget_low_s16(x1)), vmovl_high_s16(x1)};
    int32x4_t v[4];
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++) {
        int32x4_t m = vbslq_s32(vcltzq_s32(x[j]), vld1q_s32(neg + 4 * j), pos);
        v[j] = vrshlq_s32(vmulq_s32(x[j], m), sh);
    }
    int16x8_t h0 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(v[0]), v[1]), zpo);
    int16x8_t h1 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(v[2]), v[3]), zpo);
    return vqmovn_high_s16(vqmovn_s16(h0), h1);
}

/* Where prelu16_narrow gives PReLUParams.scalar's values (booth_prelu_s8's comment). */
static inline int prelu_narrow(int32_t input_zero_point, int32_t output_zero_point, int32_t shift) {
    return input_zero_point >= -128 && input_zero_point <= 127 && output_zero_point >= -128 &&
           output_zero_point <= 128 && shift <= 23;
}

void booth_prelu_s8(const int8_t *in, ptrdiff_t pixels, ptrdiff_t channels, int32_t input_zero_point,
                    int32_t output_zero_point, int32_t positive, const int32_t *negative, int32_t shift, int8_t *out) {
    ptrdiff_t n = pixels * channels, i = 0, ch = 0;
    int32_t round = shift > 0 ? (int32_t)(1u << (shift - 1)) : 0;
    /* x = q - zp_in fits int16 (|x| <= 255), so it is formed once per 8 values (ssubl); the
       rounding shift is srshl (adds 2^(shift-1), then shifts: the scalar form's rounding); the
       zero point and the clamp are two saturating narrows around a saturating add, equal to
       clamp(v + zp_out, -128, 127) because |zp_out| <= 128 keeps the saturated side past the
       clamp. */
    int8x16_t zpi8 = vdupq_n_s8((int8_t)(input_zero_point < -128 ? -128 : (input_zero_point > 127 ? 127 : input_zero_point)));
    /* ... and while x*m + 2^(shift-1) cannot wrap in int32 (|x*m| < 255 * 2^23; srshl rounds
       without wrapping where the scalar form wraps): shift <= 23. Otherwise the form below. */
    int narrow = prelu_narrow(input_zero_point, output_zero_point, shift);
    int16x8_t zpo = vdupq_n_s16((int16_t)output_zero_point);
    int32x4_t pos = vdupq_n_s32(positive), sh = vdupq_n_s32(-shift);
    for (; narrow && i + 16 <= n; i += 16) {
        vst1q_s8(out + i, prelu16_narrow(vld1q_s8(in + i), zpi8, negative + ch, pos, sh, zpo));
        ch += 16;
        if (ch >= channels) { ch -= channels; if (ch >= channels) ch %= channels; }
    }
    int32x4_t zpi = vdupq_n_s32(input_zero_point), zpo32 = vdupq_n_s32(output_zero_point), rnd = vdupq_n_s32(round);
    int32x4_t lo = vdupq_n_s32(-128), hi = vdupq_n_s32(127);
    for (; !narrow && i + 16 <= n; i += 16) {
        int32x4_t q[4], r[4];
        widen16_s8(in + i, q);
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) {
            int32x4_t x = vsubq_s32(q[j], zpi);
            int32x4_t m = vbslq_s32(vcltzq_s32(x), vld1q_s32(negative + ch + 4 * j), pos);
            int32x4_t v = vaddq_s32(vshlq_s32(vmlaq_s32(rnd, x, m), sh), zpo32);
            r[j] = vminq_s32(vmaxq_s32(v, lo), hi);
        }
        store16(BOOTH_OUT_INT8, out + i, r[0], r[1], r[2], r[3], 16);
        ch += 16;
        if (ch >= channels) { ch -= channels; if (ch >= channels) ch %= channels; }
    }
    for (; i < n; i++) {
        int32_t x = (int32_t)in[i] - input_zero_point;
        int32_t m = x >= 0 ? positive : negative[i % channels];
        int32_t v = (int32_t)((uint32_t)x * (uint32_t)m + (uint32_t)round) >> shift;
        v += output_zero_point;
        out[i] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
    }
}

void booth_lookup_s8(const int8_t *in, ptrdiff_t n, const int8_t *table, int8_t *out) {
    const uint8_t *t = (const uint8_t *)table;
    uint8x16x4_t t0 = vld1q_u8_x4(t), t1 = vld1q_u8_x4(t + 64), t2 = vld1q_u8_x4(t + 128), t3 = vld1q_u8_x4(t + 192);
    uint8x16_t bias = vdupq_n_u8(0x80), step = vdupq_n_u8(64);
    ptrdiff_t i = 0;
    for (; i + 16 <= n; i += 16) {
        /* Index = input + 128; each tbx looks one 64-entry quarter up (out-of-range lanes keep). */
        uint8x16_t idx = veorq_u8(vld1q_u8((const uint8_t *)in + i), bias);
        uint8x16_t r = vqtbl4q_u8(t0, idx);
        idx = vsubq_u8(idx, step);
        r = vqtbx4q_u8(r, t1, idx);
        idx = vsubq_u8(idx, step);
        r = vqtbx4q_u8(r, t2, idx);
        idx = vsubq_u8(idx, step);
        r = vqtbx4q_u8(r, t3, idx);
        vst1q_u8((uint8_t *)out + i, r);
    }
    for (; i < n; i++) out[i] = table[in[i] + 128];
}

/* Eight values per step: each pair of looked-up values joined in a general register (`orr` with
 * a shift) and stored as two pairs (`stp`), 25 instructions per eight where inserting into a
 * vector lane per value took 15 per four. GCC's SLP vectoriser would put the pairs back into
 * vector lanes, so it is off for this function. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-slp-vectorize")))
#endif
void booth_lookup_s16(const int16_t *in, ptrdiff_t n, const int16_t *table, int16_t *out) {
    const uint16_t *center = (const uint16_t *)table + 32768;
    ptrdiff_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const int16_t *x = in + i;
        uint32_t v0 = (uint32_t)center[x[0]] | (uint32_t)center[x[1]] << 16;
        uint32_t v1 = (uint32_t)center[x[2]] | (uint32_t)center[x[3]] << 16;
        uint32_t v2 = (uint32_t)center[x[4]] | (uint32_t)center[x[5]] << 16;
        uint32_t v3 = (uint32_t)center[x[6]] | (uint32_t)center[x[7]] << 16;
        memcpy(out + i, &v0, 4);
        memcpy(out + i + 2, &v1, 4);
        memcpy(out + i + 4, &v2, 4);
        memcpy(out + i + 6, &v3, 4);
    }
    for (; i < n; i++) out[i] = (int16_t)center[in[i]];
}

/* round(x · inverse_scale) as int32: `fcvtas` rounds to nearest with ties away from zero, as
 * `frinta` then `fcvtzs` do, and saturates to the int32 range. The reference adds the zero
 * point in float and clamps; for |round(·)| < 2^24 that float sum is exact, and beyond it the
 * sum lies past either bound on the same side, so the saturating integer adds and narrows below
 * give the reference's values (NaN is no input: the Swift reference traps on it). */
static inline int32x4_t qround4(const float *in, float32x4_t inv) { return vcvtaq_s32_f32(vmulq_f32(vld1q_f32(in), inv)); }

/* Eight values rounded and narrowed to int16 with saturation (`sqxtn`, `sqxtn2`). */
static inline int16x8_t qround8(const float *in, float32x4_t inv) {
    return vqmovn_high_s32(vqmovn_s32(qround4(in, inv)), qround4(in + 4, inv));
}

/* int8: sixteen values per step. Saturating to int16 first and then adding the zero point
 * (|zp| ≤ 128) with saturation keeps every out-of-range value out of the int8 range on its own
 * side, so the final `sqxtn` clamps as the reference does. */
void booth_quantize_s8(const float *in, ptrdiff_t n, float inverse_scale, float zero_point, int8_t *out) {
    float32x4_t inv = vdupq_n_f32(inverse_scale);
    ptrdiff_t i = 0;
    if (zero_point >= -128 && zero_point <= 127) {
        int16x8_t zp = vdupq_n_s16((int16_t)zero_point);
        for (; i + 16 <= n; i += 16) {
            int16x8_t a = vqaddq_s16(qround8(in + i, inv), zp), b = vqaddq_s16(qround8(in + i + 8, inv), zp);
            vst1q_s8(out + i, vqmovn_high_s16(vqmovn_s16(a), b));
        }
        for (; i + 8 <= n; i += 8) vst1_s8(out + i, vqmovn_s16(vqaddq_s16(qround8(in + i, inv), zp)));
    }
    for (; i < n; i++) {
        float v = __builtin_roundf(in[i] * inverse_scale) + zero_point;
        out[i] = (int8_t)(int32_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
    }
}

/* int16: sixteen values per step; a zero point other than 0 (within int16) is added to the
 * int32 value with saturation before the narrowing. */
void booth_quantize_s16(const float *in, ptrdiff_t n, float inverse_scale, float zero_point, int16_t *out) {
    float32x4_t inv = vdupq_n_f32(inverse_scale);
    ptrdiff_t i = 0;
    if (zero_point == 0) {
        for (; i + 16 <= n; i += 16) {
            vst1q_s16(out + i, qround8(in + i, inv));
            vst1q_s16(out + i + 8, qround8(in + i + 8, inv));
        }
        for (; i + 8 <= n; i += 8) vst1q_s16(out + i, qround8(in + i, inv));
    } else if (zero_point >= -32768 && zero_point <= 32767) {
        int32x4_t zp = vdupq_n_s32((int32_t)zero_point);
        for (; i + 8 <= n; i += 8) {
            int32x4_t a = vqaddq_s32(qround4(in + i, inv), zp), b = vqaddq_s32(qround4(in + i + 4, inv), zp);
            vst1q_s16(out + i, vqmovn_high_s32(vqmovn_s32(a), b));
        }
    }
    for (; i < n; i++) {
        float v = __builtin_roundf(in[i] * inverse_scale) + zero_point;
        out[i] = (int16_t)(int32_t)(v < -32768 ? -32768 : (v > 32767 ? 32767 : v));
    }
}

/* FloatMath.exp on four lanes, operation for operation (separate multiplies and adds, no
 * fusing: the file is built with -ffp-contract=off and each step is its own intrinsic): the clamp
 * to [−87.3, 88.7], k = round-half-even(c · log2 e), r = (c − k·ln2_hi) − k·ln2_lo, the degree-7
 * Horner polynomial, times 2^k built in the exponent bits. NaN stays NaN (the clamp keeps it, the
 * scale's integer conversion gives 0, the polynomial NaN). */
static inline float32x4_t exp4(float32x4_t x) {
    float32x4_t c = vminq_f32(vmaxq_f32(x, vdupq_n_f32(-87.3f)), vdupq_n_f32(88.7f));
    float32x4_t k = vrndnq_f32(vmulq_f32(c, vdupq_n_f32(1.44269504f)));
    float32x4_t r = vsubq_f32(vsubq_f32(c, vmulq_f32(k, vdupq_n_f32(0.693145751953125f))),
                              vmulq_f32(k, vdupq_n_f32(1.428606765330187e-6f)));
    float32x4_t p = vdupq_n_f32(1.0f / 5040);
    p = vaddq_f32(vmulq_f32(p, r), vdupq_n_f32(1.0f / 720));
    p = vaddq_f32(vmulq_f32(p, r), vdupq_n_f32(1.0f / 120));
    p = vaddq_f32(vmulq_f32(p, r), vdupq_n_f32(1.0f / 24));
    p = vaddq_f32(vmulq_f32(p, r), vdupq_n_f32(1.0f / 6));
    p = vaddq_f32(vmulq_f32(p, r), vdupq_n_f32(0.5f));
    p = vaddq_f32(vmulq_f32(p, r), vdupq_n_f32(1.0f));
    p = vaddq_f32(vmulq_f32(p, r), vdupq_n_f32(1.0f));
    int32x4_t bits = vshlq_n_s32(vaddq_s32(vcvtq_s32_f32(k), vdupq_n_s32(127)), 23);
    return vmulq_f32(p, vreinterpretq_f32_s32(bits));
}

/* FloatMath.logistic: 1 / (1 + exp(−x)). */
static inline float32x4_t logistic4(float32x4_t x) {
    float32x4_t one = vdupq_n_f32(1.0f);
    return vdivq_f32(one, vaddq_f32(one, exp4(vnegq_f32(x))));
}

void booth_logistic_f32(const float *in, ptrdiff_t n, float *out) {
    ptrdiff_t i = 0;
    for (; i + 4 <= n; i += 4) vst1q_f32(out + i, logistic4(vld1q_f32(in + i)));
    ptrdiff_t m = n - i;
    if (m > 0) {
        /* One to three values by lane (`out` may be `in`, so no overlapping recomputation). */
        float32x4_t v = vld1q_lane_f32(in + i, vdupq_n_f32(0), 0);
        if (m > 1) v = vld1q_lane_f32(in + i + 1, v, 1);
        if (m > 2) v = vld1q_lane_f32(in + i + 2, v, 2);
        v = logistic4(v);
        vst1q_lane_f32(out + i, v, 0);
        if (m > 1) vst1q_lane_f32(out + i + 1, v, 1);
        if (m > 2) vst1q_lane_f32(out + i + 2, v, 2);
    }
}

/* Four products scale · (float)q for int32 lanes q. */
static inline void dq_store4(float *out, float32x4_t s, int32x4_t q) { vst1q_f32(out, vmulq_f32(s, vcvtq_f32_s32(q))); }

/* Sixteen values per step; q − zp by `ssubl` (int8 − int8 into int16, exact) when the zero
 * point is an int8, then widened, converted (exact) and multiplied as the reference does. */
void booth_dequantize_s8(const int8_t *in, ptrdiff_t n, float scale, int32_t zero_point, float *out) {
    float32x4_t s = vdupq_n_f32(scale);
    ptrdiff_t i = 0;
    if (zero_point >= -128 && zero_point <= 127) {
        int8x16_t zp = vdupq_n_s8((int8_t)zero_point);
        for (; i + 16 <= n; i += 16) {
            int8x16_t q = vld1q_s8(in + i);
            int16x8_t lo = vsubl_s8(vget_low_s8(q), vget_low_s8(zp)), hi = vsubl_high_s8(q, zp);
            dq_store4(out + i, s, vmovl_s16(vget_low_s16(lo)));
            dq_store4(out + i + 4, s, vmovl_high_s16(lo));
            dq_store4(out + i + 8, s, vmovl_s16(vget_low_s16(hi)));
            dq_store4(out + i + 12, s, vmovl_high_s16(hi));
        }
    }
    for (; i < n; i++) out[i] = scale * (float)((int32_t)in[i] - zero_point);
}

/* Eight values per step; q − zp by `ssubl` (int16 − int16 into int32, exact) when the zero point
 * is an int16. */
void booth_dequantize_s16(const int16_t *in, ptrdiff_t n, float scale, int32_t zero_point, float *out) {
    float32x4_t s = vdupq_n_f32(scale);
    ptrdiff_t i = 0;
    if (zero_point >= -32768 && zero_point <= 32767) {
        int16x8_t zp = vdupq_n_s16((int16_t)zero_point);
        for (; i + 8 <= n; i += 8) {
            int16x8_t q = vld1q_s16(in + i);
            dq_store4(out + i, s, vsubl_s16(vget_low_s16(q), vget_low_s16(zp)));
            dq_store4(out + i + 4, s, vsubl_high_s16(q, zp));
        }
    }
    for (; i < n; i++) out[i] = scale * (float)((int32_t)in[i] - zero_point);
}

/* Eight channels of one source row's horizontal blend, p0·(1−fx) + p1·fx in int32 (exact:
 * |p| ≤ 2^15 and the weights sum to 2^bits ≤ 2^10). */
static inline __attribute__((always_inline)) void resize_hblend(int16x8_t p0, int16x8_t p1, int16_t gx, int16_t fx,
                                                                int32x4_t *lo, int32x4_t *hi) {
    *lo = vmlal_n_s16(vmull_n_s16(vget_low_s16(p0), gx), vget_low_s16(p1), fx);
    *hi = vmlal_high_n_s16(vmull_high_n_s16(p0, gx), p1, fx);
}

/* The vertical blend of two horizontal blends, t·(1−fy) + b·fy (below 2^(15 + 2·bits) ≤ 2^29,
 * exact), rounded half up by `srshr` #2·bits, narrowed (truncating, as the reference's
 * `truncatingIfNeeded`) and stored: eight int16 (`wide`) or int8 values. */
static inline __attribute__((always_inline)) void resize_vstore(int wide, int32x4_t t0, int32x4_t t1, int32x4_t b0,
                                                                int32x4_t b1, int32_t gy, int32_t fy, void *o) {
    int32x4_t lo = vmlaq_n_s32(vmulq_n_s32(t0, gy), b0, fy), hi = vmlaq_n_s32(vmulq_n_s32(t1, gy), b1, fy);
    if (wide) {
        lo = vrshrq_n_s32(lo, 14);
        hi = vrshrq_n_s32(hi, 14);
        vst1q_s16((int16_t *)o, vcombine_s16(vmovn_s32(lo), vmovn_s32(hi)));
    } else {
        lo = vrshrq_n_s32(lo, 20);
        hi = vrshrq_n_s32(hi, 20);
        vst1_s8((int8_t *)o, vmovn_s16(vcombine_s16(vmovn_s32(lo), vmovn_s32(hi))));
    }
}

/* One or two (`two`) output rows of `width` pixels that read the same two source rows r0, r1
 * (weights fy / fy2), eight channels per step: the four source pixels' horizontal blends once,
 * then each output row's vertical blend from them (a 2× upsample's output rows come in such
 * pairs, so each pair costs one set of loads and horizontal blends instead of two). Full eights
 * with one index, then the last eight channels (overlapping, the same values) when `channels` is
 * no multiple of 8. */
static inline __attribute__((always_inline)) void resize_rows(int wide, int two, const void *r0, const void *r1,
                                                              ptrdiff_t width, ptrdiff_t channels, const int32_t *x0s,
                                                              const int32_t *x1s, const int16_t *fxs, int32_t fy,
                                                              void *out, int32_t fy2, void *out2) {
    const int bits = wide ? 7 : 10;
    const size_t esize = wide ? 2 : 1;
    const int32_t gy = (1 << bits) - fy, gy2 = (1 << bits) - fy2;
    const char *s0 = (const char *)r0, *s1 = (const char *)r1;
#define RESIZE_LOAD(q) (wide ? vld1q_s16((const int16_t *)(const void *)(q)) : vmovl_s8(vld1_s8((const int8_t *)(q))))
    for (ptrdiff_t p = 0; p < width;) {
        const char *a0 = s0 + (size_t)x0s[p] * esize, *a1 = s0 + (size_t)x1s[p] * esize;
        const char *c0 = s1 + (size_t)x0s[p] * esize, *c1 = s1 + (size_t)x1s[p] * esize;
        int16_t fx = fxs[p], gx = (int16_t)((1 << bits) - fx);
        char *o = (char *)out + (size_t)(p * channels) * esize;
        char *o2 = two ? (char *)out2 + (size_t)(p * channels) * esize : o;
        if (p + 1 < width && x0s[p + 1] == x0s[p] && x1s[p + 1] == x1s[p]) {
            /* Two output columns between the same source pixels (a 2× upsample's come in
             * pairs): the four source vectors loaded once for both. */
            int16_t fxb = fxs[p + 1], gxb = (int16_t)((1 << bits) - fxb);
            size_t next = (size_t)channels * esize;
            for (ptrdiff_t ch = 0; ch < channels; ch += 8) {
                ptrdiff_t cc = ch + 8 <= channels ? ch : channels - 8;
                size_t at = (size_t)cc * esize;
                int16x8_t pa0 = RESIZE_LOAD(a0 + at), pa1 = RESIZE_LOAD(a1 + at);
                int16x8_t pc0 = RESIZE_LOAD(c0 + at), pc1 = RESIZE_LOAD(c1 + at);
                int32x4_t t0, t1, b0, b1;
                resize_hblend(pa0, pa1, gx, fx, &t0, &t1);
                resize_hblend(pc0, pc1, gx, fx, &b0, &b1);
                resize_vstore(wide, t0, t1, b0, b1, gy, fy, o + at);
                if (two) resize_vstore(wide, t0, t1, b0, b1, gy2, fy2, o2 + at);
                resize_hblend(pa0, pa1, gxb, fxb, &t0, &t1);
                resize_hblend(pc0, pc1, gxb, fxb, &b0, &b1);
                resize_vstore(wide, t0, t1, b0, b1, gy, fy, o + next + at);
                if (two) resize_vstore(wide, t0, t1, b0, b1, gy2, fy2, o2 + next + at);
            }
            p += 2;
            continue;
        }
        for (ptrdiff_t ch = 0; ch < channels; ch += 8) {
            ptrdiff_t cc = ch + 8 <= channels ? ch : channels - 8;
            size_t at = (size_t)cc * esize;
            int32x4_t t0, t1, b0, b1;
            resize_hblend(RESIZE_LOAD(a0 + at), RESIZE_LOAD(a1 + at), gx, fx, &t0, &t1);
            resize_hblend(RESIZE_LOAD(c0 + at), RESIZE_LOAD(c1 + at), gx, fx, &b0, &b1);
            resize_vstore(wide, t0, t1, b0, b1, gy, fy, o + at);
            if (two) resize_vstore(wide, t0, t1, b0, b1, gy2, fy2, o2 + at);
        }
        p++;
    }
#undef RESIZE_LOAD
}

void booth_resize_rows_s8(const int8_t *r0, const int8_t *r1, ptrdiff_t width, ptrdiff_t channels,
                          const int32_t *x0s, const int32_t *x1s, const int16_t *fxs, int32_t fy, int8_t *out,
                          int32_t fy2, int8_t *out2) {
    if (out2) resize_rows(0, 1, r0, r1, width, channels, x0s, x1s, fxs, fy, out, fy2, out2);
    else resize_rows(0, 0, r0, r1, width, channels, x0s, x1s, fxs, fy, out, fy2, out2);
}

void booth_resize_rows_s16(const int16_t *r0, const int16_t *r1, ptrdiff_t width, ptrdiff_t channels,
                           const int32_t *x0s, const int32_t *x1s, const int16_t *fxs, int32_t fy, int16_t *out,
                           int32_t fy2, int16_t *out2) {
    if (out2) resize_rows(1, 1, r0, r1, width, channels, x0s, x1s, fxs, fy, out, fy2, out2);
    else resize_rows(1, 0, r0, r1, width, channels, x0s, x1s, fxs, fy, out, fy2, out2);
}

/* ---- Float convolutions (the float path's fused kernels; NeuralCore's FloatConvolution) ----
 * Every output is bias (or 0) then one fused multiply-add per product (`fmla`, `vfmaq_laneq_f32`
 * or `fmaf`) in the reference's order: window rows, then columns, then input channels. The
 * tiles below change which outputs are computed together, never the order within one output. */

/* A run of products contiguous in both the input and the packed weights: `k` input values from
 * `off` elements past a pixel's base, weights from `w` (rows `ocp` apart). */
typedef struct {
    ptrdiff_t off;
    const float *w;
    ptrdiff_t k;
} fseg;

/* The reference's clamp (FloatConvolution's `clamp8`): below `lo` → lo, above `hi` → hi, NaN
 * kept (compare + select, not `fmax`, which would also turn −0 into +0 at a zero bound). */
static inline float32x4_t fclamp4(float32x4_t v, float32x4_t lo, float32x4_t hi, int has_lo, int has_hi) {
    if (has_lo) v = vbslq_f32(vcltq_f32(v, lo), lo, v);
    if (has_hi) v = vbslq_f32(vcgtq_f32(v, hi), hi, v);
    return v;
}

/* The first `n` (0...4) lanes of `v` at `out`. */
static inline void fstore_lanes(float *out, float32x4_t v, ptrdiff_t n) {
    if (n >= 4) { vst1q_f32(out, v); return; }
    if (n >= 2) { vst1_f32(out, vget_low_f32(v)); out += 2; n -= 2; v = vextq_f32(v, v, 2); }
    if (n >= 1) vst1q_lane_f32(out, v, 0);
}

/* Where a float convolution's outputs go: float32 when the kernels get no `fquant` (NULL, a
 * constant after inlining), else quantised in the store (a float island's output edge,
 * booth_island_conv_q / booth_island_depthwise_q): the clamped values through booth_quantize_s16's
 * (zero point 0) or booth_quantize_s8's (|zero point| ≤ 128) operations, lane for lane. */
typedef struct {
    int bits;            /* 16 or 8 */
    float32x4_t inv;     /* the inverse scale */
    int16x8_t zp;        /* int8: the zero point; int16: 0 */
    float inverse_scale;
    int32_t zero_point;
} fquant;

/* Element size of the output: `bits` is 0 (float32), 16 or 8, a constant after inlining (the
 * kernels below take it beside `q`, which is NULL exactly when it is 0). */
#define FQ_SIZE(bits) ((bits) ? (ptrdiff_t)((bits) / 8) : (ptrdiff_t)sizeof(float))

/* The first `n` (1...8) of the eight values v0, v1 at element `i` of `out`; `inv`, `zp` are
 * q->inv, q->zp held in registers by the caller. */
static inline __attribute__((always_inline)) void fstore8(int bits, float32x4_t inv, int16x8_t zp, void *out, ptrdiff_t i,
                                                          float32x4_t v0, float32x4_t v1, ptrdiff_t n) {
    if (!bits) {
        float *op = (float *)out + i;
        if (n >= 8) { vst1q_f32(op, v0); vst1q_f32(op + 4, v1); }
        else if (n > 4) { vst1q_f32(op, v0); fstore_lanes(op + 4, v1, n - 4); }
        else fstore_lanes(op, v0, n);
        return;
    }
    int16x8_t r = vqmovn_high_s32(vqmovn_s32(vcvtaq_s32_f32(vmulq_f32(v0, inv))), vcvtaq_s32_f32(vmulq_f32(v1, inv)));
    if (bits == 16) {
        int16_t *op = (int16_t *)out + i;
        if (n >= 8) { vst1q_s16(op, r); return; }
        /* Fewer lanes: 4, 2, 1 of them by lane stores (no stack copy, no call). */
        if (n & 4) { vst1_s16(op, vget_low_s16(r)); op += 4; r = vextq_s16(r, r, 4); }
        if (n & 2) { vst1q_lane_s32((int32_t *)(void *)op, vreinterpretq_s32_s16(r), 0); op += 2; r = vextq_s16(r, r, 2); }
        if (n & 1) vst1q_lane_s16(op, r, 0);
    } else {
        int8x8_t v = vqmovn_s16(vqaddq_s16(r, zp));
        int8_t *op = (int8_t *)out + i;
        if (n >= 8) { vst1_s8(op, v); return; }
        if (n & 4) { vst1_lane_s32((int32_t *)(void *)op, vreinterpret_s32_s8(v), 0); op += 4; v = vext_s8(v, v, 4); }
        if (n & 2) { vst1_lane_s16((int16_t *)(void *)op, vreinterpret_s16_s8(v), 0); op += 2; v = vext_s8(v, v, 2); }
        if (n & 1) vst1_lane_s8(op, v, 0);
    }
}

/* One value at element `i` (the quantise passes' scalar form). */
static inline void fstore1(int bits, const fquant *q, void *out, ptrdiff_t i, float v) {
    if (!bits) { ((float *)out)[i] = v; return; }
    float r = __builtin_roundf(v * q->inverse_scale) + (float)q->zero_point;
    if (bits == 16) ((int16_t *)out)[i] = (int16_t)(int32_t)(r < -32768 ? -32768 : (r > 32767 ? 32767 : r));
    else ((int8_t *)out)[i] = (int8_t)(int32_t)(r < -128 ? -128 : (r > 127 ? 127 : r));
}

/* `P` pixels (base pointers `x`, `pstep` apart) × `4·NB` channels (weights from each segment's
 * `w` plus `o`): acc = start, then every segment's products in order, four input values at a
 * time by lane. `P` and `NB` are constants after inlining. */
static inline __attribute__((always_inline)) void ftile(
    int P, int NB, const float *x, ptrdiff_t pstep, const fseg *seg, int nseg, ptrdiff_t o, ptrdiff_t ocp,
    float32x4_t s0, float32x4_t s1, float32x4_t acc[8][2]) {
#pragma GCC unroll 8
    for (int p = 0; p < P; p++) { acc[p][0] = s0; if (NB > 1) acc[p][1] = s1; }
    for (int s = 0; s < nseg; s++) {
        const float *xs = x + seg[s].off;
        const float *w = seg[s].w + o;
        ptrdiff_t k = seg[s].k, i = 0;
        for (; i + 4 <= k; i += 4) {
            float32x4_t xv[8];
#pragma GCC unroll 8
            for (int p = 0; p < P; p++) xv[p] = vld1q_f32(xs + p * pstep + i);
#define BOOTH_FLANE(l)                                                                             \
            do {                                                                                   \
                float32x4_t w0 = vld1q_f32(w), w1 = NB > 1 ? vld1q_f32(w + 4) : w0;                \
                w += ocp;                                                                          \
                _Pragma("GCC unroll 8")                                                            \
                for (int p = 0; p < P; p++) {                                                      \
                    acc[p][0] = vfmaq_laneq_f32(acc[p][0], w0, xv[p], l);                          \
                    if (NB > 1) acc[p][1] = vfmaq_laneq_f32(acc[p][1], w1, xv[p], l);              \
                }                                                                                  \
            } while (0)
            BOOTH_FLANE(0); BOOTH_FLANE(1); BOOTH_FLANE(2); BOOTH_FLANE(3);
#undef BOOTH_FLANE
        }
        for (; i < k; i++) {
            float32x4_t w0 = vld1q_f32(w), w1 = NB > 1 ? vld1q_f32(w + 4) : w0;
            w += ocp;
#pragma GCC unroll 8
            for (int p = 0; p < P; p++) {
                float32x4_t xv = vld1q_dup_f32(xs + p * pstep + i);
                acc[p][0] = vfmaq_f32(acc[p][0], w0, xv);
                if (NB > 1) acc[p][1] = vfmaq_f32(acc[p][1], w1, xv);
            }
        }
    }
}

/* The clamp bounds of a convolution, as vectors and whether each is finite. */
typedef struct {
    float32x4_t lo, hi;
    int has_lo, has_hi;
} fbounds;

static inline fbounds fbounds_of(float lo, float hi) {
    fbounds b = {vdupq_n_f32(lo), vdupq_n_f32(hi), lo != -__builtin_inff(), hi != __builtin_inff()};
    return b;
}

/* `P` pixels of a convolution, all channels: blocks of 8 channels over the padded weights, each
 * clamped and stored (`out_c − o` lanes of the last block), pixel p at `out + p · out_c`. */
static inline __attribute__((always_inline)) void fconv_pixels(
    int P, const float *x, ptrdiff_t pstep, const fseg *seg, int nseg, const float *bias, ptrdiff_t out_c,
    fbounds b, const fquant *q, int bits, void *out) {
    ptrdiff_t ocp = (out_c + 7) & ~(ptrdiff_t)7;
    const float32x4_t inv = bits ? q->inv : vdupq_n_f32(0);
    const int16x8_t zp = bits ? q->zp : vdupq_n_s16(0);
    float32x4_t acc[8][2];
    for (ptrdiff_t o = 0; o < ocp; o += 8) {
        ftile(P, 2, x, pstep, seg, nseg, o, ocp, vld1q_f32(bias + o), vld1q_f32(bias + o + 4), acc);
        ptrdiff_t rest = out_c - o;
        if (bits && rest >= 8) {
            /* Quantised, a whole block: the lane count decided once for the tile. */
#pragma GCC unroll 8
            for (int p = 0; p < P; p++) {
                float32x4_t v0 = fclamp4(acc[p][0], b.lo, b.hi, b.has_lo, b.has_hi);
                float32x4_t v1 = fclamp4(acc[p][1], b.lo, b.hi, b.has_lo, b.has_hi);
                fstore8(bits, inv, zp, out, p * out_c + o, v0, v1, 8);
            }
            continue;
        }
#pragma GCC unroll 8
        for (int p = 0; p < P; p++) {
            float32x4_t v0 = fclamp4(acc[p][0], b.lo, b.hi, b.has_lo, b.has_hi);
            float32x4_t v1 = fclamp4(acc[p][1], b.lo, b.hi, b.has_lo, b.has_hi);
            fstore8(bits, inv, zp, out, p * out_c + o, v0, v1, rest);
        }
    }
}

/* A run of pixels `pstep` apart with the same segments: tiles of 8, 4, then 1. (Not cloned, so
 * the NEON check finds it by name.) */
static inline __attribute__((always_inline)) void fconv_run_to(const float *x, ptrdiff_t pstep, ptrdiff_t pixels,
                                                                const fseg *seg, int nseg, const float *bias,
                                                                ptrdiff_t out_c, fbounds b, const fquant *q, int bits,
                                                                void *out) {
    char *o = (char *)out;
    const ptrdiff_t es = FQ_SIZE(bits);
    ptrdiff_t p = 0;
    for (; p + 8 <= pixels; p += 8) fconv_pixels(8, x + p * pstep, pstep, seg, nseg, bias, out_c, b, q, bits, o + p * out_c * es);
    for (; p + 4 <= pixels; p += 4) fconv_pixels(4, x + p * pstep, pstep, seg, nseg, bias, out_c, b, q, bits, o + p * out_c * es);
    for (; p < pixels; p++) fconv_pixels(1, x + p * pstep, pstep, seg, nseg, bias, out_c, b, q, bits, o + p * out_c * es);
}

/* The float store's loop and the quantising one, each compiled on its own. */
__attribute__((noinline, noclone)) static void fconv_run(const float *x, ptrdiff_t pstep, ptrdiff_t pixels, const fseg *seg, int nseg,
                      const float *bias, ptrdiff_t out_c, fbounds b, const fquant *q, void *out) {
    if (!q) fconv_run_to(x, pstep, pixels, seg, nseg, bias, out_c, b, NULL, 0, out);
    else if (q->bits == 16) fconv_run_to(x, pstep, pixels, seg, nseg, bias, out_c, b, q, 16, out);
    else fconv_run_to(x, pstep, pixels, seg, nseg, bias, out_c, b, q, 8, out);
}

static inline ptrdiff_t fmax_pd(ptrdiff_t a, ptrdiff_t b) { return a > b ? a : b; }
static inline ptrdiff_t fmin_pd(ptrdiff_t a, ptrdiff_t b) { return a < b ? a : b; }

/* The output columns whose whole window lies inside the input horizontally (FloatConvolution's
 * interiorStart / interiorEnd). */
static inline __attribute__((always_inline)) void finterior(const booth_fconv *d, ptrdiff_t *start, ptrdiff_t *end) {
    ptrdiff_t sx = d->stride_w;
    ptrdiff_t s = fmin_pd(d->out_w, fmax_pd(0, (d->pad_left + sx - 1) / sx));
    ptrdiff_t span = (d->k_w - 1) * d->dilation_w + 1;
    ptrdiff_t lim = d->in_w + d->pad_left - span;
    ptrdiff_t e = fmax_pd(s, fmin_pd(d->out_w, lim >= 0 ? lim / sx + 1 : 0));
    *start = s;
    *end = e;
}

/* The window rows ky0 ..< ky1 (or columns) inside the input for a window starting at `y0`. */
static inline void fvalid(ptrdiff_t y0, ptrdiff_t dil, ptrdiff_t k, ptrdiff_t size, ptrdiff_t *k0, ptrdiff_t *k1) {
    *k0 = fmax_pd(0, (-y0 + dil - 1) / dil);
    *k1 = fmin_pd(k, (size - y0 + dil - 1) / dil);
    if (*k1 < *k0) *k1 = *k0;
}

/* The segments of one pixel's window (columns kx0 ..< kx1 of rows ky0 ..< ky1): one per row when
 * the columns are adjacent in memory (dilation 1), else one per tap. Offsets from the input
 * element under tap (0, 0), channel 0 (possibly outside the input). */
static int fsegments(const booth_fconv *d, const float *w, ptrdiff_t ky0, ptrdiff_t ky1, ptrdiff_t kx0, ptrdiff_t kx1,
                     fseg *seg) {
    ptrdiff_t c = d->in_c, ocp = (d->out_c + 7) & ~(ptrdiff_t)7;
    int n = 0;
    if (kx1 <= kx0) return 0;
    for (ptrdiff_t ky = ky0; ky < ky1; ky++) {
        ptrdiff_t rowoff = ky * d->dilation_h * d->in_w * c;
        if (d->dilation_w == 1) {
            seg[n].off = rowoff + kx0 * c;
            seg[n].w = w + (ky * d->k_w + kx0) * c * ocp;
            seg[n].k = (kx1 - kx0) * c;
            n++;
        } else {
            for (ptrdiff_t kx = kx0; kx < kx1; kx++) {
                seg[n].off = rowoff + kx * d->dilation_w * c;
                seg[n].w = w + (ky * d->k_w + kx) * c * ocp;
                seg[n].k = c;
                n++;
            }
        }
    }
    return n;
}

static inline __attribute__((always_inline)) int fconv_all(const booth_fconv *d, const float *in, const float *w,
                                                           const float *bias, const fquant *q, int bits, void *out) {
    if (d->k_h * d->k_w > BOOTH_FCONV_MAX_TAPS) return 0;
    const ptrdiff_t es = FQ_SIZE(bits);
    fbounds b = fbounds_of(d->lo, d->hi);
    fseg seg[BOOTH_FCONV_MAX_TAPS];
    ptrdiff_t c = d->in_c;
    if (d->k_h == 1 && d->k_w == 1 && d->stride_h == 1 && d->stride_w == 1 && d->pad_top == 0 && d->pad_left == 0) {
        seg[0].off = 0;
        seg[0].w = w;
        seg[0].k = c;
        fconv_run(in, c, d->batch * d->in_h * d->in_w, seg, 1, bias, d->out_c, b, q, out);
        return 1;
    }
    ptrdiff_t is, ie;
    finterior(d, &is, &ie);
    ptrdiff_t sx = d->stride_w;
    for (ptrdiff_t n = 0; n < d->batch; n++) {
        const float *image = in + n * d->in_h * d->in_w * c;
        for (ptrdiff_t oy = 0; oy < d->out_h; oy++) {
            ptrdiff_t y0 = oy * d->stride_h - d->pad_top, ky0, ky1;
            fvalid(y0, d->dilation_h, d->k_h, d->in_h, &ky0, &ky1);
            /* The input element under tap (0, 0) of output column 0 (may lie outside). */
            const float *row = image + (y0 * d->in_w - d->pad_left) * c;
            char *orow = (char *)out + ((n * d->out_h + oy) * d->out_w) * d->out_c * es;
            for (ptrdiff_t ox = 0; ox < d->out_w;) {
                if (ox == is && ie > is) {
                    int ns = fsegments(d, w, ky0, ky1, 0, d->k_w, seg);
                    fconv_run(row + ox * sx * c, sx * c, ie - is, seg, ns, bias, d->out_c, b, q, orow + ox * d->out_c * es);
                    ox = ie;
                    continue;
                }
                ptrdiff_t kx0, kx1;
                fvalid(ox * sx - d->pad_left, d->dilation_w, d->k_w, d->in_w, &kx0, &kx1);
                int ns = fsegments(d, w, ky0, ky1, kx0, kx1, seg);
                fconv_pixels(1, row + ox * sx * c, 0, seg, ns, bias, d->out_c, b, q, bits, orow + ox * d->out_c * es);
                ox++;
            }
        }
    }
    return 1;
}

int booth_conv_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out) {
    return fconv_all(d, in, w, bias, NULL, 0, out);
}

/* Depthwise (multiplier 1): weights [k_h][k_w][ocp], bias [ocp]. `P` pixels `step` apart, the
 * channels from `o` in blocks of 8, then 4, then one at a time (`fmaf`). */
static inline __attribute__((always_inline)) void fdw_pixels(
    int P, const booth_fconv *d, const float *x, ptrdiff_t step, ptrdiff_t ky0, ptrdiff_t ky1, ptrdiff_t kx0,
    ptrdiff_t kx1, const float *w, const float *bias, fbounds b, const fquant *q, int bits, void *out) {
    ptrdiff_t c = d->out_c, ocp = (c + 7) & ~(ptrdiff_t)7, rs = d->dilation_h * d->in_w * c, cs = d->dilation_w * c;
    const float32x4_t inv = bits ? q->inv : vdupq_n_f32(0);
    const int16x8_t zp = bits ? q->zp : vdupq_n_s16(0);
    ptrdiff_t o = 0;
    for (; o + 8 <= c; o += 8) {
        float32x4_t a[8][2];
        float32x4_t b0 = vld1q_f32(bias + o), b1 = vld1q_f32(bias + o + 4);
#pragma GCC unroll 8
        for (int p = 0; p < P; p++) { a[p][0] = b0; a[p][1] = b1; }
        for (ptrdiff_t ky = ky0; ky < ky1; ky++) {
            for (ptrdiff_t kx = kx0; kx < kx1; kx++) {
                const float *wt = w + (ky * d->k_w + kx) * ocp + o;
                float32x4_t w0 = vld1q_f32(wt), w1 = vld1q_f32(wt + 4);
                const float *xp = x + ky * rs + kx * cs + o;
#pragma GCC unroll 8
                for (int p = 0; p < P; p++) {
                    a[p][0] = vfmaq_f32(a[p][0], vld1q_f32(xp + p * step), w0);
                    a[p][1] = vfmaq_f32(a[p][1], vld1q_f32(xp + p * step + 4), w1);
                }
            }
        }
#pragma GCC unroll 8
        for (int p = 0; p < P; p++)
            fstore8(bits, inv, zp, out, p * c + o, fclamp4(a[p][0], b.lo, b.hi, b.has_lo, b.has_hi),
                    fclamp4(a[p][1], b.lo, b.hi, b.has_lo, b.has_hi), 8);
    }
    for (; o + 4 <= c; o += 4) {
        float32x4_t a[8];
#pragma GCC unroll 8
        for (int p = 0; p < P; p++) a[p] = vld1q_f32(bias + o);
        for (ptrdiff_t ky = ky0; ky < ky1; ky++) {
            for (ptrdiff_t kx = kx0; kx < kx1; kx++) {
                float32x4_t w0 = vld1q_f32(w + (ky * d->k_w + kx) * ocp + o);
                const float *xp = x + ky * rs + kx * cs + o;
#pragma GCC unroll 8
                for (int p = 0; p < P; p++) a[p] = vfmaq_f32(a[p], vld1q_f32(xp + p * step), w0);
            }
        }
#pragma GCC unroll 8
        for (int p = 0; p < P; p++) {
            float32x4_t v = fclamp4(a[p], b.lo, b.hi, b.has_lo, b.has_hi);
            fstore8(bits, inv, zp, out, p * c + o, v, v, 4);
        }
    }
    for (; o < c; o++) {
        for (int p = 0; p < P; p++) {
            float acc = bias[o];
            for (ptrdiff_t ky = ky0; ky < ky1; ky++)
                for (ptrdiff_t kx = kx0; kx < kx1; kx++)
                    acc = __builtin_fmaf(x[p * step + ky * rs + kx * cs + o], w[(ky * d->k_w + kx) * ocp + o], acc);
            if (b.has_lo && acc < d->lo) acc = d->lo;
            if (b.has_hi && acc > d->hi) acc = d->hi;
            fstore1(bits, q, out, p * c + o, acc);
        }
    }
}

static inline __attribute__((always_inline)) int fdw_all(const booth_fconv *d, const float *in, const float *w,
                                                         const float *bias, const fquant *q, int bits, void *out) {
    if (d->in_c != d->out_c) return 0;
    const ptrdiff_t es = FQ_SIZE(bits);
    fbounds b = fbounds_of(d->lo, d->hi);
    ptrdiff_t c = d->out_c, sx = d->stride_w, is, ie;
    finterior(d, &is, &ie);
    for (ptrdiff_t n = 0; n < d->batch; n++) {
        const float *image = in + n * d->in_h * d->in_w * c;
        for (ptrdiff_t oy = 0; oy < d->out_h; oy++) {
            ptrdiff_t y0 = oy * d->stride_h - d->pad_top, ky0, ky1;
            fvalid(y0, d->dilation_h, d->k_h, d->in_h, &ky0, &ky1);
            const float *row = image + (y0 * d->in_w - d->pad_left) * c;
            char *orow = (char *)out + ((n * d->out_h + oy) * d->out_w) * c * es;
            for (ptrdiff_t ox = 0; ox < d->out_w;) {
                if (ox >= is && ox < ie) {
                    if (ox + 8 <= ie) {
                        fdw_pixels(8, d, row + ox * sx * c, sx * c, ky0, ky1, 0, d->k_w, w, bias, b, q, bits, orow + ox * c * es);
                        ox += 8;
                    } else if (ox + 4 <= ie) {
                        fdw_pixels(4, d, row + ox * sx * c, sx * c, ky0, ky1, 0, d->k_w, w, bias, b, q, bits, orow + ox * c * es);
                        ox += 4;
                    } else {
                        fdw_pixels(1, d, row + ox * sx * c, 0, ky0, ky1, 0, d->k_w, w, bias, b, q, bits, orow + ox * c * es);
                        ox++;
                    }
                    continue;
                }
                ptrdiff_t kx0, kx1;
                fvalid(ox * sx - d->pad_left, d->dilation_w, d->k_w, d->in_w, &kx0, &kx1);
                fdw_pixels(1, d, row + ox * sx * c, 0, ky0, ky1, kx0, kx1, w, bias, b, q, bits, orow + ox * c * es);
                ox++;
            }
        }
    }
    return 1;
}

int booth_depthwise_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out) {
    return fdw_all(d, in, w, bias, NULL, 0, out);
}

/* The island's quantised outputs (see the glue section of CNeuralKernels.h). */
static int fquant_of(int bits, float inverse_scale, int32_t zero_point, fquant *q) {
    if (!(bits == 16 && zero_point == 0) && !(bits == 8 && zero_point >= -128 && zero_point <= 127)) return 0;
    q->bits = bits;
    q->inv = vdupq_n_f32(inverse_scale);
    q->zp = vdupq_n_s16((int16_t)zero_point);
    q->inverse_scale = inverse_scale;
    q->zero_point = zero_point;
    return 1;
}

int booth_island_conv_q(const booth_fconv *d, const float *in, const float *w, const float *bias, int bits,
                        float inverse_scale, int32_t zero_point, void *out) {
    fquant q;
    if (!fquant_of(bits, inverse_scale, zero_point, &q)) return 0;
    return bits == 16 ? fconv_all(d, in, w, bias, &q, 16, out) : fconv_all(d, in, w, bias, &q, 8, out);
}

int booth_island_depthwise_q(const booth_fconv *d, const float *in, const float *w, const float *bias, int bits,
                             float inverse_scale, int32_t zero_point, void *out) {
    fquant q;
    if (!fquant_of(bits, inverse_scale, zero_point, &q)) return 0;
    return bits == 16 ? fdw_all(d, in, w, bias, &q, 16, out) : fdw_all(d, in, w, bias, &q, 8, out);
}

/* The products of `P` input pixels for every column (blocks of 8, then 4), from 0, into
 * `y` (`colp` per pixel). */
static inline __attribute__((always_inline)) void ftrans_products(int P, const float *x, ptrdiff_t c, const fseg *seg,
                                                                  ptrdiff_t colp, float *y) {
    float32x4_t acc[8][2], z = vdupq_n_f32(0);
    ptrdiff_t j = 0;
    for (; j + 8 <= colp; j += 8) {
        ftile(P, 2, x, c, seg, 1, j, colp, z, z, acc);
#pragma GCC unroll 8
        for (int p = 0; p < P; p++) { vst1q_f32(y + p * colp + j, acc[p][0]); vst1q_f32(y + p * colp + j + 4, acc[p][1]); }
    }
    if (j < colp) {
        ftile(P, 1, x, c, seg, 1, j, colp, z, z, acc);
#pragma GCC unroll 8
        for (int p = 0; p < P; p++) vst1q_f32(y + p * colp + j, acc[p][0]);
    }
}

/* The transposed convolution when the windows tile the output (stride = kernel, no padding, the
 * output exactly the input times the stride): every output gets exactly one product sum, so it is
 * bias + y (the reference's bias, then one addition) written row by row, without the bias fill
 * and the per-tap bounds. One window row of a pixel is k_w·out_c contiguous values in `y` and in
 * the output. */
__attribute__((noinline)) static void ftranspose_tiles(const booth_fconv *d, const float *in, const float *wt, ptrdiff_t colp, float *y,
                             const float *bias, float *out) {
    ptrdiff_t c = d->in_c, oc = d->out_c, kw = d->k_w, kh = d->k_h, run = kw * oc;
    fseg seg = {0, wt, c};
    for (ptrdiff_t n = 0; n < d->batch; n++) {
        for (ptrdiff_t iy = 0; iy < d->in_h; iy++) {
            const float *row = in + ((n * d->in_h + iy) * d->in_w) * c;
            for (ptrdiff_t ix = 0; ix < d->in_w;) {
                int P = d->in_w - ix >= 8 ? 8 : d->in_w - ix >= 4 ? 4 : 1;
                const float *x = row + ix * c;
                if (P == 8) ftrans_products(8, x, c, &seg, colp, y);
                else if (P == 4) ftrans_products(4, x, c, &seg, colp, y);
                else ftrans_products(1, x, c, &seg, colp, y);
                for (ptrdiff_t ky = 0; ky < kh; ky++) {
                    float *dst = out + (((n * d->out_h) + iy * kh + ky) * d->out_w + ix * kw) * oc;
                    const float *src = y + ky * run;
                    if (oc == 1 && run == 2 && colp == 4) {
                        /* Two 2-value window rows per vector (selfie's 2×2 to one channel). */
                        float32x4_t b0 = vdupq_n_f32(bias[0]);
                        int p = 0;
                        for (; p + 2 <= P; p += 2) {
                            float32x2_t r0 = vld1_f32(src + p * 4), r1 = vld1_f32(src + p * 4 + 4);
                            vst1q_f32(dst + p * 2, vaddq_f32(b0, vcombine_f32(r0, r1)));
                        }
                        for (; p < P; p++) { dst[p * 2] = bias[0] + src[p * 4]; dst[p * 2 + 1] = bias[0] + src[p * 4 + 1]; }
                        continue;
                    }
                    for (int p = 0; p < P; p++) {
                        float *o = dst + p * run;
                        const float *v = src + p * colp;
                        for (ptrdiff_t kx = 0; kx < kw; kx++) {
                            ptrdiff_t j = 0;
                            for (; j + 4 <= oc; j += 4)
                                vst1q_f32(o + kx * oc + j, vaddq_f32(vld1q_f32(bias + j), vld1q_f32(v + kx * oc + j)));
                            for (; j < oc; j++) o[kx * oc + j] = bias[j] + v[kx * oc + j];
                        }
                    }
                }
                ix += P;
            }
        }
    }
}

/* Transposed convolution as a product then a scatter: for each input pixel p,
 * y[p][t·out_c + o] = Σ_i x[p][i] · W[t][i][o] from 0 (one column per tap t and channel o; the
 * weights regrouped [i][column] once by booth_transpose_f32_pack, columns padded to 4), then every
 * tap's values added into the output window in the reference's order (input pixels in order, then
 * taps), which starts as the bias. Eight input pixels of a row at a time; `y` is the scratch at
 * the end of the packed block. */
/* (No loop distribution: it turns the bias fill into a `memcpy` call per output pixel.) */
__attribute__((optimize("no-tree-loop-distribute-patterns")))
int booth_transpose_f32(const booth_fconv *d, const float *in, float *packed, const float *bias, float *out) {
    ptrdiff_t c = d->in_c, oc = d->out_c, taps = d->k_h * d->k_w;
    ptrdiff_t colp = (taps * oc + 3) & ~(ptrdiff_t)3;
    const float *wt = packed;
    float *y = packed + c * colp;
    ptrdiff_t plane = d->out_h * d->out_w;
    if (d->stride_h == d->k_h && d->stride_w == d->k_w && d->pad_top == 0 && d->pad_left == 0 &&
        d->out_h == d->in_h * d->k_h && d->out_w == d->in_w * d->k_w) {
        ftranspose_tiles(d, in, wt, colp, y, bias, out);
        return 1;
    }
    for (ptrdiff_t n = 0; n < d->batch; n++) {
        float *image = out + n * plane * oc;
        for (ptrdiff_t q = 0; q < plane; q++)
            for (ptrdiff_t o = 0; o < oc; o++) image[q * oc + o] = bias[o];
        fseg seg = {0, wt, c};
        for (ptrdiff_t iy = 0; iy < d->in_h; iy++) {
            const float *row = in + ((n * d->in_h + iy) * d->in_w) * c;
            for (ptrdiff_t ix = 0; ix < d->in_w;) {
                int P = d->in_w - ix >= 8 ? 8 : d->in_w - ix >= 4 ? 4 : 1;
                const float *x = row + ix * c;
                if (P == 8) ftrans_products(8, x, c, &seg, colp, y);
                else if (P == 4) ftrans_products(4, x, c, &seg, colp, y);
                else ftrans_products(1, x, c, &seg, colp, y);
                for (int p = 0; p < P; p++) {
                    ptrdiff_t px = ix + p;
                    for (ptrdiff_t ky = 0; ky < d->k_h; ky++) {
                        ptrdiff_t oy = iy * d->stride_h - d->pad_top + ky;
                        if (oy < 0 || oy >= d->out_h) continue;
                        for (ptrdiff_t kx = 0; kx < d->k_w; kx++) {
                            ptrdiff_t ox = px * d->stride_w - d->pad_left + kx;
                            if (ox < 0 || ox >= d->out_w) continue;
                            float *op = image + (oy * d->out_w + ox) * oc;
                            const float *yp = y + p * colp + (ky * d->k_w + kx) * oc;
                            ptrdiff_t o = 0;
                            for (; o + 4 <= oc; o += 4) vst1q_f32(op + o, vaddq_f32(vld1q_f32(op + o), vld1q_f32(yp + o)));
                            for (; o < oc; o++) op[o] += yp[o];
                        }
                    }
                }
                ix += P;
            }
        }
    }
    return 1;
}

/* The float path's elementwise ADD / MUL / PRELU on contiguous rows (FloatKernels.binary): eight
 * values per step with the vector clamp (`fclamp4`), the last n mod 8 one at a time with the
 * scalar one (Swift's max then min: max(r, lo) = lo >= r ? lo : r, min(m, hi) = hi < m ? hi : m),
 * as the Swift kernel splits them. */
void booth_binary_f32(int op, const float *a, const float *b, ptrdiff_t n, float lo, float hi, float *out) {
    fbounds bd = fbounds_of(lo, hi);
    ptrdiff_t k = 0;
    /* Sixteen values per step, then eight (the same split into full eights); the clamps chosen
     * once, outside the loops (GCC at -O2 tests them per vector otherwise). */
#define BOOTH_BINARY_STEP(K, EXPR, HL, HH)                                                         \
    do {                                                                                           \
        float32x4_t x0 = vld1q_f32(a + (K)), x1 = vld1q_f32(a + (K) + 4);                          \
        float32x4_t y0 = vld1q_f32(b + (K)), y1 = vld1q_f32(b + (K) + 4);                          \
        float32x4_t x = x0, y = y0;                                                                \
        float32x4_t r0 = (EXPR);                                                                   \
        x = x1; y = y1;                                                                            \
        float32x4_t r1 = (EXPR);                                                                   \
        vst1q_f32(out + (K), fclamp4(r0, bd.lo, bd.hi, HL, HH));                                   \
        vst1q_f32(out + (K) + 4, fclamp4(r1, bd.lo, bd.hi, HL, HH));                               \
    } while (0)
#define BOOTH_BINARY_LOOP(EXPR, HL, HH)                                                            \
    for (; k + 16 <= n; k += 16) { BOOTH_BINARY_STEP(k, EXPR, HL, HH); BOOTH_BINARY_STEP(k + 8, EXPR, HL, HH); } \
    for (; k + 8 <= n; k += 8) BOOTH_BINARY_STEP(k, EXPR, HL, HH);
#define BOOTH_BINARY_CLAMPS(EXPR)                                                                  \
    if (bd.has_lo && bd.has_hi) { BOOTH_BINARY_LOOP(EXPR, 1, 1) }                                  \
    else if (bd.has_lo) { BOOTH_BINARY_LOOP(EXPR, 1, 0) }                                          \
    else if (bd.has_hi) { BOOTH_BINARY_LOOP(EXPR, 0, 1) }                                          \
    else { BOOTH_BINARY_LOOP(EXPR, 0, 0) }
    if (op == BOOTH_FBINARY_ADD) { BOOTH_BINARY_CLAMPS(vaddq_f32(x, y)) }
    else if (op == BOOTH_FBINARY_MUL) { BOOTH_BINARY_CLAMPS(vmulq_f32(x, y)) }
    else { BOOTH_BINARY_CLAMPS(vbslq_f32(vcltzq_f32(x), vmulq_f32(x, y), x)) }
#undef BOOTH_BINARY_CLAMPS
#undef BOOTH_BINARY_LOOP
#undef BOOTH_BINARY_STEP
    for (; k < n; k++) {
        float x = a[k], y = b[k];
        float r = op == BOOTH_FBINARY_ADD ? x + y : op == BOOTH_FBINARY_MUL ? x * y : (x < 0 ? x * y : x);
        float m = lo >= r ? lo : r;
        out[k] = hi < m ? hi : m;
    }
}

/* Swift's scalar clamp, min(max(r, lo), hi), four lanes at a time: max(r, lo) = lo >= r ? lo : r,
 * min(m, hi) = hi < m ? hi : m (NaN kept; −0 at a +0 bound becomes +0, unlike fclamp4). */
static inline float32x4_t fclamp4_scalar(float32x4_t v, float32x4_t lo, float32x4_t hi, int has_lo, int has_hi) {
    if (has_lo) v = vbslq_f32(vcgeq_f32(lo, v), lo, v);
    if (has_hi) v = vbslq_f32(vcltq_f32(hi, v), hi, v);
    return v;
}

/* FloatKernels.binary's rows in one call: `rows` rows of `n` outputs (contiguous, one after the
 * other), row r reading a + r·a_row and b + r·b_row, each with inner stride 0 (one value for the
 * row) or 1. Rows where both strides are 1 are booth_binary_f32's (vector clamp for each full 8,
 * scalar clamp for the rest); rows with a broadcast value are Swift's lane-by-lane `apply`, whose
 * scalar clamp fclamp4_scalar computes four lanes at a time. */
void booth_binary_f32_rows(int op, const float *a, ptrdiff_t a_row, ptrdiff_t a_inner, const float *b, ptrdiff_t b_row,
                           ptrdiff_t b_inner, ptrdiff_t rows, ptrdiff_t n, float lo, float hi, float *out) {
    if (a_inner == 1 && b_inner == 1) {
        /* Rows that follow each other in a, b and out with no tail are one row (the same split). */
        if (a_row == n && b_row == n && n % 8 == 0) { booth_binary_f32(op, a, b, n * rows, lo, hi, out); return; }
        for (ptrdiff_t r = 0; r < rows; r++) booth_binary_f32(op, a + r * a_row, b + r * b_row, n, lo, hi, out + r * n);
        return;
    }
    fbounds bd = fbounds_of(lo, hi);
    for (ptrdiff_t r = 0; r < rows; r++) {
        const float *pa = a + r * a_row, *pb = b + r * b_row;
        float *po = out + r * n;
        ptrdiff_t k = 0;
#define BOOTH_BCAST_LOOP(EXPR)                                                                     \
        for (; k + 4 <= n; k += 4) {                                                               \
            float32x4_t x = a_inner ? vld1q_f32(pa + k) : vdupq_n_f32(pa[0]);                      \
            float32x4_t y = b_inner ? vld1q_f32(pb + k) : vdupq_n_f32(pb[0]);                      \
            vst1q_f32(po + k, fclamp4_scalar((EXPR), bd.lo, bd.hi, bd.has_lo, bd.has_hi));         \
        }
        if (op == BOOTH_FBINARY_ADD) { BOOTH_BCAST_LOOP(vaddq_f32(x, y)) }
        else if (op == BOOTH_FBINARY_MUL) { BOOTH_BCAST_LOOP(vmulq_f32(x, y)) }
        else { BOOTH_BCAST_LOOP(vbslq_f32(vcltzq_f32(x), vmulq_f32(x, y), x)) }
#undef BOOTH_BCAST_LOOP
        for (; k < n; k++) {
            float x = pa[k * a_inner], y = pb[k * b_inner];
            float v = op == BOOTH_FBINARY_ADD ? x + y : op == BOOTH_FBINARY_MUL ? x * y : (x < 0 ? x * y : x);
            float m = lo >= v ? lo : v;
            po[k] = hi < m ? hi : m;
        }
    }
}


/* ---- The integer transposed convolution's float rows (TransposeConvPlan.runRows) ---- */

/* Swift's max(v, lo) then min(·, hi) on four lanes (`lo >= v ? lo : v`, `hi < m ? hi : m`:
 * the same bits as FloatOutputStage.apply, NaN and −0 included). */
static inline float32x4_t swift_clamp4(float32x4_t v, float32x4_t lo, float32x4_t hi) {
    v = vbslq_f32(vcgeq_f32(lo, v), lo, v);
    return vbslq_f32(vcltq_f32(hi, v), hi, v);
}

/* The rows of booth_transpose_rows_s16_f32 over the channel-major filters `wt`; `channels` and
 * `depth` are constants after inlining in the segmentation heads' case (2 × 16). */
static inline __attribute__((always_inline)) void trows(const int16_t *a, ptrdiff_t pixels, ptrdiff_t a_stride,
                                                        ptrdiff_t depth, const int16_t *wt, ptrdiff_t channels,
                                                        ptrdiff_t oc, const float *scale, const float *bias,
                                                        float lower, float upper, float *out) {
    float32x4_t lo = vdupq_n_f32(lower), hi = vdupq_n_f32(upper);
    ptrdiff_t k8 = depth & ~(ptrdiff_t)7;
    for (ptrdiff_t p = 0; p < pixels; p += 4) {
        ptrdiff_t n = pixels - p < 4 ? pixels - p : 4;
        /* Four pixels (the last repeated in a short group; only `n` lanes are stored). */
        const int16_t *x0 = a + p * a_stride;
        const int16_t *x1 = x0 + (n > 1 ? a_stride : 0);
        const int16_t *x2 = x0 + (n > 2 ? 2 : n - 1) * a_stride;
        const int16_t *x3 = x0 + (n > 3 ? 3 : n - 1) * a_stride;
        float32x4_t res[16];
#pragma GCC unroll 16
        for (ptrdiff_t c = 0; c < channels; c++) {
            const int16_t *wc = wt + c * depth;
            int32x4_t s0 = vdupq_n_s32(0), s1 = s0, s2 = s0, s3 = s0;
            ptrdiff_t k = 0;
#pragma GCC unroll 4
            for (; k < k8; k += 8) {
                int16x8_t wv = vld1q_s16(wc + k);
                int16x8_t v0 = vld1q_s16(x0 + k), v1 = vld1q_s16(x1 + k), v2 = vld1q_s16(x2 + k), v3 = vld1q_s16(x3 + k);
                s0 = vmlal_high_s16(vmlal_s16(s0, vget_low_s16(v0), vget_low_s16(wv)), v0, wv);
                s1 = vmlal_high_s16(vmlal_s16(s1, vget_low_s16(v1), vget_low_s16(wv)), v1, wv);
                s2 = vmlal_high_s16(vmlal_s16(s2, vget_low_s16(v2), vget_low_s16(wv)), v2, wv);
                s3 = vmlal_high_s16(vmlal_s16(s3, vget_low_s16(v3), vget_low_s16(wv)), v3, wv);
            }
            /* Integer sums: any order gives the same wrapping int32. */
            int32x4_t sum = vpaddq_s32(vpaddq_s32(s0, s1), vpaddq_s32(s2, s3));
            for (; k < depth; k++) {
                int32_t t[4] = {x0[k] * wc[k], x1[k] * wc[k], x2[k] * wc[k], x3[k] * wc[k]};
                sum = vaddq_s32(sum, vld1q_s32(t));
            }
            ptrdiff_t o = c % oc;
            /* Float(acc) · scale + bias, two roundings (no fused multiply-add), as the Swift stage. */
            float32x4_t v = vaddq_f32(vmulq_f32(vcvtq_f32_s32(sum), vdupq_n_f32(scale[o])), vdupq_n_f32(bias[o]));
            res[c] = swift_clamp4(v, lo, hi);
        }
        float *op = out + p * channels;
        if (n == 4 && channels == 1) vst1q_f32(op, res[0]);
        else if (n == 4 && channels == 2) { float32x4x2_t r2 = {{res[0], res[1]}}; vst2q_f32(op, r2); }
        else if (n == 4 && channels == 4) { float32x4x4_t r4 = {{res[0], res[1], res[2], res[3]}}; vst4q_f32(op, r4); }
        else {
            for (ptrdiff_t c = 0; c < channels; c++) {
                float l[4];
                vst1q_f32(l, res[c]);
                for (ptrdiff_t j = 0; j < n; j++) op[j * channels + c] = l[j];
            }
        }
    }
}

int booth_transpose_rows_s16_f32(const int16_t *a, ptrdiff_t pixels, ptrdiff_t a_stride, ptrdiff_t depth,
                                 const int16_t *w, ptrdiff_t channels, ptrdiff_t oc, const float *scale,
                                 const float *bias, float lower, float upper, float *out) {
    enum { MAXW = 2048 };
    if (channels < 1 || channels > 16 || oc < 1 || channels % oc != 0 || depth < 1 || depth * channels > MAXW ||
        pixels < 1)
        return 0;
    /* The filters channel-major (each channel's `depth` weights contiguous), from the 16-lane
     * GEMM packing [k][16]. */
    int16_t wt[MAXW];
    for (ptrdiff_t c = 0; c < channels; c++)
        for (ptrdiff_t k = 0; k < depth; k++) wt[c * depth + k] = w[k * 16 + c];
    if (channels == 2 && depth == 16) trows(a, pixels, a_stride, 16, wt, 2, oc, scale, bias, lower, upper, out);
    else trows(a, pixels, a_stride, depth, wt, channels, oc, scale, bias, lower, upper, out);
    return 1;
}

#else /* not aarch64: never chosen */

int booth_transpose_rows_s16_f32(const int16_t *a, ptrdiff_t pixels, ptrdiff_t a_stride, ptrdiff_t depth,
                                 const int16_t *w, ptrdiff_t channels, ptrdiff_t oc, const float *scale,
                                 const float *bias, float lower, float upper, float *out) {
    (void)a; (void)pixels; (void)a_stride; (void)depth; (void)w; (void)channels; (void)oc; (void)scale; (void)bias;
    (void)lower; (void)upper; (void)out;
    return 0;
}


int booth_neon_available(void) { return 0; }
int booth_cpu_has_dotprod(void) { return 0; }

void booth_gemm_s16(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth,
                    const int16_t *w, ptrdiff_t channels, const booth_output_stage *stage,
                    void *out, ptrdiff_t out_stride, int out_kind) {
    (void)a; (void)rows; (void)a_stride; (void)depth; (void)w; (void)channels; (void)stage;
    (void)out; (void)out_stride; (void)out_kind;
}
void booth_gemm_s8_mlal(const int8_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth, const int8_t *w,
                        ptrdiff_t channels, const int32_t *row_sums, int32_t zero_point,
                        const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int out_kind) {
    (void)a; (void)rows; (void)a_stride; (void)depth; (void)w; (void)channels; (void)row_sums; (void)zero_point;
    (void)stage; (void)out; (void)out_stride; (void)out_kind;
}
void booth_gemm_s8_dot(const int8_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth, const int8_t *w,
                       ptrdiff_t channels, const int32_t *row_sums, int32_t zero_point,
                       const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int out_kind) {
    (void)a; (void)rows; (void)a_stride; (void)depth; (void)w; (void)channels; (void)row_sums; (void)zero_point;
    (void)stage; (void)out; (void)out_stride; (void)out_kind;
}
void booth_depthwise_s8(const int8_t *origin, ptrdiff_t row_stride, ptrdiff_t step, ptrdiff_t pixels,
                        ptrdiff_t channels, int k, const int16_t *w, ptrdiff_t tap_stride, const int32_t *tap_sums,
                        int32_t zero_point, const booth_output_stage *stage, int8_t *out) {
    (void)origin; (void)row_stride; (void)step; (void)pixels; (void)channels; (void)k; (void)w;
    (void)tap_stride; (void)tap_sums; (void)zero_point; (void)stage; (void)out;
}
/* The two border stubs: one signature for either activation type. */
#define BOOTH_DEPTHWISE_BORDER_STUB(NAME, T)                                                           \
    void NAME(const T *input, ptrdiff_t input_width, ptrdiff_t channels, ptrdiff_t k, ptrdiff_t stride,   \
              ptrdiff_t pad_left, ptrdiff_t iy0, ptrdiff_t ky0, ptrdiff_t ky1, ptrdiff_t ox0, ptrdiff_t ox1, \
              const int16_t *w, ptrdiff_t tap_stride, int32_t zero_point, const booth_output_stage *stage,    \
              T *out_row) {                                                                            \
        (void)input; (void)input_width; (void)channels; (void)k; (void)stride; (void)pad_left; (void)iy0; \
        (void)ky0; (void)ky1; (void)ox0; (void)ox1; (void)w; (void)tap_stride; (void)zero_point; (void)stage; \
        (void)out_row;                                                                                 \
    }
BOOTH_DEPTHWISE_BORDER_STUB(booth_depthwise_border_s8, int8_t)
BOOTH_DEPTHWISE_BORDER_STUB(booth_depthwise_border_s16, int16_t)
void booth_depthwise_s16(const int16_t *origin, ptrdiff_t row_stride, ptrdiff_t step, ptrdiff_t pixels,
                         ptrdiff_t channels, int k, const int16_t *w, ptrdiff_t tap_stride, const int32_t *tap_sums,
                         int32_t zero_point, const booth_output_stage *stage, int16_t *out) {
    (void)origin; (void)row_stride; (void)step; (void)pixels; (void)channels; (void)k; (void)w;
    (void)tap_stride; (void)tap_sums; (void)zero_point; (void)stage; (void)out;
}
int booth_depthwise_layer_s16(const int16_t *input, ptrdiff_t input_height, ptrdiff_t input_width,
                              ptrdiff_t channels, int k, ptrdiff_t stride, ptrdiff_t pad_top, ptrdiff_t pad_left,
                              ptrdiff_t output_height, ptrdiff_t output_width, const int16_t *w,
                              ptrdiff_t tap_stride, const booth_output_stage *stage, int16_t *out) {
    (void)input; (void)input_height; (void)input_width; (void)channels; (void)k; (void)stride; (void)pad_top;
    (void)pad_left; (void)output_height; (void)output_width; (void)w; (void)tap_stride; (void)stage; (void)out;
    return 0;
}
void booth_elementwise_s8(const int8_t *a, const int8_t *b, ptrdiff_t count, ptrdiff_t period,
                          const booth_elementwise *p, int8_t *out) {
    (void)a; (void)b; (void)count; (void)period; (void)p; (void)out;
}
void booth_elementwise_s16(const int16_t *a, const int16_t *b, ptrdiff_t count, ptrdiff_t period,
                           const booth_elementwise *p, int16_t *out) {
    (void)a; (void)b; (void)count; (void)period; (void)p; (void)out;
}
void booth_prelu_s8(const int8_t *in, ptrdiff_t pixels, ptrdiff_t channels, int32_t input_zero_point,
                    int32_t output_zero_point, int32_t positive, const int32_t *negative, int32_t shift, int8_t *out) {
    (void)in; (void)pixels; (void)channels; (void)input_zero_point; (void)output_zero_point; (void)positive;
    (void)negative; (void)shift; (void)out;
}
void booth_lookup_s8(const int8_t *in, ptrdiff_t n, const int8_t *table, int8_t *out) {
    (void)in; (void)n; (void)table; (void)out;
}
void booth_lookup_s16(const int16_t *in, ptrdiff_t n, const int16_t *table, int16_t *out) {
    (void)in; (void)n; (void)table; (void)out;
}
void booth_logistic_f32(const float *in, ptrdiff_t n, float *out) {
    (void)in; (void)n; (void)out;
}
void booth_quantize_s8(const float *in, ptrdiff_t n, float inverse_scale, float zero_point, int8_t *out) {
    (void)in; (void)n; (void)inverse_scale; (void)zero_point; (void)out;
}
void booth_quantize_s16(const float *in, ptrdiff_t n, float inverse_scale, float zero_point, int16_t *out) {
    (void)in; (void)n; (void)inverse_scale; (void)zero_point; (void)out;
}
void booth_dequantize_s8(const int8_t *in, ptrdiff_t n, float scale, int32_t zero_point, float *out) {
    (void)in; (void)n; (void)scale; (void)zero_point; (void)out;
}
void booth_dequantize_s16(const int16_t *in, ptrdiff_t n, float scale, int32_t zero_point, float *out) {
    (void)in; (void)n; (void)scale; (void)zero_point; (void)out;
}

void booth_resize_rows_s8(const int8_t *r0, const int8_t *r1, ptrdiff_t width, ptrdiff_t channels,
                          const int32_t *x0s, const int32_t *x1s, const int16_t *fxs, int32_t fy, int8_t *out,
                          int32_t fy2, int8_t *out2) {
    (void)r0; (void)r1; (void)width; (void)channels; (void)x0s; (void)x1s; (void)fxs; (void)fy; (void)out;
    (void)fy2; (void)out2;
}
void booth_resize_rows_s16(const int16_t *r0, const int16_t *r1, ptrdiff_t width, ptrdiff_t channels,
                           const int32_t *x0s, const int32_t *x1s, const int16_t *fxs, int32_t fy, int16_t *out,
                           int32_t fy2, int16_t *out2) {
    (void)r0; (void)r1; (void)width; (void)channels; (void)x0s; (void)x1s; (void)fxs; (void)fy; (void)out;
    (void)fy2; (void)out2;
}

int booth_conv_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out) {
    (void)d; (void)in; (void)w; (void)bias; (void)out;
    return 0;
}
int booth_depthwise_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out) {
    (void)d; (void)in; (void)w; (void)bias; (void)out;
    return 0;
}
int booth_island_conv_q(const booth_fconv *d, const float *in, const float *w, const float *bias, int bits,
                        float inverse_scale, int32_t zero_point, void *out) {
    (void)d; (void)in; (void)w; (void)bias; (void)bits; (void)inverse_scale; (void)zero_point; (void)out;
    return 0;
}
int booth_island_depthwise_q(const booth_fconv *d, const float *in, const float *w, const float *bias, int bits,
                             float inverse_scale, int32_t zero_point, void *out) {
    (void)d; (void)in; (void)w; (void)bias; (void)bits; (void)inverse_scale; (void)zero_point; (void)out;
    return 0;
}
int booth_transpose_f32(const booth_fconv *d, const float *in, float *packed, const float *bias, float *out) {
    (void)d; (void)in; (void)packed; (void)bias; (void)out;
    return 0;
}

void booth_binary_f32(int op, const float *a, const float *b, ptrdiff_t n, float lo, float hi, float *out) {
    (void)op; (void)a; (void)b; (void)n; (void)lo; (void)hi; (void)out;
}
void booth_binary_f32_rows(int op, const float *a, ptrdiff_t a_row, ptrdiff_t a_inner, const float *b, ptrdiff_t b_row,
                           ptrdiff_t b_inner, ptrdiff_t rows, ptrdiff_t n, float lo, float hi, float *out) {
    (void)op; (void)a; (void)a_row; (void)a_inner; (void)b; (void)b_row; (void)b_inner; (void)rows; (void)n; (void)lo;
    (void)hi; (void)out;
}

#endif

/* Portable: the regrouped transposed weights and the kernel's scratch (FloatProgram packs them once). */
ptrdiff_t booth_transpose_f32_packed_count(ptrdiff_t in_c, ptrdiff_t out_c, ptrdiff_t k_h, ptrdiff_t k_w) {
    ptrdiff_t colp = (k_h * k_w * out_c + 3) & ~(ptrdiff_t)3;
    return in_c * colp + 8 * colp;
}

void booth_transpose_f32_pack(ptrdiff_t in_c, ptrdiff_t out_c, ptrdiff_t k_h, ptrdiff_t k_w, const float *w,
                              float *packed) {
    ptrdiff_t ocp = (out_c + 7) & ~(ptrdiff_t)7, taps = k_h * k_w, cols = taps * out_c;
    ptrdiff_t colp = (cols + 3) & ~(ptrdiff_t)3;
    for (ptrdiff_t i = 0; i < in_c; i++) {
        for (ptrdiff_t t = 0; t < taps; t++)
            for (ptrdiff_t o = 0; o < out_c; o++) packed[i * colp + t * out_c + o] = w[(t * in_c + i) * ocp + o];
        for (ptrdiff_t j = cols; j < colp; j++) packed[i * colp + j] = 0;
    }
    for (ptrdiff_t j = 0; j < 8 * colp; j++) packed[in_c * colp + j] = 0;
}

/* im2col into int16 rows (NeuralCore's `im2col`, the int16 GEMM's A), from int16 or int8
 * activations. Portable C with GCC/Clang vector types: eight values per step (a load, widened
 * for int8, one subtraction of the zero point, a store), the last eight of a span overlapping the
 * ones before, where Swift's `im2colSpan` went through lane-by-lane stores. */
typedef int16_t im2col_v8h __attribute__((vector_size(16)));
typedef int16_t im2col_v4h __attribute__((vector_size(8)));
typedef int8_t im2col_v8b __attribute__((vector_size(8)));
typedef int8_t im2col_v4b __attribute__((vector_size(4)));

static inline __attribute__((always_inline)) im2col_v8h im2col_load8(const char *p, int wide) {
    if (wide) {
        im2col_v8h v;
        __builtin_memcpy(&v, p, 16);
        return v;
    }
#if defined(__aarch64__)
    return (im2col_v8h)vmovl_s8(vld1_s8((const int8_t *)p)); /* GCC scalarises the conversion below */
#else
    im2col_v8b b;
    __builtin_memcpy(&b, p, 8);
    return __builtin_convertvector(b, im2col_v8h);
#endif
}

static inline __attribute__((always_inline)) im2col_v4h im2col_load4(const char *p, int wide) {
    if (wide) {
        im2col_v4h v;
        __builtin_memcpy(&v, p, 8);
        return v;
    }
#if defined(__aarch64__)
    int32_t w;
    __builtin_memcpy(&w, p, 4);
    return (im2col_v4h)vget_low_s16(vmovl_s8(vreinterpret_s8_s32(vdup_n_s32(w))));
#else
    im2col_v4b b;
    __builtin_memcpy(&b, p, 4);
    return __builtin_convertvector(b, im2col_v4h);
#endif
}

/* dst[k] = src[k] − zp for k < n (`wide`: int16 source, else int8). */
static inline __attribute__((always_inline)) void im2col_span(int16_t *dst, const char *src, size_t n, int16_t zp,
                                                              int wide) {
    size_t es = wide ? 2 : 1;
    if (n >= 8) {
        im2col_v8h z = {zp, zp, zp, zp, zp, zp, zp, zp};
        size_t k = 0;
        for (; k + 8 <= n; k += 8) {
            im2col_v8h v = im2col_load8(src + k * es, wide) - z;
            __builtin_memcpy(dst + k, &v, 16);
        }
        if (k < n) {
            im2col_v8h v = im2col_load8(src + (n - 8) * es, wide) - z;
            __builtin_memcpy(dst + n - 8, &v, 16);
        }
    } else if (n >= 4) {
        im2col_v4h z = {zp, zp, zp, zp};
        im2col_v4h v = im2col_load4(src, wide) - z, u = im2col_load4(src + (n - 4) * es, wide) - z;
        __builtin_memcpy(dst, &v, 8);
        __builtin_memcpy(dst + n - 4, &u, 8);
    } else {
        for (size_t k = 0; k < n; k++)
            dst[k] = (int16_t)((wide ? ((const int16_t *)(const void *)src)[k] : (int16_t)((const int8_t *)src)[k]) - zp);
    }
}

/* n zeros (int16). */
static inline __attribute__((always_inline)) void im2col_zeros(int16_t *dst, size_t n) {
    if (n >= 8) {
        im2col_v8h z = {0, 0, 0, 0, 0, 0, 0, 0};
        size_t k = 0;
        for (; k + 8 <= n; k += 8) __builtin_memcpy(dst + k, &z, 16);
        if (k < n) __builtin_memcpy(dst + n - 8, &z, 16);
    } else if (n >= 4) {
        im2col_v4h z = {0, 0, 0, 0};
        __builtin_memcpy(dst, &z, 8);
        __builtin_memcpy(dst + n - 4, &z, 8);
    } else {
        for (size_t k = 0; k < n; k++) dst[k] = 0;
    }
}

/* `pixels` window rows lying wholly inside the image, side by side in one output row (source
 * windows `src_step` bytes apart). Kernel rows of 8 to 16 values (the 3×3 convolutions of 3
 * input channels) are two overlapping eights each, without a loop. */
static inline __attribute__((always_inline)) void im2col16_inside(
    int16_t *dst, const char *src, ptrdiff_t pixels, size_t src_step, ptrdiff_t depth_stride, ptrdiff_t kernel_height,
    size_t kwc, size_t row_pitch, int16_t zp, int trailing, int wide) {
    size_t es = wide ? 2 : 1;
    if (kwc >= 8 && kwc <= 16) {
        im2col_v8h z = {zp, zp, zp, zp, zp, zp, zp, zp};
        size_t tail = kwc - 8;
        for (ptrdiff_t p = 0; p < pixels; p++, dst += depth_stride, src += src_step) {
            const char *s = src;
            int16_t *d = dst;
            for (ptrdiff_t ky = 0; ky < kernel_height; ky++, s += row_pitch, d += kwc) {
                im2col_v8h v = im2col_load8(s, wide) - z, u = im2col_load8(s + tail * es, wide) - z;
                __builtin_memcpy(d, &v, 16);
                __builtin_memcpy(d + tail, &u, 16);
            }
            if (trailing) *d = 0;
        }
    } else {
        for (ptrdiff_t p = 0; p < pixels; p++, dst += depth_stride, src += src_step) {
            const char *s = src;
            int16_t *d = dst;
            for (ptrdiff_t ky = 0; ky < kernel_height; ky++, s += row_pitch, d += kwc) im2col_span(d, s, kwc, zp, wide);
            if (trailing) *d = 0;
        }
    }
}

static inline __attribute__((always_inline)) void im2col16(
    const void *input, ptrdiff_t input_height, ptrdiff_t input_width, ptrdiff_t channels, ptrdiff_t kernel_height,
    ptrdiff_t kernel_width, ptrdiff_t stride_y, ptrdiff_t stride_x, ptrdiff_t pad_top, ptrdiff_t pad_left,
    ptrdiff_t output_width, ptrdiff_t first, ptrdiff_t count, ptrdiff_t depth_stride, int16_t zp, int16_t *a, int wide) {
    size_t es = wide ? 2 : 1, c = (size_t)channels, kwc = (size_t)kernel_width * c, depth = (size_t)kernel_height * kwc;
    const char *in = (const char *)input;
    size_t row_pitch = (size_t)input_width * c * es;
    if (kernel_height == 1 && kernel_width == 1 && stride_y == 1 && stride_x == 1 && pad_top == 0 && pad_left == 0
        && output_width == input_width && (size_t)depth_stride == c) {
        im2col_span(a, in + (size_t)first * c * es, (size_t)count * c, zp, wide);
        return;
    }
    int trailing = (size_t)depth_stride > depth;
    /* Output columns [x_lo, x_hi) have windows inside the image horizontally. */
    ptrdiff_t x_lo = (pad_left + stride_x - 1) / stride_x;
    ptrdiff_t right = input_width - kernel_width + pad_left;
    ptrdiff_t x_hi = right < 0 ? 0 : right / stride_x + 1;
    if (x_hi > output_width) x_hi = output_width;
    ptrdiff_t oy = first / output_width, ox = first - oy * output_width;
    for (ptrdiff_t i = 0; i < count;) {
        ptrdiff_t iy0 = oy * stride_y - pad_top, ix0 = ox * stride_x - pad_left;
        int16_t *dst = a + i * depth_stride;
        int inside_y = iy0 >= 0 && iy0 + kernel_height <= input_height;
        if (inside_y && ox >= x_lo && ox < x_hi) {
            ptrdiff_t run = x_hi - ox;
            if (run > count - i) run = count - i;
            const char *src = in + (size_t)iy0 * row_pitch + (size_t)ix0 * c * es;
            size_t step = (size_t)stride_x * c * es;
            if (kernel_height == 3 && trailing) /* unrolled: selfie's first convolution (3×3, 3 channels) */
                im2col16_inside(dst, src, run, step, depth_stride, 3, kwc, row_pitch, zp, 1, wide);
            else
                im2col16_inside(dst, src, run, step, depth_stride, kernel_height, kwc, row_pitch, zp, trailing, wide);
            i += run;
            ox += run;
            if (ox == output_width) { ox = 0; oy++; }
            continue;
        }
        int inside_x = ix0 >= 0 && ix0 + kernel_width <= input_width;
        for (ptrdiff_t ky = 0; ky < kernel_height; ky++, dst += kwc) {
            ptrdiff_t iy = iy0 + ky;
            if (iy < 0 || iy >= input_height) {
                im2col_zeros(dst, kwc);
            } else if (inside_x) {
                im2col_span(dst, in + (size_t)iy * row_pitch + (size_t)ix0 * c * es, kwc, zp, wide);
            } else {
                for (ptrdiff_t kx = 0; kx < kernel_width; kx++) {
                    ptrdiff_t ix = ix0 + kx;
                    if (ix < 0 || ix >= input_width) im2col_zeros(dst + kx * c, c);
                    else im2col_span(dst + kx * c, in + (size_t)iy * row_pitch + (size_t)ix * c * es, c, zp, wide);
                }
            }
        }
        if (trailing) *dst = 0;
        i++;
        if (++ox == output_width) { ox = 0; oy++; }
    }
}

void booth_im2col_s16(const int16_t *input, ptrdiff_t input_height, ptrdiff_t input_width, ptrdiff_t channels,
                      ptrdiff_t kernel_height, ptrdiff_t kernel_width, ptrdiff_t stride_y, ptrdiff_t stride_x,
                      ptrdiff_t pad_top, ptrdiff_t pad_left, ptrdiff_t output_width, ptrdiff_t first, ptrdiff_t count,
                      ptrdiff_t depth_stride, int16_t zero_point, int16_t *a) {
    im2col16(input, input_height, input_width, channels, kernel_height, kernel_width, stride_y, stride_x, pad_top,
             pad_left, output_width, first, count, depth_stride, zero_point, a, 1);
}

void booth_im2col_s8_s16(const int8_t *input, ptrdiff_t input_height, ptrdiff_t input_width, ptrdiff_t channels,
                         ptrdiff_t kernel_height, ptrdiff_t kernel_width, ptrdiff_t stride_y, ptrdiff_t stride_x,
                         ptrdiff_t pad_top, ptrdiff_t pad_left, ptrdiff_t output_width, ptrdiff_t first, ptrdiff_t count,
                         ptrdiff_t depth_stride, int16_t zero_point, int16_t *a) {
    im2col16(input, input_height, input_width, channels, kernel_height, kernel_width, stride_y, stride_x, pad_top,
             pad_left, output_width, first, count, depth_stride, zero_point, a, 0);
}

/* ---- Width conversion (mix): int8 ↔ int16 requantisation, NeuralCore's WidthConversion. ---- */
#if defined(__aarch64__)
/* Eight int32 lanes of one conversion: (x − zp_in) << left, `sqrdmulh`, gemmlowp's rounding right
 * shift (the `fixup4` + `srshl` of the output stages), + zp_out (wrapping). The flags are
 * constants in each copy: no `sshl` by 0, no fix-up and shift by 0, no zero point 0. */
#define CONVERT4(v, SH, RT, ZO)                                                                   \
    do {                                                                                          \
        if (SH) v = vshlq_s32(v, left);                                                           \
        v = vqrdmulhq_s32(v, mult);                                                               \
        if (RT) v = vrshlq_s32(fixup4(v, nright), nright);                                        \
        if (ZO) v = vaddq_s32(v, zo);                                                             \
    } while (0)

/* Sixteen values from `s` to `d` (`in_wide` / `out_wide`: int16, else int8, input / output).
 * Saturating narrows (`sqxtn`) are the reference's clamp to the output type. */
static inline __attribute__((always_inline)) void convert16(
    int in_wide, int out_wide, int SH, int RT, int ZI, int ZO, const char *s, char *d, int16x8_t zi, int32x4_t left,
    int32x4_t mult, int32x4_t nright, int32x4_t zo) {
    int16x8_t h0, h1;
    if (in_wide) {
        h0 = vld1q_s16((const int16_t *)(const void *)s);
        h1 = vld1q_s16((const int16_t *)(const void *)s + 8);
    } else {
        int8x16_t b = vld1q_s8((const int8_t *)s);
        h0 = vmovl_s8(vget_low_s8(b));
        h1 = vmovl_high_s8(b);
    }
    int32x4_t v0, v1, v2, v3;
    if (ZI) {
        /* int16 − int16 in int32 lanes (`ssubl`): exact, as the reference's int32 subtraction. */
        v0 = vsubl_s16(vget_low_s16(h0), vget_low_s16(zi));
        v1 = vsubl_high_s16(h0, zi);
        v2 = vsubl_s16(vget_low_s16(h1), vget_low_s16(zi));
        v3 = vsubl_high_s16(h1, zi);
    } else {
        v0 = vmovl_s16(vget_low_s16(h0));
        v1 = vmovl_high_s16(h0);
        v2 = vmovl_s16(vget_low_s16(h1));
        v3 = vmovl_high_s16(h1);
    }
    CONVERT4(v0, SH, RT, ZO);
    CONVERT4(v1, SH, RT, ZO);
    CONVERT4(v2, SH, RT, ZO);
    CONVERT4(v3, SH, RT, ZO);
    int16x8_t o0 = vqmovn_high_s32(vqmovn_s32(v0), v1);
    int16x8_t o1 = vqmovn_high_s32(vqmovn_s32(v2), v3);
    if (out_wide) {
        vst1q_s16((int16_t *)(void *)d, o0);
        vst1q_s16((int16_t *)(void *)d + 8, o1);
    } else {
        vst1q_s8((int8_t *)d, vqmovn_high_s16(vqmovn_s16(o0), o1));
    }
}

/* `n` values, sixteen at a time, the last 1...15 through a zeroed 16-lane copy (one `memcpy` in
 * and out, after the loop). */
static inline __attribute__((always_inline)) void convert_run(
    int in_wide, int out_wide, int SH, int RT, int ZI, int ZO, const void *in, ptrdiff_t n, int32_t zp_in,
    int32_t multiplier, int32_t left_shift, int32_t right_shift, int32_t zp_out, void *out) {
    const int32x4_t left = vdupq_n_s32(left_shift), mult = vdupq_n_s32(multiplier);
    const int32x4_t nright = vdupq_n_s32(-right_shift), zo = vdupq_n_s32(zp_out);
    const int16x8_t zi = vdupq_n_s16((int16_t)zp_in);
    const char *src = (const char *)in;
    char *dst = (char *)out;
    const size_t isz = in_wide ? 2 : 1, osz = out_wide ? 2 : 1;
    ptrdiff_t i = 0;
    for (; i + 16 <= n; i += 16)
        convert16(in_wide, out_wide, SH, RT, ZI, ZO, src + (size_t)i * isz, dst + (size_t)i * osz, zi, left, mult,
                  nright, zo);
    if (i < n) {
        int16_t pad_in[16] = {0}, pad_out[16];
        size_t rest = (size_t)(n - i);
        memcpy(pad_in, src + (size_t)i * isz, rest * isz);
        convert16(in_wide, out_wide, SH, RT, ZI, ZO, (const char *)pad_in, (char *)pad_out, zi, left, mult, nright, zo);
        memcpy(dst + (size_t)i * osz, pad_out, rest * osz);
    }
}

/* The entry's flags as constants: left shift, right shift, input and output zero points (16
 * copies of a short loop), chosen by nested `if`s (a `switch` became a jump table whose shared
 * blocks neon-check reads as a loop around the calls). */
#define CONVERT_RUN(IW, OW, SH, RT, ZI, ZO) \
    convert_run(IW, OW, SH, RT, ZI, ZO, in, n, zp_in, multiplier, left_shift, right_shift, zp_out, out)
#define CONVERT_ZO(IW, OW, SH, RT, ZI) \
    do { if (zp_out != 0) CONVERT_RUN(IW, OW, SH, RT, ZI, 1); else CONVERT_RUN(IW, OW, SH, RT, ZI, 0); } while (0)
#define CONVERT_ZI(IW, OW, SH, RT) \
    do { if (zp_in != 0) CONVERT_ZO(IW, OW, SH, RT, 1); else CONVERT_ZO(IW, OW, SH, RT, 0); } while (0)
#define CONVERT_RT(IW, OW, SH) \
    do { if (right_shift != 0) CONVERT_ZI(IW, OW, SH, 1); else CONVERT_ZI(IW, OW, SH, 0); } while (0)
#define CONVERT_BY_FLAGS(IW, OW) \
    do { if (left_shift != 0) CONVERT_RT(IW, OW, 1); else CONVERT_RT(IW, OW, 0); } while (0)

void booth_convert_s8_s16(const int8_t *in, ptrdiff_t n, int32_t zp_in, int32_t multiplier, int32_t left_shift,
                          int32_t right_shift, int32_t zp_out, int16_t *out) {
    CONVERT_BY_FLAGS(0, 1);
}

void booth_convert_s16_s8(const int16_t *in, ptrdiff_t n, int32_t zp_in, int32_t multiplier, int32_t left_shift,
                          int32_t right_shift, int32_t zp_out, int8_t *out) {
    CONVERT_BY_FLAGS(1, 0);
}

void booth_convert_s8_s8(const int8_t *in, ptrdiff_t n, int32_t zp_in, int32_t multiplier, int32_t left_shift,
                         int32_t right_shift, int32_t zp_out, int8_t *out) {
    CONVERT_BY_FLAGS(0, 0);
}

/* int8 ADD / MUL (`booth_elementwise_s8`), sixteen values per step with the output clamp on
 * int8 lanes: the int32 results narrowed by `sqxtn` twice (saturating, so the same as clamping
 * first: the bounds lie in int8), then `smax`/`smin` (was four int32 clamps and three `xtn`).
 * ADD: k + x1·s1 + x2·s2 in int32 (`mla` by the scales, which need 22 bits), `k` the rounding
 * constant with both zero points folded in (and a broadcast x2's product), the arithmetic shift,
 * the output zero point (left out when 0). MUL: (x1 − zp1)·(x2 − zp2) by `ssubl` (int8 − int8 in
 * int16, exact) and `smull` (exact in int32), then `scale4`. The values of elementwise16. */
static inline __attribute__((always_inline)) int8x16_t narrow_clamp_s8(int32x4_t v0, int32x4_t v1, int32x4_t v2,
                                                                      int32x4_t v3, int8x16_t lo, int8x16_t hi) {
    int16x8_t h0 = vqmovn_high_s32(vqmovn_s32(v0), v1), h1 = vqmovn_high_s32(vqmovn_s32(v2), v3);
    return vminq_s8(vmaxq_s8(vqmovn_high_s16(vqmovn_s16(h0), h1), lo), hi);
}

static inline __attribute__((always_inline)) int8x16_t add16_s8(int8x16_t x1, int8x16_t x2, int splat, int zout,
                                                               int32_t s1, int32_t s2, int32x4_t k, int32x4_t shift,
                                                               int32x4_t zpo, int8x16_t lo, int8x16_t hi) {
    int16x8_t a0 = vmovl_s8(vget_low_s8(x1)), a1 = vmovl_high_s8(x1);
    int32x4_t v[4];
    v[0] = vmlaq_n_s32(k, vmovl_s16(vget_low_s16(a0)), s1);
    v[1] = vmlaq_n_s32(k, vmovl_high_s16(a0), s1);
    v[2] = vmlaq_n_s32(k, vmovl_s16(vget_low_s16(a1)), s1);
    v[3] = vmlaq_n_s32(k, vmovl_high_s16(a1), s1);
    if (!splat) {
        int16x8_t b0 = vmovl_s8(vget_low_s8(x2)), b1 = vmovl_high_s8(x2);
        v[0] = vmlaq_n_s32(v[0], vmovl_s16(vget_low_s16(b0)), s2);
        v[1] = vmlaq_n_s32(v[1], vmovl_high_s16(b0), s2);
        v[2] = vmlaq_n_s32(v[2], vmovl_s16(vget_low_s16(b1)), s2);
        v[3] = vmlaq_n_s32(v[3], vmovl_high_s16(b1), s2);
    }
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++) {
        v[j] = vshlq_s32(v[j], shift);
        if (!zout) v[j] = vaddq_s32(v[j], zpo);
    }
    return narrow_clamp_s8(v[0], v[1], v[2], v[3], lo, hi);
}

static inline __attribute__((always_inline)) int8x16_t mul16_s8(int8x16_t x1, int8x16_t x2, int shifted, int zout,
                                                               int8x8_t z1, int8x8_t z2, stage4 s, int32x4_t zpo,
                                                               int8x16_t lo, int8x16_t hi) {
    int16x8_t a0 = vsubl_s8(vget_low_s8(x1), z1), a1 = vsubl_s8(vget_high_s8(x1), z1);
    int16x8_t b0 = vsubl_s8(vget_low_s8(x2), z2), b1 = vsubl_s8(vget_high_s8(x2), z2);
    int32x4_t v[4] = {vmull_s16(vget_low_s16(a0), vget_low_s16(b0)), vmull_high_s16(a0, b0),
                      vmull_s16(vget_low_s16(a1), vget_low_s16(b1)), vmull_high_s16(a1, b1)};
    const int addzp = !zout; /* DW_SCALE's names for the flags and the zero point */
    const int32x4_t zp = zpo;
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++) v[j] = DW_SCALE(v[j], s);
    return narrow_clamp_s8(v[0], v[1], v[2], v[3], lo, hi);
}

/* Every period (`chunk` values, or the whole tensor when b is one value), sixteen values per
 * step by `OP16(x1, x2)`, the tail through a zero-padded copy; a broadcast b is `BSPLAT`. */
#define S8_ROWS(BSPLAT, OP16)                                                                        \
    do {                                                                                             \
        ptrdiff_t chunk = splat ? count : period;                                                    \
        for (ptrdiff_t base = 0; base < count; base += chunk) {                                      \
            ptrdiff_t i = 0;                                                                         \
            for (; i + 16 <= chunk; i += 16)                                                         \
                vst1q_s8(out + base + i, OP16(vld1q_s8(a + base + i), splat ? (BSPLAT) : vld1q_s8(b + i))); \
            if (i < chunk) {                                                                         \
                int8_t ta[16] = {0}, tb[16] = {0}, to[16];                                           \
                ptrdiff_t n = chunk - i;                                                             \
                memcpy(ta, a + base + i, (size_t)n);                                                 \
                if (!splat) memcpy(tb, b + i, (size_t)n);                                            \
                vst1q_s8(to, OP16(vld1q_s8(ta), splat ? (BSPLAT) : vld1q_s8(tb)));                   \
                memcpy(out + base + i, to, (size_t)n);                                               \
            }                                                                                        \
        }                                                                                            \
    } while (0)

static inline __attribute__((always_inline)) void add_s8(const int8_t *a, const int8_t *b, ptrdiff_t count,
                                                         ptrdiff_t period, const booth_elementwise *p, int splat,
                                                         int zout, int8_t *out) {
    int32x4_t k = vdupq_n_s32(add_constant(p, splat, splat ? b[0] : 0)), shift = vdupq_n_s32(-p->shift), zpo = vdupq_n_s32(p->output_zero_point);
    int8x16_t lo = vdupq_n_s8((int8_t)p->minimum), hi = vdupq_n_s8((int8_t)p->maximum);
    int32_t s1 = p->scale1, s2 = p->scale2;
    int8x16_t zero = vdupq_n_s8(0);
#define ADD16(x1, x2) add16_s8(x1, x2, splat, zout, s1, s2, k, shift, zpo, lo, hi)
    S8_ROWS(zero, ADD16);
#undef ADD16
}

static inline __attribute__((always_inline)) void mul_s8(const int8_t *a, const int8_t *b, ptrdiff_t count,
                                                         ptrdiff_t period, const booth_elementwise *p, int splat,
                                                         int shifted, int zout, int8_t *out) {
    stage4 s = {vdupq_n_s32(p->left_shift), vdupq_n_s32(p->multiplier), vdupq_n_s32(-p->right_shift)};
    int8x8_t z1 = vdup_n_s8((int8_t)p->zero_point1), z2 = vdup_n_s8((int8_t)p->zero_point2);
    int32x4_t zpo = vdupq_n_s32(p->output_zero_point);
    int8x16_t lo = vdupq_n_s8((int8_t)p->minimum), hi = vdupq_n_s8((int8_t)p->maximum);
    int8x16_t bs = vdupq_n_s8(splat ? b[0] : 0);
#define MUL16(x1, x2) mul16_s8(x1, x2, shifted, zout, z1, z2, s, zpo, lo, hi)
    S8_ROWS(bs, MUL16);
#undef MUL16
}
#undef S8_ROWS

static int elementwise_s8_narrow(const int8_t *a, const int8_t *b, ptrdiff_t count, ptrdiff_t period,
                                 const booth_elementwise *p, int8_t *out) {
    if (p->minimum < INT8_MIN || p->maximum > INT8_MAX || p->minimum > p->maximum) return 0;
    int splat = period == 1, zout = p->output_zero_point == 0;
    if (p->mul) {
        if (p->zero_point1 < INT8_MIN || p->zero_point1 > INT8_MAX || p->zero_point2 < INT8_MIN ||
            p->zero_point2 > INT8_MAX)
            return 0;
        /* `shifted`: DW_SCALE's general stage (a left shift, or no right shift). */
        int shifted = p->left_shift != 0 || p->right_shift <= 0;
        int f = splat | shifted << 1 | zout << 2;
        switch (f) {
        case 0: mul_s8(a, b, count, period, p, 0, 0, 0, out); break;
        case 1: mul_s8(a, b, count, period, p, 1, 0, 0, out); break;
        case 2: mul_s8(a, b, count, period, p, 0, 1, 0, out); break;
        case 3: mul_s8(a, b, count, period, p, 1, 1, 0, out); break;
        case 4: mul_s8(a, b, count, period, p, 0, 0, 1, out); break;
        case 5: mul_s8(a, b, count, period, p, 1, 0, 1, out); break;
        case 6: mul_s8(a, b, count, period, p, 0, 1, 1, out); break;
        default: mul_s8(a, b, count, period, p, 1, 1, 1, out); break;
        }
        return 1;
    }
    if (splat && zout) add_s8(a, b, count, 1, p, 1, 1, out);
    else if (splat) add_s8(a, b, count, 1, p, 1, 0, out);
    else if (zout) add_s8(a, b, count, period, p, 0, 1, out);
    else add_s8(a, b, count, period, p, 0, 0, out);
    return 1;
}

/* ADD then PRELU (booth_add_prelu_s8) on sixteen values: the ADD's zero point is the PRELU's input
 * zero point (one tensor), so PRELU's x = clamp(t + zp, lo, hi) − zp = clamp(t, lo − zp, hi − zp)
 * with t = (x1·s1 + x2·s2 + k) >> shift (add16_s8's int32 sum, before its zero point): the int8
 * value is never formed, only its offset from the zero point, in int32 lanes. Then
 * x·m = x·positive + min(x, 0)·(negative − positive) (`mul`, `smin`, `mla` in wrapping int32: the
 * same int32 as x·m, which |x·m| < 255·2^23 keeps from wrapping; no mask copies for `bsl`), the
 * rounding shift (`srshl`) and prelu16_narrow's zero point and clamp. */
static inline __attribute__((always_inline)) int8x16_t add_prelu16(int8x16_t x1, int8x16_t x2, int32_t s1, int32_t s2,
                                                                  int32x4_t k, int32x4_t ashift, int32x4_t lo,
                                                                  int32x4_t hi, int32_t positive, const int32_t *delta,
                                                                  int32x4_t sh, int16x8_t zpo) {
    int16x8_t a0 = vmovl_s8(vget_low_s8(x1)), a1 = vmovl_high_s8(x1);
    int16x8_t b0 = vmovl_s8(vget_low_s8(x2)), b1 = vmovl_high_s8(x2);
    int32x4_t v[4];
    v[0] = vmlaq_n_s32(vmlaq_n_s32(k, vmovl_s16(vget_low_s16(a0)), s1), vmovl_s16(vget_low_s16(b0)), s2);
    v[1] = vmlaq_n_s32(vmlaq_n_s32(k, vmovl_high_s16(a0), s1), vmovl_high_s16(b0), s2);
    v[2] = vmlaq_n_s32(vmlaq_n_s32(k, vmovl_s16(vget_low_s16(a1)), s1), vmovl_s16(vget_low_s16(b1)), s2);
    v[3] = vmlaq_n_s32(vmlaq_n_s32(k, vmovl_high_s16(a1), s1), vmovl_high_s16(b1), s2);
    int32x4_t zero = vdupq_n_s32(0);
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++) {
        int32x4_t x = vminq_s32(vmaxq_s32(vshlq_s32(v[j], ashift), lo), hi);
        int32x4_t xm = vmlaq_s32(vmulq_n_s32(x, positive), vminq_s32(x, zero), vld1q_s32(delta + 4 * j));
        v[j] = vrshlq_s32(xm, sh);
    }
    int16x8_t h0 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(v[0]), v[1]), zpo);
    int16x8_t h1 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(v[2]), v[3]), zpo);
    return vqmovn_high_s16(vqmovn_s16(h0), h1);
}

/* The delta rows add_prelu16 reads, built per call (channels + 16 values) for up to this many
 * channels; more: the caller's two passes. */
#define ADD_PRELU_MAX_CHANNELS 256

int booth_add_prelu_s8(const int8_t *a, const int8_t *b, ptrdiff_t count, const booth_elementwise *p,
                       ptrdiff_t channels, int32_t input_zero_point, int32_t output_zero_point, int32_t positive,
                       const int32_t *negative, int32_t shift, int8_t *out) {
    if (p->mul || p->minimum < INT8_MIN || p->maximum > INT8_MAX || p->minimum > p->maximum || channels <= 0 ||
        channels > ADD_PRELU_MAX_CHANNELS || count % channels != 0 || p->output_zero_point != input_zero_point ||
        !prelu_narrow(input_zero_point, output_zero_point, shift))
        return 0;
    int32_t delta[ADD_PRELU_MAX_CHANNELS + 16];
    for (ptrdiff_t r = 0; r < channels + 16; r++) delta[r] = (int32_t)((uint32_t)negative[r] - (uint32_t)positive);
    const int32_t zp = input_zero_point;
    int32x4_t k = vdupq_n_s32(add_constant(p, 0, 0)), ashift = vdupq_n_s32(-p->shift);
    int32x4_t lo = vdupq_n_s32(p->minimum - zp), hi = vdupq_n_s32(p->maximum - zp);
    int32_t s1 = p->scale1, s2 = p->scale2;
    int16x8_t zpo = vdupq_n_s16((int16_t)output_zero_point);
    int32x4_t sh = vdupq_n_s32(-shift);
    ptrdiff_t i = 0, ch = 0;
    for (; i + 16 <= count; i += 16) {
        vst1q_s8(out + i, add_prelu16(vld1q_s8(a + i), vld1q_s8(b + i), s1, s2, k, ashift, lo, hi, positive, delta + ch,
                                      sh, zpo));
        ch += 16;
        if (ch >= channels) { ch -= channels; if (ch >= channels) ch %= channels; }
    }
    if (i < count) {
        int8_t ta[16] = {0}, tb[16] = {0}, to[16];
        ptrdiff_t n = count - i;
        memcpy(ta, a + i, (size_t)n);
        memcpy(tb, b + i, (size_t)n);
        vst1q_s8(to, add_prelu16(vld1q_s8(ta), vld1q_s8(tb), s1, s2, k, ashift, lo, hi, positive, delta + ch, sh, zpo));
        memcpy(out + i, to, (size_t)n);
    }
    return 1;
}
#undef ADD_PRELU_MAX_CHANNELS

/* Eight channels of a 3×3 int8 depthwise interior row in int8 products: the nine filters
 * narrowed once to int8 (they are −127...127, so two products x·w sum within int16: |x·w| ≤
 * 128·127), per pixel taps in pairs: `smull` + `smlal` of two taps' int8 lanes into int16, then
 * `saddw`/`saddw2` into the int32 accumulators (19 instructions for the nine taps against 18
 * `smlal` and 9 `sxtl` widening the activations). The same sums, so the same values as
 * `dw3_half`; the output stage as there. */
static inline __attribute__((always_inline)) void dw3_half_s8_pairs(
    int shifted, int addzp, const int8_t *origin, ptrdiff_t row_stride, ptrdiff_t step, ptrdiff_t pixels,
    ptrdiff_t channels, const int16_t *wc, ptrdiff_t tap_stride, int32x4_t start0, int32x4_t start1, stage4 s0,
    stage4 s1, int32x4_t zp, int8x8_t lo8, int8x8_t hi8, int8_t *out) {
    int8x8_t wv[9];
#pragma GCC unroll 9
    for (int t = 0; t < 9; t++) wv[t] = vmovn_s16(vld1q_s16(wc + t * tap_stride));
    const int8_t *p = origin;
    int8_t *o = out;
    for (ptrdiff_t px = 0; px < pixels; px++) {
        int8x8_t x[9];
#pragma GCC unroll 9
        for (int t = 0; t < 9; t++) x[t] = vld1_s8(p + (t / 3) * row_stride + (t % 3) * channels);
        int32x4_t c0 = start0, c1 = start1;
#pragma GCC unroll 4
        for (int t = 0; t < 8; t += 2) {
            int16x8_t pr = vmlal_s8(vmull_s8(x[t], wv[t]), x[t + 1], wv[t + 1]);
            c0 = vaddw_s16(c0, vget_low_s16(pr));
            c1 = vaddw_high_s16(c1, pr);
        }
        int16x8_t last = vmull_s8(x[8], wv[8]);
        c0 = vaddw_s16(c0, vget_low_s16(last));
        c1 = vaddw_high_s16(c1, last);
        int16x8_t h = vqmovn_high_s32(vqmovn_s32(DW_SCALE(c0, s0)), DW_SCALE(c1, s1));
        vst1_s8(o, vmin_s8(vmax_s8(vqmovn_s16(h), lo8), hi8));
        p += step;
        o += channels;
    }
}

void booth_depthwise_s8_pairs(const int8_t *origin, ptrdiff_t row_stride, ptrdiff_t step, ptrdiff_t pixels,
                              ptrdiff_t channels, int k, const int16_t *w, ptrdiff_t tap_stride,
                              const int32_t *tap_sums, int32_t zero_point, const booth_output_stage *stage,
                              int8_t *out) {
    if (k != 3) {
        booth_depthwise_s8(origin, row_stride, step, pixels, channels, k, w, tap_stride, tap_sums, zero_point, stage,
                           out);
        return;
    }
    int32x4_t zp = vdupq_n_s32(stage->zero_point), izp = vdupq_n_s32(zero_point);
    /* The clamp bounds lie in int8 (the output stage of an int8 tensor). */
    int8x8_t lo8 = vdup_n_s8((int8_t)stage->minimum), hi8 = vdup_n_s8((int8_t)stage->maximum);
    int addzp = stage->zero_point != 0;
    for (ptrdiff_t ch = 0; ch < channels; ch += 16) {
        ptrdiff_t cc = ch < channels - 16 ? ch : channels - 16;
        int32x4_t start[4];
        stage4 s[4];
        depthwise_group16(stage, tap_sums, izp, cc, start, s);
        int shifted = general_stage16(s);
        for (int h = 0; h < 2; h++) {
            const int8_t *ph = origin + cc + 8 * h;
            int8_t *oh = out + cc + 8 * h;
#define DW3P(SH, ZP)                                                                                   \
            dw3_half_s8_pairs(SH, ZP, ph, row_stride, step, pixels, channels, w + cc + 8 * h, tap_stride, \
                              start[2 * h], start[2 * h + 1], s[2 * h], s[2 * h + 1], zp, lo8, hi8, oh)
            if (shifted) { if (addzp) DW3P(1, 1); else DW3P(1, 0); }
            else { if (addzp) DW3P(0, 1); else DW3P(0, 0); }
#undef DW3P
        }
    }
}

/* ---- Whole int8 3×3 depthwise layers, taps in pairs (booth_depthwise_layer_s8_pairs) ----
 * Eight channels, four output pixels of a row at a time, the nine filters (int8, no −128) in
 * registers across the layer. Per block, each input column under the four windows is loaded once
 * (three rows) and serves every pixel whose window covers it: window rows 0 and 1 of a column as
 * one pair (`smull` + `smlal` into int16, |sum| ≤ 2·128·127), row 2 of two neighbouring columns
 * as another, the ninth tap alone, each int16 sum then `saddw`/`saddw2` into the int32
 * accumulators (as booth_depthwise_s8_pairs, with (3 + 3·S)·3 loads per four pixels instead of
 * 36). A tap outside the input reads eight copies of the input zero point: the accumulator
 * starts at bias − zp·Σw over all nine taps, so such a tap adds zp·w − zp·w = 0 and the sum is
 * the reference's Σ over the inside taps of (x − zp)·w (wrapping int32, each product exact): the
 * outputs are bit for bit booth_depthwise_s8_pairs's and booth_depthwise_border_s8's. */
/* The input columns under a border block of the whole-layer int8 3×3 kernels (dwl8_group,
 * dwd_group): xp[ky][j] the pixel (iy0 + ky, ix0 + j) for `rows` rows and `cols` columns, or
 * `zp8` (eight copies of the input zero point) where that lies outside the input. */
static inline __attribute__((always_inline)) void dw3_border_columns(int rows, int cols, const int8_t *input,
                                                                     ptrdiff_t ih, ptrdiff_t iw, ptrdiff_t channels,
                                                                     ptrdiff_t iy0, ptrdiff_t ix0, const int8_t *zp8,
                                                                     const int8_t *xp[][9]) {
    const ptrdiff_t row_stride = iw * channels;
#pragma GCC unroll 4
    for (int ky = 0; ky < rows; ky++) {
        ptrdiff_t iy = iy0 + ky;
#pragma GCC unroll 9
        for (int j = 0; j < cols; j++) {
            ptrdiff_t ix = ix0 + j;
            int inside = iy >= 0 && iy < ih && ix >= 0 && ix < iw;
            xp[ky][j] = inside ? input + iy * row_stride + ix * channels : zp8;
        }
    }
}

static inline __attribute__((always_inline)) void dwl8_group(
    int S, int shifted, int addzp, const int8_t *input, ptrdiff_t ih, ptrdiff_t iw, ptrdiff_t channels,
    ptrdiff_t pad_top, ptrdiff_t pad_left, ptrdiff_t oh, ptrdiff_t ow, const int16_t *wc, ptrdiff_t tap_stride,
    const int8_t *zp8, int32x4_t start0, int32x4_t start1, stage4 s0, stage4 s1, int32x4_t zp, int8x8_t lo8,
    int8x8_t hi8, int8_t *out) {
    enum { J = 3 * 2 + 3 }; /* the most columns under four windows (stride 2) */
    const int cols = 3 * S + 3;
    const ptrdiff_t row_stride = iw * channels;
    int8x8_t w[9];
#pragma GCC unroll 9
    for (int t = 0; t < 9; t++) w[t] = vmovn_s16(vld1q_s16(wc + t * tap_stride));
    for (ptrdiff_t oy = 0; oy < oh; oy++) {
        ptrdiff_t iy0 = oy * S - pad_top;
        int rows_inside = iy0 >= 0 && iy0 + 3 <= ih;
        for (ptrdiff_t ob = 0; ob < ow; ob += 4) {
            /* A last partial block is the last four pixels again (the same values). */
            ptrdiff_t ox = ob + 4 <= ow ? ob : ow - 4;
            ptrdiff_t ix0 = ox * S - pad_left;
            int32x4_t a0[4], a1[4];
            int16x8_t pend[4];
#pragma GCC unroll 4
            for (int p = 0; p < 4; p++) { a0[p] = start0; a1[p] = start1; }
            /* Column j's three rows (x0, x1, x2) into every pixel p whose window column kx = j − S·p
             * it is: rows 0 and 1 as a pair; row 2 of columns kx 0 and 1 as a pair (`pend` holds
             * kx 0's product until kx 1), of kx 2 alone. */
#define DWL8_COLUMN(j, x0, x1, x2)                                                                 \
    do {                                                                                           \
        _Pragma("GCC unroll 4") for (int p = 0; p < 4; p++) {                                      \
            int kx = (j) - S * p;                                                                  \
            if (kx < 0 || kx > 2) continue;                                                        \
            int16x8_t pr = vmlal_s8(vmull_s8(x0, w[kx]), x1, w[3 + kx]);                           \
            a0[p] = vaddw_s16(a0[p], vget_low_s16(pr));                                            \
            a1[p] = vaddw_high_s16(a1[p], pr);                                                     \
            if (kx == 0) pend[p] = vmull_s8(x2, w[6]);                                             \
            else {                                                                                 \
                int16x8_t q = kx == 1 ? vmlal_s8(pend[p], x2, w[7]) : vmull_s8(x2, w[8]);          \
                a0[p] = vaddw_s16(a0[p], vget_low_s16(q));                                         \
                a1[p] = vaddw_high_s16(a1[p], q);                                                  \
            }                                                                                      \
        }                                                                                          \
    } while (0)
            if (rows_inside && ix0 >= 0 && ix0 + cols <= iw) {
                const int8_t *x = input + iy0 * row_stride + ix0 * channels;
#pragma GCC unroll 9
                for (int j = 0; j < cols; j++)
                    DWL8_COLUMN(j, vld1_s8(x + j * channels), vld1_s8(x + row_stride + j * channels),
                                vld1_s8(x + 2 * row_stride + j * channels));
            } else {
                const int8_t *xp[3][J];
                dw3_border_columns(3, cols, input, ih, iw, channels, iy0, ix0, zp8, xp);
#pragma GCC unroll 9
                for (int j = 0; j < cols; j++)
                    DWL8_COLUMN(j, vld1_s8(xp[0][j]), vld1_s8(xp[1][j]), vld1_s8(xp[2][j]));
            }
#undef DWL8_COLUMN
            int8_t *o = out + (oy * ow + ox) * channels;
#pragma GCC unroll 4
            for (int p = 0; p < 4; p++) {
                int16x8_t h = vqmovn_high_s32(vqmovn_s32(DW_SCALE(a0[p], s0)), DW_SCALE(a1[p], s1));
                vst1_s8(o + p * channels, vmin_s8(vmax_s8(vqmovn_s16(h), lo8), hi8));
            }
        }
    }
}

int booth_depthwise_layer_s8_pairs(const int8_t *input, ptrdiff_t input_height, ptrdiff_t input_width,
                                   ptrdiff_t channels, int k, ptrdiff_t stride, ptrdiff_t pad_top, ptrdiff_t pad_left,
                                   ptrdiff_t output_height, ptrdiff_t output_width, const int16_t *w,
                                   ptrdiff_t tap_stride, const int32_t *tap_sums, int32_t zero_point,
                                   const booth_output_stage *stage, int8_t *out) {
    if (k != 3 || (stride != 1 && stride != 2) || channels < 8 || output_width < 4 || zero_point < -128 ||
        zero_point > 127)
        return 0;
    int8_t zp8[8];
    for (int i = 0; i < 8; i++) zp8[i] = (int8_t)zero_point;
    int32x4_t zp = vdupq_n_s32(stage->zero_point);
    /* The clamp bounds lie in int8 (the output stage of an int8 tensor). */
    int8x8_t lo8 = vdup_n_s8((int8_t)stage->minimum), hi8 = vdup_n_s8((int8_t)stage->maximum);
    int addzp = stage->zero_point != 0;
    for (ptrdiff_t ch = 0; ch < channels; ch += 8) {
        int32x4_t start[2];
        stage4 s[2];
        int shifted;
        ptrdiff_t cc = dw8_group_setup(stage, tap_sums, zero_point, ch, channels, BOOTH_OUT_INT8, start, s, &shifted);
#define DWL8(S, SH, ZP)                                                                                          \
        dwl8_group(S, SH, ZP, input + cc, input_height, input_width, channels, pad_top, pad_left, output_height,  \
                   output_width, w + cc, tap_stride, zp8, start[0], start[1], s[0], s[1], zp, lo8, hi8, out + cc)
#define DWL8_S(S)                                                                                                \
        do {                                                                                                     \
            if (shifted) { if (addzp) DWL8(S, 1, 1); else DWL8(S, 1, 0); }                                       \
            else { if (addzp) DWL8(S, 0, 1); else DWL8(S, 0, 0); }                                               \
        } while (0)
        if (stride == 1) DWL8_S(1);
        else DWL8_S(2);
#undef DWL8_S
#undef DWL8
    }
    return 1;
}

/* ---- Whole int8 3×3 depthwise layers through `sdot` (booth_depthwise_layer_s8_dot) ----
 * ARMv8.2 dot product (Cortex-A76). Eight channels and four output pixels of a row (two rows at
 * stride 1) at a time, one int32 lane per channel, each `sdot` lane summing four taps of one
 * window column: the column's input rows iy0 ..< iy0 + 4 (stride 1; three rows and a copy of the
 * third at stride 2) transposed from NHWC to four bytes per channel (`zip1` .16b of two rows
 * twice, then `zip1`/`zip2` .8h: 3 or 4 loads and 4 zips per column of eight channels), against
 * the filter column (w0, w1, w2, 0) for output row oy and (0, w0, w1, w2) for row oy + 1, so a
 * loaded column serves up to three pixels of two rows: per 8 channels × 4 pixels × 2 rows, 6
 * columns × 8 + 48 `sdot` = 96 instructions before the output stage, against 2 × 94 for the
 * pairs kernel's two rows (booth_depthwise_layer_s8_pairs). A tap outside the input reads eight
 * copies of the input zero point, and the accumulator starts at bias − zp·Σw over all nine taps
 * (as the pairs kernel): the sum is the reference's Σ over the inside taps of (x − zp)·w in
 * wrapping int32, bit for bit; the fourth lane's filter byte is 0, so what it reads adds 0. An
 * odd last row at stride 1 and a last partial block are computed again from the row or the
 * pixels before (the same values). */
static inline __attribute__((always_inline)) BOOTH_DOTPROD void dwd_transpose(int8x8_t a, int8x8_t b, int8x8_t c,
                                                                               int8x8_t d, int8x16_t *lo,
                                                                               int8x16_t *hi) {
    /* The upper halves are never read (zip1 .16b takes the low eight bytes of each). */
    int16x8_t ab = vreinterpretq_s16_s8(vzip1q_s8(vcombine_s8(a, vdup_n_s8(0)), vcombine_s8(b, vdup_n_s8(0))));
    int16x8_t cd = vreinterpretq_s16_s8(vzip1q_s8(vcombine_s8(c, vdup_n_s8(0)), vcombine_s8(d, vdup_n_s8(0))));
    *lo = vreinterpretq_s8_s16(vzip1q_s16(ab, cd));
    *hi = vreinterpretq_s8_s16(vzip2q_s16(ab, cd));
}

/* scale4 without the zero point (dwd_group adds it in int16). */
static inline __attribute__((always_inline)) int32x4_t dwd_scale(int32x4_t v, stage4 s, int shifted) {
    int32x4_t x = shifted ? vshlq_s32(v, s.left) : v;
    x = vqrdmulhq_s32(x, s.multiplier);
    return vrshlq_s32(fixup_by(x, s.negative_right, shifted), s.negative_right);
}

static inline __attribute__((always_inline)) BOOTH_DOTPROD void dwd_group(
    int S, int R, int shifted, int addzp, const int8_t *input, ptrdiff_t ih, ptrdiff_t iw, ptrdiff_t channels,
    ptrdiff_t pad_top, ptrdiff_t pad_left, ptrdiff_t oh, ptrdiff_t ow, const int16_t *wc, ptrdiff_t tap_stride,
    const int8_t *zp8, int32x4_t start0, int32x4_t start1, stage4 s0, stage4 s1, int16x8_t zp16, int8x16_t lo8,
    int8x16_t hi8, int8_t *out) {
    enum { J = 3 * 2 + 3 }; /* the most columns under four windows (stride 2) */
    const int cols = 3 * S + 3, rows = 2 + R;

    const ptrdiff_t row_stride = iw * channels;
    int8x8_t t[9];
#pragma GCC unroll 9
    for (int i = 0; i < 9; i++) t[i] = vmovn_s16(vld1q_s16(wc + i * tap_stride));
    int8x8_t z = vdup_n_s8(0);
    /* wv[r][kx]: filter column kx of output row oy + r, channels 0-3 and 4-7. */
    int8x16_t wv[2][3][2];
#pragma GCC unroll 3
    for (int kx = 0; kx < 3; kx++) {
        dwd_transpose(t[kx], t[3 + kx], t[6 + kx], z, &wv[0][kx][0], &wv[0][kx][1]);
        if (R == 2) dwd_transpose(z, t[kx], t[3 + kx], t[6 + kx], &wv[1][kx][0], &wv[1][kx][1]);
    }
    for (ptrdiff_t oy0 = 0; oy0 < oh; oy0 += R) {
        ptrdiff_t oy = oy0 + R <= oh ? oy0 : oh - R;
        ptrdiff_t iy0 = oy * S - pad_top;
        int rows_inside = iy0 >= 0 && iy0 + rows <= ih;
        for (ptrdiff_t ob = 0; ob < ow; ob += 4) {
            ptrdiff_t ox = ob + 4 <= ow ? ob : ow - 4;
            ptrdiff_t ix0 = ox * S - pad_left;
            int32x4_t a[2][4][2];
#pragma GCC unroll 2
            for (int r = 0; r < R; r++)
#pragma GCC unroll 4
                for (int p = 0; p < 4; p++) { a[r][p][0] = start0; a[r][p][1] = start1; }
            /* Column j (rows x0 ..< x3) into every pixel p whose window column kx = j − S·p it is. */
#define DWD_COLUMN(j, x0, x1, x2, x3)                                                              \
    do {                                                                                           \
        int8x16_t lo_, hi_;                                                                        \
        dwd_transpose(x0, x1, x2, x3, &lo_, &hi_);                                                 \
        _Pragma("GCC unroll 4") for (int p = 0; p < 4; p++) {                                      \
            int kx = (j) - S * p;                                                                  \
            if (kx < 0 || kx > 2) continue;                                                        \
            _Pragma("GCC unroll 2") for (int r = 0; r < R; r++) {                                  \
                a[r][p][0] = vdotq_s32(a[r][p][0], lo_, wv[r][kx][0]);                             \
                a[r][p][1] = vdotq_s32(a[r][p][1], hi_, wv[r][kx][1]);                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)
            if (rows_inside && ix0 >= 0 && ix0 + cols <= iw) {
                const int8_t *x = input + iy0 * row_stride + ix0 * channels;
#pragma GCC unroll 9
                for (int j = 0; j < cols; j++) {
                    const int8_t *xj = x + j * channels;
                    int8x8_t x2 = vld1_s8(xj + 2 * row_stride);
                    DWD_COLUMN(j, vld1_s8(xj), vld1_s8(xj + row_stride), x2,
                               R == 2 ? vld1_s8(xj + 3 * row_stride) : x2);
                }
            } else {
                const int8_t *xp[4][J];
                dw3_border_columns(rows, cols, input, ih, iw, channels, iy0, ix0, zp8, xp);
#pragma GCC unroll 9
                for (int j = 0; j < cols; j++) {
                    int8x8_t x2 = vld1_s8(xp[2][j]);
                    DWD_COLUMN(j, vld1_s8(xp[0][j]), vld1_s8(xp[1][j]), x2, R == 2 ? vld1_s8(xp[3][j]) : x2);
                }
            }
#undef DWD_COLUMN
            /* Two pixels at a time: the zero point added in int16 (`sqadd`) after the narrow,
             * then one narrow and clamp of sixteen lanes. clamp(sat8(sat16(sat16(v) + zp))) is
             * clamp(v + zp): the clamp bounds lie in int8 and |zp| ≤ 128, so where a sat16
             * changes its value, v + zp lies beyond both bounds on the same side. */
#pragma GCC unroll 2
            for (int r = 0; r < R; r++) {
                int8_t *o = out + ((oy + r) * ow + ox) * channels;
#pragma GCC unroll 2
                for (int p = 0; p < 4; p += 2) {
                    int16x8_t h0 = vqmovn_high_s32(vqmovn_s32(dwd_scale(a[r][p][0], s0, shifted)),
                                                   dwd_scale(a[r][p][1], s1, shifted));
                    int16x8_t h1 = vqmovn_high_s32(vqmovn_s32(dwd_scale(a[r][p + 1][0], s0, shifted)),
                                                   dwd_scale(a[r][p + 1][1], s1, shifted));
                    if (addzp) { h0 = vqaddq_s16(h0, zp16); h1 = vqaddq_s16(h1, zp16); }
                    int8x16_t b = vminq_s8(vmaxq_s8(vqmovn_high_s16(vqmovn_s16(h0), h1), lo8), hi8);
                    vst1_s8(o + p * channels, vget_low_s8(b));
                    vst1_s8(o + (p + 1) * channels, vget_high_s8(b));
                }
            }
        }
    }
}

BOOTH_DOTPROD int booth_depthwise_layer_s8_dot(const int8_t *input, ptrdiff_t input_height, ptrdiff_t input_width,
                                               ptrdiff_t channels, int k, ptrdiff_t stride, ptrdiff_t pad_top,
                                               ptrdiff_t pad_left, ptrdiff_t output_height, ptrdiff_t output_width,
                                               const int16_t *w, ptrdiff_t tap_stride, const int32_t *tap_sums,
                                               int32_t zero_point, const booth_output_stage *stage, int8_t *out) {
    if (k != 3 || (stride != 1 && stride != 2) || channels < 8 || output_width < 4 || output_height < 1 ||
        zero_point < -128 || zero_point > 127 || stage->zero_point < -128 || stage->zero_point > 127)
        return 0;
    int8_t zp8[8];
    for (int i = 0; i < 8; i++) zp8[i] = (int8_t)zero_point;
    /* The output zero point (−128...127, added in int16) and the clamp bounds (in int8: the
     * output stage of an int8 tensor). */
    int16x8_t zp16 = vdupq_n_s16((int16_t)stage->zero_point);
    int8x16_t lo8 = vdupq_n_s8((int8_t)stage->minimum), hi8 = vdupq_n_s8((int8_t)stage->maximum);
    int addzp = stage->zero_point != 0;
    /* Two rows at a time at stride 1 (one output row: one). */
    int two = stride == 1 && output_height >= 2;
    for (ptrdiff_t ch = 0; ch < channels; ch += 8) {
        int32x4_t start[2];
        stage4 s[2];
        int shifted;
        ptrdiff_t cc = dw8_group_setup(stage, tap_sums, zero_point, ch, channels, BOOTH_OUT_INT8, start, s, &shifted);
#define DWD(S, R, SH, ZP)                                                                                        \
        dwd_group(S, R, SH, ZP, input + cc, input_height, input_width, channels, pad_top, pad_left, output_height, \
                  output_width, w + cc, tap_stride, zp8, start[0], start[1], s[0], s[1], zp16, lo8, hi8, out + cc)
#define DWD_SR(S, R)                                                                                             \
        do {                                                                                                     \
            if (shifted) { if (addzp) DWD(S, R, 1, 1); else DWD(S, R, 1, 0); }                                   \
            else { if (addzp) DWD(S, R, 0, 1); else DWD(S, R, 0, 0); }                                           \
        } while (0)
        if (two) DWD_SR(1, 2);
        else if (stride == 1) DWD_SR(1, 1);
        else DWD_SR(2, 1);
#undef DWD_SR
#undef DWD
    }
    return 1;
}
#undef CONVERT_BY_FLAGS
#undef CONVERT_RT
#undef CONVERT_ZI
#undef CONVERT_ZO
#undef CONVERT_RUN
#undef CONVERT4
#else
void booth_convert_s8_s16(const int8_t *in, ptrdiff_t n, int32_t zp_in, int32_t multiplier, int32_t left_shift,
                          int32_t right_shift, int32_t zp_out, int16_t *out) {
    (void)in; (void)n; (void)zp_in; (void)multiplier; (void)left_shift; (void)right_shift; (void)zp_out; (void)out;
}
void booth_convert_s16_s8(const int16_t *in, ptrdiff_t n, int32_t zp_in, int32_t multiplier, int32_t left_shift,
                          int32_t right_shift, int32_t zp_out, int8_t *out) {
    (void)in; (void)n; (void)zp_in; (void)multiplier; (void)left_shift; (void)right_shift; (void)zp_out; (void)out;
}
void booth_convert_s8_s8(const int8_t *in, ptrdiff_t n, int32_t zp_in, int32_t multiplier, int32_t left_shift,
                         int32_t right_shift, int32_t zp_out, int8_t *out) {
    (void)in; (void)n; (void)zp_in; (void)multiplier; (void)left_shift; (void)right_shift; (void)zp_out; (void)out;
}
int booth_depthwise_layer_s8_pairs(const int8_t *input, ptrdiff_t input_height, ptrdiff_t input_width,
                                   ptrdiff_t channels, int k, ptrdiff_t stride, ptrdiff_t pad_top, ptrdiff_t pad_left,
                                   ptrdiff_t output_height, ptrdiff_t output_width, const int16_t *w,
                                   ptrdiff_t tap_stride, const int32_t *tap_sums, int32_t zero_point,
                                   const booth_output_stage *stage, int8_t *out) {
    (void)input; (void)input_height; (void)input_width; (void)channels; (void)k; (void)stride; (void)pad_top;
    (void)pad_left; (void)output_height; (void)output_width; (void)w; (void)tap_stride; (void)tap_sums;
    (void)zero_point; (void)stage; (void)out;
    return 0;
}
/* Nothing written, as the pairs layer here. */
int booth_depthwise_layer_s8_dot(const int8_t *input, ptrdiff_t input_height, ptrdiff_t input_width,
                                 ptrdiff_t channels, int k, ptrdiff_t stride, ptrdiff_t pad_top, ptrdiff_t pad_left,
                                 ptrdiff_t output_height, ptrdiff_t output_width, const int16_t *w,
                                 ptrdiff_t tap_stride, const int32_t *tap_sums, int32_t zero_point,
                                 const booth_output_stage *stage, int8_t *out) {
    return booth_depthwise_layer_s8_pairs(input, input_height, input_width, channels, k, stride, pad_top, pad_left,
                                          output_height, output_width, w, tap_stride, tap_sums, zero_point, stage,
                                          out);
}
/* Nothing written: the caller runs its ADD and PRELU kernels. */
int booth_add_prelu_s8(const int8_t *a, const int8_t *b, ptrdiff_t count, const booth_elementwise *p,
                       ptrdiff_t channels, int32_t input_zero_point, int32_t output_zero_point, int32_t positive,
                       const int32_t *negative, int32_t shift, int8_t *out) {
    (void)a; (void)b; (void)count; (void)p; (void)channels; (void)input_zero_point; (void)output_zero_point;
    (void)positive; (void)negative; (void)shift; (void)out;
    return 0;
}
void booth_depthwise_s8_pairs(const int8_t *origin, ptrdiff_t row_stride, ptrdiff_t step, ptrdiff_t pixels,
                              ptrdiff_t channels, int k, const int16_t *w, ptrdiff_t tap_stride,
                              const int32_t *tap_sums, int32_t zero_point, const booth_output_stage *stage,
                              int8_t *out) {
    (void)origin; (void)row_stride; (void)step; (void)pixels; (void)channels; (void)k; (void)w;
    (void)tap_stride; (void)tap_sums; (void)zero_point; (void)stage; (void)out;
}
#endif

/* PAD along the channels (and H, W) of an NHWC tensor: the output filled with the zero point,
 * then each input pixel's `channels` values copied to its place. Portable C: the copies are
 * 16-byte pieces (`__builtin_memcpy` of a constant size becomes one vector load and store), the
 * last piece overlapping the one before, so a pixel is a few instructions instead of a call to
 * memmove. */
static inline void pad_copy_bytes(char *d, const char *s, size_t n) {
    if (n >= 16) {
        size_t i = 0;
        for (; i + 16 <= n; i += 16) __builtin_memcpy(d + i, s + i, 16);
        if (i < n) __builtin_memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        __builtin_memcpy(d, s, 8);
        __builtin_memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        __builtin_memcpy(d, s, 4);
        __builtin_memcpy(d + n - 4, s + n - 4, 4);
    } else {
        for (size_t i = 0; i < n; i++) d[i] = s[i];
    }
}

/* `n` bytes of `v` (the same pieces as pad_copy_bytes). */
static inline void fill_small_bytes(char *d, int8_t v, size_t n) {
    uint64_t p = 0x0101010101010101ULL * (uint8_t)v;
    if (n >= 16) {
        char q[16];
        __builtin_memcpy(q, &p, 8);
        __builtin_memcpy(q + 8, &p, 8);
        size_t i = 0;
        for (; i + 16 <= n; i += 16) __builtin_memcpy(d + i, q, 16);
        if (i < n) __builtin_memcpy(d + n - 16, q, 16);
    } else if (n >= 8) {
        __builtin_memcpy(d, &p, 8);
        __builtin_memcpy(d + n - 8, &p, 8);
    } else {
        for (size_t i = 0; i < n; i++) d[i] = (char)v;
    }
}

void booth_im2col8(const int8_t *input, ptrdiff_t input_height, ptrdiff_t input_width, ptrdiff_t channels,
                   ptrdiff_t kernel_height, ptrdiff_t kernel_width, ptrdiff_t stride_y, ptrdiff_t stride_x,
                   ptrdiff_t pad_top, ptrdiff_t pad_left, ptrdiff_t output_width, ptrdiff_t first, ptrdiff_t count,
                   ptrdiff_t row_stride, int8_t zero_point, int8_t *a) {
    size_t c = (size_t)channels, kwc = (size_t)kernel_width * c, depth = (size_t)kernel_height * kwc;
    ptrdiff_t oy = first / output_width, ox = first - oy * output_width;
    for (ptrdiff_t i = 0; i < count; i++) {
        ptrdiff_t iy0 = oy * stride_y - pad_top, ix0 = ox * stride_x - pad_left;
        char *dst = (char *)(a + i * row_stride);
        int inside_x = ix0 >= 0 && ix0 + kernel_width <= input_width;
        for (ptrdiff_t ky = 0; ky < kernel_height; ky++, dst += kwc) {
            ptrdiff_t iy = iy0 + ky;
            if (iy < 0 || iy >= input_height) {
                fill_small_bytes(dst, zero_point, kwc);
            } else if (inside_x) {
                pad_copy_bytes(dst, (const char *)(input + (iy * input_width + ix0) * channels), kwc);
            } else {
                for (ptrdiff_t kx = 0; kx < kernel_width; kx++) {
                    ptrdiff_t ix = ix0 + kx;
                    if (ix < 0 || ix >= input_width) fill_small_bytes(dst + kx * c, zero_point, c);
                    else pad_copy_bytes(dst + kx * c, (const char *)(input + (iy * input_width + ix) * channels), c);
                }
            }
        }
        if ((size_t)row_stride > depth) fill_small_bytes(dst, 0, (size_t)row_stride - depth);
        if (++ox == output_width) { ox = 0; oy++; }
    }
}

/* booth_pad_channels when only channels are added after the input's (no rows, columns or leading
 * channels; the tail at most 16 bytes and each output pixel at least 16): per pixel one 16-byte
 * store of the zero point (`z0`, `z1`) ending at the pixel's end, then the input's `bytes` over
 * its start, so every byte is written once or, where the two overlap, twice in that order, with
 * no pass over the whole output first. The copy by `form`: 0 (16...32 bytes) its first and last
 * 16 bytes, 1 (33...64) its first and last 32, 2 by 32- and 16-byte pieces, the last one
 * overlapping. */
static inline __attribute__((always_inline)) void pad_tail_form(int form, const char *in, ptrdiff_t pixels,
                                                                size_t bytes, size_t out_bytes, uint64_t z0,
                                                                uint64_t z1, char *out) {
    for (ptrdiff_t p = 0; p < pixels; p++, in += bytes, out += out_bytes) {
        __builtin_memcpy(out + out_bytes - 16, &z0, 8);
        __builtin_memcpy(out + out_bytes - 8, &z1, 8);
        if (form == 0) {
            __builtin_memcpy(out, in, 16);
            __builtin_memcpy(out + bytes - 16, in + bytes - 16, 16);
        } else if (form == 1) {
            __builtin_memcpy(out, in, 32);
            __builtin_memcpy(out + bytes - 32, in + bytes - 32, 32);
        } else {
            size_t i = 0;
            for (; i + 32 <= bytes; i += 32) __builtin_memcpy(out + i, in + i, 32);
            if (i + 16 <= bytes) { __builtin_memcpy(out + i, in + i, 16); i += 16; }
            if (i < bytes) __builtin_memcpy(out + bytes - 16, in + bytes - 16, 16);
        }
    }
}

static void pad_tail_channels(const char *in, ptrdiff_t pixels, size_t bytes, size_t out_bytes, uint64_t z0, uint64_t z1,
                              char *out) {
    if (bytes <= 32) pad_tail_form(0, in, pixels, bytes, out_bytes, z0, z1, out);
    else if (bytes <= 64) pad_tail_form(1, in, pixels, bytes, out_bytes, z0, z1, out);
    else pad_tail_form(2, in, pixels, bytes, out_bytes, z0, z1, out);
}

void booth_pad_channels(const void *input, ptrdiff_t height, ptrdiff_t width, ptrdiff_t channels,
                        ptrdiff_t element_size, ptrdiff_t top, ptrdiff_t left, ptrdiff_t front,
                        ptrdiff_t output_height, ptrdiff_t output_width, ptrdiff_t output_channels,
                        int32_t zero_point, void *output) {
    {
        size_t es = (size_t)element_size, bytes = (size_t)channels * es, out_bytes = (size_t)output_channels * es;
        if (top == 0 && left == 0 && front == 0 && output_height == height && output_width == width &&
            bytes >= 16 && out_bytes > bytes && out_bytes - bytes <= 16) {
            /* The zero point in every element of eight bytes (each 16-bit lane or byte: any byte order). */
            uint64_t z = es == 1 ? 0x0101010101010101ULL * (uint8_t)zero_point
                                 : 0x0001000100010001ULL * (uint16_t)(int16_t)zero_point;
            pad_tail_channels((const char *)input, height * width, bytes, out_bytes, z, z, (char *)output);
            return;
        }
    }
    size_t total = (size_t)output_height * (size_t)output_width * (size_t)output_channels;
    if (element_size == 1) {
        memset(output, (unsigned char)zero_point, total);
    } else {
        int16_t z = (int16_t)zero_point, pattern[8];
        for (int i = 0; i < 8; i++) pattern[i] = z;
        int16_t *o = (int16_t *)output;
        size_t i = 0;
        for (; i + 8 <= total; i += 8) __builtin_memcpy(o + i, pattern, 16);
        for (; i < total; i++) o[i] = z;
    }
    size_t es = (size_t)element_size, bytes = (size_t)channels * es;
    const char *in = (const char *)input;
    for (ptrdiff_t y = 0; y < height; y++) {
        char *row = (char *)output + (((size_t)(y + top) * (size_t)output_width + (size_t)left) * (size_t)output_channels
                                      + (size_t)front) * es;
        for (ptrdiff_t x = 0; x < width; x++) {
            pad_copy_bytes(row, in, bytes);
            row += (size_t)output_channels * es;
            in += bytes;
        }
    }
}
