/// Float functions the kernels need, written here because NeuralCore imports no C math library
/// (it builds as Embedded Swift). Accuracy is about 2 ulp over the float range.
enum FloatMath {
    /// e^x: x = k·ln2 + r with |r| ≤ ln2/2, e^r by a degree-7 Taylor polynomial, scaled by 2^k.
    @inline(__always)
    static func exp(_ x: Float) -> Float {
        if x.isNaN { return x }
        let c = min(max(x, -87.3), 88.7)
        let k = (c * 1.442_695_04).rounded(.toNearestOrEven)
        // Two-part ln2 so that r is exact to float precision.
        let r = (c - k * 0.693_145_751_953_125) - k * 1.428_606_765_330_187e-6
        var p: Float = 1.0 / 5040
        p = p * r + 1.0 / 720
        p = p * r + 1.0 / 120
        p = p * r + 1.0 / 24
        p = p * r + 1.0 / 6
        p = p * r + 0.5
        p = p * r + 1
        p = p * r + 1
        let scale = Float(bitPattern: UInt32(bitPattern: Int32(k) + 127) << 23)
        return p * scale
    }

    @inline(__always)
    static func logistic(_ x: Float) -> Float {
        1 / (1 + exp(-x))
    }

    @inline(__always)
    static func hardSwish(_ x: Float) -> Float {
        x * min(max(x + 3, 0), 6) * (1.0 / 6)
    }
}
