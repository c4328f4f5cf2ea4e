import CNeuralKernels

/// Transpose convolution (TRANSPOSE_CONV semantics, MediaPipe's Convolution2DTransposeBias):
/// `out[iy·s + ky − padTop][ix·s + kx − padLeft][oc] += in[iy][ix][ic] · W[oc][ky][kx][ic]`,
/// then bias, requantisation and clamp.
///
/// Computed without an int32 scatter buffer, as s×s sub-pixel convolutions: output pixels with
/// the same `(oy mod s, ox mod s)` see the same taps (`ky ≡ oy + padTop mod s`), so each parity
/// class is an ordinary gather convolution — im2col of one output row of that class, then the
/// same packed GEMM and output stage as CONV_2D, writing every s-th output pixel.
///
/// With fewer than `directChannelLimit` output channels (the segmentation models end in a
/// 16 → 1 channel transpose convolution over the full output resolution) the GEMM would spend 15
/// of every 16 lanes on padding: then each output value is a direct dot product of the input
/// pixels its taps reach with the filter, 16 input channels per vector step, with no im2col.
/// The int32 sums are the same integers either way.

public final class TransposeConvPlan {
    public let inputHeight: Int, inputWidth: Int, inputChannels: Int
    public let outputHeight: Int, outputWidth: Int, outputChannels: Int
    public let stride: Int, padTop: Int, padLeft: Int
    public let kernelHeight: Int, kernelWidth: Int
    /// Per parity `py * stride + px`: taps `(ky, kx)` in im2col order, and packed weights.
    let taps: [[(Int, Int)]]
    let weights: [PackedGEMMWeights?]
    /// Int16 values of scratch `run` needs.
    public let scratchCount: Int
    /// The filter `[OC][KH][KW][IC]` widened to int32, for the direct path.
    let filter32: [Int32]
    /// True to compute with direct dot products (the default below `directChannelLimit` output
    /// channels), false to use im2col and the GEMM kernel.
    public var direct: Bool

    /// Output channel count from which the GEMM path is used.
    public static let directChannelLimit = 4
    /// For `runRows` (kernel = stride, no padding, output = input × stride): per `ky`, the
    /// filter rows `W[o][ky][kx][·]` in `[kx][o]` order. Empty otherwise.
    let rowWeights: [PackedGEMMWeights]

    /// `filter`: `[OC][KH][KW][IC]` int8, −127...127.
    public init(filter: [Int8], outputChannels oc: Int, kernelHeight kh: Int, kernelWidth kw: Int,
                inputHeight: Int, inputWidth: Int, inputChannels ic: Int,
                outputHeight: Int, outputWidth: Int, stride s: Int, padTop: Int, padLeft: Int) {
        precondition(filter.count == oc * kh * kw * ic && s > 0)
        self.inputHeight = inputHeight; self.inputWidth = inputWidth; self.inputChannels = ic
        self.outputHeight = outputHeight; self.outputWidth = outputWidth; self.outputChannels = oc
        self.stride = s; self.padTop = padTop; self.padLeft = padLeft
        self.kernelHeight = kh; self.kernelWidth = kw
        var taps: [[(Int, Int)]] = []
        var weights: [PackedGEMMWeights?] = []
        var scratch = 0
        for py in 0..<s {
            for px in 0..<s {
                var list: [(Int, Int)] = []
                for ky in 0..<kh where ((ky - py - padTop) % s + s) % s == 0 {
                    for kx in 0..<kw where ((kx - px - padLeft) % s + s) % s == 0 {
                        list.append((ky, kx))
                    }
                }
                taps.append(list)
                if list.isEmpty { weights.append(nil); continue }
                let depth = list.count * ic
                var w = [Int8](repeating: 0, count: oc * depth)
                for o in 0..<oc {
                    for (t, (ky, kx)) in list.enumerated() {
                        for i in 0..<ic {
                            w[o * depth + t * ic + i] = filter[((o * kh + ky) * kw + kx) * ic + i]
                        }
                    }
                }
                let packed = PackedGEMMWeights(weights: w, outputChannels: oc, depth: depth)
                scratch = max(scratch, (outputWidth + s - 1) / s * packed.depthStride)
                weights.append(packed)
            }
        }
        self.taps = taps
        self.weights = weights
        scratchCount = scratch
        filter32 = filter.map { Int32($0) }
        direct = oc < Self.directChannelLimit
        var rows: [PackedGEMMWeights] = []
        if kh == s && kw == s && padTop == 0 && padLeft == 0 && outputHeight == inputHeight * s
            && outputWidth == inputWidth * s {
            for ky in 0..<s {
                var w = [Int8](repeating: 0, count: s * oc * ic)
                for kx in 0..<s {
                    for o in 0..<oc {
                        for i in 0..<ic { w[(kx * oc + o) * ic + i] = filter[((o * kh + ky) * kw + kx) * ic + i] }
                    }
                }
                rows.append(PackedGEMMWeights(weights: w, outputChannels: s * oc, depth: ic))
            }
        }
        rowWeights = rows
    }

    /// Where the result goes: requantised int8, or float from the int32 accumulators (the
    /// `Int32` scratch holds one output row of a parity class: `ceil(outputWidth / stride) ·
    /// outputChannels` values).
    enum Output<E: QuantizedActivation> {
        case quantized(OutputStage, UnsafeMutablePointer<E>)
        case float(FloatOutputStage, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Int32>)
    }

    /// Runs the op with a quantised output of the input's type.
    public func run<E: QuantizedActivation>(_ input: UnsafePointer<E>, inputZeroPoint: Int32, stage: OutputStage,
                                            output: UnsafeMutablePointer<E>, scratch: UnsafeMutablePointer<Int16>,
                                            kernel: GEMMKernel) {
        run(input, inputZeroPoint: inputZeroPoint, output: .quantized(stage, output), scratch: scratch, kernel: kernel)
    }

    /// Runs the op with a float output, `clamp(Σ·scale[o] + bias[o], lower, upper)` per output
    /// channel (how a model's last layer writes its float tensor). `accumulators` holds
    /// `(outputWidth + 1) · outputChannels` int32.
    public func run<E: QuantizedActivation>(_ input: UnsafePointer<E>, inputZeroPoint: Int32, scale: [Float],
                                            bias: [Float], lower: Float, upper: Float,
                                            output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Int16>,
                                            accumulators: UnsafeMutablePointer<Int32>, kernel: GEMMKernel) {
        precondition(scale.count == outputChannels && bias.count == outputChannels)
        let stage = FloatOutputStage(scale: scale, bias: bias, lower: lower, upper: upper)
        run(input, inputZeroPoint: inputZeroPoint, output: .float(stage, output, accumulators), scratch: scratch,
            kernel: kernel)
    }

    /// Runs the op. Output pixels whose class has no taps get the bias alone.
    func run<E: QuantizedActivation>(_ input: UnsafePointer<E>, inputZeroPoint: Int32, output target: Output<E>,
                                     scratch: UnsafeMutablePointer<Int16>, kernel: GEMMKernel) {
        if direct {
            if case .float(let stage, let output, let acc) = target, !rowWeights.isEmpty {
                runRows(input, inputZeroPoint: inputZeroPoint, stage: stage, output: output, acc: acc, scratch: scratch,
                        kernel: kernel)
            } else {
                filter32.withUnsafeBufferPointer {
                    runDirect(input, inputZeroPoint: inputZeroPoint, output: target, filter: $0.baseAddress!)
                }
            }
            return
        }
        let s = stride, ic = inputChannels, oc = outputChannels
        let zp = Int16(truncatingIfNeeded: inputZeroPoint)
        for py in 0..<s {
            for px in 0..<s {
                let list = taps[py * s + px]
                let cols = px < outputWidth ? (outputWidth - px + s - 1) / s : 0
                if cols == 0 { continue }
                var oy = py
                while oy < outputHeight {
                    let at = (oy * outputWidth + px) * oc
                    guard let w = weights[py * s + px] else {
                        switch target {
                        case .quantized(let stage, let output):
                            for j in 0..<cols {
                                for o in 0..<oc { output[at + j * s * oc + o] = stage.apply(0, channel: o) }
                            }
                        case .float(let stage, let output, let acc):
                            acc.update(repeating: 0, count: oc)
                            for j in 0..<cols {
                                stage.apply(acc, rows: 1, channels: oc, output: output + at + j * s * oc, rowStride: oc)
                            }
                        }
                        oy += s
                        continue
                    }
                    // im2col tap by tap: a tap's input row and first column are fixed for the
                    // whole output row of this class (exact divisions, hoisted out of the
                    // columns), and consecutive columns read consecutive input pixels.
                    let depthStride = w.depthStride
                    for t in 0..<list.count {
                        let (ky, kx) = list[t]
                        let ny = oy + padTop - ky
                        let base = scratch + t * ic
                        let iy = ny / s
                        if ny < 0 || iy >= inputHeight {
                            for j in 0..<cols { (base + j * depthStride).update(repeating: 0, count: ic) }
                            continue
                        }
                        // Columns j read input column ix0 + j: inside the input for
                        // jLo ..< jHi, zero outside (no test per column).
                        let ix0 = (px + padLeft - kx) / s
                        let row = input + iy * inputWidth * ic
                        let jLo = min(cols, max(0, -ix0)), jHi = max(jLo, min(cols, inputWidth - ix0))
                        for j in 0..<jLo { (base + j * depthStride).update(repeating: 0, count: ic) }
                        for j in jLo..<jHi { im2colSpan(row + (ix0 + j) * ic, ic, zp, base + j * depthStride) }
                        for j in jHi..<cols { (base + j * depthStride).update(repeating: 0, count: ic) }
                    }
                    if depthStride > w.depth {
                        for j in 0..<cols { scratch[j * depthStride + w.depth] = 0 }
                    }
                    switch target {
                    case .quantized(let stage, let output):
                        kernel(scratch, cols, w, .quantized(output + at, rowStride: s * oc, stage: stage))
                    case .float(let stage, let output, let acc):
                        kernel(scratch, cols, w, .int32(acc, rowStride: oc))
                        stage.apply(acc, rows: cols, channels: oc, output: output + at, rowStride: s * oc)
                    }
                    oy += s
                }
            }
        }
    }

    /// The direct path when the kernel equals the stride, nothing is padded and the output is
    /// float (the segmentation heads' 2×2, stride 2, 16 → 1): each input pixel makes a
    /// stride×stride block of outputs, so output row `iy·s + ky` is one GEMM of input row `iy`
    /// (read in place for symmetric int16, else converted once) with `rowWeights[ky]` — weights
    /// `[kx][o] × [ic]`, whose int32 sums land as `[ox][o]`, one contiguous output row.
    func runRows<E: QuantizedActivation>(_ input: UnsafePointer<E>, inputZeroPoint: Int32, stage: FloatOutputStage,
                                         output: UnsafeMutablePointer<Float>, acc: UnsafeMutablePointer<Int32>,
                                         scratch: UnsafeMutablePointer<Int16>, kernel: GEMMKernel) {
        let s = stride, ic = inputChannels, oc = outputChannels, iw = inputWidth
        let k2 = rowWeights[0].depthStride
        let zp = Int16(truncatingIfNeeded: inputZeroPoint)
        let inPlace = E.bitWidth == 16 && inputZeroPoint == 0 && k2 == ic
        for iy in 0..<inputHeight {
            let row = input + iy * iw * ic
            let a: UnsafePointer<Int16>
            if inPlace {
                a = UnsafeRawPointer(row).assumingMemoryBound(to: Int16.self)
            } else {
                if k2 == ic {
                    im2colSpan(row, iw * ic, zp, scratch)
                } else {
                    for ix in 0..<iw {
                        im2colSpan(row + ix * ic, ic, zp, scratch + ix * k2)
                        scratch[ix * k2 + ic] = 0
                    }
                }
                a = UnsafePointer(scratch)
            }
            for ky in 0..<s {
                let outRow = output + (iy * s + ky) * outputWidth * oc
#if arch(arm64)
                // aarch64: the products, the float stage and the clamp in one C NEON pass
                // (`booth_transpose_rows_s16_f32`, the same bits), instead of a GEMM that uses
                // `s · oc` of its 16 lanes and the Swift stage.
                if let w = rowWeights[ky].neon, rowsNEON(a, iw, k2, ic, w, s * oc, stage, outRow) { continue }
#endif
                kernel(a, iw, rowWeights[ky], .int32(acc, rowStride: s * oc))
                stage.apply(acc, rows: iw * s, channels: oc, output: outRow, rowStride: oc)
            }
        }
    }

#if arch(arm64)
    /// One output row of `runRows` by `booth_transpose_rows_s16_f32`; false when the C kernel does
    /// not take the shape (then the caller runs the GEMM and the Swift stage).
    @inline(__always)
    func rowsNEON(_ a: UnsafePointer<Int16>, _ pixels: Int, _ stride: Int, _ depth: Int, _ w: UnsafePointer<Int16>,
                  _ channels: Int, _ stage: FloatOutputStage, _ out: UnsafeMutablePointer<Float>) -> Bool {
        stage.scale.withUnsafeBufferPointer { sc in
            stage.bias.withUnsafeBufferPointer { b in
                booth_transpose_rows_s16_f32(a, pixels, stride, depth, w, channels, outputChannels, sc.baseAddress!,
                                             b.baseAddress!, stage.lower, stage.upper, out) != 0
            }
        }
    }
#endif

    /// The direct path: for each output row of each parity class, every output value is
    /// `Σ_taps Σ_i (x_i − zp)·W[o][ky][kx][i]`, then the same output stage as the GEMM path.
    func runDirect<E: QuantizedActivation>(_ input: UnsafePointer<E>, inputZeroPoint: Int32, output target: Output<E>,
                                           filter: UnsafePointer<Int32>) {
        let s = stride, ic = inputChannels, oc = outputChannels
        for py in 0..<s {
            for px in 0..<s {
                let cols = px < outputWidth ? (outputWidth - px + s - 1) / s : 0
                if cols == 0 { continue }
                taps[py * s + px].withUnsafeBufferPointer { list in
                    var oy = py
                    while oy < outputHeight {
                        let at = (oy * outputWidth + px) * oc
                        for j in 0..<cols {
                            let ox = px + j * s
                            for o in 0..<oc {
                                var sum: Int32 = 0
                                for (ky, kx) in list {
                                    let ny = oy + padTop - ky, nx = ox + padLeft - kx
                                    let iy = ny / s, ix = nx / s
                                    if ny < 0 || nx < 0 || iy >= inputHeight || ix >= inputWidth { continue }
                                    sum &+= transposeDot(input + (iy * inputWidth + ix) * ic,
                                                         filter + ((o * kernelHeight + ky) * kernelWidth + kx) * ic,
                                                         ic, inputZeroPoint)
                                }
                                switch target {
                                case .quantized(let stage, let output):
                                    output[at + j * s * oc + o] = stage.apply(sum, channel: o)
                                case .float(_, _, let acc):
                                    acc[j * oc + o] = sum
                                }
                            }
                        }
                        if case .float(let stage, let output, let acc) = target {
                            stage.apply(acc, rows: cols, channels: oc, output: output + at, rowStride: s * oc)
                        }
                        oy += s
                    }
                }
            }
        }
    }
}

/// `Σ_i (x[i] − zp)·w[i]` over `n` values, 16 per vector step.
@inline(__always)
func transposeDot<E: QuantizedActivation>(_ x: UnsafePointer<E>, _ w: UnsafePointer<Int32>, _ n: Int,
                                          _ zp: Int32) -> Int32 {
    var acc = SIMD16<Int32>()
    let zv = SIMD16<Int32>(repeating: zp)
    var i = 0
    while i + 16 <= n {
        var xv = SIMD16<Int32>(), wv = SIMD16<Int32>()
        for k in 0..<16 { xv[k] = Int32(truncatingIfNeeded: x[i + k]); wv[k] = w[i + k] }
        acc &+= (xv &- zv) &* wv
        i += 16
    }
    var sum = acc.wrappedSum()
    while i < n { sum &+= (Int32(truncatingIfNeeded: x[i]) &- zp) &* w[i]; i += 1 }
    return sum
}

/// One output row of `TransposeConvPlan.runRows` (float output) on its two paths, for the
/// conformance kernel `nn.transpose.rows`: `pixels` int16 rows `weights.depthStride` apart, the
/// `[kx][o]` filter rows of one `ky` (`weights.outputChannels` = stride × `outputChannels`), and
/// the float stage `acc · scale[o] + bias[o]` clamped to `lower...upper`.
public enum TransposeRowsKernels {
    /// The portable path: `gemmScalar` to int32, then `FloatOutputStage.apply`.
    public static func reference(_ a: UnsafePointer<Int16>, pixels: Int, weights: PackedGEMMWeights,
                                 outputChannels oc: Int, scale: [Float], bias: [Float], lower: Float, upper: Float,
                                 output: UnsafeMutablePointer<Float>) {
        let channels = weights.outputChannels
        precondition(oc > 0 && channels % oc == 0 && scale.count == oc && bias.count == oc)
        let acc = UnsafeMutablePointer<Int32>.allocate(capacity: pixels * channels)
        defer { acc.deallocate() }
        gemmScalar(a, pixels, weights, .int32(acc, rowStride: channels))
        FloatOutputStage(scale: scale, bias: bias, lower: lower, upper: upper)
            .apply(acc, rows: pixels * channels / oc, channels: oc, output: output, rowStride: oc)
    }

    /// aarch64: `booth_transpose_rows_s16_f32`, as `runRows` calls it; false when the C kernel
    /// does not take the shape. Elsewhere always false (there is no other path).
    public static func neon(_ a: UnsafePointer<Int16>, pixels: Int, weights: PackedGEMMWeights,
                            outputChannels oc: Int, scale: [Float], bias: [Float], lower: Float, upper: Float,
                            output: UnsafeMutablePointer<Float>) -> Bool {
#if arch(arm64)
        guard let w = weights.neon else { return false }
        return scale.withUnsafeBufferPointer { sc in
            bias.withUnsafeBufferPointer { b in
                booth_transpose_rows_s16_f32(a, pixels, weights.depthStride, weights.depth, w, weights.outputChannels, oc,
                                             sc.baseAddress!, b.baseAddress!, lower, upper, output) != 0
            }
        }
#else
        return false
#endif
    }
}
