/// RESIZE_BILINEAR on int8 NHWC in fixed point (input and output share quantisation).
///
/// Source coordinates are Q10 (1/1024 pixel), computed with integers only:
/// - `alignCorners`: `src = y · (in − 1) · 1024 / (out − 1)`;
/// - `halfPixelCenters`: `src = ((2y + 1) · in · 1024) / (2 · out) − 512`, clamped at 0;
/// - otherwise: `src = y · in · 1024 / out`.
/// `y0 = src >> 10`, `y1 = min(y0 + 1, in − 1)`, `fy = src & 1023`; the value is
/// `((p00·(1024−fx) + p01·fx)·(1024−fy) + (p10·(1024−fx) + p11·fx)·fy + 2^19) >> 20`
/// (an arithmetic shift: rounds half up).

public struct ResizeParams: Sendable, Equatable {
    public var inputHeight: Int, inputWidth: Int, channels: Int
    public var outputHeight: Int, outputWidth: Int
    public var alignCorners: Bool, halfPixelCenters: Bool

    public init(inputHeight: Int, inputWidth: Int, channels: Int, outputHeight: Int,
                outputWidth: Int, alignCorners: Bool = false, halfPixelCenters: Bool = false) {
        self.inputHeight = inputHeight; self.inputWidth = inputWidth; self.channels = channels
        self.outputHeight = outputHeight; self.outputWidth = outputWidth
        self.alignCorners = alignCorners; self.halfPixelCenters = halfPixelCenters
    }

    /// `(i0, i1, frac)` for output coordinate `o` along an axis.
    @inline(__always)
    func source(_ o: Int, input n: Int, output m: Int) -> (Int, Int, Int32) {
        var s: Int
        if alignCorners && m > 1 {
            s = o * (n - 1) * 1024 / (m - 1)
        } else if halfPixelCenters {
            s = (2 * o + 1) * n * 1024 / (2 * m) - 512
        } else {
            s = o * n * 1024 / m
        }
        if s < 0 { s = 0 }
        var i0 = s >> 10
        var f = Int32(s & 1023)
        if i0 >= n - 1 { i0 = n - 1; f = 0 }
        return (i0, min(i0 + 1, n - 1), f)
    }
}

public typealias ResizeKernel = @Sendable (
    _ input: UnsafePointer<Int8>, _ params: ResizeParams, _ output: UnsafeMutablePointer<Int8>
) -> Void

public func resizeBilinearScalar(
    _ input: UnsafePointer<Int8>, _ p: ResizeParams, _ output: UnsafeMutablePointer<Int8>
) {
    let c = p.channels
    for oy in 0..<p.outputHeight {
        let (y0, y1, fy) = p.source(oy, input: p.inputHeight, output: p.outputHeight)
        for ox in 0..<p.outputWidth {
            let (x0, x1, fx) = p.source(ox, input: p.inputWidth, output: p.outputWidth)
            let r0 = input + y0 * p.inputWidth * c, r1 = input + y1 * p.inputWidth * c
            let dst = output + (oy * p.outputWidth + ox) * c
            for ch in 0..<c {
                let top = Int32(r0[x0 * c + ch]) * (1024 - fx) + Int32(r0[x1 * c + ch]) * fx
                let bottom = Int32(r1[x0 * c + ch]) * (1024 - fx) + Int32(r1[x1 * c + ch]) * fx
                let v = (top * (1024 - fy) + bottom * fy + (1 << 19)) >> 20
                dst[ch] = Int8(truncatingIfNeeded: v)
            }
        }
    }
}

public func resizeBilinearSIMD(
    _ input: UnsafePointer<Int8>, _ p: ResizeParams, _ output: UnsafeMutablePointer<Int8>
) {
    let c = p.channels
    let full = c / 8 * 8
    @inline(__always) func load(_ ptr: UnsafePointer<Int8>) -> I32x8 {
        widen8to32(UnsafeRawPointer(ptr).loadUnaligned(as: SIMD8<Int8>.self))
    }
    for oy in 0..<p.outputHeight {
        let (y0, y1, fy) = p.source(oy, input: p.inputHeight, output: p.outputHeight)
        let vfy = I32x8(repeating: fy), vgy = I32x8(repeating: 1024 - fy)
        for ox in 0..<p.outputWidth {
            let (x0, x1, fx) = p.source(ox, input: p.inputWidth, output: p.outputWidth)
            let vfx = I32x8(repeating: fx), vgx = I32x8(repeating: 1024 - fx)
            let r0 = input + y0 * p.inputWidth * c, r1 = input + y1 * p.inputWidth * c
            let dst = output + (oy * p.outputWidth + ox) * c
            var ch = 0
            while ch < full {
                let top = load(r0 + x0 * c + ch) &* vgx &+ load(r0 + x1 * c + ch) &* vfx
                let bottom = load(r1 + x0 * c + ch) &* vgx &+ load(r1 + x1 * c + ch) &* vfx
                let v = (top &* vgy &+ bottom &* vfy &+ (1 << 19)) &>> 20
                UnsafeMutableRawPointer(dst + ch).storeBytes(of: narrow8(v), as: SIMD8<Int8>.self)
                ch += 8
            }
            while ch < c {
                let top = Int32(r0[x0 * c + ch]) * (1024 - fx) + Int32(r0[x1 * c + ch]) * fx
                let bottom = Int32(r1[x0 * c + ch]) * (1024 - fx) + Int32(r1[x1 * c + ch]) * fx
                dst[ch] = Int8(truncatingIfNeeded: (top * (1024 - fy) + bottom * fy + (1 << 19)) >> 20)
                ch += 1
            }
        }
    }
}

/// PAD (constant): spatial padding of an NHWC tensor with the zero point (real 0).
/// Channel padding is not used by the models and not supported.
public func padSpatial(
    _ input: UnsafePointer<Int8>, height: Int, width: Int, channels c: Int,
    top: Int, bottom: Int, left: Int, right: Int, zeroPoint: Int32,
    output: UnsafeMutablePointer<Int8>
) {
    let ow = width + left + right
    let oh = height + top + bottom
    let z = Int8(truncatingIfNeeded: zeroPoint)
    output.update(repeating: z, count: top * ow * c)
    for y in 0..<height {
        let dst = output + ((y + top) * ow) * c
        dst.update(repeating: z, count: left * c)
        (dst + left * c).update(from: input + y * width * c, count: width * c)
        (dst + (left + width) * c).update(repeating: z, count: right * c)
    }
    (output + (top + height) * ow * c).update(repeating: z, count: (oh - top - height) * ow * c)
}
