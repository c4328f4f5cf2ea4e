/* NeuralCore's code between the kernels: MAX_POOL_2D / AVERAGE_POOL_2D and MEAN over H and W
 * (see the glue section at the end of include/CNeuralKernels.h). On aarch64 the channels go
 * through NEON lanes (int8: 16, int16: 8 per step); fewer channels than one step, and every
 * channel on other architectures, take the scalar loop below, which is NeuralCore's
 * poolScalar / meanScalar written in C. */
#include "CNeuralKernels.h"

#if defined(__aarch64__)
#include <arm_neon.h>
#endif

static inline int32_t glue_clamp(int32_t x, int32_t lo, int32_t hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* roundedAverage: half away from zero (the Swift reference's Int32 formula; 64-bit here so that
 * no sum the reference computes without trapping can overflow). */
static inline int32_t glue_rounded_average(int32_t sum, int32_t count) {
    int64_t s = sum, n = count;
    return (int32_t)(s > 0 ? (s + n / 2) / n : (s - n / 2) / n);
}

/* saturatingRoundingDoublingHighMul, roundingDivideByPOT and multiplyByQuantizedMultiplier
 * (FixedPoint.swift), bit for bit; shifts and wrapping in unsigned arithmetic. */
static inline int32_t glue_srdhm(int32_t a, int32_t b) {
    if (a == b && a == INT32_MIN) return INT32_MAX;
    int64_t ab = (int64_t)a * (int64_t)b;
    int64_t nudge = ab >= 0 ? (1LL << 30) : (1 - (1LL << 30));
    return (int32_t)(uint32_t)(uint64_t)((ab + nudge) / (1LL << 31));
}

static inline int32_t glue_rdbpot(int32_t x, int32_t exponent) {
    int32_t mask = (int32_t)((1u << (exponent & 31)) - 1u);
    int32_t remainder = x & mask;
    int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> (exponent & 31)) + (remainder > threshold ? 1 : 0);
}

static inline int32_t glue_mbqm(int32_t x, int32_t m, int32_t left, int32_t right) {
    return glue_rdbpot(glue_srdhm((int32_t)((uint32_t)x << (left & 31)), m), right);
}

static inline void glue_taps(ptrdiff_t o, ptrdiff_t stride, ptrdiff_t pad, ptrdiff_t kernel, ptrdiff_t size,
                             ptrdiff_t *k0, ptrdiff_t *k1) {
    ptrdiff_t origin = o * stride - pad;
    ptrdiff_t end = size - origin;
    *k0 = origin < 0 ? -origin : 0;
    *k1 = kernel < end ? kernel : end;
    if (*k1 < *k0) *k1 = *k0;
}

/* One output pixel's channels `from ..< c`, one at a time: the window starts at `win` (its first
 * in-image tap), `rows` × `cols` taps, rows `row_stride` values apart. */
#define GLUE_POOL_SCALAR(T, TMIN)                                                                     \
    static void pool_scalar_##T(const T *win, ptrdiff_t rows, ptrdiff_t cols, ptrdiff_t row_stride,   \
                                ptrdiff_t c, ptrdiff_t from, int average, int32_t lo, int32_t hi,     \
                                T *dst) {                                                             \
        int32_t taps = (int32_t)(rows * cols);                                                        \
        for (ptrdiff_t ch = from; ch < c; ch++) {                                                     \
            int32_t m = TMIN, s = 0;                                                                  \
            for (ptrdiff_t r = 0; r < rows; r++) {                                                    \
                for (ptrdiff_t q = 0; q < cols; q++) {                                                \
                    int32_t x = win[r * row_stride + q * c + ch];                                     \
                    m = x > m ? x : m;                                                                \
                    s += x;                                                                           \
                }                                                                                     \
            }                                                                                         \
            int32_t v = average ? (taps > 0 ? glue_rounded_average(s, taps) : 0) : m;                 \
            dst[ch] = (T)glue_clamp(v, lo, hi);                                                       \
        }                                                                                             \
    }                                                                                                 \
    static void mean_scalar_##T(const T *in, ptrdiff_t pixels, ptrdiff_t c, ptrdiff_t from, int32_t zp_in, \
                                int32_t multiplier, int32_t left, int32_t right, int32_t zp_out,      \
                                int32_t tmin, int32_t tmax, T *out) {                                 \
        for (ptrdiff_t ch = from; ch < c; ch++) {                                                     \
            uint32_t s = 0;                                                                           \
            for (ptrdiff_t p = 0; p < pixels; p++) s += (uint32_t)(int32_t)in[p * c + ch] - (uint32_t)zp_in; \
            int32_t v = (int32_t)((uint32_t)glue_mbqm((int32_t)s, multiplier, left, right) + (uint32_t)zp_out); \
            out[ch] = (T)glue_clamp(v, tmin, tmax);                                                   \
        }                                                                                             \
    }

GLUE_POOL_SCALAR(int8_t, INT8_MIN)
GLUE_POOL_SCALAR(int16_t, INT16_MIN)


#if defined(__aarch64__)

/* The sums' finish, lane by lane: `n` int32 sums of `taps` values to rounded averages, clamped. */
#define GLUE_AVERAGE_LANES(T)                                                                         \
    static inline void average_lanes_##T(const int32_t *sums, int n, int32_t taps, int32_t lo,        \
                                         int32_t hi, T *dst) {                                        \
        for (int i = 0; i < n; i++)                                                                   \
            dst[i] = (T)glue_clamp(taps > 0 ? glue_rounded_average(sums[i], taps) : 0, lo, hi);       \
    }                                                                                                 \
    static inline void mean_lanes_##T(const int32_t *sums, int n, uint32_t zp_total, int32_t multiplier, \
                                      int32_t left, int32_t right, int32_t zp_out, int32_t tmin,     \
                                      int32_t tmax, T *dst) {                                         \
        for (int i = 0; i < n; i++) {                                                                 \
            int32_t s = (int32_t)((uint32_t)sums[i] - zp_total);                                      \
            int32_t v = (int32_t)((uint32_t)glue_mbqm(s, multiplier, left, right) + (uint32_t)zp_out); \
            dst[i] = (T)glue_clamp(v, tmin, tmax);                                                    \
        }                                                                                             \
    }

GLUE_AVERAGE_LANES(int8_t)
GLUE_AVERAGE_LANES(int16_t)

/* Steps of `lanes` channels: 0, lanes, 2·lanes, … and, where `c` is not a multiple, a last step
 * at c − lanes (overlapping the one before: the same values again; input and output never
 * alias). Requires c ≥ lanes. The body goes between `GLUE_STEPS(ch, c, lanes)` and `GLUE_STEPS_END(ch, c, lanes)`. */
#define GLUE_STEPS(ch, c, lanes)                                                                      \
    for (ptrdiff_t ch = 0;; ch += (lanes)) {                                                          \
        if (ch > (c) - (lanes)) ch = (c) - (lanes);
#define GLUE_STEPS_END(ch, c, lanes)                                                                  \
        if (ch + (lanes) >= (c)) break;                                                               \
    }

/* 8 int16 channels summed over a window: `rows` rows of `cols` pixels, 8 values each. */
static inline void sum8_s16(const int16_t *p, ptrdiff_t rows, ptrdiff_t cols, ptrdiff_t row_stride, ptrdiff_t c,
                            int32x4_t *lo, int32x4_t *hi) {
    int32x4_t a0 = vdupq_n_s32(0), a1 = vdupq_n_s32(0), b0 = vdupq_n_s32(0), b1 = vdupq_n_s32(0);
    for (ptrdiff_t r = 0; r < rows; r++, p += row_stride) {
        const int16_t *q = p;
        ptrdiff_t k = cols;
        for (; k >= 4; k -= 4, q += 4 * c) {
            int16x8_t x = vld1q_s16(q), y = vld1q_s16(q + c), z = vld1q_s16(q + 2 * c), w = vld1q_s16(q + 3 * c);
            a0 = vaddw_s16(a0, vget_low_s16(x));
            a1 = vaddw_high_s16(a1, x);
            b0 = vaddw_s16(b0, vget_low_s16(y));
            b1 = vaddw_high_s16(b1, y);
            a0 = vaddw_s16(a0, vget_low_s16(z));
            a1 = vaddw_high_s16(a1, z);
            b0 = vaddw_s16(b0, vget_low_s16(w));
            b1 = vaddw_high_s16(b1, w);
        }
        for (; k > 0; k--, q += c) {
            int16x8_t x = vld1q_s16(q);
            a0 = vaddw_s16(a0, vget_low_s16(x));
            a1 = vaddw_high_s16(a1, x);
        }
    }
    *lo = vaddq_s32(a0, b0);
    *hi = vaddq_s32(a1, b1);
}

/* 16 int8 channels summed over a window: each pixel's values widened to int16, then added into
 * four int32 accumulators. */
static inline void sum16_s8(const int8_t *p, ptrdiff_t rows, ptrdiff_t cols, ptrdiff_t row_stride, ptrdiff_t c,
                            int32x4_t acc[4]) {
    int32x4_t a0 = vdupq_n_s32(0), a1 = vdupq_n_s32(0), a2 = vdupq_n_s32(0), a3 = vdupq_n_s32(0);
    for (ptrdiff_t r = 0; r < rows; r++, p += row_stride) {
        const int8_t *q = p;
        for (ptrdiff_t k = 0; k < cols; k++, q += c) {
            int8x16_t x = vld1q_s8(q);
            int16x8_t l = vmovl_s8(vget_low_s8(x)), h = vmovl_high_s8(x);
            a0 = vaddw_s16(a0, vget_low_s16(l));
            a1 = vaddw_high_s16(a1, l);
            a2 = vaddw_s16(a2, vget_low_s16(h));
            a3 = vaddw_high_s16(a3, h);
        }
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/* The window sums of one step of lanes, as int32 values in `sums` (8 for int16, 16 for int8). */
static inline void sum_lanes_s16(const int16_t *p, ptrdiff_t rows, ptrdiff_t cols, ptrdiff_t row_stride, ptrdiff_t c,
                                 int32_t *sums) {
    int32x4_t s0, s1;
    sum8_s16(p, rows, cols, row_stride, c, &s0, &s1);
    vst1q_s32(sums, s0);
    vst1q_s32(sums + 4, s1);
}

static inline void sum_lanes_s8(const int8_t *p, ptrdiff_t rows, ptrdiff_t cols, ptrdiff_t row_stride, ptrdiff_t c,
                                int32_t *sums) {
    int32x4_t s[4];
    sum16_s8(p, rows, cols, row_stride, c, s);
    for (int i = 0; i < 4; i++) vst1q_s32(sums + 4 * i, s[i]);
}

/* MAX_POOL_2D / AVERAGE_POOL_2D and MEAN for one element type: T the element, S the NEON suffix
 * (s8, s16), V its 128-bit vector, LANES its lane count, TMIN/TMAX its range. Fewer channels than
 * LANES (or an empty window) take the scalar loop; whole 2×2 max windows of a row run as
 * max2x2_S. */
#define GLUE_POOL_NEON(T, S, V, LANES, TMIN, TMAX)                                                    \
    /* MAX_POOL over `n` whole 2×2 windows `step` values apart (one output row's run). */           \
    static inline void max2x2_##S(const T *win, ptrdiff_t n, ptrdiff_t step, ptrdiff_t row_stride,   \
                                  ptrdiff_t c, V lo, V hi, T *dst) {                                  \
        for (ptrdiff_t i = 0; i < n; i++, win += step, dst += c) {                                    \
            GLUE_STEPS(ch, c, LANES)                                                                  \
                const T *p = win + ch;                                                                \
                V m = vmaxq_##S(vmaxq_##S(vld1q_##S(p), vld1q_##S(p + c)),                            \
                                vmaxq_##S(vld1q_##S(p + row_stride), vld1q_##S(p + row_stride + c))); \
                vst1q_##S(dst + ch, vminq_##S(vmaxq_##S(m, lo), hi));                                 \
            GLUE_STEPS_END(ch, c, LANES)                                                              \
        }                                                                                             \
    }                                                                                                 \
                                                                                                      \
    void booth_pool_##S(const T *input, const booth_pool_geometry *g, int average, int32_t minimum,   \
                        int32_t maximum, T *output) {                                                 \
        const ptrdiff_t c = g->channels, row_stride = g->input_width * c;                             \
        const V lo = vdupq_n_##S((T)minimum), hi = vdupq_n_##S((T)maximum);                           \
        for (ptrdiff_t oy = 0; oy < g->output_height; oy++) {                                         \
            ptrdiff_t ky0, ky1;                                                                       \
            glue_taps(oy, g->stride_y, g->pad_top, g->kernel_height, g->input_height, &ky0, &ky1);    \
            const ptrdiff_t iy = oy * g->stride_y - g->pad_top + ky0, rows = ky1 - ky0;               \
            for (ptrdiff_t ox = 0; ox < g->output_width; ox++) {                                      \
                ptrdiff_t kx0, kx1;                                                                   \
                glue_taps(ox, g->stride_x, g->pad_left, g->kernel_width, g->input_width, &kx0, &kx1); \
                const ptrdiff_t ix = ox * g->stride_x - g->pad_left + kx0, cols = kx1 - kx0;          \
                const T *win = input + (iy * g->input_width + ix) * c;                                \
                T *dst = output + (oy * g->output_width + ox) * c;                                    \
                if (c < LANES || rows == 0 || cols == 0) {                                            \
                    pool_scalar_##T(win, rows, cols, row_stride, c, 0, average, minimum, maximum, dst); \
                } else if (average) {                                                                 \
                    const int32_t taps = (int32_t)(rows * cols);                                      \
                    GLUE_STEPS(ch, c, LANES)                                                          \
                        int32_t sums[LANES];                                                          \
                        sum_lanes_##S(win + ch, rows, cols, row_stride, c, sums);                     \
                        average_lanes_##T(sums, LANES, taps, minimum, maximum, dst + ch);             \
                    GLUE_STEPS_END(ch, c, LANES)                                                      \
                } else if (rows == 2 && cols == 2 && g->kernel_width == 2) {                          \
                    /* This and the following whole 2×2 windows of the row, up to the last inside it. */ \
                    ptrdiff_t end = (g->input_width - 2 + g->pad_left) / g->stride_x + 1;             \
                    if (end > g->output_width) end = g->output_width;                                 \
                    max2x2_##S(win, end - ox, g->stride_x * c, row_stride, c, lo, hi, dst);           \
                    ox = end - 1;                                                                     \
                } else {                                                                              \
                    GLUE_STEPS(ch, c, LANES)                                                          \
                        V m = vdupq_n_##S(TMIN);                                                      \
                        const T *p = win + ch;                                                        \
                        for (ptrdiff_t r = 0; r < rows; r++, p += row_stride)                         \
                            for (ptrdiff_t k = 0; k < cols; k++) m = vmaxq_##S(m, vld1q_##S(p + k * c)); \
                        vst1q_##S(dst + ch, vminq_##S(vmaxq_##S(m, lo), hi));                         \
                    GLUE_STEPS_END(ch, c, LANES)                                                      \
                }                                                                                     \
            }                                                                                         \
        }                                                                                             \
    }                                                                                                 \
                                                                                                      \
    void booth_mean_##S(const T *input, ptrdiff_t pixels, ptrdiff_t channels, int32_t zp_in,          \
                        int32_t multiplier, int32_t left_shift, int32_t right_shift, int32_t zp_out,  \
                        T *output) {                                                                  \
        if (channels < LANES) {                                                                       \
            mean_scalar_##T(input, pixels, channels, 0, zp_in, multiplier, left_shift, right_shift, zp_out, \
                            TMIN, TMAX, output);                                                      \
            return;                                                                                   \
        }                                                                                             \
        const uint32_t zp_total = (uint32_t)pixels * (uint32_t)zp_in;                                 \
        GLUE_STEPS(ch, channels, LANES)                                                               \
            int32_t sums[LANES];                                                                      \
            sum_lanes_##S(input + ch, 1, pixels, 0, channels, sums);                                  \
            mean_lanes_##T(sums, LANES, zp_total, multiplier, left_shift, right_shift, zp_out, TMIN, TMAX, \
                           output + ch);                                                              \
        GLUE_STEPS_END(ch, channels, LANES)                                                           \
    }

GLUE_POOL_NEON(int16_t, s16, int16x8_t, 8, INT16_MIN, INT16_MAX)
GLUE_POOL_NEON(int8_t, s8, int8x16_t, 16, INT8_MIN, INT8_MAX)

#else /* not aarch64: the scalar loops for every channel (the same values; tested on x86) */

#define GLUE_POOL_PORTABLE(T, SUFFIX)                                                                  \
    void booth_pool_##SUFFIX(const T *input, const booth_pool_geometry *g, int average, int32_t minimum, \
                             int32_t maximum, T *output) {                                            \
        const ptrdiff_t c = g->channels, row_stride = g->input_width * c;                             \
        for (ptrdiff_t oy = 0; oy < g->output_height; oy++) {                                         \
            ptrdiff_t ky0, ky1;                                                                       \
            glue_taps(oy, g->stride_y, g->pad_top, g->kernel_height, g->input_height, &ky0, &ky1);    \
            const ptrdiff_t iy = oy * g->stride_y - g->pad_top + ky0;                                 \
            for (ptrdiff_t ox = 0; ox < g->output_width; ox++) {                                      \
                ptrdiff_t kx0, kx1;                                                                   \
                glue_taps(ox, g->stride_x, g->pad_left, g->kernel_width, g->input_width, &kx0, &kx1); \
                const ptrdiff_t ix = ox * g->stride_x - g->pad_left + kx0;                            \
                pool_scalar_##T(input + (iy * g->input_width + ix) * c, ky1 - ky0, kx1 - kx0, row_stride, c, 0, \
                                average, minimum, maximum, output + (oy * g->output_width + ox) * c); \
            }                                                                                         \
        }                                                                                             \
    }

GLUE_POOL_PORTABLE(int8_t, s8)
GLUE_POOL_PORTABLE(int16_t, s16)

void booth_mean_s16(const int16_t *input, ptrdiff_t pixels, ptrdiff_t channels, int32_t zp_in, int32_t multiplier,
                    int32_t left_shift, int32_t right_shift, int32_t zp_out, int16_t *output) {
    mean_scalar_int16_t(input, pixels, channels, 0, zp_in, multiplier, left_shift, right_shift, zp_out, INT16_MIN,
                        INT16_MAX, output);
}

void booth_mean_s8(const int8_t *input, ptrdiff_t pixels, ptrdiff_t channels, int32_t zp_in, int32_t multiplier,
                   int32_t left_shift, int32_t right_shift, int32_t zp_out, int8_t *output) {
    mean_scalar_int8_t(input, pixels, channels, 0, zp_in, multiplier, left_shift, right_shift, zp_out, INT8_MIN,
                       INT8_MAX, output);
}

#endif

/* MARK: a float island's PRELU with its int8 edges (NeuralCore's FloatIsland)
 *
 * The three passes an island of one PRELU runs (booth_dequantize_s8, the float path's PRELU
 * booth_binary_f32 with a per-channel slope, booth_quantize_s8), one value at a time in the same
 * float operations: x = in_scale · (q − in_zp), y = x < 0 ? x · alpha[c] : x,
 * clamp(round_half_away(y · out_inverse_scale) + out_zp). No rounding differs from the passes:
 * every product is the same single float multiply, and the quantisation's int32 route is the one
 * booth_quantize_s8 documents (exact against the float sum for |round(·)| < 2^24, saturating
 * to the same side beyond). */
static inline int8_t island_quantize_one(float y, float inverse_scale, int32_t zp) {
    float v = __builtin_roundf(y * inverse_scale);
    v = v + (float)zp;
    return (int8_t)(int32_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
}

static inline float island_prelu_one(float x, float a) {
    float ax = x * a;
    return x < 0 ? ax : x;
}

static inline int8_t island_one_s8(int8_t q, float in_scale, int32_t in_zp, float a, float inverse_scale, int32_t zp) {
    float x = in_scale * (float)((int32_t)q - in_zp);
    return island_quantize_one(island_prelu_one(x, a), inverse_scale, zp);
}

#if defined(__aarch64__)
/* y = x < 0 ? x · a : x on four lanes (booth_binary_f32's PRELU: `fcmlt`, `fmul`, `bsl`). */
static inline float32x4_t island_prelu4(float32x4_t x, float32x4_t a) {
    return vbslq_f32(vcltzq_f32(x), vmulq_f32(x, a), x);
}

/* Eight values y · inverse_scale rounded half away from zero (`fcvtas`), narrowed with saturation
 * to int16, plus the zero point with saturation (booth_quantize_s8's route). */
static inline int16x8_t island_round8(float32x4_t y0, float32x4_t y1, float32x4_t inv, int16x8_t zp) {
    int32x4_t r0 = vcvtaq_s32_f32(vmulq_f32(y0, inv)), r1 = vcvtaq_s32_f32(vmulq_f32(y1, inv));
    return vqaddq_s16(vqmovn_high_s32(vqmovn_s32(r0), r1), zp);
}

/* in_scale · (int32)(q − zp) of eight int16 differences, as two float quartets. */
static inline void island_dequantize8(int16x8_t d, float32x4_t s, float32x4_t *x0, float32x4_t *x1) {
    *x0 = vmulq_f32(s, vcvtq_f32_s32(vmovl_s16(vget_low_s16(d))));
    *x1 = vmulq_f32(s, vcvtq_f32_s32(vmovl_high_s16(d)));
}
#endif

void booth_island_prelu_s8(const int8_t *in, float in_scale, int32_t in_zp, const float *alpha, ptrdiff_t pixels,
                           ptrdiff_t channels, float out_inverse_scale, int32_t out_zp, int8_t *out) {
#if defined(__aarch64__)
    if (in_zp >= -128 && in_zp <= 127 && out_zp >= -128 && out_zp <= 127) {
        float32x4_t s = vdupq_n_f32(in_scale), inv = vdupq_n_f32(out_inverse_scale);
        int8x16_t izp = vdupq_n_s8((int8_t)in_zp);
        int16x8_t ozp = vdupq_n_s16((int16_t)out_zp);
        for (ptrdiff_t p = 0; p < pixels; p++, in += channels, out += channels) {
            ptrdiff_t c = 0;
            for (; c + 16 <= channels; c += 16) {
                int8x16_t q = vld1q_s8(in + c);
                float32x4_t x0, x1, x2, x3;
                island_dequantize8(vsubl_s8(vget_low_s8(q), vget_low_s8(izp)), s, &x0, &x1);
                island_dequantize8(vsubl_high_s8(q, izp), s, &x2, &x3);
                x0 = island_prelu4(x0, vld1q_f32(alpha + c));
                x1 = island_prelu4(x1, vld1q_f32(alpha + c + 4));
                x2 = island_prelu4(x2, vld1q_f32(alpha + c + 8));
                x3 = island_prelu4(x3, vld1q_f32(alpha + c + 12));
                int16x8_t a = island_round8(x0, x1, inv, ozp), b = island_round8(x2, x3, inv, ozp);
                vst1q_s8(out + c, vqmovn_high_s16(vqmovn_s16(a), b));
            }
            for (; c + 8 <= channels; c += 8) {
                float32x4_t x0, x1;
                island_dequantize8(vsubl_s8(vld1_s8(in + c), vget_low_s8(izp)), s, &x0, &x1);
                x0 = island_prelu4(x0, vld1q_f32(alpha + c));
                x1 = island_prelu4(x1, vld1q_f32(alpha + c + 4));
                vst1_s8(out + c, vqmovn_s16(island_round8(x0, x1, inv, ozp)));
            }
            for (; c < channels; c++) out[c] = island_one_s8(in[c], in_scale, in_zp, alpha[c], out_inverse_scale, out_zp);
        }
        return;
    }
#endif
    for (ptrdiff_t p = 0; p < pixels; p++, in += channels, out += channels)
        for (ptrdiff_t c = 0; c < channels; c++)
            out[c] = island_one_s8(in[c], in_scale, in_zp, alpha[c], out_inverse_scale, out_zp);
}

void booth_island_prelu_f32_s8(const float *in, const float *alpha, ptrdiff_t pixels, ptrdiff_t channels,
                               float out_inverse_scale, int32_t out_zp, int8_t *out) {
#if defined(__aarch64__)
    if (out_zp >= -128 && out_zp <= 127) {
        float32x4_t inv = vdupq_n_f32(out_inverse_scale);
        int16x8_t ozp = vdupq_n_s16((int16_t)out_zp);
        for (ptrdiff_t p = 0; p < pixels; p++, in += channels, out += channels) {
            ptrdiff_t c = 0;
            for (; c + 16 <= channels; c += 16) {
                float32x4_t x0 = island_prelu4(vld1q_f32(in + c), vld1q_f32(alpha + c));
                float32x4_t x1 = island_prelu4(vld1q_f32(in + c + 4), vld1q_f32(alpha + c + 4));
                float32x4_t x2 = island_prelu4(vld1q_f32(in + c + 8), vld1q_f32(alpha + c + 8));
                float32x4_t x3 = island_prelu4(vld1q_f32(in + c + 12), vld1q_f32(alpha + c + 12));
                int16x8_t a = island_round8(x0, x1, inv, ozp), b = island_round8(x2, x3, inv, ozp);
                vst1q_s8(out + c, vqmovn_high_s16(vqmovn_s16(a), b));
            }
            for (; c + 8 <= channels; c += 8) {
                float32x4_t x0 = island_prelu4(vld1q_f32(in + c), vld1q_f32(alpha + c));
                float32x4_t x1 = island_prelu4(vld1q_f32(in + c + 4), vld1q_f32(alpha + c + 4));
                vst1_s8(out + c, vqmovn_s16(island_round8(x0, x1, inv, ozp)));
            }
            for (; c < channels; c++) out[c] = island_quantize_one(island_prelu_one(in[c], alpha[c]), out_inverse_scale, out_zp);
        }
        return;
    }
#endif
    for (ptrdiff_t p = 0; p < pixels; p++, in += channels, out += channels)
        for (ptrdiff_t c = 0; c < channels; c++)
            out[c] = island_quantize_one(island_prelu_one(in[c], alpha[c]), out_inverse_scale, out_zp);
}
