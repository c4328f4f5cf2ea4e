/// Eight pixels' 2×2 neighbourhoods as bytes, one vector per neighbour and channel: `TensorWarp`'s
/// SIMD variant gathers each lane's reads here and converts whole vectors to floats, instead of
/// converting and inserting every read as a float. On x86-64 the reads go into the vector lanes
/// (one insert per read); on aarch64 into `Bytes` with plain byte stores (byte
/// `24·neighbour + 8·channel + lane`), loaded as vectors afterwards.
struct QuadLanes {
    /// Top-left, top-right, bottom-left, bottom-right; channels 0, 1, 2 (R G B, or Y Cb Cr).
    var c00 = (SIMD8<UInt8>(), SIMD8<UInt8>(), SIMD8<UInt8>())
    var c10 = (SIMD8<UInt8>(), SIMD8<UInt8>(), SIMD8<UInt8>())
    var c01 = (SIMD8<UInt8>(), SIMD8<UInt8>(), SIMD8<UInt8>())
    var c11 = (SIMD8<UInt8>(), SIMD8<UInt8>(), SIMD8<UInt8>())

    /// 96 bytes of stack for one step's reads (written and read through a raw pointer only).
    typealias Bytes = (SIMD32<UInt8>, SIMD32<UInt8>, SIMD32<UInt8>)

    /// The lanes as floats, lane by lane: one vector widening and conversion (the generic
    /// `SIMD8<Float>(_:)` conversion is a per-lane loop in Swift 6.3). The model-input sampler's too.
    @inline(__always)
    static func floats(_ v: SIMD8<UInt8>) -> SIMD8<Float> {
        SIMD8(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]), Float(v[4]), Float(v[5]), Float(v[6]), Float(v[7]))
    }
}
