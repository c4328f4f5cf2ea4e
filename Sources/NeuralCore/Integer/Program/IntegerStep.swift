/// One kernel call of the integer program at activation width `E` (`Int8` asymmetric or `Int16`
/// symmetric), with every pointer and parameter resolved at load. `IntegerProgram` runs a row of
/// them, each wrapped in a `ProgramStep` that names its width.
enum IntegerStep<E: QuantizedActivation> {
    case quantize(UnsafePointer<Float>, Int, QuantParams, UnsafeMutablePointer<E>)
    case dequantize(UnsafePointer<E>, Int, QuantParams, UnsafeMutablePointer<Float>)
    case conv(UnsafePointer<E>, WindowGeometry, Int32, PackedGEMMWeights, OutputStage, UnsafeMutablePointer<E>)
    case convFloat(UnsafePointer<E>, WindowGeometry, Int32, PackedGEMMWeights, FloatOutputStage, UnsafeMutablePointer<Float>)
    case depthwise(UnsafePointer<E>, WindowGeometry, Int32, PackedDepthwiseWeights, OutputStage, UnsafeMutablePointer<E>)
    case transpose(TransposeConvPlan, UnsafePointer<E>, Int32, OutputStage, UnsafeMutablePointer<E>)
    case transposeFloat(TransposeConvPlan, UnsafePointer<E>, Int32, FloatOutputStage, UnsafeMutablePointer<Float>)
    case logisticFloat(UnsafePointer<Float>, Int, UnsafeMutablePointer<Float>)
    case elementwise(UnsafePointer<E>, UnsafePointer<E>, Int, Int, ElementwiseParams, UnsafeMutablePointer<E>)
    case pool(UnsafePointer<E>, WindowGeometry, PoolParams, UnsafeMutablePointer<E>)
    case mean(UnsafePointer<E>, Int, Int, MeanParams, UnsafeMutablePointer<E>)
    case lookup(UnsafePointer<E>, Int, LookupTable, UnsafeMutablePointer<E>)
    case prelu(UnsafePointer<Int8>, Int, PReLUParams, UnsafeMutablePointer<Int8>)
    /// An int8 ADD (no broadcast) and the PRELU that is its only reader, as one pass
    /// (`AddPReLUKernel`, `IntegerProgram.fusingAddPReLU`): a, b, count, the two parameters, the
    /// PRELU's output.
    case addPReLU(UnsafePointer<Int8>, UnsafePointer<Int8>, Int, ElementwiseParams, PReLUParams, UnsafeMutablePointer<Int8>)
    case resize(UnsafePointer<E>, ResizeParams, UnsafeMutablePointer<E>)
    case pad(UnsafePointer<E>, PadSpec, UnsafeMutablePointer<E>)
    /// `outer` rows of `inner` values to rows of `stride` (concatenation part), requantised.
    case part(UnsafePointer<E>, outer: Int, inner: Int, stride: Int, RequantizeParams, UnsafeMutablePointer<E>)
    case partFloat(UnsafePointer<Float>, outer: Int, inner: Int, stride: Int, UnsafeMutablePointer<Float>)
    case partDequantize(UnsafePointer<E>, outer: Int, inner: Int, stride: Int, QuantParams, UnsafeMutablePointer<Float>)

    /// Runs the step with kernel set `k`; `scratch16` holds `tileRows` im2col rows and `scratch32`
    /// as many int32 accumulator rows (`IntegerArena`).
    @inline(__always)
    func run(_ k: IntegerKernelSetOf<E>, scratch16: UnsafeMutablePointer<Int16>, scratch32: UnsafeMutablePointer<Int32>,
             tileRows: Int) {
        switch self {
        case .quantize(let src, let count, let p, let dst):
            k.quantize(src, count, p, dst)
        case .dequantize(let src, let count, let p, let dst):
            k.dequantize(src, count, p, dst)
        case .conv(let input, let g, let zp, let w, let stage, let output):
            if E.bitWidth == 8, let gemm8 = k.gemm8,
               conv2D8(UnsafeRawPointer(input).assumingMemoryBound(to: Int8.self), g, inputZeroPoint: zp, weights: w,
                       stage: stage, output: UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int8.self),
                       scratch: UnsafeMutableRawPointer(scratch16), scratchBytes: tileRows * w.depthStride * 2,
                       kernel: gemm8) {
                break
            }
            conv2D(input, g, inputZeroPoint: zp, weights: w, stage: stage, output: output,
                   scratch: scratch16, scratchRows: tileRows, kernel: k.gemm)
        case .convFloat(let input, let g, let zp, let w, let stage, let output):
            var first = 0
            let n = w.outputChannels
            while first < g.outputPixels {
                let count = min(tileRows, g.outputPixels - first)
                im2col(input, g, zeroPoint: zp, firstPixel: first, count: count, depthStride: w.depthStride,
                       into: scratch16)
                k.gemm(scratch16, count, w, .int32(scratch32, rowStride: n))
                stage.apply(scratch32, rows: count, channels: n, output: output + first * n, rowStride: n)
                first += count
            }
        case .depthwise(let input, let g, let zp, let w, let stage, let output):
            k.depthwise(input, g, zp, w, stage, output)
        case .transpose(let plan, let input, let zp, let stage, let output):
            plan.run(input, inputZeroPoint: zp, output: .quantized(stage, output), scratch: scratch16, kernel: k.gemm)
        case .transposeFloat(let plan, let input, let zp, let stage, let output):
            plan.run(input, inputZeroPoint: zp, output: .float(stage, output, scratch32), scratch: scratch16,
                     kernel: k.gemm)
        case .logisticFloat(let input, let count, let output):
            k.logistic(input, count, output)
        case .elementwise(let a, let b, let count, let period, let p, let output):
            k.elementwise(a, b, count, period, p, output)
        case .pool(let input, let g, let p, let output):
            k.pool(input, g, p, output)
        case .mean(let input, let pixels, let channels, let p, let output):
            k.mean(input, pixels, channels, p, output)
        case .lookup(let input, let count, let table, let output):
            k.lookup(input, count, table, output)
        case .prelu(let input, let pixels, let p, let output):
            k.prelu(input, pixels, p, output)
        case .addPReLU(let a, let b, let count, let add, let p, let output):
            k.addThenPReLU(a, b, count, add, p, output)
        case .resize(let input, let p, let output):
            k.resize(input, p, output)
        case .pad(let input, let spec, let output):
            spec.run(input, output)
        case .part(let src, let outer, let inner, let stride, let p, let dst):
            for o in 0..<outer { k.requantize(src + o * inner, inner, p, dst + o * stride) }
        case .partFloat(let src, let outer, let inner, let stride, let dst):
            if inner == stride {
                copyFloats(src, outer * inner, to: dst)
            } else {
                for o in 0..<outer { copyFloats(src + o * inner, inner, to: dst + o * stride) }
            }
        case .partDequantize(let src, let outer, let inner, let stride, let p, let dst):
            for o in 0..<outer { k.dequantize(src + o * inner, inner, p, dst + o * stride) }
        }
    }
}

/// `count` floats from `src` to `dst` as one raw copy (memmove): `update(from:count:)` is, in
/// Embedded Swift, a per-element loop calling `outlined assign with copy of Float` (about 7
/// instructions per value on aarch64; 0.11 M values per selfie_segmentation_landscape inference).
@inline(__always)
func copyFloats(_ src: UnsafePointer<Float>, _ count: Int, to dst: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(dst).copyMemory(from: src, byteCount: count * MemoryLayout<Float>.stride)
}
