import CNeuralKernels

/// Geometry of a 2-D window op over an NHWC tensor (batch 1).
public struct WindowGeometry: Sendable, Equatable {
    public var inputHeight: Int, inputWidth: Int, channels: Int
    public var kernelHeight: Int, kernelWidth: Int
    public var strideY: Int, strideX: Int
    public var padTop: Int, padLeft: Int
    public var outputHeight: Int, outputWidth: Int

    public init(inputHeight: Int, inputWidth: Int, channels: Int, kernelHeight: Int,
                kernelWidth: Int, strideY: Int, strideX: Int, padTop: Int, padLeft: Int,
                outputHeight: Int, outputWidth: Int) {
        self.inputHeight = inputHeight; self.inputWidth = inputWidth; self.channels = channels
        self.kernelHeight = kernelHeight; self.kernelWidth = kernelWidth
        self.strideY = strideY; self.strideX = strideX
        self.padTop = padTop; self.padLeft = padLeft
        self.outputHeight = outputHeight; self.outputWidth = outputWidth
    }

    /// TFLite padding rules: SAME (`out = ceil(in / stride)`, the extra pad at the bottom/right)
    /// or VALID (`out = ceil((in - k + 1) / stride)`).
    public init(inputHeight: Int, inputWidth: Int, channels: Int, kernelHeight: Int,
                kernelWidth: Int, strideY: Int, strideX: Int, same: Bool) {
        let oh = same ? (inputHeight + strideY - 1) / strideY
                      : (inputHeight - kernelHeight + strideY) / strideY
        let ow = same ? (inputWidth + strideX - 1) / strideX
                      : (inputWidth - kernelWidth + strideX) / strideX
        let padH = same ? max(0, (oh - 1) * strideY + kernelHeight - inputHeight) : 0
        let padW = same ? max(0, (ow - 1) * strideX + kernelWidth - inputWidth) : 0
        self.init(inputHeight: inputHeight, inputWidth: inputWidth, channels: channels,
                  kernelHeight: kernelHeight, kernelWidth: kernelWidth, strideY: strideY,
                  strideX: strideX, padTop: padH / 2, padLeft: padW / 2,
                  outputHeight: oh, outputWidth: ow)
    }

    public var outputPixels: Int { outputHeight * outputWidth }

    /// Calls `body(i, iy0, ix0)` for the output pixels `first ..< first + count` in raster order:
    /// `i` counts from 0, `(iy0, ix0)` is the top-left input position of the pixel's window
    /// (negative inside the padding). The pixel advances by one per call (no division per pixel).
    @inline(__always)
    func forEachWindow(from first: Int, count: Int, _ body: (_ i: Int, _ iy0: Int, _ ix0: Int) -> Void) {
        var oy = first / outputWidth
        var ox = first - oy * outputWidth
        for i in 0..<count {
            body(i, oy * strideY - padTop, ox * strideX - padLeft)
            ox += 1
            if ox == outputWidth { ox = 0; oy += 1 }
        }
    }
}

/// Rows of `A` for output pixels `first ..< first + count`: the K×K×C window of each pixel
/// (order `[ky][kx][c]`, matching TFLite filters) minus the input zero point, 0 outside the
/// image, and a trailing 0 when the depth is odd. `a` holds `count * depthStride` values.
/// In C (`booth_im2col_s16` / `booth_im2col_s8_s16`: eight values per vector step, the last
/// eight of each span overlapping, where Swift's spans stored lane by lane; selfie's largest
/// cost after the kernels on aarch64); `im2colReference` is the definition.
@inline(__always)
public func im2col<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, zeroPoint: Int32,
    firstPixel first: Int, count: Int, depthStride: Int, into a: UnsafeMutablePointer<Int16>
) {
    let zp = Int16(zeroPoint)
    if E.bitWidth == 16 {
        booth_im2col_s16(UnsafeRawPointer(input).assumingMemoryBound(to: Int16.self), g.inputHeight, g.inputWidth,
                         g.channels, g.kernelHeight, g.kernelWidth, g.strideY, g.strideX, g.padTop, g.padLeft,
                         g.outputWidth, first, count, depthStride, zp, a)
    } else {
        booth_im2col_s8_s16(UnsafeRawPointer(input).assumingMemoryBound(to: Int8.self), g.inputHeight, g.inputWidth,
                            g.channels, g.kernelHeight, g.kernelWidth, g.strideY, g.strideX, g.padTop, g.padLeft,
                            g.outputWidth, first, count, depthStride, zp, a)
    }
}

/// `im2col`'s reference, in Swift.
public func im2colReference<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, zeroPoint: Int32,
    firstPixel first: Int, count: Int, depthStride: Int, into a: UnsafeMutablePointer<Int16>
) {
    let zp = Int16(zeroPoint)
    let c = g.channels
    let depth = g.kernelHeight * g.kernelWidth * c
    if g.kernelHeight == 1 && g.kernelWidth == 1 && g.strideY == 1 && g.strideX == 1 && g.padTop == 0
        && g.padLeft == 0 && g.outputWidth == g.inputWidth && depthStride == c {
        // Pointwise: the rows of A are the input pixels themselves, one contiguous conversion.
        let src = input + first * c
        let zv = SIMD16<Int16>(repeating: zp)
        let n = count * c
        var k = 0
        while k + 16 <= n {
            let x = widen16(UnsafeRawPointer(src + k).loadUnaligned(as: SIMD16<E>.self))
            UnsafeMutableRawPointer(a + k).storeBytes(of: x &- zv, as: SIMD16<Int16>.self)
            k += 16
        }
        while k < n { a[k] = Int16(truncatingIfNeeded: src[k]) &- zp; k += 1 }
        return
    }
    // Spans may be copied 16 values at a time past their end (the extra values are overwritten
    // by the next span, all writes go forward) while both stay inside these bounds.
    let srcEnd = UnsafeRawPointer(input + g.inputHeight * g.inputWidth * c)
    let dstEnd = UnsafeMutableRawPointer(a + count * depthStride)
    let kwc = g.kernelWidth * c
    let rowPitch = g.inputWidth * c
    g.forEachWindow(from: first, count: count) { i, iy0, ix0 in
        var dst = a + i * depthStride
        let rowInside = ix0 >= 0 && ix0 + g.kernelWidth <= g.inputWidth
        if rowInside && iy0 >= 0 && iy0 + g.kernelHeight <= g.inputHeight {
            // Interior: one span of kernelWidth contiguous pixels per kernel row.
            var src = input + iy0 * rowPitch + ix0 * c
            for _ in 0..<g.kernelHeight {
                im2colSpan(src, kwc, zp, dst, srcEnd: srcEnd, dstEnd: dstEnd)
                src += rowPitch
                dst += kwc
            }
        } else {
            for ky in 0..<g.kernelHeight {
                let iy = iy0 + ky
                if iy < 0 || iy >= g.inputHeight {
                    dst.update(repeating: 0, count: kwc)
                } else if rowInside {
                    im2colSpan(input + iy * rowPitch + ix0 * c, kwc, zp, dst, srcEnd: srcEnd, dstEnd: dstEnd)
                } else {
                    var d = dst
                    for kx in 0..<g.kernelWidth {
                        let ix = ix0 + kx
                        if ix < 0 || ix >= g.inputWidth {
                            d.update(repeating: 0, count: c)
                        } else {
                            im2colSpan(input + iy * rowPitch + ix * c, c, zp, d, srcEnd: srcEnd, dstEnd: dstEnd)
                        }
                        d += c
                    }
                }
                dst += kwc
            }
        }
        if depthStride > depth { dst.pointee = 0 }
    }
}

/// `dst[k] = src[k] - zp` for `n` values: 16, then 8 at a time (sign extension and a subtraction
/// per vector), the rest one by one. A tail shorter than 16 is one 16-value step instead when
/// reading and writing 16 values stays before `srcEnd` and `dstEnd` (callers overwrite what lies
/// past `n` afterwards): the short spans of small-channel convolutions (3 input channels: spans
/// of 9 or 15) then cost one vector step.
@inline(__always)
func im2colSpan<E: QuantizedActivation>(
    _ src: UnsafePointer<E>, _ n: Int, _ zp: Int16, _ dst: UnsafeMutablePointer<Int16>,
    srcEnd: UnsafeRawPointer? = nil, dstEnd: UnsafeMutableRawPointer? = nil
) {
    var k = 0
    while k + 16 <= n {
        let x = widen16(UnsafeRawPointer(src + k).loadUnaligned(as: SIMD16<E>.self))
        let v = x &- SIMD16<Int16>(repeating: zp)
        for j in 0..<16 { dst[k + j] = v[j] }
        k += 16
    }
    if k < n, let srcEnd, let dstEnd, UnsafeRawPointer(src + k + 16) <= srcEnd,
       UnsafeMutableRawPointer(dst + k + 16) <= dstEnd {
        let x = widen16(UnsafeRawPointer(src + k).loadUnaligned(as: SIMD16<E>.self))
        let v = x &- SIMD16<Int16>(repeating: zp)
        for j in 0..<16 { dst[k + j] = v[j] }
        return
    }
    if k + 8 <= n {
        let x = UnsafeRawPointer(src + k).loadUnaligned(as: SIMD8<E>.self)
        var v = SIMD8<Int16>()
        for j in 0..<8 { v[j] = Int16(truncatingIfNeeded: x[j]) }
        v &-= SIMD8<Int16>(repeating: zp)
        for j in 0..<8 { dst[k + j] = v[j] }
        k += 8
    }
    while k < n { dst[k] = Int16(truncatingIfNeeded: src[k]) &- zp; k += 1 }
}

/// Sixteen activations of either width as int16 (a loop, for the reason given at `widen64`).
@inline(__always)
func widen16<E: QuantizedActivation>(_ v: SIMD16<E>) -> SIMD16<Int16> {
    var r = SIMD16<Int16>()
    for i in 0..<16 { r[i] = Int16(truncatingIfNeeded: v[i]) }
    return r
}

/// CONV_2D, NHWC int8 → NHWC int8 (or int16 → int16), through im2col tiles of at most
/// `scratchRows` pixels. `scratch` holds `scratchRows * weights.depthStride` int16 (see
/// `conv2DScratchCount`).
public func conv2D<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ g: WindowGeometry, inputZeroPoint: Int32,
    weights: PackedGEMMWeights, stage: OutputStage, output: UnsafeMutablePointer<E>,
    scratch: UnsafeMutablePointer<Int16>, scratchRows: Int, kernel: GEMMKernel
) {
    precondition(weights.depth == g.kernelHeight * g.kernelWidth * g.channels)
    var first = 0
    let total = g.outputPixels
    // A pointwise convolution of symmetric int16 activations with an even channel count reads its
    // input as the GEMM's `A` directly: im2col would be a plain copy.
    let direct = E.bitWidth == 16 && inputZeroPoint == 0 && g.kernelHeight == 1 && g.kernelWidth == 1
        && g.strideY == 1 && g.strideX == 1 && g.padTop == 0 && g.padLeft == 0
        && g.outputWidth == g.inputWidth && g.outputHeight == g.inputHeight && weights.depthStride == g.channels
    while first < total {
        let count = min(scratchRows, total - first)
        let a: UnsafePointer<Int16>
        if direct {
            a = UnsafeRawPointer(input + first * g.channels).assumingMemoryBound(to: Int16.self)
        } else {
            im2col(input, g, zeroPoint: inputZeroPoint, firstPixel: first, count: count,
                   depthStride: weights.depthStride, into: scratch)
            a = UnsafePointer(scratch)
        }
        kernel(a, count, weights,
               .quantized(output + first * weights.outputChannels,
                          rowStride: weights.outputChannels, stage: stage))
        first += count
    }
}

/// Rows of int8 activations for output pixels `first ..< first + count`, as they are: the
/// K×K×C window of each pixel (order `[ky][kx][c]`), the zero point outside the image (so that
/// `x − zp` is 0 there, as in `im2col`), zeros from `depth` to the row length `rowStride`.
/// In C (`booth_im2col8`: small fixed-size copies, where Swift's were a memmove call per window
/// row, most of the mesh program's own cost on aarch64); `im2col8Reference` is the definition.
public func im2col8(
    _ input: UnsafePointer<Int8>, _ g: WindowGeometry, zeroPoint: Int32,
    firstPixel first: Int, count: Int, rowStride: Int, into a: UnsafeMutablePointer<Int8>
) {
    booth_im2col8(input, g.inputHeight, g.inputWidth, g.channels, g.kernelHeight, g.kernelWidth, g.strideY, g.strideX,
                  g.padTop, g.padLeft, g.outputWidth, first, count, rowStride, Int8(truncatingIfNeeded: zeroPoint), a)
}

/// `im2col8`'s reference, in Swift.
public func im2col8Reference(
    _ input: UnsafePointer<Int8>, _ g: WindowGeometry, zeroPoint: Int32,
    firstPixel first: Int, count: Int, rowStride: Int, into a: UnsafeMutablePointer<Int8>
) {
    let c = g.channels
    let kwc = g.kernelWidth * c
    let depth = g.kernelHeight * kwc
    let zp = Int8(truncatingIfNeeded: zeroPoint)
    g.forEachWindow(from: first, count: count) { i, iy0, ix0 in
        var dst = UnsafeMutableRawPointer(a + i * rowStride)
        for ky in 0..<g.kernelHeight {
            let iy = iy0 + ky
            if iy < 0 || iy >= g.inputHeight {
                dst.initializeMemory(as: Int8.self, repeating: zp, count: kwc)
            } else if ix0 >= 0 && ix0 + g.kernelWidth <= g.inputWidth {
                dst.copyMemory(from: input + (iy * g.inputWidth + ix0) * c, byteCount: kwc)
            } else {
                for kx in 0..<g.kernelWidth {
                    let ix = ix0 + kx
                    if ix < 0 || ix >= g.inputWidth {
                        (dst + kx * c).initializeMemory(as: Int8.self, repeating: zp, count: c)
                    } else {
                        (dst + kx * c).copyMemory(from: input + (iy * g.inputWidth + ix) * c, byteCount: c)
                    }
                }
            }
            dst += kwc
        }
        if rowStride > depth { dst.initializeMemory(as: Int8.self, repeating: 0, count: rowStride - depth) }
    }
}

/// CONV_2D of int8 activations through a `GEMM8Kernel` (aarch64): a pointwise convolution reads
/// its input rows in place (the arena's 64 bytes of tail padding cover the reads up to
/// `depth16`), others go through `im2col8` tiles in `scratch` (`scratchBytes` bytes). Returns false,
/// doing nothing, when the kernel cannot take this convolution (then use `conv2D`).
public func conv2D8(
    _ input: UnsafePointer<Int8>, _ g: WindowGeometry, inputZeroPoint: Int32,
    weights: PackedGEMMWeights, stage: OutputStage, output: UnsafeMutablePointer<Int8>,
    scratch: UnsafeMutableRawPointer, scratchBytes: Int, kernel: GEMM8Kernel
) -> Bool {
    precondition(weights.depth == g.kernelHeight * g.kernelWidth * g.channels)
    let total = g.outputPixels
    let pointwise = g.kernelHeight == 1 && g.kernelWidth == 1 && g.strideY == 1 && g.strideX == 1
        && g.padTop == 0 && g.padLeft == 0 && g.outputWidth == g.inputWidth && g.outputHeight == g.inputHeight
    let tileRows = scratchBytes / weights.depth16
    guard gemm8Applies(weights, .int8(output, rowStride: weights.outputChannels, stage: stage)),
          pointwise || tileRows >= 1 else { return false }
    if pointwise {
        kernel(input, total, g.channels, inputZeroPoint, weights,
               .int8(output, rowStride: weights.outputChannels, stage: stage))
        return true
    }
    let a = scratch.assumingMemoryBound(to: Int8.self)
    var first = 0
    while first < total {
        let count = min(tileRows, total - first)
        im2col8(input, g, zeroPoint: inputZeroPoint, firstPixel: first, count: count, rowStride: weights.depth16, into: a)
        kernel(UnsafePointer(a), count, weights.depth16, inputZeroPoint, weights,
               .int8(output + first * weights.outputChannels, rowStride: weights.outputChannels, stage: stage))
        first += count
    }
    return true
}

/// Int16 scratch values `conv2D` needs for a tile of `rows` pixels.
public func conv2DScratchCount(weights: PackedGEMMWeights, rows: Int) -> Int {
    rows * weights.depthStride
}
