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

#ifdef __cplusplus
}
#endif

#endif
