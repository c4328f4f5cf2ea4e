/// Writing a model input already quantised, on the integer path: a caller that produces the
/// input values itself (a sampler of camera pixels) computes each float value as before and
/// rounds it to the integer program's input slot at once (`QuantParams.quantize`'s rounding: half
/// away from zero, saturating), so the program's own quantise pass over a float copy of the
/// input is left out: the same bits, without the float staging.
///
///     if let slot = interpreter.quantizedInput(0), slot.bits == 16 {
///         interpreter.withQuantizedInput(0, as: Int16.self) { q in /* write q[k] = slot.parameters.quantize(x_k, as: Int16.self) */ }
///     } else {
///         interpreter.withInput(0) { x in /* write x[k] */ }
///     }
///     interpreter.run()
///
/// The input stays "written quantised" (its quantise step left out of every `run()`) until
/// `withInput` lends the float tensor again.
public struct QuantizedInput: Sendable, Equatable {
    /// Bits per value of the slot: 8 (`Int8`, asymmetric: any zero point) or 16 (`Int16`,
    /// symmetric: zero point 0).
    public let bits: Int
    /// value = scale · (q − zeroPoint); q = clamp(round(value / scale) + zeroPoint), computed as
    /// the program's quantise kernels compute it: `(value * (1 / scale)).rounded() + zeroPoint`.
    public let parameters: QuantParams
    /// Values in the slot (the input tensor's element count, NHWC order as the float tensor).
    public let count: Int
}

extension Interpreter {
    /// Where the integer program keeps one model input: its quantise step and slot.
    struct InputSlot {
        let step: Int
        let slot: UnsafeMutableRawPointer
        let input: QuantizedInput
    }

    /// The quantise step of each model input (the program's first steps), unless a float run
    /// reads that input straight from the float tensor (it would not see a quantised write).
    static func inputSlots(_ program: IntegerProgram, inputs: [Int]) -> [InputSlot?] {
        let graph = program.widths.graph
        var readAsFloat = Set<Int>()
        for island in program.islands {
            for k in island.operations {
                for t in graph.operations[k].inputs where inputs.contains(t) { readAsFloat.insert(t) }
            }
        }
        return inputs.map { t -> InputSlot? in
            guard !readAsFloat.contains(t) else { return nil }
            for (k, step) in program.steps.enumerated() where program.stepTensors[k] == t {
                switch step {
                case .int8(.quantize(_, let count, let p, let dst)):
                    return InputSlot(step: k, slot: UnsafeMutableRawPointer(dst), input: QuantizedInput(bits: 8, parameters: p, count: count))
                case .int16(.quantize(_, let count, let p, let dst)):
                    return InputSlot(step: k, slot: UnsafeMutableRawPointer(dst), input: QuantizedInput(bits: 16, parameters: p, count: count))
                default:
                    continue
                }
            }
            return nil
        }
    }

    /// How input `i` may be written quantised (`withQuantizedInput`): the slot's width and
    /// parameters. nil on the float path, and on the integer path where the program reads the
    /// input as float (a float run at the input): write floats with `withInput` then.
    public func quantizedInput(_ i: Int) -> QuantizedInput? {
        precondition(i >= 0 && i < inputSlots.count, "input index out of range")
        return inputSlots[i]?.input
    }

    /// Lends input `i`'s quantised slot for writing (`quantizedInput(i)` says its width and
    /// parameters; `E` must be `Int8` for an 8-bit slot, `Int16` for a 16-bit one). The next
    /// `run()` starts from these values and leaves out the input's quantise pass. The slot lives
    /// in the program's working memory: with a `SharedArena` write it just before the run, as the
    /// float inputs.
    public func withQuantizedInput<E: QuantizedActivation, R>(_ i: Int, as _: E.Type,
                                                                _ body: (UnsafeMutableBufferPointer<E>) -> R) -> R {
        guard let s = inputSlots[i] else {
            preconditionFailure("this input cannot be written quantised (float path, or a float run reads it): check quantizedInput(_:)")
        }
        precondition(s.input.bits == E.bitWidth, "the input slot's width is not E's (quantizedInput(_:).bits)")
        inputWrittenQuantized[i] = true
        return body(UnsafeMutableBufferPointer(start: s.slot.assumingMemoryBound(to: E.self), count: s.input.count))
    }

    /// `program.run()` without the quantise steps of the inputs written quantised.
    func runSkippingQuantizedInputs(_ program: IntegerProgram) {
        let steps = program.steps
        var k = 0
        while k < steps.count {
            var skip = false
            for i in 0..<inputSlots.count where inputWrittenQuantized[i] && inputSlots[i]?.step == k { skip = true }
            if !skip { program.run(steps[k]) }
            k += 1
        }
    }
}
