import ImageCore

/// FNV-1a, 64 bit: the checksum of a kernel's output that the x86 golden file stores and the
/// aarch64 runner recomputes. Serial by construction (each byte depends on the previous hash),
/// so its loop is also the conformance target's known-scalar probe for the NEON check.
public struct FNV1a: Sendable, Equatable {
    public static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    public static let prime: UInt64 = 0x0000_0100_0000_01B3

    public private(set) var value: UInt64 = FNV1a.offsetBasis

    public init() {}

    /// Mixes `count` bytes starting at `base`.
    public mutating func combine(_ base: UnsafeRawPointer, count: Int) {
        value = FNV1a.hashBytes(base, count: count, seed: value)
    }

    /// Mixes the pixel bytes of every row of `plane` (not its stride slack or padding).
    public mutating func combine(_ plane: Plane) {
        for y in 0..<plane.height {
            combine(UnsafeRawPointer(plane.row(y)), count: plane.rowBytes)
        }
    }

    /// Mixes one 64-bit value, little-endian byte order.
    public mutating func combine(_ word: UInt64) {
        var w = word
        for _ in 0..<8 {
            value = (value ^ (w & 0xFF)) &* FNV1a.prime
            w >>= 8
        }
    }

    /// The hash loop. Kept out of line with a fixed name so `scripts/arm/neon-check` can find it
    /// as its expected-scalar probe (see `scripts/arm/neon-kernels.txt`).
    @inline(never)
    public static func hashBytes(_ base: UnsafeRawPointer, count: Int, seed: UInt64) -> UInt64 {
        var h = seed
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var i = 0
        while i < count {
            h = (h ^ UInt64(bytes[i])) &* prime
            i &+= 1
        }
        return h
    }
}
