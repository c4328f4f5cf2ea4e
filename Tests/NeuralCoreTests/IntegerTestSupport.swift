import NeuralCore
import TestSupport

/// Helpers shared by the integer kernel tests.
enum IntTest {
    static func int8s(_ n: Int, _ g: inout SeededGenerator, range: ClosedRange<Int8> = -128...127) -> [Int8] {
        (0..<n).map { _ in Int8.random(in: range, using: &g) }
    }

    static func floats(_ n: Int, _ g: inout SeededGenerator, _ r: ClosedRange<Float>) -> [Float] {
        (0..<n).map { _ in Float.random(in: r, using: &g) }
    }

    /// Expected int8 for a real value under `q`, clamped to `[lo, hi]`.
    static func expected(_ real: Double, _ q: QuantParams, lo: Int32 = -128, hi: Int32 = 127) -> Int32 {
        let v = (real / Double(q.scale)).rounded() + Double(q.zeroPoint)
        return Int32(max(Double(lo), min(Double(hi), v)))
    }

    /// Largest |a[i] - b[i]|.
    static func maxDiff(_ a: [Int8], _ b: [Int32]) -> Int32 {
        var m: Int32 = 0
        for i in 0..<a.count { m = max(m, abs(Int32(a[i]) - b[i])) }
        return m
    }

    /// Runs `body` once per kernel variant with an output buffer of `count` bytes and returns the
    /// outputs, the reference's first.
    static func eachVariant(_ count: Int, _ body: (IntegerKernelSet, UnsafeMutablePointer<Int8>) -> Void) -> [[Int8]] {
        IntegerKernels.all.map { set in
            var out = [Int8](repeating: 0x55, count: count)
            out.withUnsafeMutableBufferPointer { body(set, $0.baseAddress!) }
            return out
        }
    }

    /// Max or average pooling of a height×width×c tensor in doubles (the window clipped to the
    /// input, averages rounded half away from zero), clamped to `[lo, hi]`: the reference both
    /// the int8 and the int16 pooling kernels are held to.
    static func referencePool(_ input: [Double], height: Int, width: Int, channels c: Int, _ geo: WindowGeometry,
                              _ kind: PoolParams.Kind, lo: Double, hi: Double) -> [Int32] {
        var want = [Int32]()
        for oy in 0..<geo.outputHeight {
            for ox in 0..<geo.outputWidth {
                for ch in 0..<c {
                    var m = -Double.infinity, sum = 0.0, n = 0.0
                    for ky in 0..<geo.kernelHeight {
                        for kx in 0..<geo.kernelWidth {
                            let iy = oy * geo.strideY - geo.padTop + ky, ix = ox * geo.strideX - geo.padLeft + kx
                            if iy < 0 || ix < 0 || iy >= height || ix >= width { continue }
                            let x = input[(iy * width + ix) * c + ch]
                            m = max(m, x); sum += x; n += 1
                        }
                    }
                    let v = kind == .max ? m : (sum / n).rounded()
                    want.append(Int32(max(lo, min(hi, v))))
                }
            }
        }
        return want
    }

    static func random(scale g: inout SeededGenerator) -> QuantParams {
        QuantParams(scale: Float.random(in: 0.005...0.1, using: &g),
                    zeroPoint: Int32.random(in: -100...100, using: &g))
    }
}
