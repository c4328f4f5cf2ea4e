import ImageCore

/// `ModelInputSampler.fillTabled`'s working memory: for every model column and every model row
/// (× taps per axis), the bilinear taps along the frame axis it walks, for luma and for chroma,
/// and whether its centre lies in the mapping's content. A YCbCr frame's sample then costs table
/// reads and the interpolation, no division, clamp or float-to-int conversion per read.
/// Allocated once (model sides up to `maxSide`, up to `maxTaps` taps); rebuilt per call.
public final class ModelInputTables {
    public let maxSide: Int
    public let maxTaps: Int
    /// Column (`col…`) and row (`row…`) taps: indices i0, i1 and fraction f per entry
    /// `index * taps + tap`, luma then chroma.
    let colLuma0: ScratchBuffer<Int32>, colLuma1: ScratchBuffer<Int32>, colLumaF: ScratchBuffer<Float>
    let colChroma0: ScratchBuffer<Int32>, colChroma1: ScratchBuffer<Int32>, colChromaF: ScratchBuffer<Float>
    let rowLuma0: ScratchBuffer<Int32>, rowLuma1: ScratchBuffer<Int32>, rowLumaF: ScratchBuffer<Float>
    let rowChroma0: ScratchBuffer<Int32>, rowChroma1: ScratchBuffer<Int32>, rowChromaF: ScratchBuffer<Float>
    let colInside: ScratchBuffer<UInt8>, rowInside: ScratchBuffer<UInt8>
    /// One model row's plane reads (one tap per axis, axes not swapped): 6 lines of `maxSide`
    /// byte pairs, the Y, Cb and Cr 2×2 neighbourhoods (top row's left and right read interleaved,
    /// then the bottom row's; Y, Cb, Cr).
    let gathered: ScratchBuffer<UInt8>

    public init(maxSide: Int = 256, maxTaps: Int = 4) {
        self.maxSide = maxSide
        self.maxTaps = maxTaps
        let n = maxSide * maxTaps
        colLuma0 = ScratchBuffer(count: n); colLuma1 = ScratchBuffer(count: n); colLumaF = ScratchBuffer(count: n)
        colChroma0 = ScratchBuffer(count: n); colChroma1 = ScratchBuffer(count: n); colChromaF = ScratchBuffer(count: n)
        rowLuma0 = ScratchBuffer(count: n); rowLuma1 = ScratchBuffer(count: n); rowLumaF = ScratchBuffer(count: n)
        rowChroma0 = ScratchBuffer(count: n); rowChroma1 = ScratchBuffer(count: n); rowChromaF = ScratchBuffer(count: n)
        colInside = ScratchBuffer(count: maxSide); rowInside = ScratchBuffer(count: maxSide)
        gathered = ScratchBuffer(count: 12 * maxSide)
    }

    public var byteCount: Int { 12 * colLuma0.byteCount + 2 * colInside.byteCount + gathered.byteCount }

    /// Whether a mapping with these model sides and taps fits the tables.
    public func fits(_ m: MaskMapping, taps: Int) -> Bool {
        m.modelWidth <= maxSide && m.modelHeight <= maxSide && taps <= maxTaps
    }

    /// Fills the tables for `m`, `taps` per axis, over a frame whose luma plane is
    /// `lumaWidth`×`lumaHeight` and chroma plane `chromaWidth`×`chromaHeight`. The coordinates
    /// are computed with the same expressions, in the same order, as `MaskMapping.frame(fromModel:)`
    /// and `FramePixels`, so the samples equal the reference's bit for bit.
    func build(_ m: MaskMapping, taps t: Int, lumaWidth: Int, lumaHeight: Int, chromaWidth: Int, chromaHeight: Int) {
        let c = m.content, r = m.region
        let fw = Float(m.frameWidth), fh = Float(m.frameHeight)
        let swap = m.rotation.swapsAxes
        // Model columns walk upright u: frame x (no swap) or frame y (swap); rows walk upright v:
        // frame y (no swap) or frame x (swap). Some rotations count the frame axis backwards.
        let (colFlip, rowFlip): (Float?, Float?)
        switch m.rotation {
        case .none: (colFlip, rowFlip) = (nil, nil)
        case .clockwise90: (colFlip, rowFlip) = (fh, nil)
        case .rotate180: (colFlip, rowFlip) = (fw, fh)
        case .clockwise270: (colFlip, rowFlip) = (nil, fw)
        }
        fillAxis(m.modelWidth, taps: t, regionStart: r.x, regionSize: r.width, contentStart: c.x, contentSize: c.width,
                 flip: colFlip, lumaSize: swap ? lumaHeight : lumaWidth, chromaSize: swap ? chromaHeight : chromaWidth,
                 inside: colInside, colLuma0, colLuma1, colLumaF, colChroma0, colChroma1, colChromaF)
        fillAxis(m.modelHeight, taps: t, regionStart: r.y, regionSize: r.height, contentStart: c.y, contentSize: c.height,
                 flip: rowFlip, lumaSize: swap ? lumaWidth : lumaHeight, chromaSize: swap ? chromaWidth : chromaHeight,
                 inside: rowInside, rowLuma0, rowLuma1, rowLumaF, rowChroma0, rowChroma1, rowChromaF)
    }

    /// One axis: for model index i and tap s, the upright coordinate `regionStart + (p − contentStart)
    /// · regionSize / contentSize` (as `MaskMapping.frame(fromModel:)`), the frame coordinate
    /// (`flip − coordinate` when the axis runs backwards, as `MaskMapping.frame(fromUpright:)`),
    /// then luma and chroma taps as `FramePixels` computes them.
    @inline(__always)
    private func fillAxis(_ n: Int, taps t: Int, regionStart: Float, regionSize: Float, contentStart: Float, contentSize: Float,
                          flip: Float?, lumaSize: Int, chromaSize: Int, inside: ScratchBuffer<UInt8>,
                          _ l0: ScratchBuffer<Int32>, _ l1: ScratchBuffer<Int32>, _ lf: ScratchBuffer<Float>,
                          _ c0: ScratchBuffer<Int32>, _ c1: ScratchBuffer<Int32>, _ cf: ScratchBuffer<Float>) {
        let inv = 1 / Float(t)
        for i in 0..<n {
            let centre = Float(i) + 0.5
            inside[i] = centre >= contentStart && centre < contentStart + contentSize ? 1 : 0
            for s in 0..<t {
                let p = Float(i) + (Float(s) + 0.5) * inv
                let upright = regionStart + (p - contentStart) * regionSize / contentSize
                let coord = flip.map { $0 - upright } ?? upright
                let k = i * t + s
                let l = FramePixels.taps(coord, lumaSize)
                let ch = FramePixels.taps(coord / 2, chromaSize)
                l0[k] = Int32(l.0); l1[k] = Int32(l.1); lf[k] = l.2
                c0[k] = Int32(ch.0); c1[k] = Int32(ch.1); cf[k] = ch.2
            }
        }
    }
}
