/// The output stage of 16 channels with every constant in registers: `OutputStageGroup` and the
/// stage's scalars, loaded once per block of a GEMM so that the per-row work is vector
/// arithmetic only. `apply` expects accumulators that already hold the bias.
///
/// Equal to `OutputStage.apply` lane by lane: with `y = (acc << left) · m` (64-bit, |y| < 2^62)
/// the reference computes `s = ⌊(y + 2^30) / 2^31⌋` (gemmlowp's doubling high multiply for
/// `m ≠ Int32.min`), then `⌊(s + 2^(e−1) − [s < 0]) / 2^e⌋` for `e ≥ 1` (rounding half away from
/// zero) and `s` for `e = 0`. Nested floors of integer quotients merge:
/// `⌊(⌊z / 2^31⌋ + c) / 2^e⌋ = ⌊(z + c·2^31) / 2^(31+e)⌋`, so the result is
/// `(y + 2^30 + 2^(30+e) − [s < 0]·2^31) >> (31+e)` — one rounding constant and one 64-bit
/// arithmetic shift. `[s < 0]` may be replaced by `[y < 0]`: they differ only for
/// `y ∈ [−2^30, 0)`, where `s = 0` and both forms give 0 (`e ≥ 1`). Adding `zp·2^(31+e)` adds the
/// zero point exactly (wrapping to int32 afterwards as the reference's `&+` does).
/// Requires `stage.fusedExact`.
struct StageRegisters {
    let group: OutputStageGroup
    let leftShift: Bool
    let zeroPoint: I32x16
    let minimum: I32x16
    let maximum: I32x16

    @inline(always)
    init(_ stage: OutputStage, group g: Int) {
        group = stage.groups[g]
        leftShift = stage.hasLeftShift
        zeroPoint = I32x16(repeating: stage.zeroPointFolded ? 0 : stage.outputZeroPoint)
        minimum = I32x16(repeating: stage.minimum)
        maximum = I32x16(repeating: stage.maximum)
    }

    /// Requantised lanes, clamped (not narrowed).
    @inline(always)
    func apply(_ acc: I32x16) -> I32x16 {
        var v = requantize(acc)
        // Only the stdlib's concrete (builtin) 16-lane operations: `replacing(with:where:)`,
        // `&` and `|` are generic lane loops that LLVM vectorised only partly for 16 lanes
        // (per-lane selects and stores). `v + (v − bound)·m` with `m` the comparison's −1/0
        // lanes is `bound` where `m` is set; LLVM folds it into `vpmaxsd`/`vpminsd`.
        v = v &+ (v &- minimum) &* (v .< minimum)._storage
        v = v &+ (v &- maximum) &* (v .> maximum)._storage
        return v
    }

    /// Requantised lanes, before the clamp.
    @inline(always)
    func requantize(_ acc: I32x16) -> I32x16 {
        var x = acc
        if leftShift { x = x &<< group.left }
        let x64 = unsafeBitCast(x, to: SIMD8<Int64>.self)
        let m64 = unsafeBitCast(group.multiplier, to: SIMD8<Int64>.self)
        // Even lanes: the sign-extended low halves (`vpmuldq`); odd lanes: the high halves.
        let ye = ((x64 &<< 32) &>> 32) &* ((m64 &<< 32) &>> 32)
        let yo = (x64 &>> 32) &* (m64 &>> 32)
        var te = ye &+ group.roundEven
        var to = yo &+ group.roundOdd
        // Arithmetic, not `replacing(with:where: y .< 0)`: comparisons with a scalar become lane
        // loops through memory.
        te &-= group.negativeEven & (ye &>> 63)
        to &-= group.negativeOdd & (yo &>> 63)
        te = te &>> group.shiftEven
        to = to &>> group.shiftOdd
        let low = SIMD8<Int64>(repeating: 0xFFFF_FFFF)
        return unsafeBitCast((te & low) | (to &<< 32), to: I32x16.self) &+ zeroPoint
    }
}
