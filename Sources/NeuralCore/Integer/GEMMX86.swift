/// x86-64 with AVX2: the int16 GEMM in C (`booth_x86_gemm_s16`, CNeuralKernels'
/// neural_kernels_x86.c) on `PackedGEMMWeights.data`, the packing `gemmSIMD` reads. Without
/// AVX-512 (`BOOTH_AVX512`) `gemmBlock` keeps 4-row tiles (8 of AVX2's 16 ymm registers as
/// accumulators) and its output stage spills its constants to the stack; the C kernel keeps
/// 6 rows × 16 channels (12 accumulators) and requantises each row with the constants of its
/// block loaded once. Same arithmetic as `StageRegisters` (exact for its range, `fusedExact`), so
/// the same bytes as `gemmScalar`; outside that range, or where the C target was built without
/// AVX2, `gemmSIMD`.

import CNeuralKernels

public func gemmX86(
    _ a: UnsafePointer<Int16>, _ rows: Int, _ weights: PackedGEMMWeights, _ output: GEMMOutput
) {
#if arch(x86_64)
    gemmThroughC(a, rows, weights, output, booth_x86_gemm_s16)
#else
    // The aarch64 CMake build links neural_kernels.c alone; the avx2 sets are never chosen there.
    gemmSIMD(a, rows, weights, output)
#endif
}

#if arch(x86_64)
/// One of the C int16 GEMMs (`booth_x86_gemm_s16`'s signature) where its output stage is exact
/// (`fusedExact`) and it runs (it returns 0 without its instruction set); otherwise `gemmSIMD`.
private func gemmThroughC(
    _ a: UnsafePointer<Int16>, _ rows: Int, _ weights: PackedGEMMWeights, _ output: GEMMOutput,
    _ kernel: @convention(c) (UnsafePointer<Int16>?, Int, Int, UnsafePointer<Int16>?, Int,
                              UnsafePointer<booth_output_stage>?, UnsafeMutableRawPointer?, Int, Int32) -> Int32
) {
    switch output {
    case .int8(_, _, let stage), .int16(_, _, let stage):
        guard stage.fusedExact else { gemmSIMD(a, rows, weights, output); return }
    case .int32: break
    }
    var done = false
    withNEONOutput(output) { stage, out, stride, kind in
        done = kernel(a, rows, weights.depthStride, weights.data, weights.outputChannels, stage, out, stride, kind) != 0
    }
    if !done { gemmSIMD(a, rows, weights, output) }
}
#endif

/// `gemmX86` through AVX-512 VNNI (`booth_x86_gemm_s16_vnni`: one zmm `vpdpwssd` per row and
/// k-pair, 12-row tiles, the same output stage and bytes), on CPUs that have it whatever the
/// build's target (`CPUFeatures.avx512vnni`); without it, or outside the stage's exact range,
/// `gemmSIMD`.
public func gemmX86VNNI(
    _ a: UnsafePointer<Int16>, _ rows: Int, _ weights: PackedGEMMWeights, _ output: GEMMOutput
) {
#if arch(x86_64)
    gemmThroughC(a, rows, weights, output, booth_x86_gemm_s16_vnni)
#else
    gemmSIMD(a, rows, weights, output)
#endif
}
