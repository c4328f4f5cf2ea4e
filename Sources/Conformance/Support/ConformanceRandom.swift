/// SplitMix64: the seeded generator behind every conformance input, so a case is reproducible
/// from its seed on any architecture (the same sequence as `TestSupport.SeededGenerator`).
public struct ConformanceRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Fills `count` bytes at `base` with generator output (little-endian words, then a tail).
    public mutating func fill(_ base: UnsafeMutableRawPointer, count: Int) {
        var i = 0
        while i + 8 <= count {
            base.storeBytes(of: next().littleEndian, toByteOffset: i, as: UInt64.self)
            i += 8
        }
        var word = next()
        while i < count {
            base.storeBytes(of: UInt8(truncatingIfNeeded: word), toByteOffset: i, as: UInt8.self)
            word >>= 8
            i += 1
        }
    }
}
