import ImageCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Measures `CaptureQuality` for faces found by `FaceAnalyzer` or `FaceTracker`.
///
/// Per face: the square around the mesh is resampled with ImageCore kernels (area when
/// shrinking, bilinear when enlarging) to a 128×128 I420 patch, so every image measurement is
/// made at the same face scale. Then, with integer kernels (`LaplacianBlocks`,
/// `RegionStatistics`, `AbsoluteDeviationSum`; scalar + SIMD, `QualityKernelTable`):
/// - sharpness from the Laplacian energy of the luma's 8×8 blocks inside the face ellipse: the
///   62.5th–87.5th percentile band minus the flattest quarter (so noise does not read as focus,
///   nor the hard rim of glasses or of a patch);
/// - noise from the flattest quarter of the chroma planes' blocks (white noise of σ adds 20σ²
///   to the 4-neighbour Laplacian's energy; chroma carries noise but little facial texture);
/// - exposure from the luma of forehead and cheeks (level, clipping, left/right balance,
///   shading) and the luma spread of the face interior (contrast);
/// - occlusion from flat covers (`FlatPixelCount`: the share of pixels without edges around each
///   eye and over nose, mouth and chin — a mask, a patch or a card has none of the edges of
///   lids, irises, nostrils and lips), from how far the nose's and the mouth-and-chin region's
///   pixels lie from the colour of the forehead's skin (covers that are not flat: hair, a hand),
///   and from the mesh's presence score;
/// and, from the landmarks: pose, eyes open, mouth neutral (`FaceExpression`), resolution. The
/// mesh places lids and lips even under a cover, so an eye counts as open, and a mouth as
/// neutral, only as far as its region is seen (not flat).
///
/// Everything is allocated in `init`; `evaluate` allocates nothing. Not thread-safe: one per thread.
public final class CaptureQualityEstimator {
    public static let patchSize = 128
    static let blockColumns = patchSize / LaplacianBlocks.blockSize

    // The patch buffers are `let` properties, alive as long as the estimator; their views
    // (`unsafeImage()`) never leave the method that takes them.
    let patch: ImageBuffer
    let rgbPatch: ImageBuffer
    let xrgbPatch: ImageBuffer
    let nv12Patch: ImageBuffer
    let blocks: UnsafeMutableBufferPointer<UInt32>
    let selected: UnsafeMutableBufferPointer<UInt32>
    let chromaBlocks: (UnsafeMutableBufferPointer<UInt32>, UnsafeMutableBufferPointer<UInt32>)
    /// The kernel variant every measurement runs, fixed at construction: the SIMD twins, or the
    /// scalar references (the same measurements to the bit; for tests).
    public let variant: KernelVariant

    public init(variant: KernelVariant = .simd) {
        self.variant = variant
        let p = CaptureQualityEstimator.patchSize
        patch = ImageBuffer(format: .i420, width: p, height: p)
        rgbPatch = ImageBuffer(format: .rgb888, width: p, height: p)
        xrgbPatch = ImageBuffer(format: .xrgb8888, width: p, height: p)
        nv12Patch = ImageBuffer(format: .nv12, width: p, height: p)
        let n = CaptureQualityEstimator.blockColumns * CaptureQualityEstimator.blockColumns
        blocks = .allocate(capacity: n)
        blocks.initialize(repeating: 0)
        selected = .allocate(capacity: n)
        selected.initialize(repeating: 0)
        chromaBlocks = (.allocate(capacity: n / 4), .allocate(capacity: n / 4))
        chromaBlocks.0.initialize(repeating: 0)
        chromaBlocks.1.initialize(repeating: 0)
    }

    deinit {
        blocks.deallocate()
        selected.deallocate()
        chromaBlocks.0.deallocate()
        chromaBlocks.1.deallocate()
    }

    /// The quality of a tracked or analysed face in `image` (the frame the mesh was computed on).
    public func evaluate(_ image: Image, face: FaceMesh) -> CaptureQuality {
        evaluate(image, points: face.points, presence: face.presence, pose: face.pose)
    }

    /// The quality of a face found in `image`.
    public func evaluate(_ image: Image, face: FaceObservation) -> CaptureQuality {
        evaluate(image, points: face.mesh, presence: face.presence,
                 pose: FacePose(roll: face.roll, pitch: face.pitch, yaw: face.yaw))
    }

    /// Where the patch came from: patch = (image − origin) · scale.
    struct PatchMap {
        var originX: Float, originY: Float, scaleX: Float, scaleY: Float
        func callAsFunction(_ p: Point3) -> Point2 { Point2((p.x - originX) * scaleX, (p.y - originY) * scaleY) }
    }

    public func evaluate(_ image: Image, points: [Point3], presence: Float, pose: FacePose) -> CaptureQuality {
        precondition(points.count == FaceMeshTopology.vertexCount, "CaptureQuality needs the 468-point mesh")
        var m = QualityMeasurements()
        var c = QualityComponents()

        // Landmark measures.
        m.rightEyeAspect = FaceExpression.eyeAspect(points, right: true)
        m.leftEyeAspect = FaceExpression.eyeAspect(points, right: false)
        m.mouthAspect = FaceExpression.mouthAspect(points)
        m.cornerLift = FaceExpression.cornerLift(points)
        let mouthOpen = FaceExpression.openness(mouthAspect: m.mouthAspect)
        let smile = FaceExpression.smile(cornerLift: m.cornerLift, widthRatio: FaceExpression.mouthWidthRatio(points))
        let rightEye = FaceExpression.midpoint(points[33], points[133]), leftEye = FaceExpression.midpoint(points[263], points[362])
        m.interocular = FaceExpression.distance(rightEye, leftEye)
        m.yaw = pose.yaw; m.pitch = pose.pitch

        // The face patch.
        let map = resample(image, points: points)
        measure(points: points, map: map, into: &m)

        // Eyes: the mesh places eyelids even under a patch or a bar, so each eye counts as open
        // only as far as its region still shows an eye's edges (lids, iris, lashes) rather than
        // a flat cover. An eye that cannot be seen cannot be confirmed open.
        // Flatness tells a cover from an eye only where the image has the dynamic range to show
        // an eye's edges: on a nearly black or washed-out face every region is flat. `evidence`
        // (the face's mean gradient over 6, at most 1) scales how much a flat region counts.
        let evidence = min(1, m.faceGradient / 6)
        func seen(_ v: Float) -> Float { 1 - (1 - v) * evidence }
        let rightSeen = seen(Self.visibility(eyeFlat: m.rightEyeFlat)), leftSeen = seen(Self.visibility(eyeFlat: m.leftEyeFlat))
        let lowerSeen = seen(Self.visibility(lowerFlat: m.lowerFaceFlat)), mouthSeen = seen(Self.visibility(lowerFlat: m.mouthFlat))
        let rightOpen = FaceExpression.openness(eyeAspect: m.rightEyeAspect) * rightSeen
        let leftOpen = FaceExpression.openness(eyeAspect: m.leftEyeAspect) * leftSeen
        let eyeOpen = min(rightOpen, leftOpen)
        c.eyesOpen = 1 - (1 - eyeOpen) * (1 - eyeOpen)
        c.mouthNeutral = (1 - 0.9 * mouthOpen) * (1 - 0.5 * smile)
        // Pose: a Gaussian in yaw and pitch — continuous and strictly falling in each, 0.83 at
        // the UK limit |yaw| = 0.15 rad, 0.44 at 0.3 rad. Pitch is judged more leniently (0.5 rad
        // scale): the mesh's pitch varies more between people holding their head level.
        c.pose = expf(-(pose.yaw / 0.35) * (pose.yaw / 0.35) - (pose.pitch / 0.5) * (pose.pitch / 0.5))
        c.resolution = m.interocular * m.interocular / (m.interocular * m.interocular + 40 * 40)

        // Image components. Measurements on clipped pixels carry no information, so sharpness,
        // noise and occlusion are credited only for the unclipped share of the skin.
        let usable = max(0, 1 - m.clipped)
        // Focus: x^3.5 / (1 + x^3.5), x = detail / 13 — a power law at the soft end, so it never
        // flattens out before the face is lost (detail 1: 1.3e-4), and half at 13: a face only
        // slightly soft is still a usable capture (detail 9: 0.22, 18: 0.76, 57: 0.99), one plainly
        // out of focus is not (detail 4.5, a 9-px box blur on a 200-px face: 0.024).
        let focus = powf(m.detail / 13, 3.5)
        c.sharpness = usable * focus / (1 + focus)
        let relativeNoise = m.noiseSigma * 128 / max(m.skinLuma, 32)
        c.noise = usable / (1 + (relativeNoise / 2) * (relativeNoise / 2))
        // Level: best at 175 (well-exposed skin), falling gently towards dark (skin tones differ)
        // and faster towards white.
        let level = (m.skinLuma - 175) / (m.skinLuma < 175 ? 110 : 55)
        let levelScore = 1 / (1 + level * level * level * level)
        let clipScore = 1 / (1 + (m.clipped / 0.05) * (m.clipped / 0.05))
        let balanceScore = 1 / (1 + (m.imbalance / 0.35) * (m.imbalance / 0.35))
        let shadingScore = 1 / (1 + (m.shading / 0.4) * (m.shading / 0.4))
        let contrastScore = 1 - expf(-(m.faceContrast / 14) * (m.faceContrast / 14))
        c.exposure = levelScore * clipScore * balanceScore * shadingScore * contrastScore
        // A covered mouth's lip landmarks are the mesh's guess: the mouth is credited as neutral
        // only as far as the mouth region is seen.
        c.mouthNeutral = min(c.mouthNeutral, mouthSeen)
        // Occlusion: presence gates rather than grades (above MediaPipe's tracking threshold, 0.5,
        // the mesh is trusted; its value there is too noisy under occlusion to order captures).
        // Then how flat each region that should be full of edges has become — each eye's box and
        // the nose-mouth-chin region — and, for covers that are not flat (hair, a hand), how far
        // the nose's and mouth's colours lie from the forehead's skin.
        let p = max(0, min(1, presence / 0.5))
        c.occlusion = usable * p * p
            * rightSeen * leftSeen * lowerSeen
            / (1 + (m.noseDistance / 1.2) * (m.noseDistance / 1.2))
            / (1 + (m.mouthDistance / 1.2) * (m.mouthDistance / 1.2))
        return CaptureQuality(components: c, eyeOpenness: eyeOpen, mouthOpenness: mouthOpen, smile: smile, measurements: m)
    }

    /// How visible an eye is, from the flat share around it: strictly falling from the first
    /// flat pixel (so a cover that has only begun to spread already counts), about 0.96 for an
    /// uncovered eye (0.05–0.15 flat; 0.7 with a lens's glare at 0.25), 0.5 at 0.37, 0.007 when
    /// flat throughout.
    static func visibility(eyeFlat f: Float) -> Float { expf(-(f / 0.45) * (f / 0.45)) }

    /// The same for the nose-mouth-chin region (smoother than an eye's: lips, nostrils and the
    /// chin's shading are its edges): about 0.75–0.9 uncovered (0.15–0.27 flat; 0.6 with a
    /// beard's shadow at 0.35), 0.5 at 0.42, 0.018 when flat throughout.
    static func visibility(lowerFlat f: Float) -> Float { expf(-(f / 0.5) * (f / 0.5)) }

    // MARK: Patch

    /// Fills `patch` (I420, 128×128) from the square around the mesh and returns the mapping.
    func resample(_ image: Image, points: [Point3]) -> PatchMap {
        let size = CaptureQualityEstimator.patchSize
        var minX = Float.greatestFiniteMagnitude, minY = Float.greatestFiniteMagnitude
        var maxX = -Float.greatestFiniteMagnitude, maxY = -Float.greatestFiniteMagnitude
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let side = max(maxX - minX, maxY - minY) * 1.05
        let cx = (minX + maxX) / 2, cy = (minY + maxY) / 2
        func span(_ centre: Float, _ limit: Int) -> (Int, Int) {
            var lo = Int((centre - side / 2).rounded(.down)), hi = Int((centre + side / 2).rounded(.up))
            lo = max(0, min(limit - 2, lo)) & ~1
            hi = max(lo + 2, min(limit, hi))
            return (lo, hi - lo)
        }
        var (x0, w) = span(cx, image.width)
        var (y0, h) = span(cy, image.height)
        let area = w >= size && h >= size
        if area {
            // Multiples of 16 keep the area kernel's integer weights small (gcd with 128).
            w -= w % 16; h -= h % 16
        }
        x0 = max(0, x0); y0 = max(0, y0)
        let crop = image.cropped(x: x0, y: y0, width: w, height: h)
        let out = patch.unsafeImage()
        func resize(_ s: Plane, _ d: Plane) {
            switch (area, variant) {
            case (true, .scalar): ResizeArea.scalar(s, d)
            case (true, .simd): ResizeArea.simd(s, d)
            case (false, .scalar): ResizeBilinear.scalar(s, d)
            case (false, .simd): ResizeBilinear.simd(s, d)
            }
        }
        switch image.format {
        case .rgb888, .xrgb8888:
            let staging = (image.format == .rgb888 ? rgbPatch : xrgbPatch).unsafeImage()
            resize(crop.planes.0, staging.planes.0)
            RGBToI420.run(staging, out, variant: variant)
        case .i420:
            resize(crop.planes.0, out.planes.0)
            resize(crop.planes.1, out.planes.1)
            resize(crop.planes.2, out.planes.2)
        case .nv12:
            let staging = nv12Patch.unsafeImage()
            resize(crop.planes.0, out.planes.0)
            resize(crop.planes.1, staging.planes.1)
            let uv = staging.planes.1, u = out.planes.1, v = out.planes.2
            for y in 0..<u.height {
                let s = uv.row(y), du = u.row(y), dv = v.row(y)
                for x in 0..<u.width { du[x] = s[2 * x]; dv[x] = s[2 * x + 1] }
            }
        case .gray8:
            resize(crop.planes.0, out.planes.0)
            Fill.run(out.planes.1, value: 128, variant: variant)
            Fill.run(out.planes.2, value: 128, variant: variant)
        }
        return PatchMap(originX: Float(x0), originY: Float(y0),
                        scaleX: Float(size) / Float(w), scaleY: Float(size) / Float(h))
    }

    // MARK: Measurements on the patch

    /// Mesh vertices bounding each measured region (static: no allocation per call).
    static let interiorVertices = [33, 263, 105, 334, 17, 61, 291]
    static let noseVertices = [129, 358, 195, 2, 98, 327]
    static let mouthVertices = [61, 291, 0, 17]

    func measure(points: [Point3], map: PatchMap, into m: inout QualityMeasurements) {
        let size = CaptureQualityEstimator.patchSize
        let img = patch.unsafeImage()
        let yPlane = img.planes.0, uPlane = img.planes.1, vPlane = img.planes.2
        func at(_ i: Int) -> Point2 { map(points[i]) }
        func mid(_ a: Point2, _ b: Point2) -> Point2 { Point2((a.x + b.x) / 2, (a.y + b.y) / 2) }
        let eyeR = mid(at(33), at(133)), eyeL = mid(at(263), at(362))
        var ux = eyeL.x - eyeR.x, uy = eyeL.y - eyeR.y
        let d = max(4, (ux * ux + uy * uy).squareRoot())
        ux /= d; uy /= d
        // Down axis: perpendicular to the eye line, towards the mouth.
        let vx = -uy, vy = ux
        func box(_ centre: Point2, _ halfW: Float, _ halfH: Float) -> PixelRect {
            PixelRect(x0: Int((centre.x - halfW).rounded()), y0: Int((centre.y - halfH).rounded()),
                      x1: Int((centre.x + halfW).rounded()), y1: Int((centre.y + halfH).rounded()))
                .clamped(width: size, height: size)
        }
        func bounds(_ indices: [Int], margin: Float) -> PixelRect {
            var x0 = Float.greatestFiniteMagnitude, y0 = Float.greatestFiniteMagnitude
            var x1 = -Float.greatestFiniteMagnitude, y1 = -Float.greatestFiniteMagnitude
            for i in indices {
                let p = at(i)
                x0 = min(x0, p.x); x1 = max(x1, p.x); y0 = min(y0, p.y); y1 = max(y1, p.y)
            }
            return PixelRect(x0: Int((x0 - margin).rounded(.down)), y0: Int((y0 - margin).rounded(.down)),
                             x1: Int((x1 + margin).rounded(.up)), y1: Int((y1 + margin).rounded(.up)))
                .clamped(width: size, height: size)
        }
        // Skin reference regions: forehead above the brows, cheeks under the eyes.
        let brows = mid(at(105), at(334))
        let forehead = box(Point2(brows.x - vx * 0.3 * d, brows.y - vy * 0.3 * d), 0.3 * d, 0.12 * d)
        let mouthR = at(61), mouthL = at(291)
        let cheekRc = Point2(eyeR.x + 0.6 * (mouthR.x - eyeR.x) - ux * 0.12 * d, eyeR.y + 0.6 * (mouthR.y - eyeR.y) - uy * 0.12 * d)
        let cheekLc = Point2(eyeL.x + 0.6 * (mouthL.x - eyeL.x) + ux * 0.12 * d, eyeL.y + 0.6 * (mouthL.y - eyeL.y) + uy * 0.12 * d)
        let cheekR = box(cheekRc, 0.14 * d, 0.14 * d), cheekL = box(cheekLc, 0.14 * d, 0.14 * d)

        let low: UInt8 = 8, high: UInt8 = 247
        let sF = RegionStatistics.run(yPlane, forehead, low: low, high: high, variant: variant)
        let sR = RegionStatistics.run(yPlane, cheekR, low: low, high: high, variant: variant)
        let sL = RegionStatistics.run(yPlane, cheekL, low: low, high: high, variant: variant)
        let interior = bounds(Self.interiorVertices, margin: 0)
        // Contrast away from the eyes (the interior box without the boxes around the eyes, plus
        // the forehead): the eyes are the face's most variable part (glasses, glare, make-up, a
        // patch), and an edge there says nothing about the lighting.
        let eyeBoxR = box(eyeR, 0.3 * d, 0.2 * d), eyeBoxL = box(eyeL, 0.3 * d, 0.2 * d)
        let aroundR = box(eyeR, 0.5 * d, 0.36 * d), aroundL = box(eyeL, 0.5 * d, 0.36 * d)
        var face = RegionStatistics.run(yPlane, interior, low: low, high: high, variant: variant)
        func remove(_ e: PixelRect) {
            let i = PixelRect(x0: max(e.x0, interior.x0), y0: max(e.y0, interior.y0), x1: min(e.x1, interior.x1), y1: min(e.y1, interior.y1))
            guard !i.isEmpty else { return }
            let s = RegionStatistics.run(yPlane, i, low: low, high: high, variant: variant)
            face.count -= s.count; face.sum -= s.sum; face.sumOfSquares -= s.sumOfSquares
        }
        remove(aroundR)
        remove(aroundL)
        // The forehead too (above the interior box): the lighting's range shows there even when
        // a mask covers most of the lower face.
        face = face + RegionStatistics.run(yPlane, forehead, low: low, high: high, variant: variant)
        m.faceContrast = face.deviation

        // Occlusion: colour of nose and mouth-and-chin against the skin of the forehead and the
        // bridge between the eyes (rarely covered by a mask, a hand or a fringe), and of one eye
        // region against the other. Distances relative to the reference luma, so a darker or
        // brighter capture of the same face reads the same.
        let bridge = box(at(168), 0.12 * d, 0.12 * d)
        func colour(_ r: PixelRect) -> (y: Float, u: Float, v: Float) {
            let ch = r.halved.clamped(width: uPlane.width, height: uPlane.height)
            return (RegionStatistics.run(yPlane, r, low: 0, high: 255, variant: variant).mean,
                    RegionStatistics.run(uPlane, ch, low: 0, high: 255, variant: variant).mean,
                    RegionStatistics.run(vPlane, ch, low: 0, high: 255, variant: variant).mean)
        }
        let f = colour(forehead), br = colour(bridge)
        let wf = Float(forehead.area), wb = Float(bridge.area), wt = max(1, wf + wb)
        let ref = (y: (f.y * wf + br.y * wb) / wt, u: (f.u * wf + br.u * wb) / wt, v: (f.v * wf + br.v * wb) / wt)
        let scale = 1 / max(16, ref.y)
        func distance(_ a: (y: Float, u: Float, v: Float), _ b: (y: Float, u: Float, v: Float)) -> Float {
            (abs(a.y - b.y) + 2 * (abs(a.u - b.u) + abs(a.v - b.v))) * scale
        }
        let ry = UInt8(max(0, min(255, ref.y.rounded())))
        let rc = (UInt8(max(0, min(255, ref.u.rounded()))), UInt8(max(0, min(255, ref.v.rounded()))))
        /// Mean per-pixel distance of region `r` from the reference colour.
        func deviation(_ r: PixelRect) -> Float {
            let ch = r.halved.clamped(width: uPlane.width, height: uPlane.height)
            guard !r.isEmpty, !ch.isEmpty else { return 0 }
            let luma = Float(AbsoluteDeviationSum.run(yPlane, yPlane, r, reference: (ry, ry), variant: variant)) / Float(2 * r.area)
            let chroma = Float(AbsoluteDeviationSum.run(uPlane, vPlane, ch, reference: rc, variant: variant)) / Float(ch.area)
            return (luma + 2 * chroma) * scale
        }
        // Exposure on forehead and cheeks; a cheek unlike the forehead's skin (covered by a mask
        // or a hand) counts less, so lighting is judged on skin.
        let wR = 1 / (1 + (deviation(cheekR) / 0.5) * (deviation(cheekR) / 0.5))
        let wL = 1 / (1 + (deviation(cheekL) / 0.5) * (deviation(cheekL) / 0.5))
        let weightTotal = Float(sF.count) + wR * Float(sR.count) + wL * Float(sL.count)
        if weightTotal > 0 {
            let mean = (Float(sF.sum) + wR * Float(sR.sum) + wL * Float(sL.sum)) / weightTotal
            let squares = (Float(sF.sumOfSquares) + wR * Float(sR.sumOfSquares) + wL * Float(sL.sumOfSquares)) / weightTotal
            m.skinLuma = mean
            m.shading = max(0, squares - mean * mean).squareRoot() / max(8, mean)
            m.clipped = (Float(sF.low + sF.high) + wR * Float(sR.low + sR.high) + wL * Float(sL.low + sL.high)) / weightTotal
        }
        m.imbalance = min(wR, wL) * abs(sL.mean - sR.mean) / max(1, max(sL.mean, sR.mean))

        let chin = mid(at(17), at(152))
        var mouth = bounds(Self.mouthVertices, margin: 0.1 * d)
        mouth.y1 = min(size, max(mouth.y1, Int(chin.y.rounded(.up))))
        m.noseDistance = deviation(bounds(Self.noseVertices, margin: 0))
        m.mouthDistance = deviation(mouth)

        // Sharpness and noise: Laplacian energy of the blocks inside the face ellipse.
        LaplacianBlocks.run(yPlane, blocks, variant: variant)
        let mouthC = mid(at(13), at(14))
        let centre = Point2((eyeR.x + eyeL.x + 2 * mouthC.x) / 4, (eyeR.y + eyeL.y + 2 * mouthC.y) / 4 - 0.2 * d)
        let a = 0.95 * d, b = 1.3 * d
        var n = 0
        let columns = CaptureQualityEstimator.blockColumns
        for by in 0..<columns {
            for bx in 0..<columns {
                let px = Float(bx * 8 + 4) - centre.x, py = Float(by * 8 + 4) - centre.y
                let pu = px * ux + py * uy, pv = px * vx + py * vy
                if (pu / a) * (pu / a) + (pv / b) * (pv / b) <= 1 {
                    selected[n] = blocks[by * columns + bx]
                    n += 1
                }
            }
        }
        guard n >= 4 else { return }
        m.detail = CaptureQualityEstimator.spread(selected, n).squareRoot()

        // Noise: sensor noise shows in chroma as much as in luma, while a face's fine texture
        // (pores, stubble, hair) is nearly all luma — so the flattest chroma blocks measure noise
        // without mistaking texture for it. U and V energies added per 8×8 chroma block.
        LaplacianBlocks.run(uPlane, chromaBlocks.0, variant: variant)
        LaplacianBlocks.run(vPlane, chromaBlocks.1, variant: variant)
        let chromaColumns = columns / 2
        n = 0
        for by in 0..<chromaColumns {
            for bx in 0..<chromaColumns {
                let px = Float(bx * 16 + 8) - centre.x, py = Float(by * 16 + 8) - centre.y
                let pu = px * ux + py * uy, pv = px * vx + py * vy
                if (pu / a) * (pu / a) + (pv / b) * (pv / b) <= 1 {
                    selected[n] = chromaBlocks.0[by * chromaColumns + bx] &+ chromaBlocks.1[by * chromaColumns + bx]
                    n += 1
                }
            }
        }
        guard n >= 4 else { return }
        CaptureQualityEstimator.sort(selected, n)
        let quarter = max(1, n / 4)
        var lowSum: UInt64 = 0
        for i in 0..<quarter { lowSum += UInt64(selected[i]) }
        // White noise of σ in U and V adds 20σ² per plane to the Laplacian's energy.
        m.noiseSigma = (Float(lowSum) / Float(quarter * 64) / 40).squareRoot()

        // Flat covers: the share of flat, unclipped pixels around each eye and in the
        // nose-mouth-chin region. "Flat" is relative to the face's own texture (a quarter of its
        // mean gradient, at least 2), so a soft or blurred capture does not read as covered, and
        // to the noise (a flat area under white luma noise of σ shows gradients of about 2.3σ;
        // luma σ is taken as twice the chroma planes' σ, as for noise independent per RGB channel).
        func inset(_ r: PixelRect) -> PixelRect { FlatPixelCount.inset(r, width: size, height: size) }
        let interiorInset = inset(interior)
        let g = FlatPixelCount.run(yPlane, interiorInset, threshold: 0, low: 0, high: 255, variant: variant)
        m.faceGradient = Float(g.gradientSum) / Float(max(1, interiorInset.area))
        let threshold = UInt8(max(2, min(96, max(0.25 * m.faceGradient, 6 * m.noiseSigma).rounded())))
        func flatShare(_ r: PixelRect) -> Float {
            let i = inset(r)
            guard !i.isEmpty else { return 0 }
            return Float(FlatPixelCount.run(yPlane, i, threshold: threshold, low: low, high: high, variant: variant).flat) / Float(i.area)
        }
        // Each eye: the mean of the eye's own box and of a wider one reaching the brow and the
        // upper cheek, so a cover keeps counting as it grows past the eye.
        m.rightEyeFlat = (flatShare(eyeBoxR) + flatShare(aroundR)) / 2
        m.leftEyeFlat = (flatShare(eyeBoxL) + flatShare(aroundL)) / 2
        let noseBox = bounds(Self.noseVertices, margin: 0.05 * d)
        m.mouthFlat = flatShare(mouth)
        let chinBottom = min(size, Int((at(152).y + 0.05 * d).rounded(.up)))
        let lower = PixelRect(x0: min(noseBox.x0, mouth.x0), y0: noseBox.y0, x1: max(noseBox.x1, mouth.x1), y1: max(mouth.y1, chinBottom))
        m.lowerFaceFlat = flatShare(lower)
    }

    /// Sorts the first `n` values (insertion sort; n ≤ 256, no allocation).
    static func sort(_ v: UnsafeMutableBufferPointer<UInt32>, _ n: Int) {
        guard n > 1 else { return }
        for i in 1..<n {
            let x = v[i]
            var j = i - 1
            while j >= 0 && v[j] > x { v[j + 1] = v[j]; j -= 1 }
            v[j + 1] = x
        }
    }

    /// Per-pixel Laplacian energy of the face's detailed blocks above its flattest quarter (sorts
    /// `v`). "Detailed" is the band from the 62.5th to the 87.5th percentile of the `n` 8×8
    /// blocks: the busiest eighth is left out, so a few blocks of hard edges that are not the
    /// face's focus (the rim of glasses or of a patch, a hair strand) do not read as sharpness.
    static func spread(_ v: UnsafeMutableBufferPointer<UInt32>, _ n: Int) -> Float {
        sort(v, n)
        let quarter = max(1, n / 4), eighth = n / 8
        var lowSum: UInt64 = 0, highSum: UInt64 = 0
        for i in 0..<quarter { lowSum += UInt64(v[i]); highSum += UInt64(v[n - 1 - eighth - i]) }
        let pixels = Float(quarter * 64)
        return max(0, Float(highSum) / pixels - Float(lowSum) / pixels)
    }
}
