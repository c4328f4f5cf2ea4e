/// Symmetric per-channel int8 weights: `real = scales[c] * values[i]`, values in -127...127
/// (never -128, so that two int8×int8 products always fit an int16 pair sum).
public struct ChannelWeights: Sendable {
    /// Weights in the layout they were given in.
    public var values: [Int8]
    /// One scale per channel.
    public var scales: [Float]
    /// Where the channel index sits in the flat layout.
    public let channelAxis: ChannelAxis

    public enum ChannelAxis: Sendable, Equatable {
        /// Channel outermost, `[C][rest]` (CONV_2D and transpose-conv filters).
        case outermost
        /// Channel innermost, `[rest][C]` (DEPTHWISE_CONV_2D filters, PRELU alpha).
        case innermost
    }

    public var channels: Int { scales.count }

    /// Quantises `weights` channel by channel with `scale = max|w| / 127`, or, with `clipSearch`,
    /// the scale of least squared error (clipping the largest weights when that pays).
    public init(quantizing weights: [Float], channels: Int, axis: ChannelAxis, clipSearch: Bool = false) {
        precondition(channels > 0 && weights.count % channels == 0)
        let inner = weights.count / channels
        @inline(__always) func channel(_ i: Int) -> Int {
            axis == .outermost ? i / inner : i % channels
        }
        var maxAbs = [Float](repeating: 0, count: channels)
        for i in 0..<weights.count {
            let a = weights[i] < 0 ? -weights[i] : weights[i]
            let c = channel(i)
            if a > maxAbs[c] { maxAbs[c] = a }
        }
        var scales = [Float](repeating: 1, count: channels)
        for c in 0..<channels where maxAbs[c] > 0 { scales[c] = maxAbs[c] / 127 }
        if clipSearch {
            // Per channel, the scale (max|w|·α/127, α from 1 down to 0.5) with the least squared error.
            var best = [Double](repeating: .infinity, count: channels)
            var chosen = scales
            var alpha: Float = 1
            while alpha >= 0.5 {
                var err = [Double](repeating: 0, count: channels)
                for i in 0..<weights.count {
                    let c = channel(i)
                    guard maxAbs[c] > 0 else { continue }
                    let sc = maxAbs[c] * alpha / 127
                    var q = (weights[i] / sc).rounded()
                    q = q < -127 ? -127 : (q > 127 ? 127 : q)
                    let d = Double(weights[i] - q * sc)
                    err[c] += d * d
                }
                for c in 0..<channels where maxAbs[c] > 0 && err[c] < best[c] {
                    best[c] = err[c]
                    chosen[c] = maxAbs[c] * alpha / 127
                }
                alpha -= 0.02
            }
            scales = chosen
        }
        var values = [Int8](repeating: 0, count: weights.count)
        for i in 0..<weights.count {
            var q = (weights[i] / scales[channel(i)]).rounded()
            q = q < -127 ? -127 : (q > 127 ? 127 : q)
            values[i] = Int8(q)
        }
        self.values = values
        self.scales = scales
        self.channelAxis = axis
    }

    /// Float bias → int32 at scale `inputScale * scales[c]`.
    public func quantizedBias(_ bias: [Float]?, inputScale: Float) -> [Int32] {
        var out = [Int32](repeating: 0, count: channels)
        guard let bias else { return out }
        precondition(bias.count == channels)
        for c in 0..<channels {
            let q = (Double(bias[c]) / (Double(inputScale) * Double(scales[c]))).rounded()
            out[c] = Int32(q < -2147483648 ? -2147483648 : (q > 2147483647 ? 2147483647 : q))
        }
        return out
    }

    /// Requantisation multipliers `inputScale * scales[c] / output.scale`.
    public func multipliers(inputScale: Float, output: QuantParams) -> [FixedMultiplier] {
        var out: [FixedMultiplier] = []
        out.reserveCapacity(channels)
        for c in 0..<channels {
            out.append(FixedMultiplier(Double(inputScale) * Double(scales[c]) / Double(output.scale)))
        }
        return out
    }
}
