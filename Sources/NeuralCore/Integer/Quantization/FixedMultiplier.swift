/// A real multiplier in fixed point: `real ≈ multiplier * 2^(shift - 31)`.
public struct FixedMultiplier: Sendable, Equatable {
    public var multiplier: Int32
    public var shift: Int32

    public init(multiplier: Int32, shift: Int32) {
        precondition(multiplier != Int32.min)
        self.multiplier = multiplier
        self.shift = shift
    }

    /// TFLite's `QuantizeMultiplier`: `real = m * 2^e`, `m` in [0.5, 1) as a Q31 value.
    /// Negative reals give a negative multiplier (never `Int32.min`). Zero gives 0.
    public init(_ real: Double) {
        if real == 0 || !real.isFinite {
            self.multiplier = 0
            self.shift = 0
            return
        }
        var m = real < 0 ? -real : real
        var e: Int32 = 0
        while m >= 1 { m *= 0.5; e += 1 }
        while m < 0.5 { m *= 2; e -= 1 }
        var q = (m * 2147483648.0).rounded()
        if q >= 2147483648.0 { q *= 0.5; e += 1 }
        if e < -31 { e = 0; q = 0 }
        if e > 30 { e = 30; q = 2147483647 }
        let qi = Int32(q)
        self.multiplier = real < 0 ? -qi : qi
        self.shift = e
    }

    /// The real value this multiplier represents.
    public var real: Double {
        Double(multiplier) * pow2(Int(shift) - 31)
    }

    public var leftShift: Int32 { shift > 0 ? shift : 0 }
    public var rightShift: Int32 { shift > 0 ? 0 : -shift }
}

@inline(__always)
func pow2(_ e: Int) -> Double {
    var r = 1.0
    if e >= 0 { for _ in 0..<e { r *= 2 } } else { for _ in 0..<(-e) { r *= 0.5 } }
    return r
}
