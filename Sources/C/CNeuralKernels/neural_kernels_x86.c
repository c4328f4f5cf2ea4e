/*
 * NeuralCore's x86-64 AVX2 + FMA kernels (see include/CNeuralKernelsX86.h). Built with the target
 * CPU's flags (Package.swift passes -march=$BOOTH_TARGET_CPU, native by default), so
 * __AVX2__ / __FMA__ say whether the kernels exist; without them every entry returns 0.
 * -ffp-contract=off (the target's flags): the only fused operations are the explicit
 * _mm256_fmadd_ps, one per product, as the Swift references' `addingProduct`.
 */
#include "CNeuralKernelsX86.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

#define INLINE static inline __attribute__((always_inline))

int booth_x86_available(void) { return 1; }

/* Tiles are at most this many pixels (12 accumulators with 16 channels, 2 weight registers and a
 * broadcast: 15 of AVX2's 16 ymm registers). */
enum { TILE = 6 };

/* acc[j][c] += x_j[i] · w[i][8c ..< 8c + 8] for i in 0 ..< n, fused, i ascending. */
INLINE void fma_run(const int P, const int NC, __m256 acc[TILE][2], const float *const px[TILE], const float *w,
                    ptrdiff_t n, ptrdiff_t ocp) {
    for (ptrdiff_t i = 0; i < n; i++) {
        const __m256 w0 = _mm256_loadu_ps(w);
        const __m256 w1 = NC > 1 ? _mm256_loadu_ps(w + 8) : w0;
        for (int j = 0; j < P; j++) {
            const __m256 x = _mm256_broadcast_ss(px[j] + i);
            acc[j][0] = _mm256_fmadd_ps(x, w0, acc[j][0]);
            if (NC > 1) acc[j][1] = _mm256_fmadd_ps(x, w1, acc[j][1]);
        }
        w += ocp;
    }
}

/* The first `rest` lanes (all 8 when rest ≥ 8) of v clamped: lo > v ? lo : v, then hi < v ? hi : v
 * (maxps/minps return the second operand for NaN and equal values: clamp8's lane rules). */
INLINE void store_clamped(float *o, __m256 v, __m256 lo, __m256 hi, ptrdiff_t rest) {
    v = _mm256_min_ps(hi, _mm256_max_ps(lo, v));
    if (rest >= 8) {
        _mm256_storeu_ps(o, v);
    } else if (rest > 0) {
        float t[8];
        _mm256_storeu_ps(t, v);
        for (ptrdiff_t l = 0; l < rest; l++) o[l] = t[l];
    }
}

INLINE void store_tile(const int P, const int NC, __m256 acc[TILE][2], float *out, ptrdiff_t out_c, ptrdiff_t o,
                       __m256 lo, __m256 hi) {
    for (int j = 0; j < P; j++) {
        store_clamped(out + j * out_c + o, acc[j][0], lo, hi, out_c - o);
        if (NC > 1) store_clamped(out + j * out_c + o + 8, acc[j][1], lo, hi, out_c - o - 8);
    }
}

INLINE void start_tile(const int P, const int NC, __m256 acc[TILE][2], const float *bias) {
    const __m256 b0 = _mm256_loadu_ps(bias);
    const __m256 b1 = NC > 1 ? _mm256_loadu_ps(bias + 8) : b0;
    for (int j = 0; j < P; j++) {
        acc[j][0] = b0;
        acc[j][1] = b1;
    }
}

/* P contiguous pixels of a 1×1 convolution, channels o ..< o + 8·NC. */
INLINE void pw_tile(const int P, const int NC, const float *in, ptrdiff_t in_c, const float *w, const float *bias,
                    float *out, ptrdiff_t out_c, ptrdiff_t ocp, ptrdiff_t o, __m256 lo, __m256 hi) {
    __m256 acc[TILE][2];
    const float *px[TILE];
    for (int j = 0; j < P; j++) px[j] = in + j * in_c;
    start_tile(P, NC, acc, bias + o);
    fma_run(P, NC, acc, px, w + o, in_c, ocp);
    store_tile(P, NC, acc, out, out_c, o, lo, hi);
}

/* P pixels of one output row whose windows lie inside the input horizontally; `x0` the input
 * column under pixel 0's first tap, `y0` the input row under the first tap row. */
INLINE void conv_tile(const int P, const int NC, const booth_fconv *d, const float *in_n, ptrdiff_t y0, ptrdiff_t x0,
                      const float *w, const float *bias, float *out, ptrdiff_t ocp, ptrdiff_t o, __m256 lo, __m256 hi) {
    __m256 acc[TILE][2];
    const ptrdiff_t in_c = d->in_c;
    start_tile(P, NC, acc, bias + o);
    for (ptrdiff_t ky = 0; ky < d->k_h; ky++) {
        const ptrdiff_t iy = y0 + ky * d->dilation_h;
        if (iy < 0 || iy >= d->in_h) continue;
        const float *row = in_n + iy * d->in_w * in_c;
        for (ptrdiff_t kx = 0; kx < d->k_w; kx++) {
            const float *px[TILE];
            for (int j = 0; j < P; j++) px[j] = row + (x0 + j * d->stride_w + kx * d->dilation_w) * in_c;
            fma_run(P, NC, acc, px, w + (ky * d->k_w + kx) * in_c * ocp + o, in_c, ocp);
        }
    }
    store_tile(P, NC, acc, out, d->out_c, o, lo, hi);
}

/* One output pixel anywhere (taps outside the input skipped). */
INLINE void conv_pixel(const int NC, const booth_fconv *d, const float *in_n, ptrdiff_t y0, ptrdiff_t x0, const float *w,
                       const float *bias, float *out, ptrdiff_t ocp, ptrdiff_t o, __m256 lo, __m256 hi) {
    __m256 acc[TILE][2];
    const ptrdiff_t in_c = d->in_c;
    start_tile(1, NC, acc, bias + o);
    for (ptrdiff_t ky = 0; ky < d->k_h; ky++) {
        const ptrdiff_t iy = y0 + ky * d->dilation_h;
        if (iy < 0 || iy >= d->in_h) continue;
        const float *row = in_n + iy * d->in_w * in_c;
        for (ptrdiff_t kx = 0; kx < d->k_w; kx++) {
            const ptrdiff_t ix = x0 + kx * d->dilation_w;
            if (ix < 0 || ix >= d->in_w) continue;
            const float *px[TILE] = {row + ix * in_c};
            fma_run(1, NC, acc, px, w + (ky * d->k_w + kx) * in_c * ocp + o, in_c, ocp);
        }
    }
    store_tile(1, NC, acc, out, d->out_c, o, lo, hi);
}

/* Every channel group (16, then 8 if left) of P pixels. */
#define CHANNEL_GROUPS(P, CALL)                                    \
    for (ptrdiff_t o = 0; o < ocp; o += 16) {                      \
        if (o + 16 <= ocp) { const int NC = 2; CALL; }             \
        else { const int NC = 1; CALL; }                           \
    }

static void pw_run(const float *in, ptrdiff_t pixels, ptrdiff_t in_c, const float *w, const float *bias, float *out,
                   ptrdiff_t out_c, ptrdiff_t ocp, __m256 lo, __m256 hi) {
    ptrdiff_t p = 0;
    for (; p + 6 <= pixels; p += 6)
        CHANNEL_GROUPS(6, pw_tile(6, NC, in + p * in_c, in_c, w, bias, out + p * out_c, out_c, ocp, o, lo, hi))
    if (p + 4 <= pixels) {
        CHANNEL_GROUPS(4, pw_tile(4, NC, in + p * in_c, in_c, w, bias, out + p * out_c, out_c, ocp, o, lo, hi))
        p += 4;
    }
    if (p + 2 <= pixels) {
        CHANNEL_GROUPS(2, pw_tile(2, NC, in + p * in_c, in_c, w, bias, out + p * out_c, out_c, ocp, o, lo, hi))
        p += 2;
    }
    if (p < pixels)
        CHANNEL_GROUPS(1, pw_tile(1, NC, in + p * in_c, in_c, w, bias, out + p * out_c, out_c, ocp, o, lo, hi))
}

/* The output columns [first, end) whose whole window lies inside the input horizontally (the
 * others take the bounds-checked path). */
static inline void interior_columns(const booth_fconv *d, ptrdiff_t *first, ptrdiff_t *end) {
    const ptrdiff_t sx = d->stride_w, out_w = d->out_w;
    ptrdiff_t f = (d->pad_left + sx - 1) / sx;
    if (f < 0) f = 0;
    if (f > out_w) f = out_w;
    const ptrdiff_t span_w = (d->k_w - 1) * d->dilation_w + 1;
    ptrdiff_t e = d->in_w + d->pad_left - span_w >= 0 ? (d->in_w + d->pad_left - span_w) / sx + 1 : 0;
    if (e > out_w) e = out_w;
    if (e < f) e = f;
    *first = f;
    *end = e;
}

int booth_x86_conv_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out) {
    const ptrdiff_t ocp = (d->out_c + 7) & ~(ptrdiff_t)7;
    const __m256 lo = _mm256_set1_ps(d->lo), hi = _mm256_set1_ps(d->hi);
    if (d->k_h == 1 && d->k_w == 1 && d->stride_h == 1 && d->stride_w == 1 && d->pad_top == 0 && d->pad_left == 0) {
        pw_run(in, d->batch * d->in_h * d->in_w, d->in_c, w, bias, out, d->out_c, ocp, lo, hi);
        return 1;
    }
    const ptrdiff_t sx = d->stride_w, out_w = d->out_w, out_c = d->out_c;
    ptrdiff_t first, end;
    interior_columns(d, &first, &end);
    for (ptrdiff_t n = 0; n < d->batch; n++) {
        const float *in_n = in + n * d->in_h * d->in_w * d->in_c;
        for (ptrdiff_t oy = 0; oy < d->out_h; oy++) {
            const ptrdiff_t y0 = oy * d->stride_h - d->pad_top;
            float *row_out = out + (n * d->out_h + oy) * out_w * out_c;
            ptrdiff_t ox = 0;
            for (; ox < first; ox++)
                CHANNEL_GROUPS(1, conv_pixel(NC, d, in_n, y0, ox * sx - d->pad_left, w, bias, row_out + ox * out_c, ocp, o, lo, hi))
            for (; ox + 6 <= end; ox += 6)
                CHANNEL_GROUPS(6, conv_tile(6, NC, d, in_n, y0, ox * sx - d->pad_left, w, bias, row_out + ox * out_c, ocp, o, lo, hi))
            if (ox + 4 <= end) {
                CHANNEL_GROUPS(4, conv_tile(4, NC, d, in_n, y0, ox * sx - d->pad_left, w, bias, row_out + ox * out_c, ocp, o, lo, hi))
                ox += 4;
            }
            if (ox + 2 <= end) {
                CHANNEL_GROUPS(2, conv_tile(2, NC, d, in_n, y0, ox * sx - d->pad_left, w, bias, row_out + ox * out_c, ocp, o, lo, hi))
                ox += 2;
            }
            for (; ox < out_w; ox++)
                CHANNEL_GROUPS(1, conv_pixel(NC, d, in_n, y0, ox * sx - d->pad_left, w, bias, row_out + ox * out_c, ocp, o, lo, hi))
        }
    }
    return 1;
}

/* MARK: AVX-512 float convolution
 *
 * booth_x86_conv_f32 with zmm registers on CPUs that have AVX-512 (booth_x86_has_avx512vnni: the
 * one AVX-512 level Booth probes for), whatever the build's target: tiles of up to 12 pixels ×
 * 32 channels (24 zmm accumulators of 32), the same packing (`ocp` a multiple of 8, so a last
 * group of 8 channels is a masked load), and the same fused multiply-adds in the same order per
 * output (bias, then tap by tap, input channel ascending), the same clamp (maxps/minps operand
 * order): the same bits as the AVX2 kernel and the scalar reference. */
/* The AVX-512 level Booth probes for (booth_x86_has_avx512vnni), for the float convolution here
 * and the VNNI GEMM below. */
#define AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))
#define AVX512_INLINE static inline __attribute__((always_inline)) AVX512_TARGET

enum { F512_TILE = 12 };

/* Lanes of the channel group at o (16 channels, fewer at the end of `count`). */
AVX512_INLINE __mmask16 f512_lanes(ptrdiff_t count, ptrdiff_t o) {
    const ptrdiff_t rest = count - o;
    return rest >= 16 ? (__mmask16)0xFFFF : rest <= 0 ? (__mmask16)0 : (__mmask16)((1u << rest) - 1);
}

AVX512_INLINE void f512_fma_run(const int P, const int NC, __m512 acc[F512_TILE][2], const float *const px[F512_TILE],
                              const float *w, ptrdiff_t n, ptrdiff_t ocp, __mmask16 m0, __mmask16 m1) {
    for (ptrdiff_t i = 0; i < n; i++) {
        const __m512 w0 = _mm512_maskz_loadu_ps(m0, w);
        const __m512 w1 = NC > 1 ? _mm512_maskz_loadu_ps(m1, w + 16) : w0;
        for (int j = 0; j < P; j++) {
            const __m512 x = _mm512_set1_ps(px[j][i]);
            acc[j][0] = _mm512_fmadd_ps(x, w0, acc[j][0]);
            if (NC > 1) acc[j][1] = _mm512_fmadd_ps(x, w1, acc[j][1]);
        }
        w += ocp;
    }
}

AVX512_INLINE void f512_start(const int P, const int NC, __m512 acc[F512_TILE][2], const float *bias, __mmask16 m0,
                            __mmask16 m1) {
    const __m512 b0 = _mm512_maskz_loadu_ps(m0, bias);
    const __m512 b1 = NC > 1 ? _mm512_maskz_loadu_ps(m1, bias + 16) : b0;
    for (int j = 0; j < P; j++) {
        acc[j][0] = b0;
        acc[j][1] = b1;
    }
}

AVX512_INLINE void f512_store(const int P, const int NC, __m512 acc[F512_TILE][2], float *out, ptrdiff_t out_c, ptrdiff_t o,
                            __m512 lo, __m512 hi) {
    const __mmask16 s0 = f512_lanes(out_c, o), s1 = f512_lanes(out_c, o + 16);
    for (int j = 0; j < P; j++) {
        _mm512_mask_storeu_ps(out + j * out_c + o, s0, _mm512_min_ps(hi, _mm512_max_ps(lo, acc[j][0])));
        if (NC > 1) _mm512_mask_storeu_ps(out + j * out_c + o + 16, s1, _mm512_min_ps(hi, _mm512_max_ps(lo, acc[j][1])));
    }
}

AVX512_INLINE void f512_pw_tile(const int P, const int NC, const float *in, ptrdiff_t in_c, const float *w, const float *bias,
                              float *out, ptrdiff_t out_c, ptrdiff_t ocp, ptrdiff_t o, __m512 lo, __m512 hi) {
    __m512 acc[F512_TILE][2];
    const float *px[F512_TILE];
    const __mmask16 m0 = f512_lanes(ocp, o), m1 = f512_lanes(ocp, o + 16);
    for (int j = 0; j < P; j++) px[j] = in + j * in_c;
    f512_start(P, NC, acc, bias + o, m0, m1);
    f512_fma_run(P, NC, acc, px, w + o, in_c, ocp, m0, m1);
    f512_store(P, NC, acc, out, out_c, o, lo, hi);
}

AVX512_INLINE void f512_conv_tile(const int P, const int NC, const booth_fconv *d, const float *in_n, ptrdiff_t y0, ptrdiff_t x0,
                                const int checked, const float *w, const float *bias, float *out, ptrdiff_t ocp, ptrdiff_t o,
                                __m512 lo, __m512 hi) {
    __m512 acc[F512_TILE][2];
    const ptrdiff_t in_c = d->in_c;
    const __mmask16 m0 = f512_lanes(ocp, o), m1 = f512_lanes(ocp, o + 16);
    f512_start(P, NC, acc, bias + o, m0, m1);
    for (ptrdiff_t ky = 0; ky < d->k_h; ky++) {
        const ptrdiff_t iy = y0 + ky * d->dilation_h;
        if (iy < 0 || iy >= d->in_h) continue;
        const float *row = in_n + iy * d->in_w * in_c;
        for (ptrdiff_t kx = 0; kx < d->k_w; kx++) {
            const float *px[F512_TILE];
            if (checked) {  /* one pixel, taps outside the input skipped */
                const ptrdiff_t ix = x0 + kx * d->dilation_w;
                if (ix < 0 || ix >= d->in_w) continue;
                px[0] = row + ix * in_c;
            } else {
                for (int j = 0; j < P; j++) px[j] = row + (x0 + j * d->stride_w + kx * d->dilation_w) * in_c;
            }
            f512_fma_run(P, NC, acc, px, w + (ky * d->k_w + kx) * in_c * ocp + o, in_c, ocp, m0, m1);
        }
    }
    f512_store(P, NC, acc, out, d->out_c, o, lo, hi);
}

/* Every channel group (32, then 16 or 8 if left) of P pixels. */
#define F512_GROUPS(CALL)                                          \
    for (ptrdiff_t o = 0; o < ocp; o += 32) {                      \
        if (o + 16 < ocp) { const int NC = 2; CALL; }              \
        else { const int NC = 1; CALL; }                           \
    }

AVX512_TARGET static void f512_pw_run(const float *in, ptrdiff_t pixels, ptrdiff_t in_c, const float *w, const float *bias,
                                    float *out, ptrdiff_t out_c, ptrdiff_t ocp, __m512 lo, __m512 hi) {
    ptrdiff_t p = 0;
    for (; p + 12 <= pixels; p += 12)
        F512_GROUPS(f512_pw_tile(12, NC, in + p * in_c, in_c, w, bias, out + p * out_c, out_c, ocp, o, lo, hi))
    if (p + 8 <= pixels) {
        F512_GROUPS(f512_pw_tile(8, NC, in + p * in_c, in_c, w, bias, out + p * out_c, out_c, ocp, o, lo, hi))
        p += 8;
    }
    if (p + 4 <= pixels) {
        F512_GROUPS(f512_pw_tile(4, NC, in + p * in_c, in_c, w, bias, out + p * out_c, out_c, ocp, o, lo, hi))
        p += 4;
    }
    if (p + 2 <= pixels) {
        F512_GROUPS(f512_pw_tile(2, NC, in + p * in_c, in_c, w, bias, out + p * out_c, out_c, ocp, o, lo, hi))
        p += 2;
    }
    if (p < pixels) F512_GROUPS(f512_pw_tile(1, NC, in + p * in_c, in_c, w, bias, out + p * out_c, out_c, ocp, o, lo, hi))
}

AVX512_TARGET static void f512_conv(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out,
                                  ptrdiff_t ocp) {
    const __m512 lo = _mm512_set1_ps(d->lo), hi = _mm512_set1_ps(d->hi);
    if (d->k_h == 1 && d->k_w == 1 && d->stride_h == 1 && d->stride_w == 1 && d->pad_top == 0 && d->pad_left == 0) {
        f512_pw_run(in, d->batch * d->in_h * d->in_w, d->in_c, w, bias, out, d->out_c, ocp, lo, hi);
        return;
    }
    const ptrdiff_t sx = d->stride_w, out_w = d->out_w, out_c = d->out_c;
    ptrdiff_t first, end;
    interior_columns(d, &first, &end);
    for (ptrdiff_t n = 0; n < d->batch; n++) {
        const float *in_n = in + n * d->in_h * d->in_w * d->in_c;
        for (ptrdiff_t oy = 0; oy < d->out_h; oy++) {
            const ptrdiff_t y0 = oy * d->stride_h - d->pad_top;
            float *row_out = out + (n * d->out_h + oy) * out_w * out_c;
            ptrdiff_t ox = 0;
            for (; ox < first; ox++)
                F512_GROUPS(f512_conv_tile(1, NC, d, in_n, y0, ox * sx - d->pad_left, 1, w, bias, row_out + ox * out_c, ocp, o, lo, hi))
            for (; ox + 12 <= end; ox += 12)
                F512_GROUPS(f512_conv_tile(12, NC, d, in_n, y0, ox * sx - d->pad_left, 0, w, bias, row_out + ox * out_c, ocp, o, lo, hi))
            if (ox + 8 <= end) {
                F512_GROUPS(f512_conv_tile(8, NC, d, in_n, y0, ox * sx - d->pad_left, 0, w, bias, row_out + ox * out_c, ocp, o, lo, hi))
                ox += 8;
            }
            if (ox + 4 <= end) {
                F512_GROUPS(f512_conv_tile(4, NC, d, in_n, y0, ox * sx - d->pad_left, 0, w, bias, row_out + ox * out_c, ocp, o, lo, hi))
                ox += 4;
            }
            if (ox + 2 <= end) {
                F512_GROUPS(f512_conv_tile(2, NC, d, in_n, y0, ox * sx - d->pad_left, 0, w, bias, row_out + ox * out_c, ocp, o, lo, hi))
                ox += 2;
            }
            for (; ox < out_w; ox++)
                F512_GROUPS(f512_conv_tile(1, NC, d, in_n, y0, ox * sx - d->pad_left, 1, w, bias, row_out + ox * out_c, ocp, o, lo, hi))
        }
    }
}

int booth_x86_conv_f32_avx512(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out) {
    if (!booth_x86_has_avx512vnni()) return 0;
    f512_conv(d, in, w, bias, out, (d->out_c + 7) & ~(ptrdiff_t)7);
    return 1;
}

/* Transposed convolution: at most this many taps (the scratch is on the stack). */
enum { MAX_TAPS = 64 };

/* Products of P input pixels of one row (`px`) for every tap whose output row exists, channels
 * o ..< o + 8·NC, from 0; then added into the output pixel by pixel, tap by tap. */
INLINE void transpose_tile(const int P, const int NC, const booth_fconv *d, const float *src, ptrdiff_t iy, ptrdiff_t ix0,
                           const float *w, float *out_n, ptrdiff_t ocp, ptrdiff_t o, float *scratch) {
    const ptrdiff_t in_c = d->in_c, out_c = d->out_c;
    const float *px[TILE];
    for (int j = 0; j < P; j++) px[j] = src + j * in_c;
    for (ptrdiff_t ky = 0; ky < d->k_h; ky++) {
        const ptrdiff_t oy = iy * d->stride_h - d->pad_top + ky;
        if (oy < 0 || oy >= d->out_h) continue;
        for (ptrdiff_t kx = 0; kx < d->k_w; kx++) {
            __m256 acc[TILE][2];
            for (int j = 0; j < P; j++) {
                acc[j][0] = _mm256_setzero_ps();
                acc[j][1] = _mm256_setzero_ps();
            }
            const ptrdiff_t tap = ky * d->k_w + kx;
            fma_run(P, NC, acc, px, w + tap * in_c * ocp + o, in_c, ocp);
            for (int j = 0; j < P; j++) {
                _mm256_storeu_ps(scratch + (tap * TILE + j) * 16, acc[j][0]);
                if (NC > 1) _mm256_storeu_ps(scratch + (tap * TILE + j) * 16 + 8, acc[j][1]);
            }
        }
    }
    for (int j = 0; j < P; j++) {
        for (ptrdiff_t ky = 0; ky < d->k_h; ky++) {
            const ptrdiff_t oy = iy * d->stride_h - d->pad_top + ky;
            if (oy < 0 || oy >= d->out_h) continue;
            for (ptrdiff_t kx = 0; kx < d->k_w; kx++) {
                const ptrdiff_t ox = (ix0 + j) * d->stride_w - d->pad_left + kx;
                if (ox < 0 || ox >= d->out_w) continue;
                float *dst = out_n + (oy * d->out_w + ox) * out_c + o;
                const float *s = scratch + ((ky * d->k_w + kx) * TILE + j) * 16;
                for (int c = 0; c < NC; c++) {
                    const ptrdiff_t rest = out_c - o - c * 8;
                    if (rest >= 8) {
                        _mm256_storeu_ps(dst + c * 8, _mm256_add_ps(_mm256_loadu_ps(dst + c * 8), _mm256_loadu_ps(s + c * 8)));
                    } else {
                        for (ptrdiff_t l = 0; l < rest; l++) dst[c * 8 + l] += s[c * 8 + l];
                    }
                }
            }
        }
    }
}

int booth_x86_transpose_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out) {
    if (d->k_h * d->k_w > MAX_TAPS) return 0;
    float scratch[MAX_TAPS * TILE * 16];
    const ptrdiff_t ocp = (d->out_c + 7) & ~(ptrdiff_t)7, in_c = d->in_c, out_c = d->out_c;
    for (ptrdiff_t n = 0; n < d->batch; n++) {
        float *out_n = out + n * d->out_h * d->out_w * out_c;
        for (ptrdiff_t p = 0; p < d->out_h * d->out_w; p++)
            for (ptrdiff_t o = 0; o < out_c; o++) out_n[p * out_c + o] = bias[o];
        for (ptrdiff_t iy = 0; iy < d->in_h; iy++) {
            const float *row = in + (n * d->in_h + iy) * d->in_w * in_c;
            ptrdiff_t ix = 0;
            for (; ix + 6 <= d->in_w; ix += 6)
                CHANNEL_GROUPS(6, transpose_tile(6, NC, d, row + ix * in_c, iy, ix, w, out_n, ocp, o, scratch))
            if (ix + 4 <= d->in_w) {
                CHANNEL_GROUPS(4, transpose_tile(4, NC, d, row + ix * in_c, iy, ix, w, out_n, ocp, o, scratch))
                ix += 4;
            }
            if (ix + 2 <= d->in_w) {
                CHANNEL_GROUPS(2, transpose_tile(2, NC, d, row + ix * in_c, iy, ix, w, out_n, ocp, o, scratch))
                ix += 2;
            }
            if (ix < d->in_w)
                CHANNEL_GROUPS(1, transpose_tile(1, NC, d, row + ix * in_c, iy, ix, w, out_n, ocp, o, scratch))
        }
    }
    return 1;
}

/* MARK: Float depthwise */

/* Input vector of channels o ..< o + 8 (MASKED: only the lanes `mask` sets are read, so the last
 * pixel's tail never reads past the tensor). */
INLINE __m256 fdw_load(const int masked, const float *p, __m256i mask) {
    return masked ? _mm256_maskload_ps(p, mask) : _mm256_loadu_ps(p);
}

/* P pixels of one output row (`x0` the input column under pixel 0's first tap; every tap inside
 * the input horizontally when `interior`, otherwise P is 1 and taps outside are skipped), channels
 * o ..< o + 8·NC: acc = bias, one fused multiply-add per valid tap in (ky, kx) order, clamp. */
INLINE void fdw_tile(const int P, const int NC, const int masked, const int interior, const booth_fconv *d, const float *in_n,
                     ptrdiff_t y0, ptrdiff_t x0, const float *w, const float *bias, float *out, ptrdiff_t ocp, ptrdiff_t o,
                     __m256i mask, __m256 lo, __m256 hi) {
    __m256 acc[TILE][2];
    const ptrdiff_t c = d->in_c;
    start_tile(P, NC, acc, bias + o);
    for (ptrdiff_t ky = 0; ky < d->k_h; ky++) {
        const ptrdiff_t iy = y0 + ky * d->dilation_h;
        if (iy < 0 || iy >= d->in_h) continue;
        const float *row = in_n + iy * d->in_w * c + o;
        for (ptrdiff_t kx = 0; kx < d->k_w; kx++) {
            const ptrdiff_t ix = x0 + kx * d->dilation_w;
            if (!interior && (ix < 0 || ix >= d->in_w)) continue;
            const float *wt = w + (ky * d->k_w + kx) * ocp + o;
            const __m256 w0 = _mm256_loadu_ps(wt);
            const __m256 w1 = NC > 1 ? _mm256_loadu_ps(wt + 8) : w0;
            for (int j = 0; j < P; j++) {
                const float *px = row + (ix + j * d->stride_w) * c;
                acc[j][0] = _mm256_fmadd_ps(fdw_load(masked, px, mask), w0, acc[j][0]);
                if (NC > 1) acc[j][1] = _mm256_fmadd_ps(_mm256_loadu_ps(px + 8), w1, acc[j][1]);
            }
        }
    }
    store_tile(P, NC, acc, out, d->out_c, o, lo, hi);
}

/* Every channel group of P pixels: 16 at a time, then 8, then the masked tail. */
#define FDW_GROUPS(P, INTERIOR, X0, OUT)                                                                          \
    do {                                                                                                          \
        ptrdiff_t o = 0;                                                                                          \
        for (; o + 16 <= out_c; o += 16) fdw_tile(P, 2, 0, INTERIOR, d, in_n, y0, X0, w, bias, OUT, ocp, o, mask, lo, hi); \
        if (o + 8 <= out_c) { fdw_tile(P, 1, 0, INTERIOR, d, in_n, y0, X0, w, bias, OUT, ocp, o, mask, lo, hi); o += 8; } \
        if (o < out_c) fdw_tile(P, 1, 1, INTERIOR, d, in_n, y0, X0, w, bias, OUT, ocp, o, mask, lo, hi);       \
    } while (0)

int booth_x86_depthwise_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out) {
    if (d->in_c != d->out_c) return 0;
    const ptrdiff_t ocp = (d->out_c + 7) & ~(ptrdiff_t)7, out_c = d->out_c, out_w = d->out_w, sx = d->stride_w;
    const __m256 lo = _mm256_set1_ps(d->lo), hi = _mm256_set1_ps(d->hi);
    int32_t lanes[8];
    for (int l = 0; l < 8; l++) lanes[l] = l < out_c % 8 ? -1 : 0;
    const __m256i mask = _mm256_loadu_si256((const __m256i *)lanes);
    ptrdiff_t first, end;
    interior_columns(d, &first, &end);
    for (ptrdiff_t n = 0; n < d->batch; n++) {
        const float *in_n = in + n * d->in_h * d->in_w * d->in_c;
        for (ptrdiff_t oy = 0; oy < d->out_h; oy++) {
            const ptrdiff_t y0 = oy * d->stride_h - d->pad_top;
            float *row_out = out + (n * d->out_h + oy) * out_w * out_c;
            ptrdiff_t ox = 0;
            for (; ox < first; ox++) FDW_GROUPS(1, 0, ox * sx - d->pad_left, row_out + ox * out_c);
            for (; ox + 4 <= end; ox += 4) FDW_GROUPS(4, 1, ox * sx - d->pad_left, row_out + ox * out_c);
            for (; ox < out_w; ox++) FDW_GROUPS(1, 0, ox * sx - d->pad_left, row_out + ox * out_c);
        }
    }
    return 1;
}

/* MARK: int16 GEMM */

/* The output stage of 8 channels (one half of a 16-channel block), StageRegisters' arithmetic:
 * x = acc << left (the accumulators start at the bias), y = x · m (64-bit), t = y + round −
 * (y < 0 ? neg : 0), result = low 32 bits of t >> (31 + e) (arithmetic), + zero point, clamped.
 * 64-bit values split by lane parity: even lanes hold channels 0, 2, 4, 6, odd lanes 1, 3, 5, 7
 * (the odd ones moved into the low dwords by vpshufd $0xF5, `mult_o` likewise). */
typedef struct stage_half {
    __m256i mult, mult_o, left;
    /* The 64-bit constant added to y by sign of y: round (y ≥ 0) and round − neg (y < 0),
     * chosen with vblendvpd on y's sign bit; even and odd lanes. */
    __m256i rpos_e, rneg_e, rpos_o, rneg_o, shift_e, shift_o;
    /* e − 1 per lane, and whether every lane has e ≥ 1 (then the shift by 31 + e is the high
     * half's arithmetic shift by e − 1: one vpsravd instead of two 64-bit shifts). */
    __m256i shift_hi;
    int all_right;
} stage_half;

/* Eight int32 lanes from `p`: lanes 0–3 from p + lo, lanes 4–7 from p + hi. */
INLINE __m256i load_halves(const int32_t *p, int lo, int hi) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(p + lo))),
                                   _mm_loadu_si128((const __m128i *)(p + hi)), 1);
}

/* Lanes 0–3 of the half hold channels c0 + lo ..< c0 + lo + 4, lanes 4–7 c0 + hi ..< c0 + hi + 4
 * (the stage's arrays are padded to whole blocks of 16). Vector arithmetic on the stage's
 * arrays: e = right shift & 31, round = 2^30 + (e ≥ 1 ? 2^(30+e) : 0), neg = e ≥ 1 ? 2^31 : 0,
 * the 64-bit shift 31 + e. */
static void stage_half_init(stage_half *h, const booth_output_stage *st, ptrdiff_t c0, int lo, int hi) {
    const __m256i k31 = _mm256_set1_epi32(31), one = _mm256_set1_epi32(1), zero = _mm256_setzero_si256();
    h->mult = load_halves(st->multiplier + c0, lo, hi);
    /* The odd channels moved into the even dwords (vpshufd), not shifted down: after a 64-bit
     * shift (upper halves known zero) clang rewrote vpmuldq as a full 64 × 64-bit product, three
     * vpmuludq and six shifts and adds per vector (about 8 extra instructions per half). */
    h->mult_o = _mm256_shuffle_epi32(h->mult, 0xF5);
    h->left = _mm256_and_si256(load_halves(st->left_shift + c0, lo, hi), k31);
    const __m256i e = _mm256_and_si256(load_halves(st->right_shift + c0, lo, hi), k31);
    const __m256i e0 = _mm256_cmpeq_epi32(e, zero);  /* lanes with e = 0 */
    h->all_right = _mm256_movemask_ps(_mm256_castsi256_ps(e0)) == 0;
    h->shift_hi = _mm256_max_epi32(_mm256_sub_epi32(e, one), zero);
    /* 64-bit lanes of the even (low dword) and odd (high dword) channels. */
    const __m256i lowmask = _mm256_set1_epi64x(0xFFFFFFFF);
    const __m256i ee = _mm256_and_si256(e, lowmask), eo = _mm256_srli_epi64(e, 32);
    const __m256i z_e = _mm256_and_si256(e0, lowmask), z_o = _mm256_srli_epi64(e0, 32);  /* all ones (low) where e = 0 */
    const __m256i nz_e = _mm256_cmpeq_epi64(z_e, _mm256_setzero_si256()), nz_o = _mm256_cmpeq_epi64(z_o, _mm256_setzero_si256());
    const __m256i one64 = _mm256_set1_epi64x(1), k30 = _mm256_set1_epi64x(30);
    const __m256i base = _mm256_set1_epi64x((int64_t)1 << 30), neg = _mm256_set1_epi64x((int64_t)1 << 31);
    const __m256i round_e = _mm256_add_epi64(base, _mm256_and_si256(nz_e, _mm256_sllv_epi64(one64, _mm256_add_epi64(ee, k30))));
    const __m256i round_o = _mm256_add_epi64(base, _mm256_and_si256(nz_o, _mm256_sllv_epi64(one64, _mm256_add_epi64(eo, k30))));
    h->rpos_e = round_e;
    h->rpos_o = round_o;
    h->rneg_e = _mm256_sub_epi64(round_e, _mm256_and_si256(nz_e, neg));
    h->rneg_o = _mm256_sub_epi64(round_o, _mm256_and_si256(nz_o, neg));
    const __m256i k31_64 = _mm256_set1_epi64x(31);
    h->shift_e = _mm256_add_epi64(ee, k31_64);
    h->shift_o = _mm256_add_epi64(eo, k31_64);
}

/* Channel orders of the halves (lanes 0–3, lanes 4–7 offsets). */
enum { NATURAL_LO = 0, NATURAL_HI = 8 };

/* Arithmetic 64-bit right shift by lane (AVX2 has only the logical one): through the complement
 * for negative lanes. */
INLINE __m256i sra64(__m256i t, __m256i s) {
    const __m256i sign = _mm256_cmpgt_epi64(_mm256_setzero_si256(), t);
    return _mm256_xor_si256(_mm256_srlv_epi64(_mm256_xor_si256(t, sign), s), sign);
}

/* x · m + (round or round − neg by y's sign), shifted: the stage without the zero point and the
 * clamp (int32 lanes, exact). */
INLINE __m256i requantize_raw8(__m256i x, const stage_half *h, int has_left) {
    if (has_left) x = _mm256_sllv_epi32(x, h->left);
    const __m256i ye = _mm256_mul_epi32(x, h->mult);
    const __m256i yo = _mm256_mul_epi32(_mm256_shuffle_epi32(x, 0xF5), h->mult_o);
    __m256i te = _mm256_add_epi64(ye, _mm256_castpd_si256(_mm256_blendv_pd(
        _mm256_castsi256_pd(h->rpos_e), _mm256_castsi256_pd(h->rneg_e), _mm256_castsi256_pd(ye))));
    __m256i to = _mm256_add_epi64(yo, _mm256_castpd_si256(_mm256_blendv_pd(
        _mm256_castsi256_pd(h->rpos_o), _mm256_castsi256_pd(h->rneg_o), _mm256_castsi256_pd(yo))));
    if (h->all_right) {
        /* low 32 bits of t >> (31 + e), e ≥ 1: the high half (floor(t / 2^32), exact) shifted
         * right by e − 1. */
        return _mm256_srav_epi32(_mm256_blend_epi32(_mm256_srli_epi64(te, 32), to, 0xAA), h->shift_hi);
    }
    te = sra64(te, h->shift_e);
    to = sra64(to, h->shift_o);
    return _mm256_blend_epi32(te, _mm256_slli_epi64(to, 32), 0xAA);
}

INLINE __m256i requantize8(__m256i x, const stage_half *h, int has_left, __m256i zp, __m256i lo, __m256i hi) {
    const __m256i v = _mm256_add_epi32(requantize_raw8(x, h, has_left), zp);
    return _mm256_min_epi32(_mm256_max_epi32(v, lo), hi);
}

/* Whether the zero point and clamp may run on 16-bit lanes after the saturating pack: every
 * step from there (vpackssdw, vpaddsw zp, [vpacksswb], max, min) is monotone and the identity on
 * the values whose result lies within [lo, hi], so the clamped results are the same. */
INLINE int narrow_clamp_exact(int bits, int32_t zp, int32_t lo, int32_t hi) {
    if (zp < -32768 || zp > 32767 || lo > hi) return 0;
    if ((int64_t)lo - zp < -32768 || (int64_t)hi - zp > 32767) return 0;
    return bits == 16 || (lo >= -128 && hi <= 127);
}

/* Rows of one 16-channel block: acc[j][h] for row j, channels 8h ..< 8h + 8. */
INLINE void gemm_tile(const int P, const int16_t *a, ptrdiff_t a_stride, ptrdiff_t pairs, const int16_t *w,
                      __m256i start0, __m256i start1, __m256i acc[TILE][2]) {
    for (int j = 0; j < P; j++) {
        acc[j][0] = start0;
        acc[j][1] = start1;
    }
    /* Not unrolled: two steps at once need more than AVX2's 16 ymm registers (accumulators
     * spilled to the stack). */
#pragma clang loop unroll(disable)
    for (ptrdiff_t p = 0; p < pairs; p++) {
        const __m256i w0 = _mm256_loadu_si256((const __m256i *)(w + p * 32));
        const __m256i w1 = _mm256_loadu_si256((const __m256i *)(w + p * 32 + 16));
        for (int j = 0; j < P; j++) {
            int32_t pair;
            __builtin_memcpy(&pair, a + j * a_stride + 2 * p, 4);
            const __m256i x = _mm256_set1_epi32(pair);
            acc[j][0] = _mm256_add_epi32(acc[j][0], _mm256_madd_epi16(x, w0));
            acc[j][1] = _mm256_add_epi32(acc[j][1], _mm256_madd_epi16(x, w1));
        }
    }
}

typedef struct gemm_block {
    stage_half h[2];
    __m256i zp, lo, hi;
    /* The zero point and bounds as 16-bit (narrow_clamp_exact) and 8-bit lanes. */
    __m256i zp16, lo16, hi16;
    __m128i lo8, hi8;
    int has_left;
    ptrdiff_t valid;
} gemm_block;

/* Sixteen raw stage results (channels in order after the pack of r0, r1 and the given lane
 * permutation) with the zero point and clamp on 16-bit lanes: int16 values, or int8 values in
 * the low 128 bits' 16 bytes. */
INLINE __m256i narrow16_clamped(__m256i v16, __m256i zp16, __m256i lo16, __m256i hi16) {
    return _mm256_min_epi16(_mm256_max_epi16(_mm256_adds_epi16(v16, zp16), lo16), hi16);
}

INLINE __m128i narrow8_clamped(__m256i v16, __m256i zp16, __m128i lo8, __m128i hi8) {
    const __m256i z = _mm256_adds_epi16(v16, zp16);
    const __m128i b = _mm_packs_epi16(_mm256_castsi256_si128(z), _mm256_extracti128_si256(z, 1));
    return _mm_min_epi8(_mm_max_epi8(b, lo8), hi8);
}

/* Stores row j's 16 channels (`valid` of them) at dst. */
INLINE void gemm_store(const int kind, const int narrow, const gemm_block *g, __m256i a0, __m256i a1, void *dst) {
    if (kind == BOOTH_OUT_INT32) {
        if (g->valid == 16) {
            _mm256_storeu_si256((__m256i *)dst, a0);
            _mm256_storeu_si256((__m256i *)((int32_t *)dst + 8), a1);
        } else {
            int32_t t[16];
            _mm256_storeu_si256((__m256i *)t, a0);
            _mm256_storeu_si256((__m256i *)(t + 8), a1);
            for (ptrdiff_t i = 0; i < g->valid; i++) ((int32_t *)dst)[i] = t[i];
        }
        return;
    }
    if (narrow) {
        const __m256i v16 = _mm256_permute4x64_epi64(
            _mm256_packs_epi32(requantize_raw8(a0, &g->h[0], g->has_left), requantize_raw8(a1, &g->h[1], g->has_left)), 0xD8);
        if (kind == BOOTH_OUT_INT16) {
            const __m256i v = narrow16_clamped(v16, g->zp16, g->lo16, g->hi16);
            if (g->valid == 16) {
                _mm256_storeu_si256((__m256i *)dst, v);
            } else {
                int16_t t[16];
                _mm256_storeu_si256((__m256i *)t, v);
                for (ptrdiff_t i = 0; i < g->valid; i++) ((int16_t *)dst)[i] = t[i];
            }
        } else {
            const __m128i v = narrow8_clamped(v16, g->zp16, g->lo8, g->hi8);
            if (g->valid == 16) {
                _mm_storeu_si128((__m128i *)dst, v);
            } else {
                int8_t t[16];
                _mm_storeu_si128((__m128i *)t, v);
                for (ptrdiff_t i = 0; i < g->valid; i++) ((int8_t *)dst)[i] = t[i];
            }
        }
        return;
    }
    const __m256i r0 = requantize8(a0, &g->h[0], g->has_left, g->zp, g->lo, g->hi);
    const __m256i r1 = requantize8(a1, &g->h[1], g->has_left, g->zp, g->lo, g->hi);
    /* Clamped to the output type's range, so the saturating packs only narrow. */
    const __m256i v16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(r0, r1), 0xD8);
    if (kind == BOOTH_OUT_INT16) {
        if (g->valid == 16) {
            _mm256_storeu_si256((__m256i *)dst, v16);
        } else {
            int16_t t[16];
            _mm256_storeu_si256((__m256i *)t, v16);
            for (ptrdiff_t i = 0; i < g->valid; i++) ((int16_t *)dst)[i] = t[i];
        }
    } else {
        const __m128i v8 = _mm_packs_epi16(_mm256_castsi256_si128(v16), _mm256_extracti128_si256(v16, 1));
        if (g->valid == 16) {
            _mm_storeu_si128((__m128i *)dst, v8);
        } else {
            int8_t t[16];
            _mm_storeu_si128((__m128i *)t, v8);
            for (ptrdiff_t i = 0; i < g->valid; i++) ((int8_t *)dst)[i] = t[i];
        }
    }
}

INLINE void gemm_rows(const int P, const int kind, const int narrow, const gemm_block *g, const int16_t *a, ptrdiff_t a_stride, ptrdiff_t pairs,
                      const int16_t *w, __m256i start0, __m256i start1, char *out, ptrdiff_t row_bytes) {
    __m256i acc[TILE][2];
    gemm_tile(P, a, a_stride, pairs, w, start0, start1, acc);
    for (int j = 0; j < P; j++) gemm_store(kind, narrow, g, acc[j][0], acc[j][1], out + j * row_bytes);
}

/* One output kind's GEMM (`out_kind` a constant after inlining: no branch per row). */
INLINE void gemm_kind(const int out_kind, const int narrow, const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, const int16_t *w,
                      ptrdiff_t channels, const booth_output_stage *stage, void *out, ptrdiff_t out_stride) {
    const ptrdiff_t pairs = a_stride / 2, blocks = (channels + 15) / 16;
    const ptrdiff_t elem = out_kind == BOOTH_OUT_INT8 ? 1 : out_kind == BOOTH_OUT_INT16 ? 2 : 4;
    const ptrdiff_t row_bytes = out_stride * elem;
    gemm_block g;
    g.has_left = 0;
    if (out_kind != BOOTH_OUT_INT32) {
        for (ptrdiff_t c = 0; c < blocks * 16; c++)
            if (stage->left_shift[c] != 0) g.has_left = 1;
        g.zp = _mm256_set1_epi32(stage->zero_point);
        g.lo = _mm256_set1_epi32(stage->minimum);
        g.hi = _mm256_set1_epi32(stage->maximum);
        if (narrow) {
            g.zp16 = _mm256_set1_epi16((int16_t)stage->zero_point);
            g.lo16 = _mm256_set1_epi16((int16_t)stage->minimum);
            g.hi16 = _mm256_set1_epi16((int16_t)stage->maximum);
            g.lo8 = _mm_set1_epi8((int8_t)stage->minimum);
            g.hi8 = _mm_set1_epi8((int8_t)stage->maximum);
        }
    }
    for (ptrdiff_t b = 0; b < blocks; b++) {
        const int16_t *wb = w + b * a_stride * 16;
        const ptrdiff_t left = channels - b * 16;
        g.valid = left < 16 ? left : 16;
        __m256i s0 = _mm256_setzero_si256(), s1 = s0;
        if (out_kind != BOOTH_OUT_INT32) {
            s0 = _mm256_loadu_si256((const __m256i *)(stage->bias + b * 16));
            s1 = _mm256_loadu_si256((const __m256i *)(stage->bias + b * 16 + 8));
            stage_half_init(&g.h[0], stage, b * 16, NATURAL_LO, NATURAL_LO + 4);
            stage_half_init(&g.h[1], stage, b * 16, NATURAL_HI, NATURAL_HI + 4);
        }
        char *ob = (char *)out + b * 16 * elem;
        ptrdiff_t r = 0;
        for (; r + 6 <= rows; r += 6)
            gemm_rows(6, out_kind, narrow, &g, a + r * a_stride, a_stride, pairs, wb, s0, s1, ob + r * row_bytes, row_bytes);
        if (r + 4 <= rows) {
            gemm_rows(4, out_kind, narrow, &g, a + r * a_stride, a_stride, pairs, wb, s0, s1, ob + r * row_bytes, row_bytes);
            r += 4;
        }
        if (r + 2 <= rows) {
            gemm_rows(2, out_kind, narrow, &g, a + r * a_stride, a_stride, pairs, wb, s0, s1, ob + r * row_bytes, row_bytes);
            r += 2;
        }
        if (r < rows) gemm_rows(1, out_kind, narrow, &g, a + r * a_stride, a_stride, pairs, wb, s0, s1, ob + r * row_bytes, row_bytes);
    }
}

int booth_x86_gemm_s16(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, const int16_t *w, ptrdiff_t channels,
                       const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int out_kind) {
    const int narrow = out_kind != BOOTH_OUT_INT32 &&
                       narrow_clamp_exact(out_kind == BOOTH_OUT_INT8 ? 8 : 16, stage->zero_point, stage->minimum, stage->maximum);
    switch (out_kind) {
    case BOOTH_OUT_INT8:
        if (narrow) gemm_kind(BOOTH_OUT_INT8, 1, a, rows, a_stride, w, channels, stage, out, out_stride);
        else gemm_kind(BOOTH_OUT_INT8, 0, a, rows, a_stride, w, channels, stage, out, out_stride);
        break;
    case BOOTH_OUT_INT16:
        if (narrow) gemm_kind(BOOTH_OUT_INT16, 1, a, rows, a_stride, w, channels, stage, out, out_stride);
        else gemm_kind(BOOTH_OUT_INT16, 0, a, rows, a_stride, w, channels, stage, out, out_stride);
        break;
    default: gemm_kind(BOOTH_OUT_INT32, 0, a, rows, a_stride, w, channels, stage, out, out_stride); break;
    }
    return 1;
}

/* MARK: AVX-512 VNNI GEMM
 *
 * The same GEMM for CPUs with AVX-512 VNNI (Ice Lake, Zen 4 and newer), chosen at run time
 * (booth_x86_has_avx512vnni, from CPUID through __builtin_cpu_supports, which also checks that
 * the OS saves the zmm state), so a haswell build uses it too, as XNNPACK picks its microkernels.
 * One zmm accumulator holds a row's 16 channels: `vpdpwssd` adds both products of a pair into each
 * int32 lane, the same wrapping sum as the AVX2 kernel's vpmaddwd + vpaddd (the one pair whose
 * product sum overflows, (−32768)² · 2, wraps the same way in both). The packed weights are the
 * AVX2 kernel's: per pair 32 int16, channels 0–7 then 8–15, which is one 64-byte load in lane
 * order. Up to 12 rows a tile (12 accumulators of 32 zmm registers); each row's broadcast pair is
 * an embedded {1to16} memory operand. The output stage runs on the 16 lanes at once (vnni_stage). */
enum { VNNI_TILE = 12 };

/* A 16-channel block's output stage in zmm lanes (channels in order): the AVX2 stage's arithmetic
 * with AVX-512's 64-bit arithmetic shift (vpsravq) and a mask blend for the rounding constant by
 * y's sign. Even lanes of the 64-bit halves hold channels 0, 2, …, odd ones 1, 3, … (moved into
 * the low dwords by vpshufd $0xF5). */
typedef struct vnni_stage {
    __m512i mult_e, mult_o, left, rpos_e, rneg_e, rpos_o, rneg_o, shift_e, shift_o, zp, lo, hi;
    int has_left;
} vnni_stage;

AVX512_TARGET static void vnni_stage_init(vnni_stage *v, const booth_output_stage *st, ptrdiff_t c0, int has_left) {
    const __m512i k31 = _mm512_set1_epi32(31), zero = _mm512_setzero_si512();
    const __m512i m = _mm512_loadu_si512((const void *)(st->multiplier + c0));
    v->mult_e = m;
    v->mult_o = _mm512_shuffle_epi32(m, 0xF5);
    v->left = _mm512_and_si512(_mm512_loadu_si512((const void *)(st->left_shift + c0)), k31);
    v->has_left = has_left;
    const __m512i e = _mm512_and_si512(_mm512_loadu_si512((const void *)(st->right_shift + c0)), k31);
    const __m512i low = _mm512_set1_epi64(0xFFFFFFFF);
    const __m512i ee = _mm512_and_si512(e, low), eo = _mm512_srli_epi64(e, 32);
    const __m512i base = _mm512_set1_epi64((int64_t)1 << 30), neg = _mm512_set1_epi64((int64_t)1 << 31);
    const __m512i one = _mm512_set1_epi64(1), k30 = _mm512_set1_epi64(30), k31_64 = _mm512_set1_epi64(31);
    /* round = 2^30 + (e ≥ 1 ? 2^(30+e) : 0), neg = e ≥ 1 ? 2^31 : 0, shift 31 + e. */
    const __mmask8 nz_e = _mm512_cmpneq_epi64_mask(ee, zero), nz_o = _mm512_cmpneq_epi64_mask(eo, zero);
    const __m512i round_e = _mm512_mask_add_epi64(base, nz_e, base, _mm512_sllv_epi64(one, _mm512_add_epi64(ee, k30)));
    const __m512i round_o = _mm512_mask_add_epi64(base, nz_o, base, _mm512_sllv_epi64(one, _mm512_add_epi64(eo, k30)));
    v->rpos_e = round_e;
    v->rpos_o = round_o;
    v->rneg_e = _mm512_mask_sub_epi64(round_e, nz_e, round_e, neg);
    v->rneg_o = _mm512_mask_sub_epi64(round_o, nz_o, round_o, neg);
    v->shift_e = _mm512_add_epi64(ee, k31_64);
    v->shift_o = _mm512_add_epi64(eo, k31_64);
    v->zp = _mm512_set1_epi32(st->zero_point);
    v->lo = _mm512_set1_epi32(st->minimum);
    v->hi = _mm512_set1_epi32(st->maximum);
}

/* Sixteen accumulators (holding the bias) requantised, plus the zero point, clamped. */
AVX512_INLINE __m512i vnni_requantize(__m512i x, const vnni_stage *v) {
    if (v->has_left) x = _mm512_sllv_epi32(x, v->left);
    const __m512i ye = _mm512_mul_epi32(x, v->mult_e);
    const __m512i yo = _mm512_mul_epi32(_mm512_shuffle_epi32(x, 0xF5), v->mult_o);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i te = _mm512_srav_epi64(
        _mm512_add_epi64(ye, _mm512_mask_blend_epi64(_mm512_cmplt_epi64_mask(ye, zero), v->rpos_e, v->rneg_e)), v->shift_e);
    const __m512i to = _mm512_srav_epi64(
        _mm512_add_epi64(yo, _mm512_mask_blend_epi64(_mm512_cmplt_epi64_mask(yo, zero), v->rpos_o, v->rneg_o)), v->shift_o);
    const __m512i r = _mm512_mask_blend_epi32(0xAAAA, te, _mm512_slli_epi64(to, 32));
    return _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(r, v->zp), v->lo), v->hi);
}

/* Row j's 16 channels (`valid` of them) stored at dst: raw int32, or requantised and narrowed
 * (values already within the output type, so the saturating vpmovsd{w,b} only narrow). */
AVX512_INLINE void vnni_store(const int kind, const vnni_stage *v, ptrdiff_t valid, __m512i acc, void *dst) {
    const __mmask16 m = valid >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << valid) - 1);
    if (kind == BOOTH_OUT_INT32) {
        _mm512_mask_storeu_epi32(dst, m, acc);
        return;
    }
    const __m512i r = vnni_requantize(acc, v);
    if (kind == BOOTH_OUT_INT16) _mm256_mask_storeu_epi16(dst, m, _mm512_cvtsepi32_epi16(r));
    else _mm_mask_storeu_epi8(dst, m, _mm512_cvtsepi32_epi8(r));
}

AVX512_INLINE void vnni_rows(const int P, const int kind, const vnni_stage *v, ptrdiff_t valid, const int16_t *a,
                           ptrdiff_t a_stride, ptrdiff_t pairs, const int16_t *w, __m512i start, char *out,
                           ptrdiff_t row_bytes) {
    __m512i acc[VNNI_TILE];
    for (int j = 0; j < P; j++) acc[j] = start;
#pragma clang loop unroll(disable)
    for (ptrdiff_t p = 0; p < pairs; p++) {
        const __m512i wv = _mm512_loadu_si512((const void *)(w + p * 32));
        for (int j = 0; j < P; j++) {
            int32_t pair;
            __builtin_memcpy(&pair, a + j * a_stride + 2 * p, 4);
            acc[j] = _mm512_dpwssd_epi32(acc[j], _mm512_set1_epi32(pair), wv);
        }
    }
    for (int j = 0; j < P; j++) vnni_store(kind, v, valid, acc[j], out + j * row_bytes);
}

AVX512_INLINE void vnni_kind(const int out_kind, const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, const int16_t *w,
                           ptrdiff_t channels, const booth_output_stage *stage, void *out, ptrdiff_t out_stride) {
    const ptrdiff_t pairs = a_stride / 2, blocks = (channels + 15) / 16;
    const ptrdiff_t elem = out_kind == BOOTH_OUT_INT8 ? 1 : out_kind == BOOTH_OUT_INT16 ? 2 : 4;
    const ptrdiff_t row_bytes = out_stride * elem;
    int has_left = 0;
    if (out_kind != BOOTH_OUT_INT32)
        for (ptrdiff_t c = 0; c < blocks * 16; c++)
            if (stage->left_shift[c] != 0) has_left = 1;
    vnni_stage v;
    for (ptrdiff_t b = 0; b < blocks; b++) {
        const int16_t *wb = w + b * a_stride * 16;
        const ptrdiff_t left = channels - b * 16, valid = left < 16 ? left : 16;
        __m512i s = _mm512_setzero_si512();
        if (out_kind != BOOTH_OUT_INT32) {
            s = _mm512_loadu_si512((const void *)(stage->bias + b * 16));
            vnni_stage_init(&v, stage, b * 16, has_left);
        }
        char *ob = (char *)out + b * 16 * elem;
        ptrdiff_t r = 0;
        for (; r + 12 <= rows; r += 12)
            vnni_rows(12, out_kind, &v, valid, a + r * a_stride, a_stride, pairs, wb, s, ob + r * row_bytes, row_bytes);
        if (r + 8 <= rows) {
            vnni_rows(8, out_kind, &v, valid, a + r * a_stride, a_stride, pairs, wb, s, ob + r * row_bytes, row_bytes);
            r += 8;
        }
        if (r + 4 <= rows) {
            vnni_rows(4, out_kind, &v, valid, a + r * a_stride, a_stride, pairs, wb, s, ob + r * row_bytes, row_bytes);
            r += 4;
        }
        if (r + 2 <= rows) {
            vnni_rows(2, out_kind, &v, valid, a + r * a_stride, a_stride, pairs, wb, s, ob + r * row_bytes, row_bytes);
            r += 2;
        }
        if (r < rows) vnni_rows(1, out_kind, &v, valid, a + r * a_stride, a_stride, pairs, wb, s, ob + r * row_bytes, row_bytes);
    }
}

int booth_x86_has_avx512vnni(void) {
    static int known = -1;
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
    }
    return known;
}

AVX512_TARGET static void vnni_gemm(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, const int16_t *w, ptrdiff_t channels,
                                  const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int out_kind) {
    switch (out_kind) {
    case BOOTH_OUT_INT8: vnni_kind(BOOTH_OUT_INT8, a, rows, a_stride, w, channels, stage, out, out_stride); break;
    case BOOTH_OUT_INT16: vnni_kind(BOOTH_OUT_INT16, a, rows, a_stride, w, channels, stage, out, out_stride); break;
    default: vnni_kind(BOOTH_OUT_INT32, a, rows, a_stride, w, channels, stage, out, out_stride); break;
    }
}

int booth_x86_gemm_s16_vnni(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, const int16_t *w, ptrdiff_t channels,
                            const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int out_kind) {
    if (!booth_x86_has_avx512vnni()) return 0;
    vnni_gemm(a, rows, a_stride, w, channels, stage, out, out_stride, out_kind);
    return 1;
}

/* MARK: Depthwise */

/* Channel order of the depthwise accumulators: vpunpck{l,h}wd interleave within 128-bit lanes, so
 * the low products hold channels 0–3 and 8–11, the high ones 4–7 and 12–15; vpackssdw of the two
 * puts them back in order. */
enum { UNPACK_LO = 0, UNPACK_HI = 4 };  /* lanes 0–3 from here, lanes 4–7 from here + 8 */

enum { MAX_DW_PAIRS = 13 }; /* 5×5 taps */

INLINE __m256i dw_load(const int bits, const void *p) {
    if (bits == 8) return _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)p));
    return _mm256_loadu_si256((const __m256i *)p);
}

/* The constants of a depthwise layer's output stage (zero point and bounds in 32-, 16- and 8-bit
 * lanes). */
typedef struct dw_consts {
    __m256i zp, lo, hi, zp16, lo16, hi16;
    __m128i lo8, hi8;
} dw_consts;

/* One pixel's 16 channels (accumulators in UNPACK order) through the output stage, stored. */
INLINE void dw_store(const int bits, const int narrow, __m256i al, __m256i ah, const stage_half h[2], int has_left,
                     const dw_consts *k, char *dst) {
    if (narrow) {
        const __m256i v16 = _mm256_packs_epi32(requantize_raw8(al, &h[0], has_left), requantize_raw8(ah, &h[1], has_left));
        if (bits == 16) _mm256_storeu_si256((__m256i *)dst, narrow16_clamped(v16, k->zp16, k->lo16, k->hi16));
        else _mm_storeu_si128((__m128i *)dst, narrow8_clamped(v16, k->zp16, k->lo8, k->hi8));
        return;
    }
    const __m256i r0 = requantize8(al, &h[0], has_left, k->zp, k->lo, k->hi);
    const __m256i r1 = requantize8(ah, &h[1], has_left, k->zp, k->lo, k->hi);
    const __m256i v16 = _mm256_packs_epi32(r0, r1);  /* channels in order */
    if (bits == 16) _mm256_storeu_si256((__m256i *)dst, v16);
    else _mm_storeu_si128((__m128i *)dst, _mm_packs_epi16(_mm256_castsi256_si128(v16), _mm256_extracti128_si256(v16, 1)));
}

/* Outputs lo ..< hi along one axis whose every tap lies inside the input (NeuralCore's
 * interiorRange). */
INLINE void dw_interior_range(ptrdiff_t outputs, ptrdiff_t stride, ptrdiff_t pad, ptrdiff_t kernel, ptrdiff_t size,
                              ptrdiff_t *lo, ptrdiff_t *hi) {
    ptrdiff_t l = (pad + stride - 1) / stride;
    if (l > outputs) l = outputs;
    const ptrdiff_t last = size - kernel + pad;
    ptrdiff_t h = last < 0 ? 0 : last / stride + 1;
    if (h > outputs) h = outputs;
    *lo = l;
    *hi = h > l ? h : l;
}

/* `n` interior pixels of a K×K layer (K a constant after inlining: 3 or 5), the first window at
 * src, each next one `step` bytes on: the taps' loads at fixed offsets from three (five) row
 * addresses and the pair loop unrolled, where the general loop reads each tap's offset and
 * filter pair from the stack (mesh: every depthwise layer is 3×3). The odd last tap is paired with
 * itself: its filter pair is (w, 0), so x·w + x·0, the same sum as the general loop's x·w + x0·0. */
INLINE void dw_interior_k(const int bits, const int narrow, const int K, const char *src, ptrdiff_t rs, ptrdiff_t cs,
                          ptrdiff_t step, ptrdiff_t n, const __m256i *wl, const __m256i *wh, __m256i start_lo,
                          __m256i start_hi, const stage_half h[2], int has_left, const dw_consts *k, char *dst,
                          ptrdiff_t dst_step) {
    for (ptrdiff_t i = 0; i < n; i++) {
        /* Opaque to the optimiser: otherwise each of the K·K tap addresses becomes its own
         * induction variable, more than x86's general registers (spilled and reloaded per pixel);
         * this way each row is one lea and each tap an addressing mode (row + cs·1 / cs·2). */
        __asm__("" : "+r"(rs), "+r"(cs));
        const char *row[K];
        for (int r = 0; r < K; r++) row[r] = src + r * rs;
        __m256i al = start_lo, ah = start_hi;
#pragma clang loop unroll(full)
        for (int t = 0; t + 1 < K * K; t += 2) {
            const __m256i x0 = dw_load(bits, row[t / K] + (t % K) * cs);
            const __m256i x1 = dw_load(bits, row[(t + 1) / K] + ((t + 1) % K) * cs);
            al = _mm256_add_epi32(al, _mm256_madd_epi16(_mm256_unpacklo_epi16(x0, x1), wl[t / 2]));
            ah = _mm256_add_epi32(ah, _mm256_madd_epi16(_mm256_unpackhi_epi16(x0, x1), wh[t / 2]));
        }
        if ((K * K) & 1) {
            const __m256i x = dw_load(bits, row[K - 1] + (K - 1) * cs);
            al = _mm256_add_epi32(al, _mm256_madd_epi16(_mm256_unpacklo_epi16(x, x), wl[K * K / 2]));
            ah = _mm256_add_epi32(ah, _mm256_madd_epi16(_mm256_unpackhi_epi16(x, x), wh[K * K / 2]));
        }
        dw_store(bits, narrow, al, ah, h, has_left, k, dst);
        src += step;
        dst += dst_step;
    }
}

/* dw_interior_k out of line, one function per element size, clamp form and K: inlined into
 * dw_layer, its registers were allocated with the whole layer's state live (tap pointers and
 * counters spilled and reloaded per pixel). */
#define DW_INTERIOR_FN(bits, narrow, K)                                                                              \
    static __attribute__((noinline)) void dw_interior_##bits##_##narrow##_##K(                                     \
        const char *src, ptrdiff_t rs, ptrdiff_t cs, ptrdiff_t step, ptrdiff_t n, const __m256i *wl,                 \
        const __m256i *wh, const __m256i *start, const stage_half h[2], int has_left, const dw_consts *k, char *dst) { \
        dw_interior_k(bits, narrow, K, src, rs, cs, step, n, wl, wh, start[0], start[1], h, has_left, k, dst, cs); \
    }
DW_INTERIOR_FN(8, 0, 3)
DW_INTERIOR_FN(8, 1, 3)
DW_INTERIOR_FN(16, 0, 3)
DW_INTERIOR_FN(16, 1, 3)
DW_INTERIOR_FN(8, 0, 5)
DW_INTERIOR_FN(8, 1, 5)
DW_INTERIOR_FN(16, 0, 5)
DW_INTERIOR_FN(16, 1, 5)
#undef DW_INTERIOR_FN

/* The interior pixels of a 3×3 or 5×5 layer's row through the function for its form. */
INLINE void dw_interior(const int bits, const int narrow, ptrdiff_t K, const char *src, ptrdiff_t rs, ptrdiff_t cs,
                        ptrdiff_t step, ptrdiff_t n, const __m256i *wl, const __m256i *wh, const __m256i *start,
                        const stage_half h[2], int has_left, const dw_consts *k, char *dst) {
#define DW_CALL(b, nw, kk) dw_interior_##b##_##nw##_##kk(src, rs, cs, step, n, wl, wh, start, h, has_left, k, dst)
    if (bits == 8) {
        if (narrow) { if (K == 3) DW_CALL(8, 1, 3); else DW_CALL(8, 1, 5); }
        else { if (K == 3) DW_CALL(8, 0, 3); else DW_CALL(8, 0, 5); }
    } else {
        if (narrow) { if (K == 3) DW_CALL(16, 1, 3); else DW_CALL(16, 1, 5); }
        else { if (K == 3) DW_CALL(16, 0, 3); else DW_CALL(16, 0, 5); }
    }
#undef DW_CALL
}

/* A whole depthwise layer, 16 channels (from channel cc) at a time, the group's filters and
 * output-stage constants set up once: taps in pairs, each pair's activations interleaved
 * (vpunpck{l,h}wd) and multiplied by the pair's interleaved int16 filters with vpmaddwd; the
 * accumulators start at bias − zp·Σw (wrapping int32, like the reference's bias + Σ (x − zp)·w).
 * Interior pixels read their taps at fixed offsets; border pixels read a vector of the zero
 * point for each tap outside the input, whose (zp − zp)·w is 0, so the sum is the reference's
 * over the taps inside. Then StageRegisters' output stage. */
INLINE void dw_layer(const int bits, const int narrow, const void *input, const booth_x86_dw_geometry *g, const int16_t *w,
                     ptrdiff_t tap_stride, const int32_t *tap_sums, int32_t zero_point, const booth_output_stage *st,
                     void *out) {
    const ptrdiff_t k_h = g->k_h, k_w = g->k_w, taps = k_h * k_w, pairs = (taps + 1) / 2;
    const ptrdiff_t esize = bits / 8, channels = g->channels, in_h = g->in_h, in_w = g->in_w;
    const ptrdiff_t row_stride = in_w * channels, sx = g->stride_x, out_w = g->out_w;
    ptrdiff_t offset[2 * MAX_DW_PAIRS];
    for (ptrdiff_t t = 0; t < 2 * pairs; t++) {
        const ptrdiff_t tt = t < taps ? t : 0;  /* the odd tap's partner: any readable tap, times 0 */
        offset[t] = ((tt / k_w) * row_stride + (tt % k_w) * channels) * esize;
    }
    ptrdiff_t oy_lo, oy_hi, ox_lo, ox_hi;
    dw_interior_range(g->out_h, g->stride_y, g->pad_top, k_h, in_h, &oy_lo, &oy_hi);
    dw_interior_range(out_w, sx, g->pad_left, k_w, in_w, &ox_lo, &ox_hi);
    /* The zero point as 16 input elements: the taps outside the input. */
    int16_t zp_s16[16];
    int8_t zp_s8[16];
    for (int i = 0; i < 16; i++) {
        zp_s16[i] = (int16_t)zero_point;
        zp_s8[i] = (int8_t)zero_point;
    }
    const char *zpp = bits == 8 ? (const char *)zp_s8 : (const char *)zp_s16;
    __m256i wl[MAX_DW_PAIRS], wh[MAX_DW_PAIRS];
    stage_half h[2];
    int has_left = 0;
    dw_consts k;
    k.zp = _mm256_set1_epi32(st->zero_point);
    k.lo = _mm256_set1_epi32(st->minimum);
    k.hi = _mm256_set1_epi32(st->maximum);
    k.zp16 = _mm256_set1_epi16((int16_t)st->zero_point);
    k.lo16 = _mm256_set1_epi16((int16_t)st->minimum);
    k.hi16 = _mm256_set1_epi16((int16_t)st->maximum);
    k.lo8 = _mm_set1_epi8((int8_t)st->minimum);
    k.hi8 = _mm_set1_epi8((int8_t)st->maximum);
    const __m256i zpin = _mm256_set1_epi32(zero_point);
    /* Bands of output rows whose input rows (about 24 KB) stay in the L1 cache while every
     * channel group passes over them; each group's setup is made once per band. */
    const ptrdiff_t row_bytes = row_stride * esize;
    ptrdiff_t band = (24576 / (row_bytes > 0 ? row_bytes : 1) - k_h) / g->stride_y;
    if (band < 1) band = 1;
    for (ptrdiff_t oy0 = 0; oy0 < g->out_h; oy0 += band) {
    const ptrdiff_t oy1 = oy0 + band < g->out_h ? oy0 + band : g->out_h;
    for (ptrdiff_t ch = 0; ch < channels; ch += 16) {
        const ptrdiff_t cc = ch < channels - 16 ? ch : channels - 16;
        for (ptrdiff_t p = 0; p < pairs; p++) {
            const __m256i w0 = _mm256_loadu_si256((const __m256i *)(w + 2 * p * tap_stride + cc));
            const __m256i w1 = 2 * p + 1 < taps ? _mm256_loadu_si256((const __m256i *)(w + (2 * p + 1) * tap_stride + cc))
                                                : _mm256_setzero_si256();
            wl[p] = _mm256_unpacklo_epi16(w0, w1);
            wh[p] = _mm256_unpackhi_epi16(w0, w1);
        }
        stage_half_init(&h[0], st, cc, UNPACK_LO, UNPACK_LO + 8);
        stage_half_init(&h[1], st, cc, UNPACK_HI, UNPACK_HI + 8);
        for (int i = 0; i < 16; i++)
            if (st->left_shift[cc + i] != 0) has_left = 1;
        const __m256i b0 = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(st->bias + cc)),
                                            _mm256_mullo_epi32(zpin, _mm256_loadu_si256((const __m256i *)(tap_sums + cc))));
        const __m256i b1 = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(st->bias + cc + 8)),
                                            _mm256_mullo_epi32(zpin, _mm256_loadu_si256((const __m256i *)(tap_sums + cc + 8))));
        const __m256i start_lo = _mm256_permute2x128_si256(b0, b1, 0x20);
        const __m256i start_hi = _mm256_permute2x128_si256(b0, b1, 0x31);
        const __m256i start[2] = {start_lo, start_hi};
        const char *in_c = (const char *)input + cc * esize;
        for (ptrdiff_t oy = oy0; oy < oy1; oy++) {
            const ptrdiff_t iy0 = oy * g->stride_y - g->pad_top;
            char *dst_row = (char *)out + (oy * out_w * channels + cc) * esize;
            const int interior_row = oy >= oy_lo && oy < oy_hi && ox_lo < ox_hi;
            for (ptrdiff_t ox = 0; ox < out_w; ox++) {
                if (interior_row && ox == ox_lo) {
                    const char *src = in_c + (iy0 * row_stride + (ox_lo * sx - g->pad_left) * channels) * esize;
                    if (k_h == k_w && (k_h == 3 || k_h == 5)) {
                        char *dst = dst_row + ox * channels * esize;
                        const ptrdiff_t rs = row_stride * esize, cs = channels * esize, n = ox_hi - ox;
                        dw_interior(bits, narrow, k_h, src, rs, cs, sx * cs, n, wl, wh, start, h, has_left, &k, dst);
                        ox = ox_hi;
                    }
                    for (; ox < ox_hi; ox++) {
                        __m256i al = start_lo, ah = start_hi;
                        for (ptrdiff_t p = 0; p < pairs; p++) {
                            const __m256i x0 = dw_load(bits, src + offset[2 * p]);
                            const __m256i x1 = dw_load(bits, src + offset[2 * p + 1]);
                            al = _mm256_add_epi32(al, _mm256_madd_epi16(_mm256_unpacklo_epi16(x0, x1), wl[p]));
                            ah = _mm256_add_epi32(ah, _mm256_madd_epi16(_mm256_unpackhi_epi16(x0, x1), wh[p]));
                        }
                        dw_store(bits, narrow, al, ah, h, has_left, &k, dst_row + ox * channels * esize);
                        src += sx * channels * esize;
                    }
                    if (ox >= out_w) break;
                }
                /* A border pixel: each tap's input vector, or the zero point's outside the input. */
                const ptrdiff_t ix0 = ox * sx - g->pad_left;
                const char *ptr[2 * MAX_DW_PAIRS];
                ptrdiff_t t = 0;
                for (ptrdiff_t ky = 0; ky < k_h; ky++) {
                    const ptrdiff_t iy = iy0 + ky;
                    for (ptrdiff_t kx = 0; kx < k_w; kx++, t++) {
                        const ptrdiff_t ix = ix0 + kx;
                        ptr[t] = iy >= 0 && iy < in_h && ix >= 0 && ix < in_w ? in_c + (iy * row_stride + ix * channels) * esize
                                                                                 : zpp;
                    }
                }
                if (t < 2 * pairs) ptr[t] = zpp;
                __m256i al = start_lo, ah = start_hi;
                for (ptrdiff_t p = 0; p < pairs; p++) {
                    const __m256i x0 = dw_load(bits, ptr[2 * p]);
                    const __m256i x1 = dw_load(bits, ptr[2 * p + 1]);
                    al = _mm256_add_epi32(al, _mm256_madd_epi16(_mm256_unpacklo_epi16(x0, x1), wl[p]));
                    ah = _mm256_add_epi32(ah, _mm256_madd_epi16(_mm256_unpackhi_epi16(x0, x1), wh[p]));
                }
                dw_store(bits, narrow, al, ah, h, has_left, &k, dst_row + ox * channels * esize);
            }
        }
    }
    }
}

int booth_x86_depthwise_layer_s8(const int8_t *input, const booth_x86_dw_geometry *g, const int16_t *w, ptrdiff_t tap_stride,
                                 const int32_t *tap_sums, int32_t zero_point, const booth_output_stage *stage, int8_t *out) {
    if (g->channels < 16 || g->k_h * g->k_w > 2 * MAX_DW_PAIRS) return 0;
    if (narrow_clamp_exact(8, stage->zero_point, stage->minimum, stage->maximum))
        dw_layer(8, 1, input, g, w, tap_stride, tap_sums, zero_point, stage, out);
    else
        dw_layer(8, 0, input, g, w, tap_stride, tap_sums, zero_point, stage, out);
    return 1;
}

int booth_x86_depthwise_layer_s16(const int16_t *input, const booth_x86_dw_geometry *g, const int16_t *w, ptrdiff_t tap_stride,
                                  const int32_t *tap_sums, int32_t zero_point, const booth_output_stage *stage, int16_t *out) {
    if (g->channels < 16 || g->k_h * g->k_w > 2 * MAX_DW_PAIRS) return 0;
    if (narrow_clamp_exact(16, stage->zero_point, stage->minimum, stage->maximum))
        dw_layer(16, 1, input, g, w, tap_stride, tap_sums, zero_point, stage, out);
    else
        dw_layer(16, 0, input, g, w, tap_stride, tap_sums, zero_point, stage, out);
    return 1;
}


/* MARK: Boundary conversions */

/* The low 8 (or 16) bits of each int32 lane, in order: truncation, as Swift's
 * `truncatingIfNeeded` (for lanes in range the same as the saturating packs). */
INLINE __m128i narrow8_trunc(__m256i a, __m256i b) {
    const __m256i m = _mm256_set1_epi32(0xFF);
    const __m256i w = _mm256_permute4x64_epi64(_mm256_packus_epi32(_mm256_and_si256(a, m), _mm256_and_si256(b, m)), 0xD8);
    return _mm_packus_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
}

INLINE __m256i narrow16_trunc(__m256i a, __m256i b) {
    const __m256i m = _mm256_set1_epi32(0xFFFF);
    return _mm256_permute4x64_epi64(_mm256_packus_epi32(_mm256_and_si256(a, m), _mm256_and_si256(b, m)), 0xD8);
}

/* quantizeScalar on eight lanes: t = x · inv; rounded half away from zero as trunc(t + ±p), p the
 * float below a half (0.5 − 2^-25) with t's sign: where |t| < 2^23 the sum rounds to nearest at
 * most to the next integer exactly when t's fraction is at least a half (t's fraction is a
 * multiple of its ulp, so one below a half leaves the sum at least an ulp plus 2^-25 under the
 * next integer; one at a half or above brings it within 2^-25 of it, under half the spacing
 * there, or to a tie at 1 − 2^-25 that goes to the even 1.0); from 2^23 on t is an integer and
 * p is under half its spacing. Then + zp; clamp (lo > v ? lo : v, hi < v ? hi : v, NaN kept as
 * the scalar's comparisons keep it); converted with truncation toward zero. 9 operations where
 * trunc-then-correct took 13. */
INLINE __m256i quantize8(__m256 x, __m256 inv, __m256 zp, __m256 lo, __m256 hi) {
    const __m256 t = _mm256_mul_ps(x, inv);
    const __m256 p = _mm256_or_ps(_mm256_and_ps(t, _mm256_set1_ps(-0.0f)), _mm256_set1_ps(0.49999997f));
    const __m256 r = _mm256_round_ps(_mm256_add_ps(t, p), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    __m256 v = _mm256_add_ps(r, zp);
    v = _mm256_min_ps(hi, _mm256_max_ps(lo, v));
    return _mm256_cvttps_epi32(v);
}

/* quantizeScalar's last n < 16 values. */
INLINE float quantize_one(float x, float inv, float zp, float lo, float hi) {
    float v = __builtin_roundf(x * inv) + zp;
    return v < lo ? lo : (v > hi ? hi : v);
}

int booth_x86_quantize_s8(const float *in, ptrdiff_t n, float inverse_scale, float zero_point, int8_t *out) {
    const __m256 inv = _mm256_set1_ps(inverse_scale), zp = _mm256_set1_ps(zero_point);
    const __m256 lo = _mm256_set1_ps(-128.0f), hi = _mm256_set1_ps(127.0f);
    ptrdiff_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256i a = quantize8(_mm256_loadu_ps(in + i), inv, zp, lo, hi);
        const __m256i b = quantize8(_mm256_loadu_ps(in + i + 8), inv, zp, lo, hi);
        _mm_storeu_si128((__m128i *)(out + i), narrow8_trunc(a, b));
    }
    for (; i < n; i++) out[i] = (int8_t)(int32_t)quantize_one(in[i], inverse_scale, zero_point, -128.0f, 127.0f);
    return 1;
}

int booth_x86_quantize_s16(const float *in, ptrdiff_t n, float inverse_scale, float zero_point, int16_t *out) {
    const __m256 inv = _mm256_set1_ps(inverse_scale), zp = _mm256_set1_ps(zero_point);
    const __m256 lo = _mm256_set1_ps(-32768.0f), hi = _mm256_set1_ps(32767.0f);
    ptrdiff_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256i a = quantize8(_mm256_loadu_ps(in + i), inv, zp, lo, hi);
        const __m256i b = quantize8(_mm256_loadu_ps(in + i + 8), inv, zp, lo, hi);
        _mm256_storeu_si256((__m256i *)(out + i), narrow16_trunc(a, b));
    }
    for (; i < n; i++) out[i] = (int16_t)(int32_t)quantize_one(in[i], inverse_scale, zero_point, -32768.0f, 32767.0f);
    return 1;
}

/* dequantizeScalar: scale · Float(q − zp), eight lanes per step. */
int booth_x86_dequantize_s8(const int8_t *in, ptrdiff_t n, float scale, int32_t zero_point, float *out) {
    const __m256 s = _mm256_set1_ps(scale);
    const __m256i zp = _mm256_set1_epi32(zero_point);
    ptrdiff_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256i q = _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(in + i)));
        _mm256_storeu_ps(out + i, _mm256_mul_ps(s, _mm256_cvtepi32_ps(_mm256_sub_epi32(q, zp))));
    }
    for (; i < n; i++) out[i] = scale * (float)((int32_t)in[i] - zero_point);
    return 1;
}

int booth_x86_dequantize_s16(const int16_t *in, ptrdiff_t n, float scale, int32_t zero_point, float *out) {
    const __m256 s = _mm256_set1_ps(scale);
    const __m256i zp = _mm256_set1_epi32(zero_point);
    ptrdiff_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256i q = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(in + i)));
        _mm256_storeu_ps(out + i, _mm256_mul_ps(s, _mm256_cvtepi32_ps(_mm256_sub_epi32(q, zp))));
    }
    for (; i < n; i++) out[i] = scale * (float)((int32_t)in[i] - zero_point);
    return 1;
}

/* MARK: Float elementwise */

/* Swift's scalar clamp min(max(r, lo), hi): max(r, lo) = lo >= r ? lo : r (so −0 at a +0 bound
 * becomes +0, NaN kept), min(m, hi) = hi < m ? hi : m (vminps). */
INLINE __m256 fclamp_scalar(__m256 r, __m256 lo, __m256 hi) {
    r = _mm256_blendv_ps(r, lo, _mm256_cmp_ps(lo, r, _CMP_GE_OQ));
    return _mm256_min_ps(hi, r);
}

/* The Swift SIMD rows' clamp8: r < lo ? lo : r (vmaxps lo, r), then r > hi ? hi : r (vminps hi, r). */
INLINE __m256 fclamp_vector(__m256 r, __m256 lo, __m256 hi) { return _mm256_min_ps(hi, _mm256_max_ps(lo, r)); }

INLINE __m256 fbinary8(const int op, __m256 x, __m256 y) {
    if (op == BOOTH_FBINARY_ADD) return _mm256_add_ps(x, y);
    if (op == BOOTH_FBINARY_MUL) return _mm256_mul_ps(x, y);
    return _mm256_blendv_ps(x, _mm256_mul_ps(x, y), _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ));
}

INLINE float fbinary1(const int op, float x, float y, float lo, float hi) {
    const float r = op == BOOTH_FBINARY_ADD ? x + y : op == BOOTH_FBINARY_MUL ? x * y : (x < 0 ? x * y : x);
    const float m = lo >= r ? lo : r;
    return hi < m ? hi : m;
}

/* One operation's rows (`op` a constant after inlining). */
INLINE void fbinary_rows(const int op, const float *a, ptrdiff_t a_row, ptrdiff_t a_inner, const float *b, ptrdiff_t b_row,
                         ptrdiff_t b_inner, ptrdiff_t rows, ptrdiff_t n, float lo, float hi, float *out) {
    const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
    if (a_inner == 1 && b_inner == 1 && a_row == n && b_row == n && n % 8 == 0) {
        n *= rows;  /* rows one after the other with no tail: one row (the same split) */
        rows = 1;
    }
    for (ptrdiff_t r = 0; r < rows; r++) {
        const float *pa = a + r * a_row, *pb = b + r * b_row;
        float *po = out + r * n;
        ptrdiff_t k = 0;
        if (a_inner == 1 && b_inner == 1) {
            /* The Swift rows: SIMD8 with clamp8 for each full 8, `apply` for the rest. */
            for (; k + 8 <= n; k += 8)
                _mm256_storeu_ps(po + k, fclamp_vector(fbinary8(op, _mm256_loadu_ps(pa + k), _mm256_loadu_ps(pb + k)), vlo, vhi));
        } else {
            /* A broadcast operand: `apply` on every lane, eight at a time. */
            for (; k + 8 <= n; k += 8) {
                const __m256 x = a_inner ? _mm256_loadu_ps(pa + k) : _mm256_set1_ps(pa[0]);
                const __m256 y = b_inner ? _mm256_loadu_ps(pb + k) : _mm256_set1_ps(pb[0]);
                _mm256_storeu_ps(po + k, fclamp_scalar(fbinary8(op, x, y), vlo, vhi));
            }
        }
        for (; k < n; k++) po[k] = fbinary1(op, pa[k * a_inner], pb[k * b_inner], lo, hi);
    }
}

int booth_x86_binary_f32_rows(int op, const float *a, ptrdiff_t a_row, ptrdiff_t a_inner, const float *b, ptrdiff_t b_row,
                              ptrdiff_t b_inner, ptrdiff_t rows, ptrdiff_t n, float lo, float hi, float *out) {
    switch (op) {
    case BOOTH_FBINARY_ADD: fbinary_rows(BOOTH_FBINARY_ADD, a, a_row, a_inner, b, b_row, b_inner, rows, n, lo, hi, out); break;
    case BOOTH_FBINARY_MUL: fbinary_rows(BOOTH_FBINARY_MUL, a, a_row, a_inner, b, b_row, b_inner, rows, n, lo, hi, out); break;
    default: fbinary_rows(BOOTH_FBINARY_PRELU, a, a_row, a_inner, b, b_row, b_inner, rows, n, lo, hi, out); break;
    }
    return 1;
}

/* MARK: Integer elementwise ADD and PRELU */

INLINE __m256i load8_i32(const int bits, const void *p) {
    if (bits == 8) return _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)p));
    return _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)p));
}

/* Two clamped int32 vectors (values within the element type) stored as 16 elements. */
INLINE void store16_packed(const int bits, void *dst, __m256i a, __m256i b) {
    const __m256i w = _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0xD8);
    if (bits == 16) _mm256_storeu_si256((__m256i *)dst, w);
    else _mm_storeu_si128((__m128i *)dst, _mm_packs_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1)));
}

typedef struct add_consts {
    __m256i zp1, zp2, s1, s2, round, zpo, lo, hi;
    __m128i shift;
    /* MUL: the output multiplier as an output stage whose every lane holds it. */
    stage_half mul;
    int mul_left;
} add_consts;

/* ElementwiseParams.scalar's scaled ADD on eight lanes: ((x1 − zp1)·s1 + (x2 − zp2)·s2 + round)
 * >> shift, + output zp, clamped (wrapping int32 like the reference's &* and &+). */
INLINE __m256i add8(const add_consts *k, __m256i x1, __m256i x2) {
    __m256i v = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_sub_epi32(x1, k->zp1), k->s1),
                                 _mm256_mullo_epi32(_mm256_sub_epi32(x2, k->zp2), k->s2));
    v = _mm256_add_epi32(_mm256_sra_epi32(_mm256_add_epi32(v, k->round), k->shift), k->zpo);
    return _mm256_min_epi32(_mm256_max_epi32(v, k->lo), k->hi);
}

/* MUL on eight lanes: MultiplyByQuantizedMultiplier((x1 − zp1) &* (x2 − zp2)) as the GEMM's output
 * stage computes it (requantize_raw8, exact for shifts in 0...31), + output zp, clamped. */
INLINE __m256i mul8(const add_consts *k, __m256i x1, __m256i x2) {
    const __m256i p = _mm256_mullo_epi32(_mm256_sub_epi32(x1, k->zp1), _mm256_sub_epi32(x2, k->zp2));
    const __m256i v = _mm256_add_epi32(requantize_raw8(p, &k->mul, k->mul_left), k->zpo);
    return _mm256_min_epi32(_mm256_max_epi32(v, k->lo), k->hi);
}

INLINE int32_t add1(const booth_elementwise *p, int32_t a, int32_t b) {
    const uint32_t x1 = (uint32_t)a - (uint32_t)p->zero_point1, x2 = (uint32_t)b - (uint32_t)p->zero_point2;
    const int32_t s = (int32_t)(x1 * (uint32_t)p->scale1 + x2 * (uint32_t)p->scale2 + (uint32_t)p->round);
    const int32_t v = (int32_t)((uint32_t)(s >> (p->shift & 31)) + (uint32_t)p->output_zero_point);
    return v < p->minimum ? p->minimum : (v > p->maximum ? p->maximum : v);
}

/* NeuralCore's multiplyByQuantizedMultiplier as gemmlowp defines it (SaturatingRoundingDoublingHighMul
 * of x << left, then RoundingDivideByPOT by right), shifts in 0...31. */
INLINE int32_t mbqm1(int32_t x, int32_t m, int32_t left, int32_t right) {
    const int32_t a = (int32_t)((uint32_t)x << (left & 31));
    int32_t h;
    if (a == INT32_MIN && m == INT32_MIN) {
        h = INT32_MAX;
    } else {
        const int64_t ab = (int64_t)a * (int64_t)m;
        const int64_t nudge = ab >= 0 ? ((int64_t)1 << 30) : (1 - ((int64_t)1 << 30));
        h = (int32_t)((ab + nudge) / ((int64_t)1 << 31));
    }
    const int32_t e = right & 31;
    const int32_t mask = (int32_t)(((uint32_t)1 << e) - 1u);
    const int32_t rem = h & mask, threshold = (mask >> 1) + (h < 0 ? 1 : 0);
    return (h >> e) + (rem > threshold ? 1 : 0);
}

INLINE int32_t mul1(const booth_elementwise *p, int32_t a, int32_t b) {
    const uint32_t x1 = (uint32_t)a - (uint32_t)p->zero_point1, x2 = (uint32_t)b - (uint32_t)p->zero_point2;
    const int32_t raw = mbqm1((int32_t)(x1 * x2), p->multiplier, p->left_shift, p->right_shift);
    const int32_t v = (int32_t)((uint32_t)raw + (uint32_t)p->output_zero_point);
    return v < p->minimum ? p->minimum : (v > p->maximum ? p->maximum : v);
}

/* out[i] = a[i] ⊕ b[i mod period] (⊕ the scaled ADD, or MUL when `mul`, a constant after
 * inlining): flat when period is 1 or count, else period by period (16 elements per step, the
 * rest of each period one at a time). Each step loads before it stores, so out may alias a or b
 * element for element. */
INLINE void add_run(const int bits, const int mul, const void *a, const void *b, ptrdiff_t count, ptrdiff_t period,
                    const booth_elementwise *p, void *out) {
    add_consts k;
    k.zp1 = _mm256_set1_epi32(p->zero_point1); k.zp2 = _mm256_set1_epi32(p->zero_point2);
    k.s1 = _mm256_set1_epi32(p->scale1); k.s2 = _mm256_set1_epi32(p->scale2);
    k.round = _mm256_set1_epi32(p->round); k.zpo = _mm256_set1_epi32(p->output_zero_point);
    k.lo = _mm256_set1_epi32(p->minimum); k.hi = _mm256_set1_epi32(p->maximum);
    k.shift = _mm_cvtsi32_si128(p->shift & 31);
    k.mul_left = 0;
    if (mul) {
        int32_t m[8], l[8], r[8], zero[8] = {0};
        for (int i = 0; i < 8; i++) {
            m[i] = p->multiplier;
            l[i] = p->left_shift;
            r[i] = p->right_shift;
        }
        const booth_output_stage st = {zero, m, l, r, 0, 0, 0};
        stage_half_init(&k.mul, &st, 0, 0, 4);
        k.mul_left = (p->left_shift & 31) != 0;
    }
    const ptrdiff_t e = bits / 8;
    const char *ca = (const char *)a, *cb = (const char *)b;
    char *co = (char *)out;
#define ELEM(ptr, i) (bits == 8 ? (int32_t)((const int8_t *)(ptr))[i] : (int32_t)((const int16_t *)(ptr))[i])
#define PUT(ptr, i, v) do { if (bits == 8) ((int8_t *)(ptr))[i] = (int8_t)(v); else ((int16_t *)(ptr))[i] = (int16_t)(v); } while (0)
#define OP8(x, y) (mul ? mul8(&k, x, y) : add8(&k, x, y))
#define OP1(x, y) (mul ? mul1(p, x, y) : add1(p, x, y))
    if (period == 1 || period == count) {
        const int bcast = period == 1 && count > 1;
        const __m256i splat = _mm256_set1_epi32(ELEM(cb, 0));
        ptrdiff_t i = 0;
        for (; i + 16 <= count; i += 16) {
            const __m256i x0 = load8_i32(bits, ca + i * e), x1 = load8_i32(bits, ca + (i + 8) * e);
            const __m256i y0 = bcast ? splat : load8_i32(bits, cb + i * e);
            const __m256i y1 = bcast ? splat : load8_i32(bits, cb + (i + 8) * e);
            store16_packed(bits, co + i * e, OP8(x0, y0), OP8(x1, y1));
        }
        for (; i < count; i++) PUT(co, i, OP1(ELEM(ca, i), ELEM(cb, bcast ? 0 : i)));
    } else {
        for (ptrdiff_t base = 0; base < count; base += period) {
            ptrdiff_t i = 0;
            for (; i + 16 <= period; i += 16) {
                const ptrdiff_t j = base + i;
                const __m256i x0 = load8_i32(bits, ca + j * e), x1 = load8_i32(bits, ca + (j + 8) * e);
                const __m256i y0 = load8_i32(bits, cb + i * e), y1 = load8_i32(bits, cb + (i + 8) * e);
                store16_packed(bits, co + j * e, OP8(x0, y0), OP8(x1, y1));
            }
            for (; i < period; i++) PUT(co, base + i, OP1(ELEM(ca, base + i), ELEM(cb, i)));
        }
    }
#undef ELEM
#undef PUT
#undef OP8
#undef OP1
}

/* Shifts outside 0...31 (the output stage's exact range) or a multiplier of INT32_MIN (the
 * saturating case): not taken. */
INLINE int mul_applies(const booth_elementwise *p) {
    return p->left_shift >= 0 && p->left_shift <= 31 && p->right_shift >= 0 && p->right_shift <= 31 &&
           p->multiplier != INT32_MIN;
}

/* The int8 scaled ADD where the output can be narrowed on 16- and 8-bit lanes (shift at least 2
 * and narrow_clamp_exact): the input zero points folded into the rounding constant,
 * c = round − zp1·s1 − zp2·s2, so each lane is (x1·s1 + x2·s2 + c) >> shift, in wrapping int32 the
 * same residue mod 2^32 as the reference's (x1 − zp1)·s1 + (x2 − zp2)·s2 + round, so the same
 * shifted value; with a broadcast second operand (b0 − zp2)·s2 is folded in too (one vpmulld per
 * eight lanes). Then the zero point and clamp on 16-bit lanes and the saturating packs, as the
 * depthwise layer's narrow store: |r| ≤ 2^29, so r + zp never wraps and the packs, the saturating
 * 16-bit add and the 8-bit clamp give clamp(r + zp). add8 took two vpsubd, two vpaddd and four
 * 32-bit clamps more per sixteen elements. Tails through add1. */
INLINE __m128i add8_narrow16(const int bcast, const int8_t *pa, const int8_t *pb, __m256i s1, __m256i s2, __m256i c,
                             __m128i shift, __m256i zp16, __m128i lo8, __m128i hi8) {
    __m256i v0 = _mm256_mullo_epi32(load8_i32(8, pa), s1), v1 = _mm256_mullo_epi32(load8_i32(8, pa + 8), s1);
    if (!bcast) {
        v0 = _mm256_add_epi32(v0, _mm256_mullo_epi32(load8_i32(8, pb), s2));
        v1 = _mm256_add_epi32(v1, _mm256_mullo_epi32(load8_i32(8, pb + 8), s2));
    }
    const __m256i r0 = _mm256_sra_epi32(_mm256_add_epi32(v0, c), shift);
    const __m256i r1 = _mm256_sra_epi32(_mm256_add_epi32(v1, c), shift);
    return narrow8_clamped(_mm256_permute4x64_epi64(_mm256_packs_epi32(r0, r1), 0xD8), zp16, lo8, hi8);
}

INLINE void add8_narrow_run(const int bcast, const int8_t *a, const int8_t *b, ptrdiff_t count, ptrdiff_t period,
                            const booth_elementwise *p, int8_t *out) {
    uint32_t c = (uint32_t)p->round - (uint32_t)p->zero_point1 * (uint32_t)p->scale1;
    if (bcast) c += ((uint32_t)b[0] - (uint32_t)p->zero_point2) * (uint32_t)p->scale2;
    else c -= (uint32_t)p->zero_point2 * (uint32_t)p->scale2;
    const __m256i s1 = _mm256_set1_epi32(p->scale1), s2 = _mm256_set1_epi32(p->scale2), vc = _mm256_set1_epi32((int32_t)c);
    const __m128i shift = _mm_cvtsi32_si128(p->shift & 31);
    const __m256i zp16 = _mm256_set1_epi16((int16_t)p->output_zero_point);
    const __m128i lo8 = _mm_set1_epi8((int8_t)p->minimum), hi8 = _mm_set1_epi8((int8_t)p->maximum);
    const ptrdiff_t span = bcast || period == count ? count : period;
    for (ptrdiff_t base = 0; base < count; base += span) {
        const int8_t *pa = a + base;
        int8_t *po = out + base;
        ptrdiff_t i = 0;
        for (; i + 16 <= span; i += 16)
            _mm_storeu_si128((__m128i *)(po + i),
                             add8_narrow16(bcast, pa + i, bcast ? b : b + i, s1, s2, vc, shift, zp16, lo8, hi8));
        for (; i < span; i++) po[i] = (int8_t)add1(p, pa[i], b[bcast ? 0 : i]);
    }
}

int booth_x86_add_s8(const int8_t *a, const int8_t *b, ptrdiff_t count, ptrdiff_t period, const booth_elementwise *p,
                     int8_t *out) {
    if (p->mul) {
        if (!mul_applies(p)) return 0;
        add_run(8, 1, a, b, count, period, p, out);
    } else if ((p->shift & 31) >= 2 && narrow_clamp_exact(8, p->output_zero_point, p->minimum, p->maximum)) {
        if (period == 1 && count > 1) add8_narrow_run(1, a, b, count, period, p, out);
        else add8_narrow_run(0, a, b, count, period, p, out);
    } else {
        add_run(8, 0, a, b, count, period, p, out);
    }
    return 1;
}

/* The int16 ADD with both input zero points 0 and scales within int16 (NeuralCore's int16 scales
 * are at most 2^14): a and b interleaved (vpunpck{l,h}wd) and one vpmaddwd with (scale1, scale2)
 * gives a·scale1 + b·scale2 for eight lanes, the int32 sum of the two vpmulld (every product and
 * sum within int32: |x| ≤ 2^15, |scale| ≤ 2^14), where add8 sign-extends both inputs and
 * multiplies each. Within each 128-bit lane the low interleave holds elements 0–3, the high one
 * 4–7, so vpackssdw puts the sixteen back in order. Then + round, >> shift, and the zero point
 * and clamp on 16-bit lanes where narrow_clamp_exact and the shift is at least 2 (then |r| ≤ 2^29
 * and r + zp never wraps), else on 32-bit lanes. Tails through add1. */
INLINE __m256i add16_raw(__m256i x, __m256i y, __m256i scales, __m256i round, __m128i shift, const int lo_half) {
    const __m256i xy = lo_half ? _mm256_unpacklo_epi16(x, y) : _mm256_unpackhi_epi16(x, y);
    return _mm256_sra_epi32(_mm256_add_epi32(_mm256_madd_epi16(xy, scales), round), shift);
}

INLINE void add16_madd_run(const int narrow, const int16_t *a, const int16_t *b, ptrdiff_t count, ptrdiff_t period,
                           const booth_elementwise *p, int16_t *out) {
    const __m256i scales = _mm256_set1_epi32((int32_t)(((uint32_t)(uint16_t)p->scale2 << 16) | (uint16_t)p->scale1));
    const __m256i round = _mm256_set1_epi32(p->round);
    const __m128i shift = _mm_cvtsi32_si128(p->shift & 31);
    const __m256i zp = _mm256_set1_epi32(p->output_zero_point), lo = _mm256_set1_epi32(p->minimum),
                  hi = _mm256_set1_epi32(p->maximum);
    const __m256i zp16 = _mm256_set1_epi16((int16_t)p->output_zero_point), lo16 = _mm256_set1_epi16((int16_t)p->minimum),
                  hi16 = _mm256_set1_epi16((int16_t)p->maximum);
    const int bcast = period == 1 && count > 1;
    const ptrdiff_t span = period == 1 || period == count ? count : period;
    const __m256i splat = _mm256_set1_epi16(b[0]);
    for (ptrdiff_t base = 0; base < count; base += span) {
        const int16_t *pa = a + base, *pb = b;
        int16_t *po = out + base;
        ptrdiff_t i = 0;
        for (; i + 16 <= span; i += 16) {
            const __m256i x = _mm256_loadu_si256((const __m256i *)(pa + i));
            const __m256i y = bcast ? splat : _mm256_loadu_si256((const __m256i *)(pb + i));
            const __m256i r0 = add16_raw(x, y, scales, round, shift, 1), r1 = add16_raw(x, y, scales, round, shift, 0);
            __m256i v;
            if (narrow) {
                v = narrow16_clamped(_mm256_packs_epi32(r0, r1), zp16, lo16, hi16);
            } else {
                v = _mm256_packs_epi32(_mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(r0, zp), lo), hi),
                                       _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(r1, zp), lo), hi));
            }
            _mm256_storeu_si256((__m256i *)(po + i), v);
        }
        for (; i < span; i++) po[i] = (int16_t)add1(p, pa[i], pb[bcast ? 0 : i]);
    }
}

int booth_x86_add_s16(const int16_t *a, const int16_t *b, ptrdiff_t count, ptrdiff_t period, const booth_elementwise *p,
                      int16_t *out) {
    if (!p->mul && p->zero_point1 == 0 && p->zero_point2 == 0 && p->scale1 >= -32768 && p->scale1 <= 32767 &&
        p->scale2 >= -32768 && p->scale2 <= 32767) {
        if ((p->shift & 31) >= 2 && narrow_clamp_exact(16, p->output_zero_point, p->minimum, p->maximum))
            add16_madd_run(1, a, b, count, period, p, out);
        else
            add16_madd_run(0, a, b, count, period, p, out);
        return 1;
    }
    if (p->mul) {
        if (!mul_applies(p)) return 0;
        add_run(16, 1, a, b, count, period, p, out);
    } else {
        add_run(16, 0, a, b, count, period, p, out);
    }
    return 1;
}

/* MARK: HARD_SWISH */

/* hardSwishVector's lanes (NeuralCore's Activation.swift), eight at a time: q − zp_in as float,
 * x = scale_in · q, r = clamp(x + 3, 0, 6), v = x · r / 6 / scale_out, clamped to ±40000,
 * t = trunc(v), then ±1 where the fraction v − t is at least a half away from zero, + zp_out,
 * clamped to the element type. The same IEEE operations in the same order (vdivps as Swift's
 * `/`; max/min differ from `replacing(where:)` only by the sign of a zero r, which leaves every
 * later value's integer the same), so the table's entries. */
INLINE __m256i hard_swish8(__m256i q, __m256i zpin, __m256 sin, __m256 sout, __m256i zpout, __m256i lo, __m256i hi) {
    const __m256 x = _mm256_mul_ps(sin, _mm256_cvtepi32_ps(_mm256_sub_epi32(q, zpin)));
    const __m256 r = _mm256_min_ps(_mm256_max_ps(_mm256_add_ps(x, _mm256_set1_ps(3.0f)), _mm256_setzero_ps()),
                                   _mm256_set1_ps(6.0f));
    __m256 v = _mm256_div_ps(_mm256_div_ps(_mm256_mul_ps(x, r), _mm256_set1_ps(6.0f)), sout);
    v = _mm256_max_ps(_mm256_min_ps(v, _mm256_set1_ps(40000.0f)), _mm256_set1_ps(-40000.0f));
    __m256i t = _mm256_cvttps_epi32(v);
    const __m256 f = _mm256_sub_ps(v, _mm256_cvtepi32_ps(t));
    t = _mm256_sub_epi32(t, _mm256_castps_si256(_mm256_cmp_ps(f, _mm256_set1_ps(0.5f), _CMP_GE_OQ)));
    t = _mm256_add_epi32(t, _mm256_castps_si256(_mm256_cmp_ps(f, _mm256_set1_ps(-0.5f), _CMP_LE_OQ)));
    t = _mm256_add_epi32(t, zpout);
    return _mm256_min_epi32(_mm256_max_epi32(t, lo), hi);
}

/* hard_swish8's v, rounded half away from zero as quantize8 rounds (trunc(v + ±(0.5 − 2^-25)),
 * v's sign; |v| ≤ 40000, so the integer trunc-then-correct gives): 4 operations for its 7. No zero
 * point, no clamp: |t| ≤ 40000. */
INLINE __m256i hard_swish8_rounded(__m256i q, __m256i zpin, __m256 sin, __m256 sout) {
    const __m256 x = _mm256_mul_ps(sin, _mm256_cvtepi32_ps(_mm256_sub_epi32(q, zpin)));
    const __m256 r = _mm256_min_ps(_mm256_max_ps(_mm256_add_ps(x, _mm256_set1_ps(3.0f)), _mm256_setzero_ps()),
                                   _mm256_set1_ps(6.0f));
    __m256 v = _mm256_div_ps(_mm256_div_ps(_mm256_mul_ps(x, r), _mm256_set1_ps(6.0f)), sout);
    v = _mm256_max_ps(_mm256_min_ps(v, _mm256_set1_ps(40000.0f)), _mm256_set1_ps(-40000.0f));
    const __m256 p = _mm256_or_ps(_mm256_and_ps(v, _mm256_set1_ps(-0.0f)), _mm256_set1_ps(0.49999997f));
    return _mm256_cvttps_epi32(_mm256_add_ps(v, p));
}

/* `narrow` (int8 with zp_out within int8, or int16 with zp_out 0): the sixteen rounded values
 * packed to int16 with saturation, zp_out added with 16-bit saturation (int8), packed to int8:
 * clamp(t + zp_out) to the element type, as |t| ≤ 40000 and |zp_out| ≤ 128 (a t beyond int16 lands
 * on the same bound either way). Else hard_swish8's zero point and clamp on 32-bit lanes. */
INLINE ptrdiff_t hard_swish_run(const int bits, const int narrow, const void *in, ptrdiff_t n, float scale_in,
                                int32_t zp_in, float scale_out, int32_t zp_out, void *out) {
    const __m256i zpin = _mm256_set1_epi32(zp_in), zpout = _mm256_set1_epi32(zp_out);
    const __m256i zpout16 = _mm256_set1_epi16((int16_t)zp_out);
    const __m256 sin = _mm256_set1_ps(scale_in), sout = _mm256_set1_ps(scale_out);
    const __m256i lo = _mm256_set1_epi32(bits == 8 ? -128 : -32768), hi = _mm256_set1_epi32(bits == 8 ? 127 : 32767);
    const ptrdiff_t e = bits / 8;
    ptrdiff_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256i qa = load8_i32(bits, (const char *)in + i * e), qb = load8_i32(bits, (const char *)in + (i + 8) * e);
        if (narrow) {
            const __m256i w = _mm256_permute4x64_epi64(
                _mm256_packs_epi32(hard_swish8_rounded(qa, zpin, sin, sout), hard_swish8_rounded(qb, zpin, sin, sout)), 0xD8);
            if (bits == 16) {
                _mm256_storeu_si256((__m256i *)((char *)out + i * e), w);
            } else {
                const __m256i z = _mm256_adds_epi16(w, zpout16);
                _mm_storeu_si128((__m128i *)((char *)out + i),
                                 _mm_packs_epi16(_mm256_castsi256_si128(z), _mm256_extracti128_si256(z, 1)));
            }
        } else {
            const __m256i a = hard_swish8(qa, zpin, sin, sout, zpout, lo, hi);
            const __m256i b = hard_swish8(qb, zpin, sin, sout, zpout, lo, hi);
            store16_packed(bits, (char *)out + i * e, a, b);
        }
    }
    return i;
}

ptrdiff_t booth_x86_hard_swish_s8(const int8_t *in, ptrdiff_t n, float scale_in, int32_t zp_in, float scale_out,
                                  int32_t zp_out, int8_t *out) {
    if (zp_out >= -128 && zp_out <= 127) return hard_swish_run(8, 1, in, n, scale_in, zp_in, scale_out, zp_out, out);
    return hard_swish_run(8, 0, in, n, scale_in, zp_in, scale_out, zp_out, out);
}

ptrdiff_t booth_x86_hard_swish_s16(const int16_t *in, ptrdiff_t n, float scale_in, int32_t zp_in, float scale_out,
                                   int32_t zp_out, int16_t *out) {
    if (zp_out == 0) return hard_swish_run(16, 1, in, n, scale_in, zp_in, scale_out, zp_out, out);
    return hard_swish_run(16, 0, in, n, scale_in, zp_in, scale_out, zp_out, out);
}

/* PReLUParams.scalar on eight lanes whose first is channel `ch` (negative[] has channels + 16
 * wrapped rows): x = q − zp; m = x < 0 ? negative : positive (vblendvps on x's sign bit);
 * r = (x·m + round) >> shift; + zp_out, clamped to int8. `narrow` (shift at least 1, zp_out within
 * int8): |r| ≤ 2^30, so r + zp_out never wraps, and r packed to int16 with saturation, the zero
 * point added with 16-bit saturation and packed to int8 is clamp(r + zp_out, −128, 127); else
 * r + zp_out on 32-bit lanes, clamped by the saturating packs. */
/* prelu_run's step on sixteen values already centred (x = q − zp, int32, eight per register),
 * the first of the channel whose negative-side multiplier is neg[0]. */
INLINE __m128i prelu16_centred(const int narrow, __m256i x0, __m256i x1, const int32_t *neg, __m256 pos, __m256i rnd,
                               __m128i sh, __m256i zpo, __m256i zpo16) {
    __m256i v[2];
    for (int h = 0; h < 2; h++) {
        const __m256i x = h ? x1 : x0;
        const __m256i m = _mm256_castps_si256(_mm256_blendv_ps(
            pos, _mm256_loadu_ps((const float *)(neg + 8 * h)), _mm256_castsi256_ps(x)));
        v[h] = _mm256_sra_epi32(_mm256_add_epi32(_mm256_mullo_epi32(x, m), rnd), sh);
        if (!narrow) v[h] = _mm256_add_epi32(v[h], zpo);
    }
    __m256i w = _mm256_permute4x64_epi64(_mm256_packs_epi32(v[0], v[1]), 0xD8);
    if (narrow) w = _mm256_adds_epi16(w, zpo16);
    return _mm_packs_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
}

/* Sixteen int8 values `q` of prelu_run's step. */
INLINE __m128i prelu16(const int narrow, __m128i q, const int32_t *neg, __m256i zpi, __m256 pos, __m256i rnd, __m128i sh,
                       __m256i zpo, __m256i zpo16) {
    return prelu16_centred(narrow, _mm256_sub_epi32(_mm256_cvtepi8_epi32(q), zpi),
                           _mm256_sub_epi32(_mm256_cvtepi8_epi32(_mm_unpackhi_epi64(q, q)), zpi), neg, pos, rnd, sh,
                           zpo, zpo16);
}

/* One value of PReLUParams.scalar, `m_negative` its channel's negative-side multiplier. */
INLINE int8_t prelu1(int8_t q, int32_t input_zero_point, int32_t output_zero_point, int32_t positive, int32_t m_negative,
                     int32_t round, int32_t shift) {
    const int32_t x = (int32_t)((uint32_t)q - (uint32_t)input_zero_point);
    const int32_t m = x >= 0 ? positive : m_negative;
    const int32_t s = (int32_t)((uint32_t)x * (uint32_t)m + (uint32_t)round) >> (shift & 31);
    const int32_t v = (int32_t)((uint32_t)s + (uint32_t)output_zero_point);
    return (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
}

/* prelu16's constants: the zero points, the positive multiplier (as float bits for vblendvps), the
 * rounding constant and the shift. */
typedef struct prelu_consts {
    __m256i zpo, zpo16, rnd;
    __m256 pos;
    __m128i sh;
    int32_t round;
} prelu_consts;

INLINE prelu_consts prelu_consts_init(int32_t output_zero_point, int32_t positive, int32_t shift) {
    prelu_consts k;
    k.zpo = _mm256_set1_epi32(output_zero_point);
    k.zpo16 = _mm256_set1_epi16((int16_t)output_zero_point);
    k.pos = _mm256_castsi256_ps(_mm256_set1_epi32(positive));
    k.round = shift > 0 ? (int32_t)(1u << ((shift - 1) & 31)) : 0;
    k.rnd = _mm256_set1_epi32(k.round);
    k.sh = _mm_cvtsi32_si128(shift & 31);
    return k;
}

/* prelu16's `narrow` form applies (shift at least 1, zp_out within int8). */
INLINE int prelu_narrow(int32_t output_zero_point, int32_t shift) {
    return shift >= 1 && shift <= 31 && output_zero_point >= -128 && output_zero_point <= 127;
}

INLINE void prelu_run(const int narrow, const int8_t *in, ptrdiff_t n, ptrdiff_t channels, int32_t input_zero_point,
                      int32_t output_zero_point, int32_t positive, const int32_t *negative, int32_t shift, int8_t *out) {
    const __m256i zpi = _mm256_set1_epi32(input_zero_point);
    const prelu_consts k = prelu_consts_init(output_zero_point, positive, shift);
    ptrdiff_t i = 0, ch = 0;
    for (; i + 16 <= n; i += 16) {
        _mm_storeu_si128((__m128i *)(out + i), prelu16(narrow, _mm_loadu_si128((const __m128i *)(in + i)), negative + ch,
                                                       zpi, k.pos, k.rnd, k.sh, k.zpo, k.zpo16));
        ch += 16;
        while (ch >= channels) ch -= channels;
    }
    for (; i < n; i++)
        out[i] = prelu1(in[i], input_zero_point, output_zero_point, positive, negative[i % channels], k.round, shift);
}

int booth_x86_prelu_s8(const int8_t *in, ptrdiff_t pixels, ptrdiff_t channels, int32_t input_zero_point,
                       int32_t output_zero_point, int32_t positive, const int32_t *negative, int32_t shift, int8_t *out) {
    const ptrdiff_t n = pixels * channels;
    if (prelu_narrow(output_zero_point, shift))
        prelu_run(1, in, n, channels, input_zero_point, output_zero_point, positive, negative, shift, out);
    else
        prelu_run(0, in, n, channels, input_zero_point, output_zero_point, positive, negative, shift, out);
    return 1;
}

/* ADD then PRELU in one pass (booth_add_prelu_s8's contract, `negative` booth_prelu_s8's rows).
 * The ADD's output zero point is the PRELU's input one (one tensor), so PRELU's x is
 * clamp(t, lo − zp, hi − zp) with t = (x1·s1 + x2·s2 + c) >> shift in int32 (add8_narrow16's sums):
 * the int8 value is never packed and widened again. Then prelu16_centred; the tail one value at a
 * time (add1, prelu1). */
INLINE void add_prelu_run(const int narrow, const int8_t *a, const int8_t *b, ptrdiff_t count, const booth_elementwise *p,
                          ptrdiff_t channels, int32_t input_zero_point, int32_t output_zero_point, int32_t positive,
                          const int32_t *negative, int32_t shift, int8_t *out) {
    const uint32_t c = (uint32_t)p->round - (uint32_t)p->zero_point1 * (uint32_t)p->scale1
                       - (uint32_t)p->zero_point2 * (uint32_t)p->scale2;
    const __m256i s1 = _mm256_set1_epi32(p->scale1), s2 = _mm256_set1_epi32(p->scale2), vc = _mm256_set1_epi32((int32_t)c);
    const __m128i ashift = _mm_cvtsi32_si128(p->shift & 31);
    const __m256i lo = _mm256_set1_epi32(p->minimum - input_zero_point), hi = _mm256_set1_epi32(p->maximum - input_zero_point);
    const prelu_consts k = prelu_consts_init(output_zero_point, positive, shift);
    ptrdiff_t i = 0, ch = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i x[2];
        for (int h = 0; h < 2; h++) {
            const __m256i v = _mm256_add_epi32(_mm256_mullo_epi32(load8_i32(8, a + i + 8 * h), s1),
                                               _mm256_mullo_epi32(load8_i32(8, b + i + 8 * h), s2));
            x[h] = _mm256_min_epi32(_mm256_max_epi32(_mm256_sra_epi32(_mm256_add_epi32(v, vc), ashift), lo), hi);
        }
        _mm_storeu_si128((__m128i *)(out + i),
                         prelu16_centred(narrow, x[0], x[1], negative + ch, k.pos, k.rnd, k.sh, k.zpo, k.zpo16));
        ch += 16;
        while (ch >= channels) ch -= channels;
    }
    for (; i < count; i++)
        out[i] = prelu1((int8_t)add1(p, a[i], b[i]), input_zero_point, output_zero_point, positive,
                        negative[i % channels], k.round, shift);
}

int booth_x86_add_prelu_s8(const int8_t *a, const int8_t *b, ptrdiff_t count, const booth_elementwise *p,
                           ptrdiff_t channels, int32_t input_zero_point, int32_t output_zero_point, int32_t positive,
                           const int32_t *negative, int32_t shift, int8_t *out) {
    if (p->mul || (p->shift & 31) < 2 || p->minimum < -128 || p->maximum > 127 || p->minimum > p->maximum ||
        p->output_zero_point != input_zero_point || channels <= 0 || count % channels != 0)
        return 0;
    if (prelu_narrow(output_zero_point, shift))
        add_prelu_run(1, a, b, count, p, channels, input_zero_point, output_zero_point, positive, negative, shift, out);
    else
        add_prelu_run(0, a, b, count, p, channels, input_zero_point, output_zero_point, positive, negative, shift, out);
    return 1;
}

#else

int booth_x86_available(void) { return 0; }

int booth_x86_conv_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out) {
    (void)d; (void)in; (void)w; (void)bias; (void)out;
    return 0;
}

int booth_x86_transpose_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out) {
    (void)d; (void)in; (void)w; (void)bias; (void)out;
    return 0;
}

int booth_x86_has_avx512vnni(void) { return 0; }

int booth_x86_conv_f32_avx512(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out) {
    (void)d; (void)in; (void)w; (void)bias; (void)out;
    return 0;
}

int booth_x86_gemm_s16_vnni(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, const int16_t *w, ptrdiff_t channels,
                            const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int out_kind) {
    (void)a; (void)rows; (void)a_stride; (void)w; (void)channels; (void)stage; (void)out; (void)out_stride; (void)out_kind;
    return 0;
}

int booth_x86_gemm_s16(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, const int16_t *w, ptrdiff_t channels,
                       const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int out_kind) {
    (void)a; (void)rows; (void)a_stride; (void)w; (void)channels; (void)stage; (void)out; (void)out_stride; (void)out_kind;
    return 0;
}

int booth_x86_depthwise_layer_s8(const int8_t *input, const booth_x86_dw_geometry *g, const int16_t *w, ptrdiff_t tap_stride,
                                 const int32_t *tap_sums, int32_t zero_point, const booth_output_stage *stage, int8_t *out) {
    (void)input; (void)g; (void)w; (void)tap_stride; (void)tap_sums; (void)zero_point; (void)stage; (void)out;
    return 0;
}

int booth_x86_depthwise_layer_s16(const int16_t *input, const booth_x86_dw_geometry *g, const int16_t *w, ptrdiff_t tap_stride,
                                  const int32_t *tap_sums, int32_t zero_point, const booth_output_stage *stage, int16_t *out) {
    (void)input; (void)g; (void)w; (void)tap_stride; (void)tap_sums; (void)zero_point; (void)stage; (void)out;
    return 0;
}

int booth_x86_depthwise_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out) {
    (void)d; (void)in; (void)w; (void)bias; (void)out;
    return 0;
}


int booth_x86_quantize_s8(const float *in, ptrdiff_t n, float inverse_scale, float zero_point, int8_t *out) {
    (void)in; (void)n; (void)inverse_scale; (void)zero_point; (void)out;
    return 0;
}

int booth_x86_quantize_s16(const float *in, ptrdiff_t n, float inverse_scale, float zero_point, int16_t *out) {
    (void)in; (void)n; (void)inverse_scale; (void)zero_point; (void)out;
    return 0;
}

int booth_x86_dequantize_s8(const int8_t *in, ptrdiff_t n, float scale, int32_t zero_point, float *out) {
    (void)in; (void)n; (void)scale; (void)zero_point; (void)out;
    return 0;
}

int booth_x86_dequantize_s16(const int16_t *in, ptrdiff_t n, float scale, int32_t zero_point, float *out) {
    (void)in; (void)n; (void)scale; (void)zero_point; (void)out;
    return 0;
}

int booth_x86_binary_f32_rows(int op, const float *a, ptrdiff_t a_row, ptrdiff_t a_inner, const float *b, ptrdiff_t b_row,
                              ptrdiff_t b_inner, ptrdiff_t rows, ptrdiff_t n, float lo, float hi, float *out) {
    (void)op; (void)a; (void)a_row; (void)a_inner; (void)b; (void)b_row; (void)b_inner; (void)rows; (void)n; (void)lo;
    (void)hi; (void)out;
    return 0;
}

int booth_x86_add_s8(const int8_t *a, const int8_t *b, ptrdiff_t count, ptrdiff_t period, const booth_elementwise *p,
                     int8_t *out) {
    (void)a; (void)b; (void)count; (void)period; (void)p; (void)out;
    return 0;
}

int booth_x86_add_s16(const int16_t *a, const int16_t *b, ptrdiff_t count, ptrdiff_t period, const booth_elementwise *p,
                      int16_t *out) {
    (void)a; (void)b; (void)count; (void)period; (void)p; (void)out;
    return 0;
}

ptrdiff_t booth_x86_hard_swish_s8(const int8_t *in, ptrdiff_t n, float scale_in, int32_t zp_in, float scale_out,
                                  int32_t zp_out, int8_t *out) {
    (void)in; (void)n; (void)scale_in; (void)zp_in; (void)scale_out; (void)zp_out; (void)out;
    return 0;
}

ptrdiff_t booth_x86_hard_swish_s16(const int16_t *in, ptrdiff_t n, float scale_in, int32_t zp_in, float scale_out,
                                   int32_t zp_out, int16_t *out) {
    (void)in; (void)n; (void)scale_in; (void)zp_in; (void)scale_out; (void)zp_out; (void)out;
    return 0;
}

int booth_x86_prelu_s8(const int8_t *in, ptrdiff_t pixels, ptrdiff_t channels, int32_t input_zero_point,
                       int32_t output_zero_point, int32_t positive, const int32_t *negative, int32_t shift, int8_t *out) {
    (void)in; (void)pixels; (void)channels; (void)input_zero_point; (void)output_zero_point; (void)positive;
    (void)negative; (void)shift; (void)out;
    return 0;
}
int booth_x86_add_prelu_s8(const int8_t *a, const int8_t *b, ptrdiff_t count, const booth_elementwise *p,
                           ptrdiff_t channels, int32_t input_zero_point, int32_t output_zero_point, int32_t positive,
                           const int32_t *negative, int32_t shift, int8_t *out) {
    (void)a; (void)b; (void)count; (void)p; (void)channels; (void)input_zero_point; (void)output_zero_point;
    (void)positive; (void)negative; (void)shift; (void)out;
    return 0;
}

#endif
