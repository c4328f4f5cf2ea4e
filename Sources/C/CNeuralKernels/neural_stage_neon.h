/* The aarch64 output stage shared by neural_kernels.c's GEMMs and neural_dot.c's `sdot` GEMM
 * (private to CNeuralKernels; included inside their `__aarch64__` sections, after arm_neon.h). */
#ifndef BOOTH_NEURAL_STAGE_NEON_H
#define BOOTH_NEURAL_STAGE_NEON_H

/* The output stage's constants for four channels. */
typedef struct {
    int32x4_t left, multiplier, negative_right;
} stage4;

/* The fix-up before `srshl` by `negative_right`: x − 1 where x < 0 and the shift is a right
 * shift, else x (`and` + `ssra`). A plain add is exact: `sqrdmulh` by a multiplier other than
 * INT32_MIN (FixedMultiplier's invariant) never yields INT32_MIN (|x·m| < 2^62), so x − 1 does
 * not wrap and equals gemmlowp's saturating add. */
static inline int32x4_t fixup4(int32x4_t x, int32x4_t negative_right) {
    return vsraq_n_s32(x, vandq_s32(x, negative_right), 31);
}

/* The output stages' `shifted` flag: 1 (the general stage: `sshl` by the left shifts, `fixup4`)
 * when some lane has a left shift or no right shift, 0 when every lane has no left shift and a
 * right shift (OutputStage's are 0...31), where the fix-up is x − 1 for every x < 0: one `ssra`
 * of x's sign, without the `and` (fixup_by). */
static inline int general_stage4(stage4 s) {
    uint32x4_t g = vorrq_u32(vreinterpretq_u32_s32(s.left), vceqzq_s32(s.negative_right));
    return vmaxvq_u32(g) != 0;
}

/* fixup4 where `general`, else (every lane shifts right) x + (x >> 31). */
static inline __attribute__((always_inline)) int32x4_t fixup_by(int32x4_t x, int32x4_t negative_right, int general) {
    return general ? fixup4(x, negative_right) : vsraq_n_s32(x, x, 31);
}

/* The first `n` (< 32) bytes of `b0` then `b1` stored at `out` by 16-, 8-, 4-, 2- and 1-byte
 * pieces (no call to memcpy). */
static inline __attribute__((always_inline)) void store_bytes(void *out, int8x16_t b0, int8x16_t b1, size_t n) {
    int8_t *o = (int8_t *)out;
    if (n & 16) { vst1q_s8(o, b0); o += 16; b0 = b1; }
    if (n & 8) { vst1_s8(o, vget_low_s8(b0)); o += 8; b0 = vextq_s8(b0, b0, 8); }
    if (n & 4) { vst1q_lane_s32((int32_t *)(void *)o, vreinterpretq_s32_s8(b0), 0); o += 4; b0 = vextq_s8(b0, b0, 4); }
    if (n & 2) { vst1q_lane_s16((int16_t *)(void *)o, vreinterpretq_s16_s8(b0), 0); o += 2; b0 = vextq_s8(b0, b0, 2); }
    if (n & 1) vst1q_lane_s8(o, b0, 0);
}

/* Four scaled int32 vectors (eight values with `half`: x0 and x1) narrowed with saturation, clamped
 * in the narrow type (unless not `clamp`: the caller's bounds are the narrow type's own, which the
 * saturating narrow already applies) and stored as `kind` (INT8 or INT16, `valid` of them):
 * out_row16's tail below (store_scaled16), for callers that scale several rows with one load of
 * the constants (neural_dot.c). */
static inline __attribute__((always_inline)) void store_scaled16_by(
    int kind, int half, int clamp, int32x4_t x0, int32x4_t x1, int32x4_t x2, int32x4_t x3, int16x8_t lo16,
    int16x8_t hi16, char *out, ptrdiff_t valid) {
    int16x8_t h0 = vqmovn_high_s32(vqmovn_s32(x0), x1);
    int16x8_t h1 = half ? h0 : vqmovn_high_s32(vqmovn_s32(x2), x3);
    if (kind == BOOTH_OUT_INT8) {
        int8x16_t b = half ? vcombine_s8(vqmovn_s16(h0), vqmovn_s16(h0)) : vqmovn_high_s16(vqmovn_s16(h0), h1);
        int8x16_t lo8 = vcombine_s8(vmovn_s16(lo16), vmovn_s16(lo16)), hi8 = vcombine_s8(vmovn_s16(hi16), vmovn_s16(hi16));
        if (clamp) b = vminq_s8(vmaxq_s8(b, lo8), hi8);
        if (valid == 16) vst1q_s8((int8_t *)out, b);
        else if (valid == 8) vst1_s8((int8_t *)out, vget_low_s8(b));
        else store_bytes(out, b, b, (size_t)valid);
    } else {
        if (clamp) h0 = vminq_s16(vmaxq_s16(h0, lo16), hi16);
        if (clamp && !half) h1 = vminq_s16(vmaxq_s16(h1, lo16), hi16);
        if (valid == 16) { vst1q_s16((int16_t *)out, h0); vst1q_s16((int16_t *)out + 8, h1); }
        else if (valid == 8) vst1q_s16((int16_t *)out, h0);
        else store_bytes(out, vreinterpretq_s8_s16(h0), vreinterpretq_s8_s16(h1), (size_t)valid * 2);
    }
}

/* store_scaled16_by with the clamp. */
static inline __attribute__((always_inline)) void store_scaled16(
    int kind, int half, int32x4_t x0, int32x4_t x1, int32x4_t x2, int32x4_t x3, int16x8_t lo16, int16x8_t hi16,
    char *out, ptrdiff_t valid) {
    store_scaled16_by(kind, half, 1, x0, x1, x2, x3, lo16, hi16, out, valid);
}

/* One row's sixteen (or, with `half`, eight) accumulators through the output stage and stored as
 * `kind` (INT8 or INT16, `valid` of them): `scale4` (the zero point added only with `addzp`),
 * saturating narrows, the clamp in the narrow type, then one store. Same values as
 * `requantize_store16` (which see). */
static inline __attribute__((always_inline)) void out_row16(
    int kind, int half, int shifted, int addzp, int32x4_t v0, int32x4_t v1, int32x4_t v2, int32x4_t v3,
    const stage4 *s, int32x4_t zp, int16x8_t lo16, int16x8_t hi16, char *out, ptrdiff_t valid) {
    /* multiplier and negative_right are adjacent in stage4: one `ld1 {2 regs}` a group. */
#define SCALE(v, j)                                                                              \
    ({                                                                                           \
        int32x4x2_t mr_ = vld1q_s32_x2((const int32_t *)(const void *)&s[j].multiplier);        \
        int32x4_t x_ = shifted ? vshlq_s32(v, s[j].left) : v;                                    \
        x_ = vqrdmulhq_s32(x_, mr_.val[0]);                                                      \
        x_ = vrshlq_s32(fixup_by(x_, mr_.val[1], shifted), mr_.val[1]);                          \
        addzp ? vaddq_s32(x_, zp) : x_;                                                          \
    })
    const int32x4_t x0 = SCALE(v0, 0), x1 = SCALE(v1, 1);
    const int32x4_t x2 = half ? x0 : SCALE(v2, 2), x3 = half ? x1 : SCALE(v3, 3);
#undef SCALE
    store_scaled16(kind, half, x0, x1, x2, x3, lo16, hi16, out, valid);
}

#endif
