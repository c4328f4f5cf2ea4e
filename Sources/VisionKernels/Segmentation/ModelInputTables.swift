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

    public init(maxSide: Int = 256, maxTaps: Int = 4) {
        self.maxSide = maxSide
        self.maxTaps = maxTaps
        let n = maxSide * maxTaps
        colLuma0 = ScratchBuffer(count: n); colLuma1 = ScratchBuffer(count: n); colLumaF = ScratchBuffer(count: n)
        colChroma0 = ScratchBuffer(count: n); colChroma1 = ScratchBuffer(count: n); colChromaF = ScratchBuffer(count: n)
        rowLuma0 = ScratchBuffer(count: n); rowLuma1 = ScratchBuffer(count: n); rowLumaF = ScratchBuffer(count: n)
        rowChroma0 = ScratchBuffer(count: n); rowChroma1 = ScratchBuffer(count: n); rowChromaF = ScratchBuffer(count: n)
        colInside = ScratchBuffer(count: maxSide); rowInside = ScratchBuffer(count: maxSide)
    }

    public var byteCount: Int { 12 * colLuma0.byteCount + 2 * colInside.byteCount }

    /// Whether a mapping with these model sides and taps fits the tables.
    public func fits(_ m: MaskMapping, taps: Int) -> Bool {
        m.modelWidth <= maxSide && m.modelHeight <= maxSide && taps <= maxTaps
    }

    /// Fills the tables for `m`, `taps` per axis, over a frame whose luma plane is
    /// `lumaWidth`×`lumaHeight` and chroma plane `chromaWidth`×`chromaHeight`. The coordinates
    /// are computed with the same expressions, in the same order, as `MaskMapping.frame(fromModel:)`
    /// and `FramePixels`, so the samples equal the reference's bit for bit.
    func build(_ m: MaskMapping, taps t: Int, lumaWidth: Int, lumaHeight: Int, chromaWidth: Int, chromaHeight: Int) {
        let inv = 1 / Float(t)
        let c = m.content, r = m.region
        let fw = Float(m.frameWidth), fh = Float(m.frameHeight)
        let swap = m.rotation.swapsAxes
        // Model columns walk upright u: frame x (no swap) or frame y (swap).
        for mx in 0..<m.modelWidth {
            let cx = Float(mx) + 0.5
            colInside[mx] = cx >= c.x && cx < c.x + c.width ? 1 : 0
            for sx in 0..<t {
                let px = Float(mx) + (Float(sx) + 0.5) * inv
                let u = r.x + (px - c.x) * r.width / c.width
                let coord: Float
                switch m.rotation {
                case .none: coord = u
                case .clockwise90: coord = fh - u
                case .rotate180: coord = fw - u
                case .clockwise270: coord = u
                }
                let k = mx * t + sx
                let l = FramePixels.taps(coord, swap ? lumaHeight : lumaWidth)
                let ch = FramePixels.taps(coord / 2, swap ? chromaHeight : chromaWidth)
                colLuma0[k] = Int32(l.0); colLuma1[k] = Int32(l.1); colLumaF[k] = l.2
                colChroma0[k] = Int32(ch.0); colChroma1[k] = Int32(ch.1); colChromaF[k] = ch.2
            }
        }
        // Model rows walk upright v: frame y (no swap) or frame x (swap).
        for my in 0..<m.modelHeight {
            let cy = Float(my) + 0.5
            rowInside[my] = cy >= c.y && cy < c.y + c.height ? 1 : 0
            for sy in 0..<t {
                let py = Float(my) + (Float(sy) + 0.5) * inv
                let v = r.y + (py - c.y) * r.height / c.height
                let coord: Float
                switch m.rotation {
                case .none: coord = v
                case .clockwise90: coord = v
                case .rotate180: coord = fh - v
                case .clockwise270: coord = fw - v
                }
                let k = my * t + sy
                let l = FramePixels.taps(coord, swap ? lumaWidth : lumaHeight)
                let ch = FramePixels.taps(coord / 2, swap ? chromaWidth : chromaHeight)
                rowLuma0[k] = Int32(l.0); rowLuma1[k] = Int32(l.1); rowLumaF[k] = l.2
                rowChroma0[k] = Int32(ch.0); rowChroma1[k] = Int32(ch.1); rowChromaF[k] = ch.2
            }
        }
    }
}
