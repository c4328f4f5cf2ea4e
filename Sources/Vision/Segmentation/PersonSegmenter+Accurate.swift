import ImageCore

extension PersonSegmenter {
    /// Largest side of the matting working image; coefficients are applied at full resolution.
    public static let accurateWorkingSide = 800

    /// The accurate level (stills):
    /// 1. the model chosen by aspect runs on the whole picture, anti-aliased (4×4 taps per model
    ///    pixel) and again mirrored, the two probabilities averaged;
    /// 2. when the people cover less than half the picture, a second run (also mirrored) on their
    ///    bounding box grown by a quarter replaces the mask there — more model pixels per person;
    /// 3. the colour guided filter refines the edges at full resolution (`ColorGuidedFilter`).
    func segmentAccurate(_ frame: Image, rotation: FrameRotation) -> SegmentationMask {
        plan(width: frame.width, height: frame.height)
        let uw = rotation.swapsAxes ? frame.height : frame.width
        let uh = rotation.swapsAxes ? frame.width : frame.height
        let m = model(forUprightWidth: uw, height: uh)
        let mapping = MaskMapping(frameWidth: frame.width, frameHeight: frame.height, rotation: rotation,
                                  modelWidth: m.inputWidth, modelHeight: m.inputHeight, fit: fit)
        let ws = PersonSegmenter.workingSize(width: frame.width, height: frame.height, side: PersonSegmenter.accurateWorkingSide)
        let work = ImageBuffer(format: .gray8, width: ws.width, height: ws.height)
        let wp = work.image().luma
        let warp = self.warp!
        func working(_ mm: MaskMapping) -> MaskMapping {
            // The same mapping seen from a frame of working size.
            var r = mm
            let sx = Float(ws.width) / Float(frame.width), sy = Float(ws.height) / Float(frame.height)
            let (su, sv) = rotation.swapsAxes ? (sy, sx) : (sx, sy)
            r.frameWidth = ws.width; r.frameHeight = ws.height
            r.region = Rect(x: mm.region.x * su, y: mm.region.y * sv, width: mm.region.width * su, height: mm.region.height * sv)
            return r
        }

        // 1. Whole picture, with its mirror image.
        runModelMirrored(frame, mapping: mapping, model: m)
        let whole = working(mapping)
        warp.warp(modelMask.pointer, maskStride: m.inputWidth, mapping: whole, into: wp, xRange: 0..<ws.width, yRange: 0..<ws.height)

        // 2. The people's box, when they are small in the picture.
        if accurateCrop, let box = personBox(mapping: mapping, model: m), box.width * box.height < 0.5 * Float(uw * uh) {
            let crop = MaskMapping(frameWidth: frame.width, frameHeight: frame.height, rotation: rotation, region: box,
                                   modelWidth: m.inputWidth, modelHeight: m.inputHeight, fit: fit)
            runModelMirrored(frame, mapping: crop, model: m)
            let wc = working(crop)
            let fr = wc.frameRegion
            warp.warp(modelMask.pointer, maskStride: m.inputWidth, mapping: wc, into: wp,
                      xRange: fr.x..<(fr.x + fr.width), yRange: fr.y..<(fr.y + fr.height))
        }

        // 3. Matting at full resolution.
        let mask = maskBuffer!.image().luma
        let radius = max(2, (max(ws.width, ws.height) + 50) / 100)
        if mattingEpsilon > 0 && PersonSegmenter.upsampling(mapping) >= PersonSegmenter.guidedUpsamplingThreshold {
            ColorGuidedFilter.run(frame: frame, mask: wp, destination: mask, radius: radius, epsilon: mattingEpsilon)
        } else {
            let up = MaskMapping(frameWidth: frame.width, frameHeight: frame.height, rotation: .none,
                                 modelWidth: wp.width, modelHeight: wp.height, fit: .stretch)
            warp.warp(UnsafePointer(wp.row(0)), maskStride: wp.stride, mapping: up, into: mask,
                      xRange: 0..<frame.width, yRange: 0..<frame.height)
        }
        let modelPlane = Plane(base: UnsafeMutableRawPointer(modelMask.pointer), width: m.inputWidth, height: m.inputHeight,
                               stride: m.inputWidth, bytesPerPixel: 1, padding: modelMask.count - m.inputWidth * m.inputHeight)
        return SegmentationMask(plane: mask, modelPlane: modelPlane, mapping: mapping, level: level)
    }

    /// Runs the model on the picture and on its mirror image; `modelMask` gets the mean probability.
    func runModelMirrored(_ frame: Image, mapping: MaskMapping, model m: SegmentationModel) {
        let interp = interpreter(m)
        let mw = m.inputWidth, mh = m.inputHeight
        let sum = ScratchBuffer<Float>(count: mw * mh)
        for mirrored in accurateMirror ? [false, true] : [false] {
            interp.withInput(0) { input in
                ModelInputSampler.fill(input, luma: nil, from: frame, mapping: mapping, taps: inputTaps ?? PersonSegmenter.taps(mapping), yuvFullRange: yuvFullRange)
                if mirrored {
                    let p = input.baseAddress!
                    for y in 0..<mh {
                        for x in 0..<(mw / 2) {
                            for c in 0..<3 {
                                let i = (y * mw + x) * 3 + c, j = (y * mw + mw - 1 - x) * 3 + c
                                let t = p[i]; p[i] = p[j]; p[j] = t
                            }
                        }
                    }
                }
            }
            interp.run()
            interp.withOutput(0) { prob in
                for y in 0..<mh {
                    for x in 0..<mw {
                        let sx = mirrored ? mw - 1 - x : x
                        sum[y * mw + x] += prob[y * mw + sx] * (accurateMirror ? 0.5 : 1)
                    }
                }
            }
        }
        for i in 0..<(mw * mh) {
            modelMask[i] = UInt8(truncatingIfNeeded: Int(min(max(sum[i], 0), 1) * 255 + 0.5))
        }
    }

    /// The upright box of the pixels above one half in `modelMask`, grown by a quarter of its
    /// size on each side and clipped to the picture; nil when no person was found.
    func personBox(mapping: MaskMapping, model m: SegmentationModel) -> Rect? {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<m.inputHeight {
            for x in 0..<m.inputWidth where modelMask[y * m.inputWidth + x] >= 128 {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        if x1 < 0 { return nil }
        let c = mapping.content, r = mapping.region
        func u(_ mx: Float) -> Float { r.x + (mx - c.x) * r.width / c.width }
        func v(_ my: Float) -> Float { r.y + (my - c.y) * r.height / c.height }
        let bu0 = u(Float(x0)), bu1 = u(Float(x1 + 1)), bv0 = v(Float(y0)), bv1 = v(Float(y1 + 1))
        let gw = (bu1 - bu0) * 0.25, gh = (bv1 - bv0) * 0.25
        let uw = Float(mapping.uprightWidth), uh = Float(mapping.uprightHeight)
        let nx0 = max(0, bu0 - gw), nx1 = min(uw, bu1 + gw), ny0 = max(0, bv0 - gh), ny1 = min(uh, bv1 + gh)
        if nx1 - nx0 < 8 || ny1 - ny0 < 8 { return nil }
        return Rect(x: nx0, y: ny0, width: nx1 - nx0, height: ny1 - ny0)
    }
}
