/*
 * CNeuralKernels: NeuralCore's innermost aarch64 loops written with arm_neon.h intrinsics, and
 * the CPU feature probe that picks between them. Every function exists on every architecture;
 * off aarch64 the kernels are never chosen (booth_neon_available() is 0) and do nothing.
 *
 * Why C: Swift's SIMD types give no by-lane multiply-accumulate (`smlal v.4s, w.4h, a.h[i]`),
 * no saturating rounding doubling high multiply (`sqrdmulh`) or rounding shift (`srshl`), and
 * no per-function target feature for `sdot`; LLVM lowers the generic 16-lane Swift code to
 * long widening sequences on NEON. The scalar references stay in Swift (NeuralCore), and the
 * conformance suite holds these kernels to them bit for bit.
 */
#ifndef BOOTH_CNEURALKERNELS_H
#define BOOTH_CNEURALKERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when this build has the NEON kernels (aarch64), else 0. */
int booth_neon_available(void);

/* 1 when the CPU has the dot-product extension (getauxval(AT_HWCAP) & HWCAP_ASIMDDP), else 0. */
int booth_cpu_has_dotprod(void);

/* The per-channel output stage of a convolution (NeuralCore's OutputStage), every array padded
 * to a multiple of 16 channels: clamp(MBQM(acc + bias[c], multiplier[c], left[c], right[c]) + zp). */
typedef struct booth_output_stage {
    const int32_t *bias;
    const int32_t *multiplier;
    const int32_t *left_shift;
    const int32_t *right_shift;
    int32_t zero_point;
    int32_t minimum;
    int32_t maximum;
} booth_output_stage;

/* Kinds of GEMM output. */
enum { BOOTH_OUT_INT8 = 0, BOOTH_OUT_INT16 = 1, BOOTH_OUT_INT32 = 2 };

/*
 * C[r][n] = Σ_k A[r][k] · W[n][k] for `rows` rows of `a` (`a_stride` int16 per row, `depth`
 * used) and `channels` output channels. `w` holds the filters packed by 16 channels,
 * `[block][depth][16]` int16 (values −127...127). With `stage` (int8/int16 output) the result
 * is requantised; with BOOTH_OUT_INT32 the raw accumulators are stored (`stage` unused).
 * `out_stride` is in elements. Reads nothing past row `rows − 1`'s `depth` values.
 */
void booth_gemm_s16(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth,
                    const int16_t *w, ptrdiff_t channels, const booth_output_stage *stage,
                    void *out, ptrdiff_t out_stride, int out_kind);

/*
 * C[r][n] = Σ_k (A[r][k] − zero_point) · W[n][k] for int8 activations taken as they are: the
 * accumulators start at bias[n] − zero_point · row_sums[n] (or −zero_point · row_sums[n] for
 * BOOTH_OUT_INT32), the same int32 in wrapping arithmetic. `a`: `rows` rows, `a_stride` bytes
 * apart, each readable to `depth` rounded up to 16 (columns past `depth` meet zero filters);
 * `row_sums`: Σ_k W[n][k] padded to a multiple of 16 channels. Output as booth_gemm_s16.
 *   booth_gemm_s8_mlal: ARMv8.0 (Cortex-A72): 4 rows × 16 channels, k by 4: each activation
 *     pair `dup`ed over four int16 lanes, `smull` + `smlal2` (two int8 products per int16 lane:
 *     |x·w| ≤ 128 · 127, so the pair fits) and `sadalp` into one int32 lane per channel, so no
 *     reduction is left at the end; `w` packed `[block of 16][k4 / 4][4 groups of 4 channels]
 *     [2 pairs][4 channels][2]` with k4 the depth rounded up to 4 (pair 0 of a quad is k, k + 1).
 *   booth_gemm_s8_dot: ARMv8.2 dot product (Cortex-A76): 4 rows × 16 channels, `sdot` by
 *     element; `w` packed `[block of 16][k / 4][16 channels][4]`. Only on a CPU with asimddp.
 */
void booth_gemm_s8_mlal(const int8_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth, const int8_t *w,
                        ptrdiff_t channels, const int32_t *row_sums, int32_t zero_point,
                        const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int out_kind);
void booth_gemm_s8_dot(const int8_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth, const int8_t *w,
                       ptrdiff_t channels, const int32_t *row_sums, int32_t zero_point,
                       const booth_output_stage *stage, void *out, ptrdiff_t out_stride, int out_kind);

/*
 * Depthwise convolution, `pixels` output pixels of one row whose every tap lies inside the input,
 * all `channels` (≥ 16; the last group of 16 overlaps the one before it). `origin`: the input
 * element under the first pixel's top-left tap, channel 0; input rows `row_stride` elements
 * apart, neighbouring output pixels `step` input elements apart; `k`×`k` taps of int16 filters
 * `w` (`[tap][tap_stride]`), `tap_sums[c] = Σ_taps w`, `zero_point` the input's.
 * acc = bias − zp·Σw + Σ x·w (wrapping int32, the reference's Σ (x − zp)·w + bias), then
 * the output stage; `out` points at the first pixel's channel 0, pixels `channels` apart.
 */
void booth_depthwise_s8(const int8_t *origin, ptrdiff_t row_stride, ptrdiff_t step, ptrdiff_t pixels,
                        ptrdiff_t channels, int k, const int16_t *w, ptrdiff_t tap_stride, const int32_t *tap_sums,
                        int32_t zero_point, const booth_output_stage *stage, int8_t *out);
void booth_depthwise_s16(const int16_t *origin, ptrdiff_t row_stride, ptrdiff_t step, ptrdiff_t pixels,
                         ptrdiff_t channels, int k, const int16_t *w, ptrdiff_t tap_stride, const int32_t *tap_sums,
                         int32_t zero_point, const booth_output_stage *stage, int16_t *out);

/*
 * A whole int16 depthwise layer whose input zero point is 0 (the int16 tables are symmetric):
 * 3×3 or 5×5 taps, stride 1 or 2 in both directions, `pad_top`/`pad_left` as the window
 * geometry's, interior and border pixels alike (acc = bias + Σ x·w over the taps inside the
 * input, then the output stage: booth_depthwise_s16's and booth_depthwise_border_s16's values
 * bit for bit). `input` ih × iw × channels, `out` oh × ow × channels (not overlapping `input`),
 * `w` and `tap_stride` as booth_depthwise_*. Returns 0 without writing anything when it does not
 * take the layer (other filter sizes or strides, fewer than 8 channels or 4 output columns), else 1.
 */
int booth_depthwise_layer_s16(const int16_t *input, ptrdiff_t input_height, ptrdiff_t input_width,
                              ptrdiff_t channels, int k, ptrdiff_t stride, ptrdiff_t pad_top, ptrdiff_t pad_left,
                              ptrdiff_t output_height, ptrdiff_t output_width, const int16_t *w,
                              ptrdiff_t tap_stride, const booth_output_stage *stage, int16_t *out);

/*
 * Depthwise border pixels `ox0 ..< ox1` of one output row (the pixels booth_depthwise_* cannot
 * take): `input` the whole input (`input_width` pixels of `channels` ≥ 16 per row), `iy0` the
 * input row under the window's top tap (may be negative), `ky0 ..< ky1` the window rows inside
 * the input, each pixel's columns clipped the same way (`stride`, `pad_left`, `k`×`k` taps);
 * `w`, `tap_stride`, `zero_point` and `stage` as booth_depthwise_*. acc = bias + Σ (x − zp)·w
 * over the taps inside, then the output stage; pixel ox at `out_row + ox · channels`.
 */
void booth_depthwise_border_s8(const int8_t *input, ptrdiff_t input_width, ptrdiff_t channels, ptrdiff_t k,
                               ptrdiff_t stride, ptrdiff_t pad_left, ptrdiff_t iy0, ptrdiff_t ky0, ptrdiff_t ky1,
                               ptrdiff_t ox0, ptrdiff_t ox1, const int16_t *w, ptrdiff_t tap_stride,
                               int32_t zero_point, const booth_output_stage *stage, int8_t *out_row);
void booth_depthwise_border_s16(const int16_t *input, ptrdiff_t input_width, ptrdiff_t channels, ptrdiff_t k,
                                ptrdiff_t stride, ptrdiff_t pad_left, ptrdiff_t iy0, ptrdiff_t ky0, ptrdiff_t ky1,
                                ptrdiff_t ox0, ptrdiff_t ox1, const int16_t *w, ptrdiff_t tap_stride,
                                int32_t zero_point, const booth_output_stage *stage, int16_t *out_row);

/* ADD and MUL of NeuralCore's ElementwiseParams (the `scaledAdd` form of ADD). */
typedef struct booth_elementwise {
    int32_t zero_point1, zero_point2, output_zero_point, minimum, maximum;
    /* ADD: ((a − zp1)·scale1 + (b − zp2)·scale2 + round) >> shift. */
    int32_t scale1, scale2, round, shift;
    /* MUL: MultiplyByQuantizedMultiplier((a − zp1)(b − zp2), multiplier, left, right). */
    int32_t multiplier, left_shift, right_shift;
    /* 0: ADD, 1: MUL. */
    int32_t mul;
} booth_elementwise;

/* out[i] = op(a[i], b[i mod period]) for `count` elements; `period` is 1, `count`, or divides
 * `count`. Bit for bit NeuralCore's ElementwiseParams.scalar (tails run the vector arithmetic on
 * a padded copy). `out` may alias `a` or `b` element for element. */
void booth_elementwise_s8(const int8_t *a, const int8_t *b, ptrdiff_t count, ptrdiff_t period,
                          const booth_elementwise *p, int8_t *out);
void booth_elementwise_s16(const int16_t *a, const int16_t *b, ptrdiff_t count, ptrdiff_t period,
                           const booth_elementwise *p, int16_t *out);

/* PRELU (NeuralCore's PReLUParams): x = q − zp_in; m = x ≥ 0 ? positive : negative[channel];
 * out = clamp(((x·m + round) >> shift) + zp_out, −128, 127) for `pixels` × `channels` values.
 * `negative` has `channels + 16` rows, row r holding channel r mod channels. */
void booth_prelu_s8(const int8_t *in, ptrdiff_t pixels, ptrdiff_t channels, int32_t input_zero_point,
                    int32_t output_zero_point, int32_t positive, const int32_t *negative, int32_t shift, int8_t *out);

/* ADD (booth_elementwise_s8, `p->mul` 0, b of `count` values) then PRELU (booth_prelu_s8's
 * parameters, `count` = pixels × `channels`) in one pass: out[i] = prelu(add(a[i], b[i])), the
 * ADD's clamped value kept in registers (as its offset from the zero point). Returns 0 with nothing
 * written where the parameters are outside the kernel's exact range (a MUL, ADD bounds outside
 * int8, an ADD output zero point other than the PRELU's input one, more than 256 channels, PRELU
 * zero points outside int8 or a shift above 23), and on builds other than aarch64. `out` may
 * alias `a` or `b`. */
int booth_add_prelu_s8(const int8_t *a, const int8_t *b, ptrdiff_t count, const booth_elementwise *p,
                       ptrdiff_t channels, int32_t input_zero_point, int32_t output_zero_point, int32_t positive,
                       const int32_t *negative, int32_t shift, int8_t *out);

/* out[i] = table[in[i] + 128] (int8, `table`: 256 entries from input −128) with `tbl`/`tbx`. */
void booth_lookup_s8(const int8_t *in, ptrdiff_t n, const int8_t *table, int8_t *out);

/* out[i] = table[in[i] + 32768] (int16, `table`: 65,536 entries from input −32768). */
void booth_lookup_s16(const int16_t *in, ptrdiff_t n, const int16_t *table, int16_t *out);

/* out[i] = clamp(round_half_away(in[i] · inverse_scale) + zero_point, lo, hi), float operations
 * in that order (NeuralCore's boundary quantisation); `lo`/`hi`: the storage type's range. */
void booth_quantize_s8(const float *in, ptrdiff_t n, float inverse_scale, float zero_point, int8_t *out);
void booth_quantize_s16(const float *in, ptrdiff_t n, float inverse_scale, float zero_point, int16_t *out);

/* out[i] = 1 / (1 + exp(−in[i])) with NeuralCore's FloatMath.exp (a degree-7 polynomial times
 * 2^k), the same float operations in the same order: bit for bit FloatMath.logistic. */
void booth_logistic_f32(const float *in, ptrdiff_t n, float *out);

/* out[i] = scale · (float)(in[i] − zero_point). */
void booth_dequantize_s8(const int8_t *in, ptrdiff_t n, float scale, int32_t zero_point, float *out);
void booth_dequantize_s16(const int16_t *in, ptrdiff_t n, float scale, int32_t zero_point, float *out);

/*
 * One or two output rows of RESIZE_BILINEAR that read the same two source rows r0, r1
 * (NeuralCore's resizeBilinearScalar, `bits` = 10 for int8, 7 for int16): for each of `width`
 * output pixels p and each of `channels` (≥ 8) channels,
 * ((r0[x0]·(1−fx) + r0[x1]·fx)·(1−fy) + (r1[x0]·(1−fx) + r1[x1]·fx)·fy + 2^(2·bits−1)) >> 2·bits
 * into `out`, and the same with fy2 into `out2` unless `out2` is NULL (one row), with x0 = x0s[p],
 * x1 = x1s[p] (element offsets of the two source pixels), fx = fxs[p] and the weights' unit
 * 1 = 2^bits. Eight channels per step (a last partial group recomputes the last eight); the
 * outputs must not overlap `r0`/`r1`.
 */
void booth_resize_rows_s8(const int8_t *r0, const int8_t *r1, ptrdiff_t width, ptrdiff_t channels,
                          const int32_t *x0s, const int32_t *x1s, const int16_t *fxs, int32_t fy, int8_t *out,
                          int32_t fy2, int8_t *out2);
void booth_resize_rows_s16(const int16_t *r0, const int16_t *r1, ptrdiff_t width, ptrdiff_t channels,
                           const int32_t *x0s, const int32_t *x1s, const int16_t *fxs, int32_t fy, int16_t *out,
                           int32_t fy2, int16_t *out2);

/*
 * Float convolutions of the float path (NeuralCore's FloatConvolution, fused arithmetic), NHWC:
 * weights packed [k_h][k_w][in_c][ocp] (depthwise: [k_h][k_w][ocp]) and bias [ocp], ocp = out_c
 * rounded up to 8, zero filled. Each output is the bias (transposed: 0) then one fused
 * multiply-add per product in the scalar reference's order (window rows, columns, input
 * channels; taps outside the input skipped), then the clamp to [lo, hi] (NaN kept): bit for bit
 * FloatConvolution's scalar references. Return 1 when done, 0 when the shape is not taken
 * (more than BOOTH_FCONV_MAX_TAPS taps; depthwise with in_c ≠ out_c): the caller
 * then runs its own kernel. Off aarch64 they always return 0.
 *   booth_conv_f32: 8 pixels × 8 channels per tile, four input values per load (`fmla` by
 *     lane); the window's columns of one row are one run of products (dilation 1).
 *   booth_depthwise_f32: 4 pixels × 8 channels per tile, then 4 channels, then one.
 *   booth_transpose_f32: TRANSPOSE_CONV (MediaPipe's Convolution2DTransposeBias): per input
 *     pixel the products of every tap and channel (a GEMM with k_h·k_w·out_c columns, from 0),
 *     then added into the output (which starts as the bias) pixel by pixel, tap by tap. It reads
 *     `packed` (booth_transpose_f32_packed_count floats, filled once by booth_transpose_f32_pack
 *     from the packed weights: the weights regrouped [in_c][column], then 8 rows of scratch it
 *     writes), so it allocates nothing; one call at a time per block.
 */
enum { BOOTH_FCONV_MAX_TAPS = 64 };

typedef struct booth_fconv {
    ptrdiff_t batch, in_h, in_w, in_c, out_h, out_w, out_c, k_h, k_w;
    ptrdiff_t stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
    float lo, hi;
} booth_fconv;

int booth_conv_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out);
int booth_depthwise_f32(const booth_fconv *d, const float *in, const float *w, const float *bias, float *out);
int booth_transpose_f32(const booth_fconv *d, const float *in, float *packed, const float *bias, float *out);
/* Portable (any architecture). */
ptrdiff_t booth_transpose_f32_packed_count(ptrdiff_t in_c, ptrdiff_t out_c, ptrdiff_t k_h, ptrdiff_t k_w);
void booth_transpose_f32_pack(ptrdiff_t in_c, ptrdiff_t out_c, ptrdiff_t k_h, ptrdiff_t k_w, const float *w,
                              float *packed);

/*
 * The integer transposed convolution's float rows (TransposeConvPlan.runRows: kernel = stride, no
 * padding, float output): for `pixels` int16 rows of `a` (`a_stride` apart, `depth` values each,
 * already centred) and `channels` (≤ 16) filter columns of the GEMM packing `w` ([depth][16],
 * one block), out[p·channels + c] = clamp(Float(Σ_k a[p][k]·w[k][c]) · scale[c mod oc] +
 * bias[c mod oc], lower, upper): the int32 sum, then Swift's separately rounded multiply and
 * add and its max/min (FloatOutputStage.apply), bit for bit. Four pixels per step, each
 * channel's products along the depth (`smlal`, 8 lanes) and the four pixels' sums by `addp`.
 * Returns 1 when done, 0 when the shape is not taken (more than 16 channels, oc not dividing
 * them, depth · channels > 2048); off aarch64 always 0.
 */
int booth_transpose_rows_s16_f32(const int16_t *a, ptrdiff_t pixels, ptrdiff_t a_stride, ptrdiff_t depth,
                                 const int16_t *w, ptrdiff_t channels, ptrdiff_t oc, const float *scale,
                                 const float *bias, float lower, float upper, float *out);

/* The float path's ADD, MUL and PRELU on `n` contiguous values (FloatKernels.binary's inner rows):
 * out[k] = clamp(a[k] ⊕ b[k]), bit for bit the Swift kernel (vector clamp for each full 8, the
 * scalar min/max for the rest). */
enum { BOOTH_FBINARY_ADD = 0, BOOTH_FBINARY_MUL = 1, BOOTH_FBINARY_PRELU = 2 };
void booth_binary_f32(int op, const float *a, const float *b, ptrdiff_t n, float lo, float hi, float *out);
/* `rows` such rows in one call (FloatKernels.binary's innermost two loops): row r reads
 * a + r·a_row and b + r·b_row with inner stride a_inner / b_inner (0: one value broadcast along the
 * row, or 1) and writes out + r·n. Rows with a broadcast value are bit for bit Swift's scalar
 * `apply` (its min/max clamp), computed four lanes at a time. */
void booth_binary_f32_rows(int op, const float *a, ptrdiff_t a_row, ptrdiff_t a_inner, const float *b, ptrdiff_t b_row,
                           ptrdiff_t b_inner, ptrdiff_t rows, ptrdiff_t n, float lo, float hi, float *out);

/* im2col into int16 rows (NeuralCore's `im2col`, the int16 GEMM's A): for output pixels
 * first ..< first + count, the K×K×C window of each ([ky][kx][c]) minus the zero point, 0 outside
 * the image, one 0 after the depth when `depth_stride` exceeds it; a pointwise convolution with
 * `depth_stride == channels` is one contiguous run. From int16 or int8 activations. Portable C. */
void booth_im2col_s16(const int16_t *input, ptrdiff_t input_height, ptrdiff_t input_width, ptrdiff_t channels,
                      ptrdiff_t kernel_height, ptrdiff_t kernel_width, ptrdiff_t stride_y, ptrdiff_t stride_x,
                      ptrdiff_t pad_top, ptrdiff_t pad_left, ptrdiff_t output_width, ptrdiff_t first, ptrdiff_t count,
                      ptrdiff_t depth_stride, int16_t zero_point, int16_t *a);
void booth_im2col_s8_s16(const int8_t *input, ptrdiff_t input_height, ptrdiff_t input_width, ptrdiff_t channels,
                         ptrdiff_t kernel_height, ptrdiff_t kernel_width, ptrdiff_t stride_y, ptrdiff_t stride_x,
                         ptrdiff_t pad_top, ptrdiff_t pad_left, ptrdiff_t output_width, ptrdiff_t first, ptrdiff_t count,
                         ptrdiff_t depth_stride, int16_t zero_point, int16_t *a);

/* Width conversion (NeuralCore's WidthConversion / requantizeSIMD), aarch64 only (elsewhere a
 * no-op: callers check booth_neon_available): out[i] = sat(zp_out + MultiplyByQuantizedMultiplier(
 * in[i] − zp_in, multiplier, left_shift, right_shift)), saturated to the output type, bit for bit
 * WidthConversion.convert. `right_shift` ≤ 31. */
void booth_convert_s8_s16(const int8_t *in, ptrdiff_t n, int32_t zp_in, int32_t multiplier, int32_t left_shift,
                          int32_t right_shift, int32_t zp_out, int16_t *out);
void booth_convert_s16_s8(const int16_t *in, ptrdiff_t n, int32_t zp_in, int32_t multiplier, int32_t left_shift,
                          int32_t right_shift, int32_t zp_out, int8_t *out);
void booth_convert_s8_s8(const int8_t *in, ptrdiff_t n, int32_t zp_in, int32_t multiplier, int32_t left_shift,
                         int32_t right_shift, int32_t zp_out, int8_t *out);

/* booth_depthwise_s8 for filters in −127...127 (no −128, so two int8 products sum within
 * int16): 3×3 with taps in pairs (`smull`/`smlal` of int8 lanes, `saddw` into int32), other
 * sizes as booth_depthwise_s8. The same values. */
void booth_depthwise_s8_pairs(const int8_t *origin, ptrdiff_t row_stride, ptrdiff_t step, ptrdiff_t pixels,
                              ptrdiff_t channels, int k, const int16_t *w, ptrdiff_t tap_stride,
                              const int32_t *tap_sums, int32_t zero_point, const booth_output_stage *stage,
                              int8_t *out);

/* A whole int8 3×3 depthwise layer (stride 1 or 2, ≥ 8 channels, ≥ 4 output columns, filters
 * without −128 as for booth_depthwise_s8_pairs, the input zero point in int8), borders included,
 * into `out` (output_height × output_width × channels); `pad_top`/`pad_left` as the geometry's.
 * The values of booth_depthwise_s8_pairs and booth_depthwise_border_s8. Returns 0 (nothing
 * written) for any other shape, 1 when done. aarch64; elsewhere it returns 0. */
int booth_depthwise_layer_s8_pairs(const int8_t *input, ptrdiff_t input_height, ptrdiff_t input_width,
                                   ptrdiff_t channels, int k, ptrdiff_t stride, ptrdiff_t pad_top, ptrdiff_t pad_left,
                                   ptrdiff_t output_height, ptrdiff_t output_width, const int16_t *w,
                                   ptrdiff_t tap_stride, const int32_t *tap_sums, int32_t zero_point,
                                   const booth_output_stage *stage, int8_t *out);

/* booth_depthwise_layer_s8_pairs's layers (the same shapes and filters, the same values) through
 * `sdot` (ARMv8.2 dot product, Cortex-A76): one int32 lane per channel summing four taps of a
 * window column, two output rows at a time at stride 1. Returns 0 (nothing written) for any other
 * shape, 1 when done. On aarch64 only on a CPU with asimddp (booth_cpu_has_dotprod()); elsewhere
 * it returns 0. */
int booth_depthwise_layer_s8_dot(const int8_t *input, ptrdiff_t input_height, ptrdiff_t input_width,
                                 ptrdiff_t channels, int k, ptrdiff_t stride, ptrdiff_t pad_top, ptrdiff_t pad_left,
                                 ptrdiff_t output_height, ptrdiff_t output_width, const int16_t *w,
                                 ptrdiff_t tap_stride, const int32_t *tap_sums, int32_t zero_point,
                                 const booth_output_stage *stage, int8_t *out);

/* PAD of an NHWC tensor along H, W and C with the zero point (`element_size` 1 or 2 bytes): the
 * output filled, then each input pixel's values copied to (top + y, left + x, front); when only
 * up to 16 bytes of channels are added after each pixel's, pixel by pixel without the fill.
 * Portable C. */
void booth_pad_channels(const void *input, ptrdiff_t height, ptrdiff_t width, ptrdiff_t channels,
                        ptrdiff_t element_size, ptrdiff_t top, ptrdiff_t left, ptrdiff_t front,
                        ptrdiff_t output_height, ptrdiff_t output_width, ptrdiff_t output_channels,
                        int32_t zero_point, void *output);

/* im2col of int8 activations (`im2col8`): for output pixels first ..< first + count, the K×K×C
 * window of each ([ky][kx][c]), the zero point outside the image, zeros from the depth to
 * `row_stride`. Portable C, small fixed-size copies instead of a memmove call per window row. */
void booth_im2col8(const int8_t *input, ptrdiff_t input_height, ptrdiff_t input_width, ptrdiff_t channels,
                   ptrdiff_t kernel_height, ptrdiff_t kernel_width, ptrdiff_t stride_y, ptrdiff_t stride_x,
                   ptrdiff_t pad_top, ptrdiff_t pad_left, ptrdiff_t output_width, ptrdiff_t first, ptrdiff_t count,
                   ptrdiff_t row_stride, int8_t zero_point, int8_t *a);

/* MARK: glue (neural_glue.c): pooling and MEAN, the code between the kernels.
 * On aarch64 NEON lanes (int8 16, int16 8 channels per step; fewer channels one at a time),
 * elsewhere the scalar loops; the same values everywhere. */

/* A pooling window's geometry (NeuralCore's WindowGeometry), in values of the element type. */
typedef struct {
    ptrdiff_t input_height, input_width, channels;
    ptrdiff_t kernel_height, kernel_width, stride_y, stride_x, pad_top, pad_left;
    ptrdiff_t output_height, output_width;
} booth_pool_geometry;

/* MAX_POOL_2D (`average` 0) or AVERAGE_POOL_2D (1) of an NHWC tensor, bit for bit poolScalar:
 * only in-image taps count, the average rounds half away from zero over the in-image taps, a
 * window without taps gives the type's minimum (max) or 0 (average); then the clamp to
 * [minimum, maximum], which must lie within the element type with minimum ≤ maximum (the Swift
 * wrapper clamps them into it, or keeps its Swift kernel where that would change a value).
 * Input and output must not overlap. */
void booth_pool_s8(const int8_t *input, const booth_pool_geometry *geometry, int average, int32_t minimum,
                   int32_t maximum, int8_t *output);
void booth_pool_s16(const int16_t *input, const booth_pool_geometry *geometry, int average, int32_t minimum,
                    int32_t maximum, int16_t *output);

/* MEAN over `pixels` pixels of `channels` values, bit for bit meanScalar: the wrapping sum of
 * (x − zp_in), MultiplyByQuantizedMultiplier(multiplier, left_shift, right_shift ≤ 31), + zp_out,
 * saturated to the element type. */
void booth_mean_s8(const int8_t *input, ptrdiff_t pixels, ptrdiff_t channels, int32_t zp_in, int32_t multiplier,
                   int32_t left_shift, int32_t right_shift, int32_t zp_out, int8_t *output);
void booth_mean_s16(const int16_t *input, ptrdiff_t pixels, ptrdiff_t channels, int32_t zp_in, int32_t multiplier,
                    int32_t left_shift, int32_t right_shift, int32_t zp_out, int16_t *output);

/* A float island's PRELU with its int8 edges fused (NeuralCore's FloatIsland, neural_glue.c):
 * `pixels` rows of `channels` values, channel c's slope alpha[c]. booth_island_prelu_s8 reads
 * int8 (x = in_scale · (q − in_zp), booth_dequantize_s8's value), booth_island_prelu_f32_s8 float;
 * both compute y = x < 0 ? x · alpha[c] : x (the float path's PRELU) and write
 * clamp(round_half_away(y · out_inverse_scale) + out_zp) as int8 (booth_quantize_s8's value):
 * bit for bit the separate passes, without the float tensors between them. `out` may be `in`
 * (int8) but must not overlap it otherwise. */
void booth_island_prelu_s8(const int8_t *in, float in_scale, int32_t in_zp, const float *alpha, ptrdiff_t pixels,
                           ptrdiff_t channels, float out_inverse_scale, int32_t out_zp, int8_t *out);
void booth_island_prelu_f32_s8(const float *in, const float *alpha, ptrdiff_t pixels, ptrdiff_t channels,
                               float out_inverse_scale, int32_t out_zp, int8_t *out);

/* A float island's last convolution writing its quantised output itself (NeuralCore's
 * FloatIsland; defined beside booth_conv_f32 / booth_depthwise_f32 in neural_kernels.c, whose
 * tiles they share): the same fused multiply-adds and clamp as booth_conv_f32 /
 * booth_depthwise_f32, then in the store y · inverse_scale rounded half away from zero, plus the
 * zero point, saturated (booth_quantize_s16's / booth_quantize_s8's operations lane for lane), as
 * int16 (`bits` 16, zero point 0) or int8 (`bits` 8, zero point in int8) at `out`: bit for bit the
 * float kernel and the quantise pass, without the float tensor between them. Return 0 (nothing
 * written) where the float kernel would, for other bits or zero points, and off aarch64. */
int booth_island_conv_q(const booth_fconv *d, const float *in, const float *w, const float *bias, int bits,
                        float inverse_scale, int32_t zero_point, void *out);
int booth_island_depthwise_q(const booth_fconv *d, const float *in, const float *w, const float *bias, int bits,
                             float inverse_scale, int32_t zero_point, void *out);

/* MARK: dot (neural_dot.c): the int16 GEMM through `sdot` (ARMv8.2 dot product, Cortex-A76).
 * booth_gemm_s16's C[r][n] = Σ_k A[r][k] · W[n][k] with the int16 activations split into a signed
 * high byte h = x >> 8 and a low byte l = (x & 0xFF) − 128 (x = 256·h + l + 128), each summed with
 * `sdot` against the int8 filters, the accumulators of l starting at bias[n] + 128 · row_sums[n]
 * (128 · row_sums[n] for BOOTH_OUT_INT32), then low + 256 · high: the same int32 in wrapping
 * arithmetic, so the same output bits as booth_gemm_s16. `a`: `rows` rows, `a_stride` int16 apart,
 * `depth` read from each; `w`: booth_gemm_s8_dot's packing ([block of 16][k16 / 4][16 channels][4],
 * k16 the depth rounded up to 16, zero past the depth and past `channels`); `row_sums`: Σ_k W[n][k]
 * padded to a multiple of 16 channels; stage, output and kinds as booth_gemm_s16. The split rows
 * are kept in a 16 KB stack panel (two rows at least), or, where that executes fewer instructions
 * (few 16-channel blocks), split in registers by each tile; then every row but the last may be
 * read up to the depth rounded up to 16 when that stays within the next row's `depth` values
 * (those meet zero filters). Depths above 4096 are refused: returns 0
 * (nothing written), else 1. On aarch64 only on a CPU with asimddp (booth_cpu_has_dotprod());
 * elsewhere a portable C version of the same arithmetic (with the scalar output stage). */
int booth_gemm_s16_dot(const int16_t *a, ptrdiff_t rows, ptrdiff_t a_stride, ptrdiff_t depth, const int8_t *w,
                       ptrdiff_t channels, const int32_t *row_sums, const booth_output_stage *stage, void *out,
                       ptrdiff_t out_stride, int out_kind);

#ifdef __cplusplus
}
#endif

#endif
