// libFuzzer target for NeuralCore's model loading: any byte string must either load or give a
// ModelError, never crash or read out of bounds. Built by scripts/fuzz-model together with the
// NeuralCore sources (`swiftc -sanitize=fuzzer,address -parse-as-library`), seeded with the real
// models. Inputs that load are also run once when their cost is modest, so the kernels see the
// shapes the graph checks let through.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModel(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let model: TFLiteModel
    do {
        model = try TFLiteModel(bytes: bytes)
    } catch {
        _ = error.description
        return 0
    }
    let interpreter: Interpreter
    do {
        interpreter = try Interpreter(model: model)
    } catch {
        _ = error.description
        return 0
    }
    // Skip running models whose arena or arithmetic would make one execution slow.
    guard interpreter.arenaByteCount <= 64 << 20 else { return 0 }
    var work = 0
    for op in interpreter.graph.operations {
        let out = interpreter.graph.tensors[op.output].elementCount
        switch op.kind {
        case .conv2D, .transposeConvBias, .depthwiseConv2D:
            let w = interpreter.graph.tensors[op.inputs[1]]
            work += out * w.elementCount / max(w.shape[0], 1)
        default:
            work += out * 4
        }
    }
    guard work <= 100_000_000 else { return 0 }
    for i in 0..<interpreter.inputCount {
        interpreter.withInput(i) { buffer in
            for k in buffer.indices { buffer[k] = Float(k % 7) * 0.25 - 0.5 }
        }
    }
    interpreter.run()
    var sum: Float = 0
    for i in 0..<interpreter.outputCount {
        interpreter.withOutput(i) { for v in $0 { sum += v } }
    }
    return sum.isNaN ? 0 : 0
}
