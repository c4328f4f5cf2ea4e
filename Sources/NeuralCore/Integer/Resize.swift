import CNeuralKernels

/// RESIZE_BILINEAR on int8 (or int16) NHWC in fixed point (input and output share quantisation).
///
/// Source coordinates are Q10 (1/1024 pixel) for int8, computed with integers only (for int16 the
/// same with Q7, 1/128 pixel, so that `value · 2^14` stays within int32; every factor-2 resize
/// of the models has fractions of 1/4, exact in both):
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

    /// `(i0, i1, frac)` for output coordinate `o` along an axis, `frac` in units of 2^-bits.
    @inline(__always)
    func source(_ o: Int, input n: Int, output m: Int, bits: Int = 10) -> (Int, Int, Int32) {
        let one = 1 << bits
        var s: Int
        if alignCorners && m > 1 {
            s = o * (n - 1) * one / (m - 1)
        } else if halfPixelCenters {
            s = (2 * o + 1) * n * one / (2 * m) - one / 2
        } else {
            s = o * n * one / m
        }
        if s < 0 { s = 0 }
        var i0 = s >> bits
        var f = Int32(s & (one - 1))
        if i0 >= n - 1 { i0 = n - 1; f = 0 }
        return (i0, min(i0 + 1, n - 1), f)
    }

    /// Fraction bits for activations of type `E`: 10 for int8, 7 for int16.
    @inline(__always)
    static func fractionBits<E: QuantizedActivation>(_: E.Type) -> Int { E.bitWidth == 8 ? 10 : 7 }
}

public typealias ResizeKernel<E: QuantizedActivation> = @Sendable (
    _ input: UnsafePointer<E>, _ params: ResizeParams, _ output: UnsafeMutablePointer<E>
) -> Void

public func resizeBilinearScalar<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ p: ResizeParams, _ output: UnsafeMutablePointer<E>
) {
    let c = p.channels
    let bits = ResizeParams.fractionBits(E.self)
    let one = Int32(1 << bits), shift = Int32(2 * bits), half = Int32(1) << (2 * bits - 1)
    for oy in 0..<p.outputHeight {
        let (y0, y1, fy) = p.source(oy, input: p.inputHeight, output: p.outputHeight, bits: bits)
        for ox in 0..<p.outputWidth {
            let (x0, x1, fx) = p.source(ox, input: p.inputWidth, output: p.outputWidth, bits: bits)
            let r0 = input + y0 * p.inputWidth * c, r1 = input + y1 * p.inputWidth * c
            let dst = output + (oy * p.outputWidth + ox) * c
            for ch in 0..<c {
                let top = Int32(truncatingIfNeeded: r0[x0 * c + ch]) * (one - fx)
                    + Int32(truncatingIfNeeded: r0[x1 * c + ch]) * fx
                let bottom = Int32(truncatingIfNeeded: r1[x0 * c + ch]) * (one - fx)
                    + Int32(truncatingIfNeeded: r1[x1 * c + ch]) * fx
                let v = (top * (one - fy) + bottom * fy + half) >> shift
                dst[ch] = E(truncatingIfNeeded: v)
            }
        }
    }
}

public func resizeBilinearSIMD<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ p: ResizeParams, _ output: UnsafeMutablePointer<E>
) {
    let c = p.channels
    let full = c / 8 * 8
    let bits = ResizeParams.fractionBits(E.self)
    let one = Int32(1 << bits), shift = Int32(2 * bits), half = Int32(1) << (2 * bits - 1)
    let vshift = I32x8(repeating: shift), vhalf = I32x8(repeating: half)
    for oy in 0..<p.outputHeight {
        let (y0, y1, fy) = p.source(oy, input: p.inputHeight, output: p.outputHeight, bits: bits)
        let vfy = I32x8(repeating: fy), vgy = I32x8(repeating: one - fy)
        for ox in 0..<p.outputWidth {
            let (x0, x1, fx) = p.source(ox, input: p.inputWidth, output: p.outputWidth, bits: bits)
            let vfx = I32x8(repeating: fx), vgx = I32x8(repeating: one - fx)
            let r0 = input + y0 * p.inputWidth * c, r1 = input + y1 * p.inputWidth * c
            let dst = output + (oy * p.outputWidth + ox) * c
            var ch = 0
            if c >= 16 {
                // 16 channels per step; a last partial group is the last 16 channels again
                // (recomputed to the same values: input and output never alias).
                let wfx = SIMD16<Int32>(repeating: fx), wgx = SIMD16<Int32>(repeating: one - fx)
                let wfy = SIMD16<Int32>(repeating: fy), wgy = SIMD16<Int32>(repeating: one - fy)
                let wshift = SIMD16<Int32>(repeating: shift), whalf = SIMD16<Int32>(repeating: half)
                while ch < c {
                    if ch > c - 16 { ch = c - 16 }
                    let top = load16(r0 + x0 * c + ch) &* wgx &+ load16(r0 + x1 * c + ch) &* wfx
                    let bottom = load16(r1 + x0 * c + ch) &* wgx &+ load16(r1 + x1 * c + ch) &* wfx
                    store16((top &* wgy &+ bottom &* wfy &+ whalf) &>> wshift, dst + ch)
                    ch += 16
                }
                continue
            }
            while ch < full {
                let top = load8(r0 + x0 * c + ch) &* vgx &+ load8(r0 + x1 * c + ch) &* vfx
                let bottom = load8(r1 + x0 * c + ch) &* vgx &+ load8(r1 + x1 * c + ch) &* vfx
                let v = (top &* vgy &+ bottom &* vfy &+ vhalf) &>> vshift
                store8(v, dst + ch)
                ch += 8
            }
            while ch < c {
                let top = Int32(truncatingIfNeeded: r0[x0 * c + ch]) * (one - fx)
                    + Int32(truncatingIfNeeded: r0[x1 * c + ch]) * fx
                let bottom = Int32(truncatingIfNeeded: r1[x0 * c + ch]) * (one - fx)
                    + Int32(truncatingIfNeeded: r1[x1 * c + ch]) * fx
                dst[ch] = E(truncatingIfNeeded: (top * (one - fy) + bottom * fy + half) >> shift)
                ch += 1
            }
        }
    }
}

/// aarch64: `resizeBilinearScalar`'s arithmetic eight channels per step in C
/// (`booth_resize_rows_s8` / `_s16`: `smull`/`smlal` by the x weights, `mla` by the y weight,
/// `srshr`). Consecutive output rows that read the same two source rows (a 2× upsample's rows
/// come in such pairs) go to one call, which blends each source pixel pair horizontally once for
/// both; other rows one call each. The columns' source offsets and weights are computed once per
/// resize on the stack. Fewer than 8 channels: `resizeBilinearSIMD`.
public func resizeBilinearNEON<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, _ p: ResizeParams, _ output: UnsafeMutablePointer<E>
) {
    let c = p.channels, ow = p.outputWidth, oh = p.outputHeight
    guard c >= 8 else { resizeBilinearSIMD(input, p, output); return }
    let bits = ResizeParams.fractionBits(E.self)
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * ow) { offsets in
        withUnsafeTemporaryAllocation(of: Int16.self, capacity: ow) { fractions in
            guard let x0s = offsets.baseAddress, let fxs = fractions.baseAddress else { return }
            let x1s = x0s + ow
            for ox in 0..<ow {
                let (x0, x1, fx) = p.source(ox, input: p.inputWidth, output: ow, bits: bits)
                x0s[ox] = Int32(x0 * c)
                x1s[ox] = Int32(x1 * c)
                fxs[ox] = Int16(fx)
            }
            var oy = 0
            while oy < oh {
                let (y0, y1, fy) = p.source(oy, input: p.inputHeight, output: oh, bits: bits)
                var fy2: Int32 = 0, rows = 1
                if oy + 1 < oh {
                    let (n0, n1, nf) = p.source(oy + 1, input: p.inputHeight, output: oh, bits: bits)
                    if n0 == y0 && n1 == y1 { fy2 = nf; rows = 2 }
                }
                let r0 = UnsafeRawPointer(input + y0 * p.inputWidth * c), r1 = UnsafeRawPointer(input + y1 * p.inputWidth * c)
                let dst = UnsafeMutableRawPointer(output + oy * ow * c)
                let dst2 = rows == 2 ? UnsafeMutableRawPointer(output + (oy + 1) * ow * c) : nil
                if E.bitWidth == 8 {
                    booth_resize_rows_s8(r0.assumingMemoryBound(to: Int8.self), r1.assumingMemoryBound(to: Int8.self), ow, c,
                                         x0s, x1s, fxs, fy, dst.assumingMemoryBound(to: Int8.self), fy2,
                                         dst2?.assumingMemoryBound(to: Int8.self))
                } else {
                    booth_resize_rows_s16(r0.assumingMemoryBound(to: Int16.self), r1.assumingMemoryBound(to: Int16.self), ow,
                                          c, x0s, x1s, fxs, fy, dst.assumingMemoryBound(to: Int16.self), fy2,
                                          dst2?.assumingMemoryBound(to: Int16.self))
                }
                oy += rows
            }
        }
    }
}

/// PAD (constant): spatial padding of an NHWC tensor with the zero point (real 0).
/// Channel padding is not used by the models and not supported.
public func padSpatial<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, height: Int, width: Int, channels c: Int,
    top: Int, bottom: Int, left: Int, right: Int, zeroPoint: Int32,
    output: UnsafeMutablePointer<E>
) {
    let ow = width + left + right
    let oh = height + top + bottom
    let z = E(truncatingIfNeeded: zeroPoint)
    output.update(repeating: z, count: top * ow * c)
    for y in 0..<height {
        let dst = output + ((y + top) * ow) * c
        dst.update(repeating: z, count: left * c)
        // A raw copy (memmove): `update(from:count:)` is a per-element loop in Embedded Swift.
        UnsafeMutableRawPointer(dst + left * c).copyMemory(from: input + y * width * c,
                                                           byteCount: width * c * MemoryLayout<E>.stride)
        (dst + (left + width) * c).update(repeating: z, count: right * c)
    }
    (output + (top + height) * ow * c).update(repeating: z, count: (oh - top - height) * ow * c)
}
