/// How the float convolutions accumulate `acc + x · w`: the kernels are generic over it, so each
/// arithmetic gets its own specialised loops (no branch per product).
///
/// - `FloatArithmetic.Fused`: one rounding per multiply-add (`addingProduct`: `fmla` on aarch64,
///   `vfmadd` on x86-64 with FMA). The float inference engine (`Interpreter`, path `.float`).
/// - `FloatArithmetic.Separate`: the product rounded, then the sum (`acc + x * w`). The arithmetic
///   the integer calibration records its activation ranges with (load-time calibration, the
///   offline tables of `scripts/calibrate`, the diagnostics): ranges are data, and recording
///   them with the arithmetic the shipped tables were made with keeps them reproducible and the
///   integer path's results independent of how fast the float engine is.
///
/// Both give the same bits on x86-64 and aarch64, and each kernel's scalar reference uses the
/// same arithmetic in the same order as its SIMD variant, so the two agree bit for bit.
protocol FloatMultiplyAdd {
    static func madd(_ acc: Float, _ x: Float, _ w: Float) -> Float
    static func madd(_ acc: SIMD8<Float>, _ x: SIMD8<Float>, _ w: SIMD8<Float>) -> SIMD8<Float>
}

/// The two arithmetics of `FloatMultiplyAdd`.
enum FloatArithmetic {
    /// Fused: `acc.addingProduct(x, w)`.
    enum Fused: FloatMultiplyAdd {
        @inline(__always)
        static func madd(_ acc: Float, _ x: Float, _ w: Float) -> Float { acc.addingProduct(x, w) }
        @inline(__always)
        static func madd(_ acc: SIMD8<Float>, _ x: SIMD8<Float>, _ w: SIMD8<Float>) -> SIMD8<Float> {
            acc.addingProduct(x, w)
        }
    }

    /// Separately rounded: `acc + x * w`.
    enum Separate: FloatMultiplyAdd {
        @inline(__always)
        static func madd(_ acc: Float, _ x: Float, _ w: Float) -> Float { acc + x * w }
        @inline(__always)
        static func madd(_ acc: SIMD8<Float>, _ x: SIMD8<Float>, _ w: SIMD8<Float>) -> SIMD8<Float> { acc + x * w }
    }
}
