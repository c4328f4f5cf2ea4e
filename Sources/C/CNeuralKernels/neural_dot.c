/* The int16 GEMM through `sdot` (ARMv8.2 dot product, Cortex-A76; see include/CNeuralKernels.h,
 * booth_gemm_s16_dot).
 *
 * Each int16 activation x is split into a signed high byte h = x >> 8 and a signed low byte
 * l = (x & 0xFF) − 128, so that x = 256·h + l + 128 and
 *   Σ x·w = 256·Σ h·w + Σ l·w + 128·Σ w.
 * Both sums are int8 × int8 dot products (`sdot`, four products per int32 lane), the last term
 * is a per-channel constant folded into the accumulators' start. In wrapping int32 arithmetic
 * every regrouping of the same products is the same number, so the result is bit for bit the
 * int16 path's (booth_gemm_s16, gemmScalar). */
#include "CNeuralKernels.h"

#include <string.h>

/* The panel of split activations a call may keep on the stack: two rows of `depth` rounded up to
 * 16, two bytes per value. Deeper GEMMs are refused (return 0). */
#define DOT16_PANEL_BYTES 16384

#if defined(__aarch64__)
/* As neural_kernels.c: GCC's pre-allocation scheduling hoists a fully unrolled tile's loads until
 * the accumulators spill. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-schedule-insns")
#endif
#include <arm_neon.h>

#define DOT16_TARGET __attribute__((target("arch=armv8.2-a+dotprod")))
#define DOT16_INLINE static inline __attribute__((always_inline))

#include "neural_stage_neon.h"

/* One row's sixteen (eight with `half`) int32 results stored as `kind`: raw, or requantised
 * (`sqrdmulh`, fixed-up `srshl`, the zero point with `addzp`, saturating narrows and the clamp in
 * the narrow type, whose bounds lie in the output type: clamp(sat(v)) = clamp(v)). */
DOT16_INLINE void dot16_out_row(int kind, int half, int shifted, int addzp, int32x4_t v0, int32x4_t v1, int32x4_t v2,
                                int32x4_t v3, const stage4 *s, int32x4_t zp, int16x8_t lo16, int16x8_t hi16,
                                char *out, ptrdiff_t valid) {
    if (kind == BOOTH_OUT_INT32) {
        int32_t *o = (int32_t *)(void *)out;
        if (valid == 16) {
            vst1q_s32(o, v0); vst1q_s32(o + 4, v1); vst1q_s32(o + 8, v2); vst1q_s32(o + 12, v3);
            return;
        }
        if (valid >= 8) { vst1q_s32(o, v0); vst1q_s32(o + 4, v1); o += 8; v0 = v2; v1 = v3; valid -= 8; }
        store_bytes(o, vreinterpretq_s8_s32(v0), vreinterpretq_s8_s32(v1), (size_t)valid * 4);
        return;
    }
    out_row16(kind, half, shifted, addzp, v0, v1, v2, v3, s, zp, lo16, hi16, out, valid);
}

/* The output stage of channel group `j` (out_row16's) on two rows' accumulators, the group's
 * constants loaded once for both. */
DOT16_INLINE void dot16_scale2(int shifted, int addzp, const stage4 *s, int j, int32x4_t zp, int32x4_t *a,
                               int32x4_t *b) {
    int32x4x2_t mr = vld1q_s32_x2((const int32_t *)(const void *)&s[j].multiplier);
    int32x4_t x = *a, y = *b;
    if (shifted) {
        int32x4_t left = s[j].left;
        x = vshlq_s32(x, left);
        y = vshlq_s32(y, left);
    }
    x = vqrdmulhq_s32(x, mr.val[0]);
    y = vqrdmulhq_s32(y, mr.val[0]);
    x = vrshlq_s32(fixup_by(x, mr.val[1], shifted), mr.val[1]);
    y = vrshlq_s32(fixup_by(y, mr.val[1], shifted), mr.val[1]);
    *a = addzp ? vaddq_s32(x, zp) : x;
    *b = addzp ? vaddq_s32(y, zp) : y;
}

/* Rows `r0 ..< r0 + n` of `a` split into the panel: per row, per 16 values, the 16 high bytes
 * then the 16 low bytes − 128 (`uzp2` / `uzp1` of the two int16 vectors, `eor` 0x80). The last
 * chunk of a row reads 16 values where the next row follows, else only `depth` values; the bytes
 * past the depth meet zero filters. */
DOT16_INLINE void dot16_split(const int16_t *a, ptrdiff_t a_stride, ptrdiff_t depth, ptrdiff_t n, ptrdiff_t n_all,
                              int8_t *panel, ptrdiff_t panel_stride) {
    ptrdiff_t full = depth / 16 * 16, tail = depth - full;
    int8x16_t bias = vdupq_n_s8(-128);
    for (ptrdiff_t r = 0; r < n; r++) {
        const int16_t *x = a + r * a_stride;
        int8_t *p = panel + r * panel_stride;
        ptrdiff_t k = 0;
        /* The tail: all but the call's last row read 16 values (the rest lie in the next row, and
         * meet zero filters); the last row value by value (a zero-filled copy became a memcpy call). */
        ptrdiff_t vectors = tail && r + 1 < n_all ? full + 16 : full;
        for (; k < vectors; k += 16, p += 32) {
            int8x16_t v0 = vreinterpretq_s8_s16(vld1q_s16(x + k)), v1 = vreinterpretq_s8_s16(vld1q_s16(x + k + 8));
            vst1q_s8(p, vuzp2q_s8(v0, v1));
            vst1q_s8(p + 16, veorq_s8(vuzp1q_s8(v0, v1), bias));
        }
        if (k >= depth) continue;
        for (ptrdiff_t i = 0; tail && i < 16; i++) {
            int32_t v = i < tail ? x[k + i] : 0;
            p[i] = (int8_t)(v >> 8);
            p[16 + i] = (int8_t)((v & 0xFF) - 128);
        }
    }
}

/* `R` (1 or 2) panel rows × 16 channels (the first 4·G of them; G 2 or 4) of one block over
 * `quads` quads of k (the depth rounded up to 4), by chunks of 16 k, then the last one to three
 * quads of a chunk (the panel and the filters hold the whole chunk; only its lanes that reach
 * the depth are used): per row and channel quad an accumulator of the low bytes and one of
 * the high bytes, four `sdot` by element per chunk each; then low + 256·high (`mla`) and the
 * output. The start S (bias + 128·Σw) is split as S = 256·(S >> 8) + (S & 0xFF): `start[0..<4]`
 * the low accumulators' start, `start[4..<8]` the high ones', so every accumulator is loaded
 * (`ldp`, two a instruction, each row from memory: `OPAQUE`) instead of zeroed or copied
 * (`mov`, one a register). Sixteen accumulators, four activation and four filter registers. */
DOT16_INLINE DOT16_TARGET void dot16_tile(const int8_t *p, ptrdiff_t panel_stride, const int16_t *a, ptrdiff_t a_stride,
                                          int D, ptrdiff_t quads, const int8_t *w, int R, int G,
                                          const int32x4_t *start, const stage4 *s, int kind, int shifted, int addzp,
                                          int full, int32x4_t zp, int16x8_t lo16, int16x8_t hi16, char *o,
                                          ptrdiff_t o_stride, ptrdiff_t valid) {
#define OPAQUE(q) __asm__("" : "+r"(q))
    const int32x4_t *st0 = start, *st1 = start;
    OPAQUE(st0);
    int32x4_t z = vdupq_n_s32(0);
    int32x4_t l00 = st0[0], l01 = st0[1], l02 = G > 2 ? st0[2] : z, l03 = G > 2 ? st0[3] : z;
    int32x4_t h00 = st0[4], h01 = st0[5], h02 = G > 2 ? st0[6] : z, h03 = G > 2 ? st0[7] : z;
    int32x4_t l10 = z, l11 = z, l12 = z, l13 = z, h10 = z, h11 = z, h12 = z, h13 = z;
    if (R > 1) {
        /* volatile: GCC merges two identical non-volatile asm statements, then copies row 0's
         * eight starts with `mov` instead of loading row 1's with four `ldp`. */
        __asm__ __volatile__("" : "+r"(st1));
        l10 = st1[0]; l11 = st1[1]; h10 = st1[4]; h11 = st1[5];
        if (G > 2) { l12 = st1[2]; l13 = st1[3]; h12 = st1[6]; h13 = st1[7]; }
    }
    const int8_t *p0 = p, *p1 = p + panel_stride;
#define DOT_QUAD(q)                                                                                       \
    do {                                                                                                  \
        int8x16_t w0 = vld1q_s8(w + 64 * (q)), w1 = vld1q_s8(w + 64 * (q) + 16);                          \
        int8x16_t w2 = G > 2 ? vld1q_s8(w + 64 * (q) + 32) : w0, w3 = G > 2 ? vld1q_s8(w + 64 * (q) + 48) : w0; \
        h00 = vdotq_laneq_s32(h00, w0, x0h, q); l00 = vdotq_laneq_s32(l00, w0, x0l, q);                    \
        h01 = vdotq_laneq_s32(h01, w1, x0h, q); l01 = vdotq_laneq_s32(l01, w1, x0l, q);                    \
        if (G > 2) {                                                                                      \
            h02 = vdotq_laneq_s32(h02, w2, x0h, q); l02 = vdotq_laneq_s32(l02, w2, x0l, q);                \
            h03 = vdotq_laneq_s32(h03, w3, x0h, q); l03 = vdotq_laneq_s32(l03, w3, x0l, q);                \
        }                                                                                                 \
        if (R > 1) {                                                                                      \
            h10 = vdotq_laneq_s32(h10, w0, x1h, q); l10 = vdotq_laneq_s32(l10, w0, x1l, q);                \
            h11 = vdotq_laneq_s32(h11, w1, x1h, q); l11 = vdotq_laneq_s32(l11, w1, x1l, q);                \
            if (G > 2) {                                                                                  \
                h12 = vdotq_laneq_s32(h12, w2, x1h, q); l12 = vdotq_laneq_s32(l12, w2, x1l, q);            \
                h13 = vdotq_laneq_s32(h13, w3, x1h, q); l13 = vdotq_laneq_s32(l13, w3, x1l, q);            \
            }                                                                                             \
        }                                                                                                 \
    } while (0)
#define DOT_LOAD()                                                                                \
    int8x16_t x0h = vld1q_s8(p0), x0l = vld1q_s8(p0 + 16);                                        \
    int8x16_t x1h = R > 1 ? vld1q_s8(p1) : x0h, x1l = R > 1 ? vld1q_s8(p1 + 16) : x0l
    /* `D` (direct): each chunk's sixteen int16 values of a row split in registers, as dot16_split
     * does (`uzp2` the high bytes, `uzp1` the low ones, `eor` 0x80), instead of read from the panel. */
#define DOT_SPLIT(xh, xl, ptr)                                                                    \
    int8x16_t xh, xl;                                                                             \
    do {                                                                                          \
        int8x16_t v0_ = vreinterpretq_s8_s16(vld1q_s16(ptr)), v1_ = vreinterpretq_s8_s16(vld1q_s16((ptr) + 8)); \
        xh = vuzp2q_s8(v0_, v1_);                                                                 \
        xl = veorq_s8(vuzp1q_s8(v0_, v1_), vdupq_n_s8(-128));                                     \
    } while (0)
    ptrdiff_t chunks = quads / 4, tail = quads % 4;
    if (D) {
        const int16_t *a0 = a, *a1 = a + a_stride;
        for (ptrdiff_t c = 0; c < chunks; c++) {
            DOT_SPLIT(x0h, x0l, a0);
            int8x16_t x1h = x0h, x1l = x0l;
            if (R > 1) {
                DOT_SPLIT(y1h, y1l, a1);
                x1h = y1h; x1l = y1l;
            }
            a0 += 16;
            a1 += 16;
            DOT_QUAD(0); DOT_QUAD(1); DOT_QUAD(2); DOT_QUAD(3);
            w += 256;
        }
        if (tail) {
            /* The last chunk's sixteen values, of which the first 4·tail are used (the rest lie
             * in the next row: the caller keeps the last row off this path). */
            DOT_SPLIT(x0h, x0l, a0);
            int8x16_t x1h = x0h, x1l = x0l;
            if (R > 1) {
                DOT_SPLIT(y1h, y1l, a1);
                x1h = y1h; x1l = y1l;
            }
            DOT_QUAD(0);
            if (tail > 1) DOT_QUAD(1);
            if (tail > 2) DOT_QUAD(2);
        }
    } else {
        for (ptrdiff_t c = 0; c < chunks; c++) {
            DOT_LOAD();
            p0 += 32;
            p1 += 32;
            DOT_QUAD(0); DOT_QUAD(1); DOT_QUAD(2); DOT_QUAD(3);
            w += 256;
        }
    }
#undef DOT_SPLIT
    if (tail && !D) {
        DOT_LOAD();
        DOT_QUAD(0);
        if (tail > 1) DOT_QUAD(1);
        if (tail > 2) DOT_QUAD(2);
    }
#undef DOT_LOAD
#undef DOT_QUAD
    OPAQUE(s);
#undef OPAQUE
    if (R > 1 && kind != BOOTH_OUT_INT32) {
        /* Both rows through the output stage together: each group's constants loaded once. */
        int half = G == 2;
        int32x4_t a0 = vmlaq_n_s32(l00, h00, 256), a1 = vmlaq_n_s32(l01, h01, 256);
        int32x4_t b0 = vmlaq_n_s32(l10, h10, 256), b1 = vmlaq_n_s32(l11, h11, 256);
        int32x4_t a2 = a0, a3 = a1, b2 = b0, b3 = b1;
        dot16_scale2(shifted, addzp, s, 0, zp, &a0, &b0);
        dot16_scale2(shifted, addzp, s, 1, zp, &a1, &b1);
        if (!half) {
            a2 = vmlaq_n_s32(l02, h02, 256); a3 = vmlaq_n_s32(l03, h03, 256);
            b2 = vmlaq_n_s32(l12, h12, 256); b3 = vmlaq_n_s32(l13, h13, 256);
            dot16_scale2(shifted, addzp, s, 2, zp, &a2, &b2);
            dot16_scale2(shifted, addzp, s, 3, zp, &a3, &b3);
        }
        store_scaled16_by(kind, half, !full, a0, a1, a2, a3, lo16, hi16, o, valid);
        store_scaled16_by(kind, half, !full, b0, b1, b2, b3, lo16, hi16, o + o_stride, valid);
        return;
    }
    dot16_out_row(kind, G == 2, shifted, addzp, vmlaq_n_s32(l00, h00, 256), vmlaq_n_s32(l01, h01, 256),
                  vmlaq_n_s32(l02, h02, 256), vmlaq_n_s32(l03, h03, 256), s, zp, lo16, hi16, o, valid);
    if (R > 1)
        dot16_out_row(kind, G == 2, shifted, addzp, vmlaq_n_s32(l10, h10, 256), vmlaq_n_s32(l11, h11, 256),
                      vmlaq_n_s32(l12, h12, 256), vmlaq_n_s32(l13, h13, 256), s, zp, lo16, hi16, o + o_stride, valid);
}

/* Rows `0 ..< n` of the panel (or, direct, of `a`) for one block: 2-row tiles, then one row. */
DOT16_INLINE DOT16_TARGET void dot16_rows(const int8_t *panel, ptrdiff_t panel_stride, const int16_t *a,
                                          ptrdiff_t a_stride, int D, ptrdiff_t n, ptrdiff_t quads, const int8_t *w,
                                          int G, const int32x4_t *start, const stage4 *s, int kind, int shifted,
                                          int addzp, int full, int32x4_t zp, int16x8_t lo16, int16x8_t hi16, char *o,
                                          ptrdiff_t o_stride, ptrdiff_t valid) {
    ptrdiff_t r = 0;
    for (; r + 2 <= n; r += 2)
        dot16_tile(panel + r * panel_stride, panel_stride, a + r * a_stride, a_stride, D, quads, w, 2, G, start, s,
                   kind, shifted, addzp, full, zp, lo16, hi16, o + r * o_stride, o_stride, valid);
    if (r < n)
        dot16_tile(panel + r * panel_stride, panel_stride, a + r * a_stride, a_stride, D, quads, w, 1, G, start, s,
                   kind, shifted, addzp, full, zp, lo16, hi16, o + r * o_stride, o_stride, valid);
}

DOT16_INLINE DOT16_TARGET void gemm_s16_dot(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth,
                                            const int8_t *w, ptrdiff_t channels, const int32_t *row_sums,
                                            const booth_output_stage *stage, void *out, ptrdiff_t out_stride,
                                            int kind, int D) {
    ptrdiff_t k16 = (depth + 15) / 16 * 16, quads = (depth + 3) / 4, panel_stride = 2 * k16;
    /* Direct (`D`, whole chunks only): no panel, each tile splits its rows in registers. */
    ptrdiff_t group = D ? rows : DOT16_PANEL_BYTES / panel_stride;
    int8_t panel[DOT16_PANEL_BYTES] __attribute__((aligned(16)));
    size_t esize = kind == BOOTH_OUT_INT8 ? 1 : kind == BOOTH_OUT_INT16 ? 2 : 4;
    ptrdiff_t ob = out_stride * (ptrdiff_t)esize;
    int32x4_t zp = vdupq_n_s32(kind == BOOTH_OUT_INT32 ? 0 : stage->zero_point);
    int16x8_t lo16 = vdupq_n_s16((int16_t)(kind == BOOTH_OUT_INT32 ? 0 : stage->minimum));
    int16x8_t hi16 = vdupq_n_s16((int16_t)(kind == BOOTH_OUT_INT32 ? 0 : stage->maximum));
    int addzp = kind != BOOTH_OUT_INT32 && stage->zero_point != 0;
    /* `full`: the bounds are the output type's own (no fused activation) and no zero point is
       added, so the saturating narrows are the clamp and the 2-row tiles leave it out. */
    int full = !addzp && ((kind == BOOTH_OUT_INT16 && stage->minimum == INT16_MIN && stage->maximum == INT16_MAX) ||
                          (kind == BOOTH_OUT_INT8 && stage->minimum == INT8_MIN && stage->maximum == INT8_MAX));
    for (ptrdiff_t r0 = 0; r0 < rows; r0 += group) {
        ptrdiff_t n = rows - r0 < group ? rows - r0 : group;
        if (!D) dot16_split(a + r0 * a_stride, a_stride, depth, n, rows - r0, panel, panel_stride);
        for (ptrdiff_t n0 = 0; n0 < channels; n0 += 16) {
            ptrdiff_t valid = channels - n0 < 16 ? channels - n0 : 16;
            int32x4_t start[8];
            stage4 s[4];
            int32x4_t any = vdupq_n_s32(0);
            for (int j = 0; j < 4; j++) {
                /* The accumulators start at S = bias + 128·Σw (wrapping), S & 0xFF for the low
                 * bytes' and S >> 8 for the high bytes' (low + 256·high adds S back). */
                int32x4_t c128 = vshlq_n_s32(vld1q_s32(row_sums + n0 + 4 * j), 7), st;
                if (kind == BOOTH_OUT_INT32) {
                    st = c128;
                    s[j].left = s[j].multiplier = s[j].negative_right = vdupq_n_s32(0);
                } else {
                    st = vaddq_s32(vld1q_s32(stage->bias + n0 + 4 * j), c128);
                    s[j].left = vld1q_s32(stage->left_shift + n0 + 4 * j);
                    s[j].multiplier = vld1q_s32(stage->multiplier + n0 + 4 * j);
                    s[j].negative_right = vnegq_s32(vld1q_s32(stage->right_shift + n0 + 4 * j));
                    /* out_row16's general stage: a left shift or a lane without right shift. */
                    any = vorrq_s32(any, vorrq_s32(s[j].left, vreinterpretq_s32_u32(vceqzq_s32(s[j].negative_right))));
                }
                start[j] = vandq_s32(st, vdupq_n_s32(0xFF));
                start[4 + j] = vshrq_n_s32(st, 8);
            }
            int shifted = vmaxvq_u32(vreinterpretq_u32_s32(any)) != 0;
            const int8_t *wb = w + n0 * k16;
            char *o = (char *)out + (size_t)n0 * esize + (size_t)(r0 * ob);
            int G = valid <= 8 ? 2 : 4;
#define RUN(GG, SH, ZP, FULL)                                                                               \
    dot16_rows(panel, panel_stride, a + r0 * a_stride, a_stride, D, n, quads, wb, GG, start, s, kind, SH, ZP, FULL, \
               zp, lo16, hi16, o, ob, valid)
            if (kind == BOOTH_OUT_INT32) {
                if (G == 2) RUN(2, 0, 0, 0); else RUN(4, 0, 0, 0);
            } else if (G == 2) {
                if (shifted) { if (addzp) RUN(2, 1, 1, 0); else if (full) RUN(2, 1, 0, 1); else RUN(2, 1, 0, 0); }
                else { if (addzp) RUN(2, 0, 1, 0); else if (full) RUN(2, 0, 0, 1); else RUN(2, 0, 0, 0); }
            } else {
                if (shifted) { if (addzp) RUN(4, 1, 1, 0); else if (full) RUN(4, 1, 0, 1); else RUN(4, 1, 0, 0); }
                else { if (addzp) RUN(4, 0, 1, 0); else if (full) RUN(4, 0, 0, 1); else RUN(4, 0, 0, 0); }
            }
#undef RUN
        }
    }
}

/* The entry points, one per output kind and form (panel or direct), so the flags are constants;
 * `noipa` keeps each a symbol of its own, not inlined or cloned (scripts/arm/neon-check). */
#define DOT16_ENTRY(name, kind, D)                                                                          \
    static __attribute__((noipa)) DOT16_TARGET void name(                                                   \
        const int16_t *a, ptrdiff_t rows, ptrdiff_t as, ptrdiff_t depth, const int8_t *w, ptrdiff_t channels, \
        const int32_t *row_sums, const booth_output_stage *stage, void *out, ptrdiff_t os) {                \
        gemm_s16_dot(a, rows, as, depth, w, channels, row_sums, stage, out, os, kind, D);                  \
    }
DOT16_ENTRY(gemm_s16_dot_int8, BOOTH_OUT_INT8, 0)
DOT16_ENTRY(gemm_s16_dot_int16, BOOTH_OUT_INT16, 0)
DOT16_ENTRY(gemm_s16_dot_int32, BOOTH_OUT_INT32, 0)
DOT16_ENTRY(gemm_s16_dot_direct_int8, BOOTH_OUT_INT8, 1)
DOT16_ENTRY(gemm_s16_dot_direct_int16, BOOTH_OUT_INT16, 1)
DOT16_ENTRY(gemm_s16_dot_direct_int32, BOOTH_OUT_INT32, 1)
#undef DOT16_ENTRY

/* Whether the direct form executes fewer instructions than the panel: the split repeated in every
 * 16-channel block (three vector instructions per chunk and row) costs less than the panel's once
 * per row (about ten per chunk, plus eighteen of row loop; then a load per chunk and block either
 * way). A depth that is not whole chunks reads its last chunk's sixteen values, past the depth
 * into the next row (those meet zero filters), so the direct form needs that read to stay within
 * the next row's depth (k16 <= a_stride + depth) and leaves the last row to the panel. */
static int dot16_direct(ptrdiff_t depth, ptrdiff_t a_stride, ptrdiff_t channels) {
    ptrdiff_t chunks = (depth + 15) / 16, blocks = (channels + 15) / 16;
    return chunks * 16 <= a_stride + depth && 3 * blocks * chunks < 18 + 10 * chunks;
}

DOT16_TARGET int booth_gemm_s16_dot(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth,
                                    const int8_t *w, ptrdiff_t channels, const int32_t *row_sums,
                                    const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int out_kind) {
    if (depth <= 0 || 4 * ((depth + 15) / 16 * 16) > DOT16_PANEL_BYTES) return 0;
    /* Rows 0 ..< head directly; the rest (the last row, when its last chunk would read past it)
     * through the panel. */
    ptrdiff_t head = dot16_direct(depth, a_stride, channels) ? (depth % 16 && rows > 0 ? rows - 1 : rows) : 0;
    size_t esize = out_kind == BOOTH_OUT_INT8 ? 1 : out_kind == BOOTH_OUT_INT16 ? 2 : 4;
    const int16_t *a2 = a + head * a_stride;
    void *out2 = (char *)out + (size_t)(head * out_stride) * esize;
    switch (out_kind) {
    case BOOTH_OUT_INT8:
        if (head > 0) gemm_s16_dot_direct_int8(a, head, a_stride, depth, w, channels, row_sums, stage, out, out_stride);
        if (head < rows) gemm_s16_dot_int8(a2, rows - head, a_stride, depth, w, channels, row_sums, stage, out2, out_stride);
        break;
    case BOOTH_OUT_INT16:
        if (head > 0) gemm_s16_dot_direct_int16(a, head, a_stride, depth, w, channels, row_sums, stage, out, out_stride);
        if (head < rows) gemm_s16_dot_int16(a2, rows - head, a_stride, depth, w, channels, row_sums, stage, out2, out_stride);
        break;
    default:
        if (head > 0) gemm_s16_dot_direct_int32(a, head, a_stride, depth, w, channels, row_sums, stage, out, out_stride);
        if (head < rows) gemm_s16_dot_int32(a2, rows - head, a_stride, depth, w, channels, row_sums, stage, out2, out_stride);
        break;
    }
    return 1;
}

#else

/* Elsewhere: the same arithmetic in portable C (the split, the two dot products per quad, the
 * start S = bias + 128·Σw split as S >> 8 for the high sums and S & 0xFF for the low, low + 256·high
 * in wrapping int32), so the identity is tested on every CPU, and
 * the scalar output stage (NeuralCore's multiplyByQuantizedMultiplier, + zero point, clamp). */

static int32_t dot16_wrap_add(int32_t x, int32_t y) { return (int32_t)((uint32_t)x + (uint32_t)y); }
static int32_t dot16_wrap_mul(int32_t x, int32_t y) { return (int32_t)((uint32_t)x * (uint32_t)y); }

static int32_t dot16_srdhm(int32_t a, int32_t b) {
    if (a == b && a == INT32_MIN) return INT32_MAX;
    int64_t ab = (int64_t)a * (int64_t)b;
    int64_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
    return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}

static int32_t dot16_rdpot(int32_t x, int32_t e) {
    int32_t mask = (int32_t)((1u << e) - 1);
    int32_t remainder = x & mask;
    int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> e) + (remainder > threshold ? 1 : 0);
}

int booth_gemm_s16_dot(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth, const int8_t *w,
                       ptrdiff_t channels, const int32_t *row_sums, const booth_output_stage *stage, void *out,
                       ptrdiff_t out_stride, int out_kind) {
    if (depth <= 0 || 4 * ((depth + 15) / 16 * 16) > DOT16_PANEL_BYTES) return 0;
    ptrdiff_t k16 = (depth + 15) / 16 * 16;
    for (ptrdiff_t r = 0; r < rows; r++) {
        const int16_t *x = a + r * a_stride;
        for (ptrdiff_t n = 0; n < channels; n++) {
            const int8_t *wb = w + (n / 16) * 16 * k16 + (n % 16) * 4;
            int32_t start = dot16_wrap_mul(row_sums[n], 128);
            if (out_kind != BOOTH_OUT_INT32) start = dot16_wrap_add(start, stage->bias[n]);
            int32_t high = start >> 8, low = start & 0xFF;
            for (ptrdiff_t q = 0; q < k16 / 4; q++) {
                const int8_t *wq = wb + q * 64;
                int32_t dh = 0, dl = 0;
                for (int i = 0; i < 4; i++) {
                    ptrdiff_t d = q * 4 + i;
                    int16_t v = d < depth ? x[d] : 0;
                    int32_t h = (int8_t)(v >> 8);
                    int32_t l = (int32_t)(v & 0xFF) - 128;
                    dh += h * wq[i];
                    dl += l * wq[i];
                }
                high = dot16_wrap_add(high, dh);
                low = dot16_wrap_add(low, dl);
            }
            int32_t acc = dot16_wrap_add(low, dot16_wrap_mul(high, 256));
            if (out_kind == BOOTH_OUT_INT32) {
                ((int32_t *)out)[r * out_stride + n] = acc;
                continue;
            }
            int32_t v = dot16_wrap_mul(acc, (int32_t)(1u << stage->left_shift[n]));
            v = dot16_rdpot(dot16_srdhm(v, stage->multiplier[n]), stage->right_shift[n]);
            v = dot16_wrap_add(v, stage->zero_point);
            v = v < stage->minimum ? stage->minimum : v > stage->maximum ? stage->maximum : v;
            if (out_kind == BOOTH_OUT_INT8) ((int8_t *)out)[r * out_stride + n] = (int8_t)v;
            else ((int16_t *)out)[r * out_stride + n] = (int16_t)v;
        }
    }
    return 1;
}

#endif
