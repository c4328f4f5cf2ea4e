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

    /// Quantises `weights` channel by channel with `scale = max|w| / 127`.
    public init(quantizing weights: [Float], channels: Int, axis: ChannelAxis) {
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
