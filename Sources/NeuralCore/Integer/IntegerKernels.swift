/// The integer kernels, one entry per variant, in one table that the interpreter, the tests and
/// the benchmarks all iterate. Variants share a signature and must produce identical bytes.
/// `E` is the activation type: `Int8`, or `Int16` for the int16-activation path (PRELU has an
/// int8 form only; the int16 path refuses models that use it).
public struct IntegerKernelSetOf<E: QuantizedActivation>: Sendable {
    public var name: StaticString
    public var gemm: GEMMKernel
    public var depthwise: DepthwiseKernel<E>
    public let elementwise: ElementwiseKernel<E>
    public let requantize: RequantizeKernel<E>
    public let pool: PoolKernel<E>
    public let mean: MeanKernel<E>
    public let lookup: LookupKernel<E>
    public let prelu: PReLUKernel
    public let resize: ResizeKernel<E>
    /// Float32 model inputs to `E`, and `E` to float32 outputs.
    public let quantize: QuantizeKernel<E>
    public let dequantize: DequantizeKernel<E>
    /// CONV_2D on int8 activations as they are (`conv2D8`), where the set has such a GEMM
    /// (aarch64); nil: `gemm` on `A − zeroPoint` rows.
    public var gemm8: GEMM8Kernel? = nil
    /// LOGISTIC with a float output (`IntegerStep.logisticFloat`).
    public var logistic: FloatLogisticKernel = logisticScalar
    /// The loop of a mixed-width program's int8 ↔ int16 conversions (`WidthConversion`) with this
    /// set (the scalar reference runs them one at a time whatever this says).
    public var widthConversion: WidthConversion.Variant = .simd
    /// A float island's PRELU fused with its int8 edges (`FloatIsland`, neural_glue.c); nil: the
    /// island runs its dequantise, float PRELU and quantise passes (the reference, and x86).
    public var islandPReLU: IslandPReLUKernel? = nil
    /// A float island's last convolution writing its quantised output (`FloatIsland`,
    /// `IslandConvKernel`); nil: the island runs the float convolution and the quantise pass.
    public var islandConv: IslandConvKernel? = nil
    /// An int8 ADD and the PRELU reading it in one pass (`IntegerStep.addPReLU`); nil: the set's
    /// `elementwise` then its `prelu` in place.
    public var addPReLU: AddPReLUKernel? = nil
}

/// The int8 kernel table.
public typealias IntegerKernelSet = IntegerKernelSetOf<Int8>

public enum IntegerKernels {
    /// Plain scalar loops: the reference.
    public static let scalar = IntegerKernelSet(
        name: "scalar", gemm: gemmScalar, depthwise: depthwiseScalar,
        elementwise: elementwiseScalar, requantize: requantizeScalar, pool: poolScalar,
        mean: meanScalar, lookup: lookupScalar, prelu: preluScalar, resize: resizeBilinearScalar,
        quantize: quantizeScalar, dequantize: dequantizeScalar, widthConversion: .scalar, addPReLU: addPReLUScalar)

    /// Swift `SIMD` vectors (SSE/AVX2/AVX-512 on x86, NEON on aarch64).
    public static let simd = IntegerKernelSet(
        name: "simd", gemm: gemmSIMD, depthwise: depthwiseSIMD, elementwise: elementwiseSIMD,
        requantize: requantizeSIMD, pool: poolSIMD, mean: meanSIMD, lookup: lookupUnrolled,
        prelu: preluSIMD, resize: resizeBilinearSIMD,
        quantize: quantizeScalar, dequantize: dequantizeScalar)

    /// aarch64: the SIMD set with the C NEON kernels where they exist (`gemmNEON`, `gemm8MLAL`,
    /// `depthwiseNEON`, `elementwiseNEON`, `requantizeNEON`, `lookupNEON`, `preluNEON`, `addPReLUNEON`,
    /// `resizeBilinearNEON`, `quantizeNEON`, `dequantizeNEON`, `logisticNEON`, the width
    /// conversions `WidthConversion.neon`; CNeuralKernels) and the pooling, MEAN and float
    /// islands' PRELU edges of neural_glue.c (`poolNEON`, `meanNEON`, `IslandPReLUKernel.c`), and
    /// the islands' last convolutions writing their quantised outputs (`IslandConvKernel.c`).
    public static let neon = IntegerKernelSet(
        name: "neon", gemm: gemmNEON, depthwise: depthwiseNEON, elementwise: elementwiseNEON,
        requantize: requantizeNEON, pool: poolNEON, mean: meanNEON, lookup: lookupNEON,
        prelu: preluNEON, resize: resizeBilinearNEON,
        quantize: quantizeNEON, dequantize: dequantizeNEON, gemm8: gemm8MLAL, logistic: logisticNEON,
        widthConversion: .neon, islandPReLU: .c, islandConv: .c, addPReLU: addPReLUNEON)

    /// aarch64 with the dot-product extension (Cortex-A76): `neon` with `gemm8Dot`, the int16
    /// GEMM through `sdot` (`gemmNEONDot`) and the int8 3×3 depthwise layers through `sdot`
    /// (`depthwiseNEONDot`).
    public static let neonDot: IntegerKernelSet = {
        var set = neon
        set.name = "neon-dot"
        set.gemm8 = gemm8Dot
        set.gemm = gemmNEONDot
        set.depthwise = depthwiseNEONDot
        return set
    }()

    /// x86-64 with AVX2 (a haswell or newer build): the SIMD set with the C int16 GEMM,
    /// depthwise layer, ADD and MUL, PRELU, HARD_SWISH and boundary conversions (`gemmX86`,
    /// `depthwiseX86`, `elementwiseX86`, `preluX86`, `lookupX86`, `quantizeX86`, `dequantizeX86`;
    /// CNeuralKernels' neural_kernels_x86.c).
    public static let avx2 = IntegerKernelSet(
        name: "avx2", gemm: gemmX86, depthwise: depthwiseX86, elementwise: elementwiseX86,
        requantize: requantizeSIMD, pool: poolSIMD, mean: meanSIMD, lookup: lookupX86,
        prelu: preluX86, resize: resizeBilinearSIMD,
        quantize: quantizeX86, dequantize: dequantizeX86, addPReLU: addPReLUX86)

    /// x86-64 whose CPU has AVX-512 VNNI (`CPUFeatures.avx512vnni`, probed at run time). In a
    /// build for an AVX-512 target (`BOOTH_AVX512`, as native on such a CPU) the Swift SIMD kernels,
    /// 512-bit there and faster than the C AVX2 ones, with the C boundary conversions, lookups and
    /// fused ADD + PRELU; in other builds (haswell) `avx2` with the int16 GEMM's zmm `vpdpwssd`
    /// kernel (`gemmX86VNNI`), which runs whatever the build's target.
    public static let avx512: IntegerKernelSet = {
#if BOOTH_AVX512
        return IntegerKernelSet(
            name: "avx512", gemm: gemmSIMD, depthwise: depthwiseSIMD, elementwise: elementwiseSIMD,
            requantize: requantizeSIMD, pool: poolSIMD, mean: meanSIMD, lookup: lookupX86,
            prelu: preluSIMD, resize: resizeBilinearSIMD,
            quantize: quantizeX86, dequantize: dequantizeX86, addPReLU: addPReLUX86)
#else
        var set = avx2
        set.name = "avx512"
        set.gemm = gemmX86VNNI
        return set
#endif
    }()

    /// Every variant this CPU can run; the first is the reference.
    public static let all: [IntegerKernelSet] = sets(for: .current)

    /// The variants `features` can run, the reference first and the fastest last.
    public static func sets(for features: CPUFeatures) -> [IntegerKernelSet] {
#if arch(x86_64)
        if features.avx2 { return features.avx512vnni ? [scalar, simd, avx2, avx512] : [scalar, simd, avx2] }
#endif
        if !features.neon { return [scalar, simd] }
        return features.dotProduct ? [scalar, simd, neon, neonDot] : [scalar, simd, neon]
    }

    /// The fastest set for `features`.
    public static func best(for features: CPUFeatures) -> IntegerKernelSet {
#if arch(x86_64)
        if features.avx2 { return features.avx512vnni ? avx512 : avx2 }
#endif
        return features.neon ? (features.dotProduct ? neonDot : neon) : simd
    }

    /// The same kernels specialised for int16 activations.
    public static let scalar16 = IntegerKernelSetOf<Int16>(
        name: "scalar16", gemm: gemmScalar, depthwise: depthwiseScalar,
        elementwise: elementwiseScalar, requantize: requantizeScalar, pool: poolScalar,
        mean: meanScalar, lookup: lookupScalar, prelu: preluScalar, resize: resizeBilinearScalar,
        quantize: quantizeScalar, dequantize: dequantizeScalar)

    public static let simd16 = IntegerKernelSetOf<Int16>(
        name: "simd16", gemm: gemmSIMD, depthwise: depthwiseSIMD, elementwise: elementwiseSIMD,
        requantize: requantizeSIMD, pool: poolSIMD, mean: meanSIMD, lookup: lookupUnrolled,
        prelu: preluSIMD, resize: resizeBilinearSIMD,
        quantize: quantizeScalar, dequantize: dequantizeScalar)

    public static let neon16 = IntegerKernelSetOf<Int16>(
        name: "neon16", gemm: gemmNEON, depthwise: depthwiseNEON, elementwise: elementwiseNEON,
        requantize: requantizeSIMD, pool: poolNEON, mean: meanNEON, lookup: lookupNEON,
        prelu: preluNEON, resize: resizeBilinearNEON,
        quantize: quantizeNEON, dequantize: dequantizeNEON, logistic: logisticNEON)

    /// aarch64 with the dot-product extension (Cortex-A76): `neon16` with `gemmNEONDot`.
    public static let neonDot16: IntegerKernelSetOf<Int16> = {
        var set = neon16
        set.name = "neon-dot16"
        set.gemm = gemmNEONDot
        return set
    }()

    public static let avx2_16 = IntegerKernelSetOf<Int16>(
        name: "avx2_16", gemm: gemmX86, depthwise: depthwiseX86, elementwise: elementwiseX86,
        requantize: requantizeSIMD, pool: poolSIMD, mean: meanSIMD, lookup: lookupX86,
        prelu: preluX86, resize: resizeBilinearSIMD,
        quantize: quantizeX86, dequantize: dequantizeX86)

    public static let avx512_16: IntegerKernelSetOf<Int16> = {
#if BOOTH_AVX512
        return IntegerKernelSetOf<Int16>(
            name: "avx512_16", gemm: gemmSIMD, depthwise: depthwiseSIMD, elementwise: elementwiseSIMD,
            requantize: requantizeSIMD, pool: poolSIMD, mean: meanSIMD, lookup: lookupX86,
            prelu: preluSIMD, resize: resizeBilinearSIMD,
            quantize: quantizeX86, dequantize: dequantizeX86)
#else
        var set = avx2_16
        set.name = "avx512_16"
        set.gemm = gemmX86VNNI
        return set
#endif
    }()

    /// Every int16 variant this CPU can run; the first is the reference.
    public static let all16: [IntegerKernelSetOf<Int16>] = sets16(for: .current)

    public static func sets16(for features: CPUFeatures) -> [IntegerKernelSetOf<Int16>] {
#if arch(x86_64)
        if features.avx2 { return features.avx512vnni ? [scalar16, simd16, avx2_16, avx512_16] : [scalar16, simd16, avx2_16] }
#endif
        if !features.neon { return [scalar16, simd16] }
        return features.dotProduct ? [scalar16, simd16, neon16, neonDot16] : [scalar16, simd16, neon16]
    }

    public static func best16(for features: CPUFeatures) -> IntegerKernelSetOf<Int16> {
#if arch(x86_64)
        if features.avx2 { return features.avx512vnni ? avx512_16 : avx2_16 }
#endif
        return features.neon ? (features.dotProduct ? neonDot16 : neon16) : simd16
    }
}
