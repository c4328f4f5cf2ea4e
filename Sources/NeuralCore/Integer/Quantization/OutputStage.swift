import CNeuralKernels

/// Output stage of a convolution-like op, per output channel `c`:
/// `clamp(MBQM(acc + bias[c], m[c]) + zeroPoint, minimum, maximum)`.
/// Storage is allocated once at load, padded with neutral entries to a multiple of 16 channels so
/// SIMD loads never run past the end.
public final class OutputStage {
    public let channels: Int
    public let paddedChannels: Int
    let bias: UnsafeMutablePointer<Int32>
    let multiplier: UnsafeMutablePointer<Int32>
    let leftShift: UnsafeMutablePointer<Int32>
    let rightShift: UnsafeMutablePointer<Int32>
    /// The same per 8 channels as vectors: bias, multiplier, left shift, right shift.
    let vectors: UnsafeMutablePointer<I32x8>
    public let outputZeroPoint: Int32
    /// Quantised activation bounds (fused RELU/RELU6 or the full int8 range).
    public let minimum: Int32
    public let maximum: Int32
    /// Per 16 channels, the constants of the fused 16-lane stage (`StageRegisters`).
    let groups: UnsafeMutablePointer<OutputStageGroup>
    /// Some channel has a left shift (otherwise `StageRegisters` skips the shift).
    let hasLeftShift: Bool
    /// The output zero point is folded into `OutputStageGroup.round` (otherwise added after).
    let zeroPointFolded: Bool
    /// Every channel's shifts are in `0...31`, the range the fused stage is exact for (always
    /// true for a `FixedMultiplier(real)`); otherwise the GEMM uses the 8-lane `applyStage`.
    let fusedExact: Bool

    public init(bias: [Int32], multipliers: [FixedMultiplier], outputZeroPoint: Int32,
                minimum: Int32 = -128, maximum: Int32 = 127) {
        precondition(bias.count == multipliers.count && minimum <= maximum)
        channels = bias.count
        paddedChannels = (bias.count + 15) / 16 * 16
        self.bias = .allocate(capacity: paddedChannels)
        multiplier = .allocate(capacity: paddedChannels)
        leftShift = .allocate(capacity: paddedChannels)
        rightShift = .allocate(capacity: paddedChannels)
        for c in 0..<paddedChannels {
            let real = c < channels
            self.bias[c] = real ? bias[c] : 0
            multiplier[c] = real ? multipliers[c].multiplier : 0
            leftShift[c] = real ? multipliers[c].leftShift : 0
            rightShift[c] = real ? multipliers[c].rightShift : 0
        }
        self.outputZeroPoint = outputZeroPoint
        self.minimum = minimum
        self.maximum = maximum
        vectors = .allocate(capacity: paddedChannels / 2)
        for g in 0..<(paddedChannels / 8) {
            var b = I32x8(), m = I32x8(), l = I32x8(), r = I32x8()
            for i in 0..<8 {
                b[i] = self.bias[g * 8 + i]; m[i] = multiplier[g * 8 + i]
                l[i] = leftShift[g * 8 + i]; r[i] = rightShift[g * 8 + i]
            }
            (vectors + g * 4).initialize(to: b)
            (vectors + g * 4 + 1).initialize(to: m)
            (vectors + g * 4 + 2).initialize(to: l)
            (vectors + g * 4 + 3).initialize(to: r)
        }
        var anyLeft = false, exact = true, fold = true
        for c in 0..<paddedChannels {
            let l = leftShift[c], e = rightShift[c]
            if l != 0 { anyLeft = true }
            if l < 0 || l > 31 || e < 0 || e > 31 { exact = false; continue }
            // |y| ≤ 2^62 − 2^31 (a 32×32-bit product); `y + round` must not overflow, so the
            // rounding constant with the zero point folded in must stay within 2^62 − 2^32
            // (without it, 2^30 + 2^61 always does).
            let round = pow2(30) + (e >= 1 ? pow2(30 + Int(e)) : 0)
                + Double(outputZeroPoint.magnitude) * pow2(31 + Int(e))
            if !(round <= pow2(62) - pow2(32)) { fold = false }
        }
        hasLeftShift = anyLeft
        fusedExact = exact
        zeroPointFolded = fold
        groups = .allocate(capacity: paddedChannels / 16)
        for g in 0..<(paddedChannels / 16) {
            var grp = OutputStageGroup()
            for i in 0..<16 {
                let c = g * 16 + i
                grp.bias[i] = self.bias[c]
                grp.left[i] = leftShift[c] & 31
                grp.multiplier[i] = multiplier[c]
                let e = Int64(rightShift[c] & 31)
                var round: Int64 = 1 << 30
                if e >= 1 { round += 1 << (30 + e) }
                if fold { round += Int64(outputZeroPoint) << (31 + e) }
                let lane = i / 2
                if i & 1 == 0 {
                    grp.roundEven[lane] = round
                    grp.negativeEven[lane] = e >= 1 ? 1 << 31 : 0
                    grp.shiftEven[lane] = 31 + e
                } else {
                    grp.roundOdd[lane] = round
                    grp.negativeOdd[lane] = e >= 1 ? 1 << 31 : 0
                    grp.shiftOdd[lane] = 31 + e
                }
            }
            (groups + g).initialize(to: grp)
        }
    }

    deinit {
        groups.deallocate()
        vectors.deallocate()
        bias.deallocate()
        multiplier.deallocate()
        leftShift.deallocate()
        rightShift.deallocate()
    }

    /// The stage as CNeuralKernels' `booth_output_stage` (pointers into this object: valid while
    /// it lives).
    var neonStage: booth_output_stage {
        booth_output_stage(bias: UnsafePointer(bias), multiplier: UnsafePointer(multiplier),
                           left_shift: UnsafePointer(leftShift), right_shift: UnsafePointer(rightShift),
                           zero_point: outputZeroPoint, minimum: minimum, maximum: maximum)
    }

    /// Scalar output stage for channel `c` (`minimum...maximum` lie in `E`'s range).
    @inline(__always)
    func apply<E: QuantizedActivation>(_ acc: Int32, channel c: Int) -> E {
        let v = multiplyByQuantizedMultiplier(acc &+ bias[c], multiplier[c], leftShift[c], rightShift[c])
        return E(truncatingIfNeeded: clamp32(v &+ outputZeroPoint, minimum, maximum))
    }

}

/// SIMD output stage for channels `c ..< c+8` of `stage` (c + 8 <= paddedChannels). A free
/// transparent function so that it is always inlined into the kernels' loops.
@_transparent
func applyStage<E: QuantizedActivation>(_ stage: OutputStage, _ acc: I32x8, channel c: Int) -> SIMD8<E> {
    let v8 = stage.vectors + (c >> 3) * 4
    var v = multiplyByQuantizedMultiplier(acc &+ v8[0], v8[1], v8[2], v8[3]) &+ stage.outputZeroPoint
    v = vmax(v, I32x8(repeating: stage.minimum))
    v = vmin(v, I32x8(repeating: stage.maximum))
    return narrow(v)
}
