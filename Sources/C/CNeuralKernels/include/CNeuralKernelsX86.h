/*
 * CNeuralKernelsX86: NeuralCore's x86-64 AVX2 + FMA inner loops (neural_kernels_x86.c), beside the
 * aarch64 ones of CNeuralKernels.h. Every function exists on every architecture; where the C
 * target is built without AVX2 and FMA (aarch64, a baseline x86-64 build with BOOTH_TARGET_CPU
 * empty) booth_x86_available() is 0 and the kernels return 0 without touching anything, so the
 * caller runs its Swift kernel.
 *
 * Why C: Swift's SIMD8<Float> kernels keep one ymm accumulator per pixel (4 per tile), which on
 * a 2-FMA-port core with 4–5 cycle FMA latency waits on the chains; AVX2 has 16 ymm registers,
 * room for a 6-pixel × 16-channel tile (12 accumulators). The scalar references stay in Swift
 * (FloatConvolution), and the conformance suite holds these kernels to them bit for bit.
 */
#ifndef BOOTH_CNEURALKERNELS_X86_H
#define BOOTH_CNEURALKERNELS_X86_H

#include <stddef.h>
#include <stdint.h>
#include "CNeuralKernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when this build has the AVX2 + FMA kernels (x86-64 built for haswell or newer), else 0. */
int booth_x86_available(void);

/*
 * The float engine's convolutions (fused arithmetic only), on FloatConvolution's packing:
 * weights [k_h][k_w][in_c][out_c rounded up to 8], bias [out_c rounded up to 8]. Each output is
 * the bias, then one fused multiply-add per valid tap and input channel in (ky, kx, i) order, then
 * the clamp to [lo, hi] (NaN kept): FloatConvolution.convScalar's arithmetic, bit for bit.
 *   booth_x86_conv_f32: tiles of 6 pixels × 16 channels (12 ymm accumulators) over the pixels
 *     whose window lies inside the input horizontally (a 1×1 stride-1 unpadded convolution: all
 *     pixels as one run), one pixel at a time at the borders.
 *   booth_x86_transpose_f32: Convolution2DTransposeBias: the output starts as the bias; per tile
 *     of up to 6 input pixels of a row the products of every tap (from 0, fused, over the input
 *     channels) go to a stack scratch, then are added into the output pixel by pixel, tap by tap
 *     (FloatConvolution.transposeScalar's order). Returns 0 (nothing written) for more than 64 taps.
 * Both return 1 when they ran, 0 when not built with AVX2 + FMA.
 */
int booth_x86_conv_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out);
int booth_x86_transpose_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out);
/* DEPTHWISE_CONV_2D with depth multiplier 1 (in_c = out_c; returns 0 otherwise), weights
 * [k_h][k_w][out_c rounded up to 8]: 4 interior pixels × 16 channels per tile (8 accumulators),
 * border pixels one at a time; the last channels' input read with a lane mask (nothing past the
 * tensor). FloatConvolution.depthwiseScalar's arithmetic, bit for bit. */
int booth_x86_depthwise_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out);

/*
 * The int16 × int8 GEMM (NeuralCore's GEMMKernel) on PackedGEMMWeights' own packing: `w`
 * [block of 16 channels][k / 2][16][2] int16, `a` `rows` rows of `a_stride` int16 (the depth
 * rounded up to even), one k-pair of a row broadcast as an int32 and `vpmaddwd` with a block's
 * pair (16 products per ymm). Tiles of 6 rows × 16 channels (12 ymm accumulators, starting at
 * the bias), then the output stage as StageRegisters computes it (`vpmuldq` by lane parity, the
 * rounding constant, an arithmetic 64-bit shift through the complement), bit for bit
 * gemmScalar's. `stage`, `out`, `out_stride`, `out_kind` as booth_gemm_s16; the stage's shifts
 * must lie in 0...31 (OutputStage.fusedExact), its arrays padded to 16 channels. Returns 0 when
 * not built with AVX2.
 */
int booth_x86_gemm_s16(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, const int16_t *w, ptrdiff_t channels,
                       const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int out_kind);

/* booth_x86_conv_f32 in zmm registers (12 pixels × 32 channels a tile, the same packing, fused
 * multiply-adds in the same order, the same bits) when booth_x86_has_avx512vnni(); otherwise
 * returns 0 and writes nothing. */
int booth_x86_conv_f32_avx512(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out);

/* Whether this CPU (and OS) runs AVX-512 F, BW, VL and VNNI: CPUID through
 * __builtin_cpu_supports, read once; 0 when the file was built without AVX2. */
int booth_x86_has_avx512vnni(void);

/*
 * booth_x86_gemm_s16 with AVX-512 VNNI, whatever the build's target CPU: one zmm `vpdpwssd` per
 * row and pair (16 channels, both products of the pair), tiles of up to 12 rows, the same packing,
 * output stage and bytes. Returns 0 (nothing written) when booth_x86_has_avx512vnni() is 0.
 */
int booth_x86_gemm_s16_vnni(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, const int16_t *w, ptrdiff_t channels,
                            const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int out_kind);

/* A depthwise layer's geometry (NeuralCore's WindowGeometry; no dilation, one image). */
typedef struct booth_x86_dw_geometry {
    ptrdiff_t in_h, in_w, channels, k_h, k_w, stride_y, stride_x, pad_top, pad_left, out_h, out_w;
} booth_x86_dw_geometry;

/*
 * Depthwise convolution with depth multiplier 1, a whole layer (`input` and `out` one image of
 * `g->channels` ≥ 16 channels; `k_h`×`k_w` taps, at most 26, of int16 filters `w`
 * (`[tap][tap_stride]`), `tap_sums[c] = Σ_taps w`, `zero_point` the input's): 16 channels per
 * step (the last group overlapping the one before it), each group's filters and output-stage
 * constants set up once for the layer; taps in pairs, each pair's activations interleaved and
 * multiplied by the interleaved int16 filters with `vpmaddwd`; accumulators start at
 * bias − zp·Σw. Border pixels read the zero point for every tap outside the input (adding
 * (zp − zp)·w = 0), so every pixel is bias + Σ (x − zp)·w over its taps inside, wrapping int32:
 * the reference's. The output stage as booth_x86_gemm_s16's (shifts in 0...31). Returns 0
 * (nothing written) for fewer than 16 channels, more than 26 taps, or without AVX2.
 */
int booth_x86_depthwise_layer_s8(const int8_t *input, const booth_x86_dw_geometry *g, const int16_t *w, ptrdiff_t tap_stride,
                                 const int32_t *tap_sums, int32_t zero_point, const booth_output_stage *stage, int8_t *out);
int booth_x86_depthwise_layer_s16(const int16_t *input, const booth_x86_dw_geometry *g, const int16_t *w, ptrdiff_t tap_stride,
                                  const int32_t *tap_sums, int32_t zero_point, const booth_output_stage *stage, int16_t *out);

/*
 * Boundary conversions (NeuralCore's quantizeScalar / dequantizeScalar, bit for bit):
 *   quantize: clamp(round(x · inverse_scale) + zero_point) rounding half away from zero (trunc,
 *     then ±1 where the exact remainder is at least a half), converted with truncation;
 *   dequantize: scale · (float)(q − zero_point).
 * Return 1 when they ran, 0 when not built with AVX2.
 */
int booth_x86_quantize_s8(const float *in, ptrdiff_t n, float inverse_scale, float zero_point, int8_t *out);
int booth_x86_quantize_s16(const float *in, ptrdiff_t n, float inverse_scale, float zero_point, int16_t *out);
int booth_x86_dequantize_s8(const int8_t *in, ptrdiff_t n, float scale, int32_t zero_point, float *out);
int booth_x86_dequantize_s16(const int16_t *in, ptrdiff_t n, float scale, int32_t zero_point, float *out);

/* FloatKernels.binary's rows, as booth_binary_f32_rows (same arguments): contiguous rows with
 * the Swift SIMD8 rows' clamp for each full 8 and the scalar clamp for the rest, rows with a
 * broadcast operand with the scalar clamp on every lane. Returns 0 (nothing written) without AVX2. */
int booth_x86_binary_f32_rows(int op, const float *a, ptrdiff_t a_row, ptrdiff_t a_inner, const float *b, ptrdiff_t b_row,
                              ptrdiff_t b_inner, ptrdiff_t rows, ptrdiff_t n, float lo, float hi, float *out);

/* The integer elementwise ADD (ElementwiseParams' scaled form, `p->mul` 0) and MUL (`p->mul` 1:
 * MultiplyByQuantizedMultiplier((a − zp1)·(b − zp2)) through the GEMM's output stage; returns 0,
 * nothing written, for shifts outside 0...31 or a multiplier of INT32_MIN) as booth_elementwise_s8
 * / _s16 (same arguments, out may alias a or b element for element), 16 elements per step; and
 * PRELU as booth_prelu_s8. Return 0 without AVX2. */
int booth_x86_add_s8(const int8_t *a, const int8_t *b, ptrdiff_t count, ptrdiff_t period, const booth_elementwise *p,
                     int8_t *out);
int booth_x86_add_s16(const int16_t *a, const int16_t *b, ptrdiff_t count, ptrdiff_t period, const booth_elementwise *p,
                      int16_t *out);
int booth_x86_prelu_s8(const int8_t *in, ptrdiff_t pixels, ptrdiff_t channels, int32_t input_zero_point,
                       int32_t output_zero_point, int32_t positive, const int32_t *negative, int32_t shift, int8_t *out);
/* booth_add_prelu_s8 with AVX2 (the same values and `negative` rows, any channel count; 0 with
 * nothing written for a MUL, an ADD shift below 2, ADD bounds outside int8, an ADD output zero
 * point other than the PRELU's input one, and without AVX2). */
int booth_x86_add_prelu_s8(const int8_t *a, const int8_t *b, ptrdiff_t count, const booth_elementwise *p,
                           ptrdiff_t channels, int32_t input_zero_point, int32_t output_zero_point, int32_t positive,
                           const int32_t *negative, int32_t shift, int8_t *out);

/* HARD_SWISH on the first n / 16 · 16 values, as NeuralCore's hardSwishVector computes a computed
 * table's entries (the table construction's float operations in the same order, so the same
 * values): returns how many it did (0 without AVX2). */
ptrdiff_t booth_x86_hard_swish_s8(const int8_t *in, ptrdiff_t n, float scale_in, int32_t zp_in, float scale_out,
                                  int32_t zp_out, int8_t *out);
ptrdiff_t booth_x86_hard_swish_s16(const int16_t *in, ptrdiff_t n, float scale_in, int32_t zp_in, float scale_out,
                                   int32_t zp_out, int16_t *out);

#ifdef __cplusplus
}
#endif

#endif
