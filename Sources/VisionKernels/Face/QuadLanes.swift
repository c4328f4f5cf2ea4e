/// Eight pixels' 2×2 neighbourhoods as bytes, one vector per neighbour and channel: `TensorWarp`'s
/// SIMD variant gathers each lane's reads here (one byte insert per read) and converts whole
/// vectors to floats, instead of converting and inserting every read as a float.
struct QuadLanes {
    /// Top-left, top-right, bottom-left, bottom-right; channels 0, 1, 2 (R G B, or Y Cb Cr).
    var c00 = (SIMD8<UInt8>(), SIMD8<UInt8>(), SIMD8<UInt8>())
    var c10 = (SIMD8<UInt8>(), SIMD8<UInt8>(), SIMD8<UInt8>())
    var c01 = (SIMD8<UInt8>(), SIMD8<UInt8>(), SIMD8<UInt8>())
    var c11 = (SIMD8<UInt8>(), SIMD8<UInt8>(), SIMD8<UInt8>())

    /// The lanes as floats, lane by lane: one vector widening and conversion (the generic
    /// `SIMD8<Float>(_:)` conversion is a per-lane loop in Swift 6.3). The model-input sampler's too.
    @inline(__always)
    static func floats(_ v: SIMD8<UInt8>) -> SIMD8<Float> {
        SIMD8(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]), Float(v[4]), Float(v[5]), Float(v[6]), Float(v[7]))
    }
}
