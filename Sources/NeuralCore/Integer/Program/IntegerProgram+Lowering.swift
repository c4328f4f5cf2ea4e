extension IntegerProgram {
    /// Pass 5: the graph turned into `Step`s, operation by operation. The op families are lowered
    /// in `IntegerProgram+Conv`, `+Depthwise`, `+Elementwise`, `+Pooling`, `+Activation` and
    /// `+Layout`; this file holds the walk and what they share (tensor pointers, parameters,
    /// activation bounds). Every inconsistency a model file can cause is a thrown `ModelError`
    /// naming the operator. One lowering per width `E`: `IntegerProgram.init` walks the graph and
    /// hands each operation to the lowering of its width (`WidthPlan`).
    struct Lowering<E: QuantizedActivation> {
        typealias Step = IntegerStep<E>
        let graph: Graph
        let quantization: QuantizationPlan
        let memory: IntegerArena
        /// The interpreter's float32 tensors: model inputs and outputs live there.
        let floatPlan: MemoryPlan
        let floatArena: UnsafeMutableRawPointer
        /// The steps of the operation being lowered (`IntegerProgram.init` takes them after each).
        var steps: [Step] = []
        /// "operator k (NAME)", for errors.
        var label = ""

        /// Model input `i` quantised from the interpreter's float tensor.
        mutating func lowerInput(_ i: Int) throws(ModelError) {
            append(.quantize(UnsafePointer(try float(i)), graph.tensors[i].elementCount, try parameters(i),
                             try quantized(i)))
        }

        /// Model output `o` dequantised into the interpreter's float tensor.
        mutating func lowerOutput(_ o: Int) throws(ModelError) {
            append(.dequantize(UnsafePointer(try quantized(o)), graph.tensors[o].elementCount, try parameters(o),
                               try float(o)))
        }

        /// One operation, by family.
        mutating func lower(_ op: Operation) throws(ModelError) {
            guard !op.inputs.isEmpty && op.inputs[0] >= 0 else { throw .malformed(label + " has no input") }
            let xs = try shape(op.inputs[0]), os = try shape(op.output)
            guard xs[0] == 1 && os[0] == 1 else { throw .unsupported(label + ": the integer path runs batch 1 only") }
            switch op.kind {
            case .conv2D(let g): try lowerConv2D(op, g)
            case .transposeConvBias(let g): try lowerTransposeConv(op, g)
            case .depthwiseConv2D(let g): try lowerDepthwise(op, g)
            case .add(let act): try lowerElementwise(op, .add, act)
            case .mul(let act): try lowerElementwise(op, .mul, act)
            case .prelu: try lowerPReLU(op)
            case .maxPool2D(let g): try lowerPool(op, .max, g)
            case .averagePool2D(let g): try lowerPool(op, .average, g)
            case .mean(let reduced): try lowerMean(op, reduced: reduced)
            case .logistic where quantization.isFloat[op.output]: try lowerFloatLogistic(op)
            case .relu, .hardSwish, .logistic: try lowerLookup(op)
            case .pad(let before, let after): try lowerPad(op, before: before, after: after)
            case .reshape: try lowerReshape(op)
            case .concatenation(let axis, let act): try lowerConcatenation(op, axis: axis, activation: act)
            case .resizeBilinear(let ac, let hp): try lowerResize(op, alignCorners: ac, halfPixelCenters: hp)
            case .landmarksToTransformMatrix, .transformTensorBilinear, .transformLandmarks:
                throw .unsupported(label + ": MediaPipe's landmark transforms run on the float path only")
            }
        }

        mutating func append(_ step: Step) {
            steps.append(step)
        }

        // MARK: - What the families share

        /// Tensor `t`'s 4-D shape.
        func shape(_ t: Int) throws(ModelError) -> [Int] {
            let s = graph.tensors[t].shape4
            guard s.count == 4 else { throw .unsupported(label + ": '" + graph.tensors[t].name + "' has rank above 4") }
            return s
        }

        /// Tensor `t`'s quantised storage in the arena, which must be at width `E`.
        func quantized(_ t: Int) throws(ModelError) -> UnsafeMutablePointer<E> {
            guard quantization.tensorBits[t] == 0 || quantization.tensorBits[t] == E.bitWidth else {
                throw .unsupported(label + " reads '" + graph.tensors[t].name + "' as " + String(E.bitWidth)
                                   + "-bit, but it is " + String(quantization.tensorBits[t]) + "-bit")
            }
            guard let p = memory.slot(t, as: E.self) else {
                throw .unsupported(label + " uses '" + graph.tensors[t].name + "' as an activation, but it is a constant")
            }
            return p
        }

        /// Tensor `t` in float32: the interpreter's own tensor for model inputs and outputs, else a
        /// buffer of the program.
        func float(_ t: Int) throws(ModelError) -> UnsafeMutablePointer<Float> {
            if graph.outputs.contains(t) || graph.inputs.contains(t) {
                guard let offset = floatPlan.offsets[t] else {
                    throw .malformed(label + ": model tensor '" + graph.tensors[t].name + "' has no float storage")
                }
                return (floatArena + offset).assumingMemoryBound(to: Float.self)
            }
            return memory.floatBuffer(t, count: graph.tensors[t].elementCount)
        }

        /// Tensor `t`'s quantisation parameters; a tensor the plan computes in float (or a
        /// constant) cannot be read as quantised.
        func parameters(_ t: Int) throws(ModelError) -> QuantParams {
            guard let p = quantization.parameters[t] else {
                throw .unsupported(label + " reads '" + graph.tensors[t].name + "', which the integer path does not quantise")
            }
            return p
        }

        /// Constant tensor `t`'s values.
        func constant(_ t: Int) throws(ModelError) -> [Float] {
            guard t >= 0 && graph.tensors[t].constantOffset != nil else {
                throw .unsupported(label + " needs a constant '" + (t >= 0 ? graph.tensors[t].name : "tensor") + "'")
            }
            return Array(graph.constant(t))
        }

        /// A fused activation's bounds in `p`'s quantised units of `E`.
        func bounds(_ a: Activation, _ p: QuantParams) -> (Int32, Int32) {
            switch a {
            case .none: return FusedActivation.none.bounds(p, as: E.self)
            case .relu: return FusedActivation.relu.bounds(p, as: E.self)
            case .relu6: return FusedActivation.relu6.bounds(p, as: E.self)
            case .reluN1To1: return FusedActivation.reluN1To1.bounds(p, as: E.self)
            }
        }
    }
}
