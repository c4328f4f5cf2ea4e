import CNeuralKernels

// Boundary conversions: float32 model inputs to quantised activations and back.

public typealias QuantizeKernel<E: QuantizedActivation> = @Sendable (
    _ input: UnsafePointer<Float>, _ count: Int, _ params: QuantParams, _ output: UnsafeMutablePointer<E>
) -> Void

public typealias DequantizeKernel<E: QuantizedActivation> = @Sendable (
    _ input: UnsafePointer<E>, _ count: Int, _ params: QuantParams, _ output: UnsafeMutablePointer<Float>
) -> Void

/// `clamp(round(x / scale) + zp)` as `E`, rounding half away from zero: the reference.
public func quantizeScalar<E: QuantizedActivation>(
    _ src: UnsafePointer<Float>, _ count: Int, _ p: QuantParams, _ dst: UnsafeMutablePointer<E>
) {
    let inv = 1 / p.scale, zp = Float(p.zeroPoint)
    let lo = Float(E.min), hi = Float(E.max)
    for i in 0..<count {
        let v = (src[i] * inv).rounded() + zp
        dst[i] = E(truncatingIfNeeded: Int32(v < lo ? lo : (v > hi ? hi : v)))
    }
}

/// `scale · (q − zp)`: the reference.
public func dequantizeScalar<E: QuantizedActivation>(
    _ src: UnsafePointer<E>, _ count: Int, _ p: QuantParams, _ dst: UnsafeMutablePointer<Float>
) {
    for i in 0..<count { dst[i] = p.scale * Float(Int32(truncatingIfNeeded: src[i]) - p.zeroPoint) }
}

/// aarch64: `quantizeScalar`'s float operations in the same order on four lanes (`frinta`,
/// `fcvtzs`), eight values per step (CNeuralKernels).
public func quantizeNEON<E: QuantizedActivation>(
    _ src: UnsafePointer<Float>, _ count: Int, _ p: QuantParams, _ dst: UnsafeMutablePointer<E>
) {
    let raw = UnsafeMutableRawPointer(dst)
    if E.bitWidth == 8 {
        booth_quantize_s8(src, count, 1 / p.scale, Float(p.zeroPoint), raw.assumingMemoryBound(to: Int8.self))
    } else {
        booth_quantize_s16(src, count, 1 / p.scale, Float(p.zeroPoint), raw.assumingMemoryBound(to: Int16.self))
    }
}

/// aarch64: `dequantizeScalar` eight values per step (CNeuralKernels).
public func dequantizeNEON<E: QuantizedActivation>(
    _ src: UnsafePointer<E>, _ count: Int, _ p: QuantParams, _ dst: UnsafeMutablePointer<Float>
) {
    let raw = UnsafeRawPointer(src)
    if E.bitWidth == 8 {
        booth_dequantize_s8(raw.assumingMemoryBound(to: Int8.self), count, p.scale, p.zeroPoint, dst)
    } else {
        booth_dequantize_s16(raw.assumingMemoryBound(to: Int16.self), count, p.scale, p.zeroPoint, dst)
    }
}

/// A float island's PRELU with its int8 output quantised in the same pass (`FloatIsland`): `pixels`
/// rows of `channels` values, channel `c`'s slope `alpha[c]`, `y = x < 0 ? x · alpha[c] : x` (the
/// float path's PRELU) written as `quantizeScalar` would write it at `output`. `quantized` reads
/// int8 at `inputParams` (the value `dequantizeScalar` gives), `float` reads float32: bit for bit
/// the island's separate passes without the float tensors between them. A set without one
/// (`IntegerKernelSetOf.islandPReLU` nil) runs the passes.
public struct IslandPReLUKernel: Sendable {
    public let quantized: @Sendable (_ input: UnsafePointer<Int8>, _ inputParams: QuantParams, _ alpha: UnsafePointer<Float>,
                                     _ pixels: Int, _ channels: Int, _ output: QuantParams, _ out: UnsafeMutablePointer<Int8>) -> Void
    public let float: @Sendable (_ input: UnsafePointer<Float>, _ alpha: UnsafePointer<Float>, _ pixels: Int, _ channels: Int,
                                 _ output: QuantParams, _ out: UnsafeMutablePointer<Int8>) -> Void

    public init(quantized: @escaping @Sendable (UnsafePointer<Int8>, QuantParams, UnsafePointer<Float>, Int, Int, QuantParams,
                                                UnsafeMutablePointer<Int8>) -> Void,
                float: @escaping @Sendable (UnsafePointer<Float>, UnsafePointer<Float>, Int, Int, QuantParams,
                                            UnsafeMutablePointer<Int8>) -> Void) {
        self.quantized = quantized
        self.float = float
    }

    /// The C kernels of neural_glue.c (`booth_island_prelu_s8` / `_f32_s8`): NEON on aarch64,
    /// sixteen channels per step (then eight, then one at a time); the scalar loop elsewhere.
    public static let c = IslandPReLUKernel(
        quantized: { input, pin, alpha, pixels, channels, pout, out in
            booth_island_prelu_s8(input, pin.scale, pin.zeroPoint, alpha, pixels, channels, 1 / pout.scale, pout.zeroPoint, out)
        },
        float: { input, alpha, pixels, channels, pout, out in
            booth_island_prelu_f32_s8(input, alpha, pixels, channels, 1 / pout.scale, pout.zeroPoint, out)
        })

    /// The reference: the island's passes one value at a time (`dequantizeScalar`'s value, the
    /// PRELU, `quantizeScalar`'s rounding and clamp).
    public static let reference = IslandPReLUKernel(
        quantized: { input, pin, alpha, pixels, channels, pout, out in
            for i in 0..<(pixels * channels) {
                let x = pin.scale * Float(Int32(input[i]) - pin.zeroPoint)
                out[i] = islandQuantize(x < 0 ? x * alpha[i % channels] : x, pout)
            }
        },
        float: { input, alpha, pixels, channels, pout, out in
            for i in 0..<(pixels * channels) {
                let x = input[i]
                out[i] = islandQuantize(x < 0 ? x * alpha[i % channels] : x, pout)
            }
        })
}

/// `quantizeScalar` of one value.
@inline(__always)
func islandQuantize(_ y: Float, _ p: QuantParams) -> Int8 {
    let v = (y * (1 / p.scale)).rounded() + Float(p.zeroPoint)
    return Int8(truncatingIfNeeded: Int32(v < -128 ? -128 : (v > 127 ? 127 : v)))
}

/// A float island's last convolution (CONV_2D, or DEPTHWISE_CONV_2D with one output per input
/// channel) writing its quantised output itself (`FloatIsland`): the float path's fused
/// multiply-adds and clamp, then `quantizeScalar`'s rounding, zero point and clamp in the store,
/// as `bits` (16: `Int16`, 8: `Int8`) at `output`'s parameters into `out`; bit for bit the float
/// convolution and the island's quantise pass without the float tensor between them. Returns
/// false, having written nothing, where it does not take the shape (the island then runs the two
/// passes). A set without one (`IntegerKernelSetOf.islandConv` nil) runs the passes.
public struct IslandConvKernel: Sendable {
    public let run: @Sendable (_ depthwise: Bool, _ shape: UnsafePointer<booth_fconv>, _ input: UnsafePointer<Float>,
                               _ weights: UnsafePointer<Float>, _ bias: UnsafePointer<Float>, _ bits: Int,
                               _ output: QuantParams, _ out: UnsafeMutableRawPointer) -> Bool

    public init(run: @escaping @Sendable (Bool, UnsafePointer<booth_fconv>, UnsafePointer<Float>, UnsafePointer<Float>,
                                          UnsafePointer<Float>, Int, QuantParams, UnsafeMutableRawPointer) -> Bool) {
        self.run = run
    }

    /// The C kernels (`booth_island_conv_q`, `booth_island_depthwise_q`, beside the float
    /// convolutions in neural_kernels.c): aarch64, int16 with zero point 0 or int8; false elsewhere.
    public static let c = IslandConvKernel { depthwise, shape, input, weights, bias, bits, output, out in
        depthwise
            ? booth_island_depthwise_q(shape, input, weights, bias, Int32(bits), 1 / output.scale, output.zeroPoint, out) != 0
            : booth_island_conv_q(shape, input, weights, bias, Int32(bits), 1 / output.scale, output.zeroPoint, out) != 0
    }
}
