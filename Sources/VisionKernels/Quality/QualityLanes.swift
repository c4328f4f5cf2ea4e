/// Lane widening for the quality kernels' (and the mask warp's) SIMD variants, written lane by lane.
///
/// `SIMD16<UInt32>(truncatingIfNeeded: SIMD16<UInt8>)` is a generic per-lane loop that the
/// Swift 6.3 optimiser leaves out of line in these bodies (a call per 16 pixels, which
/// scripts/arm/neon-check reports); the same conversion spelled lane by lane is recognised as
/// one vector zero-extension (uxtl/uxtl2 on aarch64, vpmovzxbd on x86-64). Same values either way.
enum QualityLanes {
    @inline(__always)
    static func widen(_ v: SIMD16<UInt8>) -> SIMD16<UInt32> {
        SIMD16(UInt32(v[0]), UInt32(v[1]), UInt32(v[2]), UInt32(v[3]), UInt32(v[4]), UInt32(v[5]), UInt32(v[6]), UInt32(v[7]),
               UInt32(v[8]), UInt32(v[9]), UInt32(v[10]), UInt32(v[11]), UInt32(v[12]), UInt32(v[13]), UInt32(v[14]), UInt32(v[15]))
    }

    @inline(__always)
    static func widen16(_ v: SIMD16<UInt8>) -> SIMD16<UInt16> {
        SIMD16(UInt16(v[0]), UInt16(v[1]), UInt16(v[2]), UInt16(v[3]), UInt16(v[4]), UInt16(v[5]), UInt16(v[6]), UInt16(v[7]),
               UInt16(v[8]), UInt16(v[9]), UInt16(v[10]), UInt16(v[11]), UInt16(v[12]), UInt16(v[13]), UInt16(v[14]), UInt16(v[15]))
    }

    @inline(__always)
    static func widen(_ v: SIMD16<UInt16>) -> SIMD16<UInt32> {
        SIMD16(UInt32(v[0]), UInt32(v[1]), UInt32(v[2]), UInt32(v[3]), UInt32(v[4]), UInt32(v[5]), UInt32(v[6]), UInt32(v[7]),
               UInt32(v[8]), UInt32(v[9]), UInt32(v[10]), UInt32(v[11]), UInt32(v[12]), UInt32(v[13]), UInt32(v[14]), UInt32(v[15]))
    }
}
