/// CONV_2D output computed in float from the int32 accumulators:
/// `acc · inputScale · weightScale[c] + bias[c]`, clamped by the fused activation.
final class FloatOutputStage {
    let scale: [Float]
    let bias: [Float]
    let lower: Float, upper: Float

    init(weights: ChannelWeights, inputScale: Float, bias: [Float]?, activation: Activation) {
        scale = weights.scales.map { $0 * inputScale }
        self.bias = bias ?? [Float](repeating: 0, count: weights.channels)
        (lower, upper) = activation.bounds
    }

    init(scale: [Float], bias: [Float], lower: Float, upper: Float) {
        self.scale = scale
        self.bias = bias
        self.lower = lower
        self.upper = upper
    }

    func apply(_ acc: UnsafePointer<Int32>, rows: Int, channels n: Int, output: UnsafeMutablePointer<Float>,
               rowStride: Int) {
        scale.withUnsafeBufferPointer { s in
            bias.withUnsafeBufferPointer { b in
                for r in 0..<rows {
                    for c in 0..<n {
                        let v = Float(acc[r * n + c]) * s[c] + b[c]
                        output[r * rowStride + c] = min(max(v, lower), upper)
                    }
                }
            }
        }
    }
}
