import CNeuralKernels

/// MAX_POOL_2D and AVERAGE_POOL_2D (input and output share their quantisation, as TFLite
/// requires for int8 pooling) and MEAN over H and W (requantised).
/// Only in-image taps count: SAME padding never pools padding values, and the average divides
/// by the number of in-image taps, rounding half away from zero.

public struct PoolParams: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case max, average }
    public var kind: Kind
    /// Fused activation bounds in quantised units.
    public var minimum: Int32, maximum: Int32

    public init(_ kind: Kind, minimum: Int32 = -128, maximum: Int32 = 127) {
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
    }
}

public typealias PoolKernel<E: QuantizedActivation> = @Sendable (
    _ input: UnsafePointer<E>, _ geometry: WindowGeometry, _ params: PoolParams,
    _ output: UnsafeMutablePointer<E>
) -> Void

@inline(__always)
func roundedAverage(_ sum: Int32, _ count: Int32) -> Int32 {
    sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count
}

public func poolScalar<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ params: PoolParams,
    _ output: UnsafeMutablePointer<E>
) {
    let c = g.channels
    for oy in 0..<g.outputHeight {
        let (ky0, ky1) = tapRange(oy, stride: g.strideY, pad: g.padTop, kernel: g.kernelHeight,
                                  size: g.inputHeight)
        for ox in 0..<g.outputWidth {
            let (kx0, kx1) = tapRange(ox, stride: g.strideX, pad: g.padLeft,
                                      kernel: g.kernelWidth, size: g.inputWidth)
            let taps = Int32(max(0, ky1 - ky0) * max(0, kx1 - kx0))
            for ch in 0..<c {
                var m = Int32(E.min), s: Int32 = 0
                for ky in ky0..<max(ky0, ky1) {
                    for kx in kx0..<max(kx0, kx1) {
                        let iy = oy * g.strideY - g.padTop + ky
                        let ix = ox * g.strideX - g.padLeft + kx
                        let x = Int32(truncatingIfNeeded: input[(iy * g.inputWidth + ix) * c + ch])
                        m = max(m, x)
                        s += x
                    }
                }
                let v = params.kind == .max ? m : (taps > 0 ? roundedAverage(s, taps) : 0)
                output[(oy * g.outputWidth + ox) * c + ch] =
                    E(truncatingIfNeeded: clamp32(v, params.minimum, params.maximum))
            }
        }
    }
}

/// MAX_POOL_2D with at least 16 channels, 16 channels per step: a maximum only (no sums).
@inline(never)
func poolMaxSIMD<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ params: PoolParams,
    _ output: UnsafeMutablePointer<E>
) {
    typealias V = SIMD16<Int32>
    let c = g.channels
    let lo = V(repeating: params.minimum), hi = V(repeating: params.maximum)
    for oy in 0..<g.outputHeight {
        let (ky0, ky1) = tapRange(oy, stride: g.strideY, pad: g.padTop, kernel: g.kernelHeight,
                                  size: g.inputHeight)
        let iy0 = oy * g.strideY - g.padTop
        for ox in 0..<g.outputWidth {
            let (kx0, kx1) = tapRange(ox, stride: g.strideX, pad: g.padLeft,
                                      kernel: g.kernelWidth, size: g.inputWidth)
            let ix0 = ox * g.strideX - g.padLeft
            let dst = output + (oy * g.outputWidth + ox) * c
            // 16 channels per step; a last partial group is the last 16 channels again (the
            // overlap is recomputed to the same values: input and output never alias).
            var ch = 0
            while ch < c {
                if ch > c - 16 { ch = c - 16 }
                var m = V(repeating: Int32(E.min))
                for ky in ky0..<max(ky0, ky1) {
                    let row = input + ((iy0 + ky) * g.inputWidth + ix0) * c + ch
                    for kx in kx0..<max(kx0, kx1) {
                        let x = load16(row + kx * c)
                        m = m.replacing(with: x, where: x .> m)
                    }
                }
                m = m.replacing(with: lo, where: m .< lo)
                m = m.replacing(with: hi, where: m .> hi)
                store16(m, dst + ch)
                ch += 16
            }
        }
    }
}

/// Eight channels per step (MAX_POOL_2D: `poolMaxSIMD`, 16 per step).
public func poolSIMD<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ params: PoolParams,
    _ output: UnsafeMutablePointer<E>
) {
    if params.kind == .max && g.channels >= 16 {
        poolMaxSIMD(input, g, params, output)
        return
    }
    let c = g.channels
    let full = c / 8 * 8
    let lo = I32x8(repeating: params.minimum), hi = I32x8(repeating: params.maximum)
    for oy in 0..<g.outputHeight {
        let (ky0, ky1) = tapRange(oy, stride: g.strideY, pad: g.padTop, kernel: g.kernelHeight,
                                  size: g.inputHeight)
        let iy0 = oy * g.strideY - g.padTop
        for ox in 0..<g.outputWidth {
            let (kx0, kx1) = tapRange(ox, stride: g.strideX, pad: g.padLeft,
                                      kernel: g.kernelWidth, size: g.inputWidth)
            let ix0 = ox * g.strideX - g.padLeft
            let taps = Int32(max(0, ky1 - ky0) * max(0, kx1 - kx0))
            let dst = output + (oy * g.outputWidth + ox) * c
            var ch = 0
            while ch < full {
                var m = I32x8(repeating: Int32(E.min)), s = I32x8()
                for ky in ky0..<max(ky0, ky1) {
                    for kx in kx0..<max(kx0, kx1) {
                        let x = load8(input + ((iy0 + ky) * g.inputWidth + ix0 + kx) * c + ch)
                        m = vmax(m, x)
                        s &+= x
                    }
                }
                var v: I32x8
                if params.kind == .max {
                    v = m
                } else if taps > 0 {
                    // Rounded division, lane by lane: the same integer formula as the scalar path.
                    v = I32x8()
                    for i in 0..<8 { v[i] = roundedAverage(s[i], taps) }
                } else {
                    v = I32x8()
                }
                store8(vmin(vmax(v, lo), hi), dst + ch)
                ch += 8
            }
            while ch < c {
                var m = Int32(E.min), s: Int32 = 0
                for ky in ky0..<max(ky0, ky1) {
                    for kx in kx0..<max(kx0, kx1) {
                        let x = Int32(input[((iy0 + ky) * g.inputWidth + ix0 + kx) * c + ch])
                        m = max(m, x)
                        s += x
                    }
                }
                let v = params.kind == .max ? m : (taps > 0 ? roundedAverage(s, taps) : 0)
                dst[ch] = E(truncatingIfNeeded: clamp32(v, params.minimum, params.maximum))
                ch += 1
            }
        }
    }
}

/// aarch64: MAX_POOL_2D and AVERAGE_POOL_2D in C (`booth_pool_s8` / `_s16`, neural_glue.c): int8
/// 16 and int16 8 channels per NEON step, a 2×2 window as four loads and three `smax`, an average's
/// sums widened into int32 lanes (`saddw`) and divided lane by lane as `poolScalar` does; fewer
/// channels than one step go through the C loop of `poolScalar`. The same values as `poolScalar`.
/// Bounds the C kernel cannot take as they are (minimum above maximum, or one outside `E` where
/// the clamp would not be the reference's) keep `poolSIMD`.
public func poolNEON<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, _ params: PoolParams,
    _ output: UnsafeMutablePointer<E>
) {
    let eMin = Int32(E.min), eMax = Int32(E.max)
    guard params.minimum <= params.maximum, params.minimum <= eMax, params.maximum >= eMin else {
        poolSIMD(input, g, params, output)
        return
    }
    // Within `E` and minimum ≤ maximum, clamping the bounds into `E` first changes no value.
    let lo = max(params.minimum, eMin), hi = min(params.maximum, eMax)
    var shape = booth_pool_geometry(
        input_height: g.inputHeight, input_width: g.inputWidth, channels: g.channels,
        kernel_height: g.kernelHeight, kernel_width: g.kernelWidth, stride_y: g.strideY, stride_x: g.strideX,
        pad_top: g.padTop, pad_left: g.padLeft, output_height: g.outputHeight, output_width: g.outputWidth)
    let average: Int32 = params.kind == .average ? 1 : 0
    let src = UnsafeRawPointer(input), dst = UnsafeMutableRawPointer(output)
    if E.bitWidth == 8 {
        booth_pool_s8(src.assumingMemoryBound(to: Int8.self), &shape, average, lo, hi, dst.assumingMemoryBound(to: Int8.self))
    } else {
        booth_pool_s16(src.assumingMemoryBound(to: Int16.self), &shape, average, lo, hi,
                       dst.assumingMemoryBound(to: Int16.self))
    }
}

// MARK: - MEAN over H, W

public struct MeanParams: Sendable, Equatable {
    public var inputZeroPoint: Int32, outputZeroPoint: Int32
    /// `s_in / (s_out · pixels)`.
    public var multiplier: FixedMultiplier

    public init(input: QuantParams, output: QuantParams, pixels: Int) {
        inputZeroPoint = input.zeroPoint
        outputZeroPoint = output.zeroPoint
        multiplier = FixedMultiplier(
            Double(input.scale) / (Double(output.scale) * Double(pixels)))
    }

    @inline(__always)
    func finish<E: QuantizedActivation>(_ sum: Int32) -> E {
        let v = multiplyByQuantizedMultiplier(sum, multiplier) &+ outputZeroPoint
        return E(truncatingIfNeeded: clamp32(v, Int32(E.min), Int32(E.max)))
    }
}

public typealias MeanKernel<E: QuantizedActivation> = @Sendable (
    _ input: UnsafePointer<E>, _ pixels: Int, _ channels: Int, _ params: MeanParams,
    _ output: UnsafeMutablePointer<E>
) -> Void

public func meanScalar<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ pixels: Int, _ channels: Int, _ params: MeanParams,
    _ output: UnsafeMutablePointer<E>
) {
    for ch in 0..<channels {
        var s: Int32 = 0
        for p in 0..<pixels { s &+= Int32(truncatingIfNeeded: input[p * channels + ch]) &- params.inputZeroPoint }
        output[ch] = params.finish(s)
    }
}

public func meanSIMD<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ pixels: Int, _ channels: Int, _ params: MeanParams,
    _ output: UnsafeMutablePointer<E>
) {
    let zp = I32x8(repeating: params.inputZeroPoint)
    let m = I32x8(repeating: params.multiplier.multiplier)
    let l = I32x8(repeating: params.multiplier.leftShift)
    let r = I32x8(repeating: params.multiplier.rightShift)
    let zpOut = I32x8(repeating: params.outputZeroPoint)
    var ch = 0
    while ch + 8 <= channels {
        var s = I32x8()
        for p in 0..<pixels {
            s &+= load8(input + p * channels + ch) &- zp
        }
        let v = multiplyByQuantizedMultiplier(s, m, l, r) &+ zpOut
        store8(vmin(vmax(v, I32x8(repeating: Int32(E.min))), I32x8(repeating: Int32(E.max))), output + ch)
        ch += 8
    }
    while ch < channels {
        var s: Int32 = 0
        for p in 0..<pixels { s &+= Int32(truncatingIfNeeded: input[p * channels + ch]) &- params.inputZeroPoint }
        output[ch] = params.finish(s)
        ch += 1
    }
}

/// aarch64: MEAN in C (`booth_mean_s8` / `_s16`, neural_glue.c): int8 16 and int16 8 channels per
/// NEON step, each pixel's values added into int32 lanes (`saddw`), the zero point taken off the
/// sums once (the same wrapping sum), then `finish`'s requantisation lane by lane. The same values
/// as `meanScalar`.
public func meanNEON<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ pixels: Int, _ channels: Int, _ params: MeanParams,
    _ output: UnsafeMutablePointer<E>
) {
    let m = params.multiplier
    let src = UnsafeRawPointer(input), dst = UnsafeMutableRawPointer(output)
    if E.bitWidth == 8 {
        booth_mean_s8(src.assumingMemoryBound(to: Int8.self), pixels, channels, params.inputZeroPoint, m.multiplier,
                      m.leftShift, m.rightShift, params.outputZeroPoint, dst.assumingMemoryBound(to: Int8.self))
    } else {
        booth_mean_s16(src.assumingMemoryBound(to: Int16.self), pixels, channels, params.inputZeroPoint, m.multiplier,
                       m.leftShift, m.rightShift, params.outputZeroPoint, dst.assumingMemoryBound(to: Int16.self))
    }
}
