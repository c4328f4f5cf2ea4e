import ImageCore

extension PersonSegmenter {
    /// Largest side of the matting working image; coefficients are applied at full resolution.
    public static let accurateWorkingSide = 800

    /// The accurate level (stills):
    /// 1. the model chosen by aspect runs on the whole picture, anti-aliased (4×4 taps per model
    ///    pixel) and again mirrored, the two probabilities averaged;
    /// 2. when the people cover less than half the picture, a second run (also mirrored) on their
    ///    bounding box grown by a quarter replaces the mask there — more model pixels per person —
    ///    feathered into the first mask near the box's edges;
    /// 3. the colour guided filter refines the edges at full resolution (`ColorGuidedFilter`) when
    ///    the picture has more pixels than the mask (upsampling ≥ 1.5); smaller pictures keep the
    ///    bilinear mask (on the fixtures' ~300-pixel photos the filter only smooths and lowers IoU).
    func segmentAccurate(_ frame: Image, rotation: FrameRotation) -> SegmentationMask {
        let buffers = plan(width: frame.width, height: frame.height)
        let uw = rotation.swapsAxes ? frame.height : frame.width
        let uh = rotation.swapsAxes ? frame.width : frame.height
        let m = model(forUprightWidth: uw, height: uh)
        let mapping = MaskMapping(frameWidth: frame.width, frameHeight: frame.height, rotation: rotation,
                                  modelWidth: m.inputWidth, modelHeight: m.inputHeight, fit: fit)
        let ws = PersonSegmenter.workingSize(width: frame.width, height: frame.height, side: PersonSegmenter.accurateWorkingSide)
        let work = ImageBuffer(format: .gray8, width: ws.width, height: ws.height)
        // The plan's mask is handed out (valid until the next `segment` call, as documented).
        let mask = buffers.mask.unsafeImage().luma
        let modelMapping = work.withImage { workImage in
            matte(frame, rotation: rotation, model: m, mapping: mapping, work: workImage.luma, warp: buffers.warp, into: mask)
        }
        let modelPlane = Plane(base: UnsafeMutableRawPointer(modelMask.pointer), width: m.inputWidth, height: m.inputHeight,
                               stride: m.inputWidth, bytesPerPixel: 1, padding: modelMask.count - m.inputWidth * m.inputHeight)
        return SegmentationMask(plane: mask, modelPlane: modelPlane, mapping: modelMapping, level: level)
    }

    /// Steps 1–3 of `segmentAccurate` with the working mask `wp`: leaves the full-resolution mask
    /// in `mask` and returns the mapping of what `modelMask` holds at the end.
    private func matte(_ frame: Image, rotation: FrameRotation, model m: SegmentationModel, mapping: MaskMapping,
                       work wp: Plane, warp: MaskWarp, into mask: Plane) -> MaskMapping {
        let ws = (width: wp.width, height: wp.height)
        let uw = rotation.swapsAxes ? frame.height : frame.width
        let uh = rotation.swapsAxes ? frame.width : frame.height
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
        var modelMapping = mapping
        if accurateCrop, let box = personBox(mapping: mapping, model: m), box.width * box.height < 0.5 * Float(uw * uh) {
            let crop = MaskMapping(frameWidth: frame.width, frameHeight: frame.height, rotation: rotation, region: box,
                                   modelWidth: m.inputWidth, modelHeight: m.inputHeight, fit: fit)
            runModelMirrored(frame, mapping: crop, model: m)
            modelMapping = crop
            let wc = working(crop)
            let fr = wc.frameRegion
            // Keep the whole-picture mask of the region, warp the crop's over it, then feather
            // the seam: inner edges of the region blend from the old mask to the new one.
            let saved = ImageBuffer(format: .gray8, width: max(fr.width, 1), height: max(fr.height, 1))
            saved.withImage { old in
                for y in 0..<fr.height { old.luma.row(y).update(from: wp.row(fr.y + y) + fr.x, count: fr.width) }
                warp.warp(modelMask.pointer, maskStride: m.inputWidth, mapping: wc, into: wp,
                          xRange: fr.x..<(fr.x + fr.width), yRange: fr.y..<(fr.y + fr.height))
                PersonSegmenter.feather(wp, old: old.luma, region: fr)
            }
        }

        // 3. Matting at full resolution.
        let radius = max(2, (max(ws.width, ws.height) + 50) / 100)
        if mattingEpsilon > 0 && PersonSegmenter.upsampling(mapping) >= PersonSegmenter.guidedUpsamplingThreshold {
            ColorGuidedFilter.run(frame: frame, mask: wp, destination: mask, radius: radius, epsilon: mattingEpsilon)
        } else {
            ResizeBilinear.run(wp.grayImage, mask.grayImage)
        }
        return modelMapping
    }

    /// Blends `plane` inside `region` towards `old` near the region's edges that lie inside the
    /// picture (a linear ramp over a tenth of the region's shorter side), so a crop pass leaves no seam.
    static func feather(_ plane: Plane, old: Plane, region fr: (x: Int, y: Int, width: Int, height: Int)) {
        let ramp = max(2, min(fr.width, fr.height) / 10)
        let left = fr.x > 0, top = fr.y > 0
        let right = fr.x + fr.width < plane.width, bottom = fr.y + fr.height < plane.height
        for y in 0..<fr.height {
            let row = plane.row(fr.y + y) + fr.x, o = old.row(y)
            for x in 0..<fr.width {
                var d = ramp
                if left { d = min(d, x) }
                if right { d = min(d, fr.width - 1 - x) }
                if top { d = min(d, y) }
                if bottom { d = min(d, fr.height - 1 - y) }
                if d < ramp {
                    row[x] = UInt8(truncatingIfNeeded: (Int(row[x]) * d + Int(o[x]) * (ramp - d) + ramp / 2) / ramp)
                }
            }
        }
    }

    /// Runs the model on the picture and on its mirror image; `modelMask` gets the mean probability.
    /// Each pass runs inside `exclusive` when it is set.
    func runModelMirrored(_ frame: Image, mapping: MaskMapping, model m: SegmentationModel) {
        let interp = interpreter(m)
        let mw = m.inputWidth, mh = m.inputHeight
        let sum = ScratchBuffer<Float>(count: mw * mh)
        // One pass: the input written, the model run and its output read, back to back.
        func pass(_ mirrored: Bool) {
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
        for mirrored in accurateMirror ? [false, true] : [false] {
            if let exclusive { exclusive { pass(mirrored) } } else { pass(mirrored) }
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
