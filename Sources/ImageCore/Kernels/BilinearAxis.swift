/// Source positions of a bilinear resize along one axis, in fixed point.
///
/// Destination pixel `i` samples the source at the pixel-centre-aligned position
/// `(i + 0.5) * src / dst - 0.5`, computed in Q16 as
/// `f = floor((2i + 1) * src * 2^15 / dst) - 2^15`, clamped to `0 ... (src-1) * 2^16`.
/// The taps are `i0 = f >> 16`, `i1 = min(i0 + 1, src - 1)` with weight `w = (f >> 8) & 255`
/// (Q8) on `i1`. `next()` walks `i = 0, 1, 2, …` without dividing (exact remainder stepping).
@usableFromInline
struct BilinearAxis {
    let source: Int
    let destination: Int
    var quotient: Int
    var remainder: Int
    let stepQuotient: Int
    let stepRemainder: Int

    init(source: Int, destination: Int) {
        precondition(source > 0 && destination > 0, "resize: empty axis")
        self.source = source
        self.destination = destination
        quotient = (source << 15) / destination
        remainder = (source << 15) % destination
        stepQuotient = (source << 16) / destination
        stepRemainder = (source << 16) % destination
    }

    /// The taps of position `i` directly (what `next()` returns at step `i`).
    static func taps(_ i: Int, source: Int, destination: Int) -> (i0: Int, i1: Int, weight: Int) {
        clampTaps(((2 * i + 1) * source << 15) / destination, source: source)
    }

    @inline(__always)
    static func clampTaps(_ q: Int, source: Int) -> (i0: Int, i1: Int, weight: Int) {
        let f = min(max(q - (1 << 15), 0), (source - 1) << 16)
        let i0 = f >> 16
        return (i0, min(i0 + 1, source - 1), (f >> 8) & 255)
    }

    /// The taps of the next destination pixel.
    @inline(__always)
    mutating func next() -> (i0: Int, i1: Int, weight: Int) {
        let t = BilinearAxis.clampTaps(quotient, source: source)
        quotient += stepQuotient
        remainder += stepRemainder
        if remainder >= destination {
            remainder -= destination
            quotient += 1
        }
        return t
    }
}
