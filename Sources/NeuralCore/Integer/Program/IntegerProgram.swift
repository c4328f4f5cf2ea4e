/// The production integer path: the graph resolved at load into integer kernel calls, with
/// activations of type `E` — `Int8` (asymmetric, TFLite's int8 scheme) or `Int16` (symmetric, zero
/// point 0, TFLite's 16x8 scheme); weights are int8 per channel either way and accumulators int32.
///
/// Which width a model gets is `IntegerCalibration.activationWidth(for:)`: int16 for the models
/// with a per-pixel output (the two segmentation models), int8 for the face models — chosen by
/// measurement against LiteRT (the table is on `activationWidth(for:)`). One width per model keeps
/// every op a single kernel call with no conversions between widths; the face models meet their
/// goals in int8, where the segmentation masks miss theirs even when calibrated on the test image.
///
/// int16 activations with int32 accumulators: the GEMM's `A` operand is already int16 (activations
/// minus the zero point), so the same packed GEMM serves both widths; a convolution output channel
/// cannot overflow while `32768 · Σ|w| + |bias| < 2^31`, which `checkAccumulator` verifies at load
/// (the deepest reduction of the segmentation models is 128 channels: ≈ 2^29). ADD shifts its
/// inputs left by 15 instead of 20; MUL needs a multiplier below one (checked at load);
/// RESIZE_BILINEAR uses Q7 instead of Q10 coordinates; unary functions are 65,536-entry tables.
///
/// Loading is a row of passes, each its own value, as XNNPACK's `subgraph/` lowers a graph:
/// 1. `CalibratedGraph` — the graph rewrites: standalone RELUs folded into the op before them
///    (`ActivationFusion`), so that op's output is quantised over `[0, max]` only, and
///    cross-layer equalisation (`CrossLayerEqualization`);
/// 2. `CalibratedGraph` — activation ranges: from the shipped `CalibrationTable` of the model when
///    it fits, else at load (`IntegerCalibration`: the float path on a generated set);
/// 3. `QuantizationPlan` — which tensors are computed in float, and per-tensor parameters from the
///    ranges, except where the kernel needs its output to share the input's (MAX/AVERAGE_POOL, PAD,
///    RESHAPE, RESIZE_BILINEAR) and LOGISTIC, whose output is fixed to TFLite's 1/256, −128 (int8)
///    or 1/32768, 0 (int16);
/// 4. `IntegerArena` — activations placed in one arena by the same lifetime planner as the float
///    path, and the GEMM scratch sized;
/// 5. `Lowering` — one function per op family (`IntegerProgram+Conv`, `+Depthwise`,
///    `+Elementwise`, `+Pooling`, `+Activation`, `+Layout`): filters quantised per output channel
///    (symmetric, ±127) and packed, biases as int32 at `inputScale · weightScale[c]`, multipliers
///    and lookup tables built, each op turned into `Step`s.
///
/// At the model boundary inputs are quantised from, and outputs dequantised into, the
/// interpreter's float32 tensors. Outputs produced by a CONV_2D (directly or through RESHAPE /
/// CONCATENATION, as BlazeFace's and the landmark models' regressors are) are computed in float
/// from the int32 accumulators, so the output itself adds no int8 rounding (1 LSB of a 0...192 px
/// landmark range would be 0.75 px).
final class IntegerProgram<E: QuantizedActivation> {
    enum Step {
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
        case resize(UnsafePointer<E>, ResizeParams, UnsafeMutablePointer<E>)
        case pad(UnsafePointer<E>, PadSpec, UnsafeMutablePointer<E>)
        /// `outer` rows of `inner` values to rows of `stride` (concatenation part), requantised.
        case part(UnsafePointer<E>, outer: Int, inner: Int, stride: Int, RequantizeParams, UnsafeMutablePointer<E>)
        case partFloat(UnsafePointer<Float>, outer: Int, inner: Int, stride: Int, UnsafeMutablePointer<Float>)
        case partDequantize(UnsafePointer<E>, outer: Int, inner: Int, stride: Int, QuantParams, UnsafeMutablePointer<Float>)
    }

    let kernels: IntegerKernelSetOf<E>
    let steps: [Step]
    /// The tensor each step writes (for diagnostics; -1 where none).
    let stepTensors: [Int]
    /// Per-tensor parameters and float tensors (pass 3).
    let quantization: QuantizationPlan
    /// The arena, scratch and float buffers the steps point into (pass 4); owns them.
    let memory: IntegerArena
    let scratch16: UnsafeMutablePointer<Int16>
    let scratch32: UnsafeMutablePointer<Int32>
    static var tileRows: Int { 64 }

    /// Whether the activation ranges came from `IntegerCalibration.table` (not a load-time run).
    let usedTable: Bool

    /// Quantisation of every tensor (nil for constants and float-only tensors).
    var parameters: [QuantParams?] { quantization.parameters }
    /// Tensors computed in float (regressor outputs).
    var isFloat: [Bool] { quantization.isFloat }
    /// Bytes of integer memory: the arena, scratch and float intermediates.
    var byteCount: Int { memory.byteCount }

    /// Lowers `graph` through the passes above. `floatPlan`/`floatArena` are the interpreter's
    /// float32 tensors, where the model's inputs are read and its outputs written. With `shared`
    /// the arena and scratch are the shared block (see `SharedArena`).
    init(graph: Graph, floatPlan: MemoryPlan, floatArena: UnsafeMutableRawPointer,
         calibration: IntegerCalibration, kernels: IntegerKernelSetOf<E>, shared: SharedArena? = nil) throws(ModelError) {
        self.kernels = kernels
        let calibrated = try CalibratedGraph(graph, calibration: calibration)
        usedTable = calibrated.usedTable
        let quantization = QuantizationPlan(calibrated, calibration: calibration, as: E.self)
        let memory = try IntegerArena(graph: calibrated.graph, elementSize: MemoryLayout<E>.stride,
                                      tileRows: Self.tileRows, shared: shared)
        var lowering = Lowering(graph: calibrated.graph, quantization: quantization, memory: memory,
                                floatPlan: floatPlan, floatArena: floatArena)
        try lowering.lower()
        self.quantization = quantization
        self.memory = memory
        scratch16 = memory.scratch16
        scratch32 = memory.scratch32
        steps = lowering.steps
        stepTensors = lowering.stepTensors
    }

    func run() {
        for step in steps { run(step) }
    }

    /// LOGISTIC in float, kept out of line: inlined into `run(_:)`'s large switch, its loop's
    /// register allocation moved with unrelated changes (+4 aarch64 instructions per element).
    @inline(never)
    static func logistic(_ input: UnsafePointer<Float>, _ count: Int, _ output: UnsafeMutablePointer<Float>) {
        for i in 0..<count { output[i] = FloatMath.logistic(input[i]) }
    }

    @inline(__always)
    func run(_ step: Step) {
        let k = kernels
        do {
            switch step {
            case .quantize(let src, let count, let p, let dst):
                k.quantize(src, count, p, dst)
            case .dequantize(let src, let count, let p, let dst):
                k.dequantize(src, count, p, dst)
            case .conv(let input, let g, let zp, let w, let stage, let output):
                if E.bitWidth == 8, let gemm8 = k.gemm8,
                   conv2D8(UnsafeRawPointer(input).assumingMemoryBound(to: Int8.self), g, inputZeroPoint: zp, weights: w,
                           stage: stage, output: UnsafeMutableRawPointer(output).assumingMemoryBound(to: Int8.self),
                           scratch: UnsafeMutableRawPointer(scratch16), scratchBytes: Self.tileRows * w.depthStride * 2,
                           kernel: gemm8) {
                    break
                }
                conv2D(input, g, inputZeroPoint: zp, weights: w, stage: stage, output: output,
                       scratch: scratch16, scratchRows: Self.tileRows, kernel: k.gemm)
            case .convFloat(let input, let g, let zp, let w, let stage, let output):
                var first = 0
                let n = w.outputChannels
                while first < g.outputPixels {
                    let count = min(Self.tileRows, g.outputPixels - first)
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
                Self.logistic(input, count, output)
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
            case .resize(let input, let p, let output):
                k.resize(input, p, output)
            case .pad(let input, let spec, let output):
                spec.run(input, output)
            case .part(let src, let outer, let inner, let stride, let p, let dst):
                for o in 0..<outer { k.requantize(src + o * inner, inner, p, dst + o * stride) }
            case .partFloat(let src, let outer, let inner, let stride, let dst):
                for o in 0..<outer { (dst + o * stride).update(from: src + o * inner, count: inner) }
            case .partDequantize(let src, let outer, let inner, let stride, let p, let dst):
                for o in 0..<outer { k.dequantize(src + o * inner, inner, p, dst + o * stride) }
            }
        }
    }
}
