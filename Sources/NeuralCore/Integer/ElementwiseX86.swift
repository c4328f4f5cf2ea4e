/// x86-64 with AVX2: the integer ADD (`ElementwiseParams`' scaled form), MUL and PRELU in C
/// (`booth_x86_add_s8`/`_s16`, `booth_x86_prelu_s8`, CNeuralKernels' neural_kernels_x86.c):
/// sixteen elements per step in two ymm registers of int32 lanes, narrowed with the saturating
/// packs (the values are clamped to the element type first, or, for PRELU, the packs are the
/// clamp to −128...127). `elementwiseSIMD` / `preluSIMD` keep SIMD16<Int32> lanes, which Swift
/// splits and rejoins per step on AVX2 (perf: 9 % and 6 % of the mesh's run). The arithmetic is
/// the references', wrapping, so the same bytes (conformance `nn.elementwise*`, `nn.prelu`,
/// variant avx2). MUL requantises its products with the GEMM's output stage (`requantize_raw8`,
/// exact for shifts in 0...31; since session 13: `MulLanes` was 7 % of the landscape model's
/// run). TFLite's three-multiplier ADD, MUL shifts outside 0...31 and builds without AVX2: the
/// Swift kernels.

import CNeuralKernels

public func elementwiseX86<E: QuantizedActivation>(
    _ a: UnsafePointer<E>, _ b: UnsafePointer<E>, _ count: Int, _ period: Int,
    _ params: ElementwiseParams, _ output: UnsafeMutablePointer<E>
) {
#if arch(x86_64)
    precondition(period > 0 && count % period == 0)
    let m = params.outputMultiplier
    let mulApplies = params.operation == .mul && (0...31).contains(m.leftShift) && (0...31).contains(m.rightShift)
        && m.multiplier != Int32.min
    guard (params.operation == .add && params.scaledAdd) || mulApplies else {
        elementwiseSIMD(a, b, count, period, params, output)
        return
    }
    var p = params.kernelParams
    let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b), ro = UnsafeMutableRawPointer(output)
    let done = E.bitWidth == 8
        ? booth_x86_add_s8(ra.assumingMemoryBound(to: Int8.self), rb.assumingMemoryBound(to: Int8.self), count, period,
                           &p, ro.assumingMemoryBound(to: Int8.self))
        : booth_x86_add_s16(ra.assumingMemoryBound(to: Int16.self), rb.assumingMemoryBound(to: Int16.self), count, period,
                            &p, ro.assumingMemoryBound(to: Int16.self))
    if done == 0 { elementwiseSIMD(a, b, count, period, params, output) }
#else
    elementwiseSIMD(a, b, count, period, params, output)
#endif
}

public func preluX86(
    _ input: UnsafePointer<Int8>, _ pixels: Int, _ params: PReLUParams,
    _ output: UnsafeMutablePointer<Int8>
) {
#if arch(x86_64)
    if booth_x86_prelu_s8(input, pixels, params.channels, params.inputZeroPoint, params.outputZeroPoint, params.positive,
                          params.negative, params.shift, output) == 0 {
        preluSIMD(input, pixels, params, output)
    }
#else
    preluSIMD(input, pixels, params, output)
#endif
}

/// x86-64 with AVX2: `lookupUnrolled` with HARD_SWISH's float lanes in C
/// (`booth_x86_hard_swish_s8`/`_s16`: `hardSwishVector`'s operations in the same order, eight
/// lanes per ymm, where Swift's SIMD16 lanes were filled and emptied one at a time; 5 % of the
/// landscape model's run in perf). The values after the last 16 and every other table:
/// `lookupUnrolled`.
public func lookupX86<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ count: Int, _ table: LookupTable,
    _ output: UnsafeMutablePointer<E>
) {
#if arch(x86_64)
    guard let (qin, qout) = table.hardSwishParameters else {
        lookupUnrolled(input, count, table, output)
        return
    }
    let src = UnsafeRawPointer(input), dst = UnsafeMutableRawPointer(output)
    let done = E.bitWidth == 8
        ? booth_x86_hard_swish_s8(src.assumingMemoryBound(to: Int8.self), count, qin.scale, qin.zeroPoint, qout.scale,
                                  qout.zeroPoint, dst.assumingMemoryBound(to: Int8.self))
        : booth_x86_hard_swish_s16(src.assumingMemoryBound(to: Int16.self), count, qin.scale, qin.zeroPoint, qout.scale,
                                   qout.zeroPoint, dst.assumingMemoryBound(to: Int16.self))
    if done < count { lookupUnrolled(input + done, count - done, table, output + done) }
#else
    lookupUnrolled(input, count, table, output)
#endif
}
