/// x86-64 with AVX2: the integer ADD (`ElementwiseParams`' scaled form) and PRELU in C
/// (`booth_x86_add_s8`/`_s16`, `booth_x86_prelu_s8`, CNeuralKernels' neural_kernels_x86.c):
/// sixteen elements per step in two ymm registers of int32 lanes, narrowed with the saturating
/// packs (the values are clamped to the element type first, or, for PRELU, the packs are the
/// clamp to −128...127). `elementwiseSIMD` / `preluSIMD` keep SIMD16<Int32> lanes, which Swift
/// splits and rejoins per step on AVX2 (perf: 9 % and 6 % of the mesh's run). The arithmetic is
/// the references', wrapping, so the same bytes (conformance `nn.elementwise*`, `nn.prelu`,
/// variant avx2). MUL, TFLite's three-multiplier ADD and builds without AVX2: the Swift kernels.

import CNeuralKernels

public func elementwiseX86<E: QuantizedActivation>(
    _ a: UnsafePointer<E>, _ b: UnsafePointer<E>, _ count: Int, _ period: Int,
    _ params: ElementwiseParams, _ output: UnsafeMutablePointer<E>
) {
#if arch(x86_64)
    precondition(period > 0 && count % period == 0)
    guard params.operation == .add && params.scaledAdd else {
        elementwiseSIMD(a, b, count, period, params, output)
        return
    }
    let m = params.outputMultiplier
    var p = booth_elementwise(
        zero_point1: params.zeroPoint1, zero_point2: params.zeroPoint2, output_zero_point: params.outputZeroPoint,
        minimum: params.minimum, maximum: params.maximum, scale1: params.scale1, scale2: params.scale2,
        round: params.scaleShift > 0 ? 1 &<< (params.scaleShift &- 1) : 0, shift: params.scaleShift,
        multiplier: m.multiplier, left_shift: m.leftShift, right_shift: m.rightShift, mul: 0)
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
