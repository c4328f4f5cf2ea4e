/// Transpose convolution (TRANSPOSE_CONV semantics, MediaPipe's Convolution2DTransposeBias):
/// `out[iy·s + ky − padTop][ix·s + kx − padLeft][oc] += in[iy][ix][ic] · W[oc][ky][kx][ic]`,
/// then bias, requantisation and clamp.
///
/// Computed without an int32 scatter buffer, as s×s sub-pixel convolutions: output pixels with
/// the same `(oy mod s, ox mod s)` see the same taps (`ky ≡ oy + padTop mod s`), so each parity
/// class is an ordinary gather convolution — im2col of one output row of that class, then the
/// same packed GEMM and output stage as CONV_2D, writing every s-th output pixel.

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

    /// Runs the op. Output pixels whose class has no taps get the bias alone.
    func run<E: QuantizedActivation>(_ input: UnsafePointer<E>, inputZeroPoint: Int32, output target: Output<E>,
                                     scratch: UnsafeMutablePointer<Int16>, kernel: GEMMKernel) {
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
}
