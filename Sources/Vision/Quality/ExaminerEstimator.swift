import ImageCore

/// Measures `ExaminerMeasurements` for one face: the mesh (MediaPipe numbering), the pupils and
/// the pixels of the image the mesh was computed on, plus the capture quality's focus measure.
/// Works on every Booth image format and allocates nothing (regions are static vertex lists,
/// pixels are sampled on coarse grids), so the kiosk runs it every frame.
public enum ExaminerEstimator {
    /// Outer-lip contour (the same path as `FaceMeshTopology`'s outer lips).
    static let outerLips = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146]
    /// Inner-lip contour, from the right mouth corner along the upper lip and back along the lower.
    static let innerLips = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308, 324, 318, 402, 317, 14, 87, 178, 88, 95]
    /// Forehead top band: the face oval's top edge, then back along a line a third of the way
    /// down to the brows.
    static let foreheadTopBand = [54, 103, 67, 109, 10, 338, 297, 332, 284, 298, 333, 299, 337, 151, 108, 69, 104, 68]
    /// Forehead lower band: that line, then back along the brows' upper edge.
    static let foreheadLowBand = [68, 104, 69, 108, 151, 337, 299, 333, 298, 293, 334, 296, 336, 9, 107, 66, 105, 63]
    /// The face oval (MediaPipe's silhouette), from the forehead top clockwise on screen.
    static let faceOval = [10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176,
                           149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109]
    /// Eye openings (upper and lower lid contours), person's right eye and left eye.
    static let rightEyeOpening = [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246]
    static let leftEyeOpening = [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466]
    /// Mirrored boxes compared side against side: mesh vertex on the person's right, on the left,
    /// and how far outwards (in eye distances) the box centre lies from it.
    static let mirroredBoxes: [(Int, Int, Float)] = [(61, 291, 0.22), (205, 425, 0), (50, 280, 0)]

    /// Inner-lip vertex pairs (upper, lower) between the mouth corners, right to left.
    static let lipLinePairs: [(Int, Int)] = [(80, 88), (81, 178), (82, 87), (13, 14), (312, 317), (311, 402), (310, 318)]

    /// `teethLine`: across the lip line at each of `lipLinePairs`' midpoints, the samples within
    /// ±0.03 d that are brighter than 1.1× the lips' median luma (16 samples 0.06–0.095 d above
    /// and below) and have under half their median chroma, as a height in d; mean of the places.
    static func teethAlongLipLine(_ px: FacePixels, _ p: [Point3], _ axes: FacePixels.Axes, d: Float) -> Float {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 32) { buffer -> Float in
            var height: Float = 0
            for (a, b) in lipLinePairs {
                let c = FaceExpression.midpoint(p[a], p[b]).xy
                var n = 0
                for side: Float in [-1, 1] {
                    for k in 0..<8 {
                        let q = axes.point(c, 0, side * (0.06 + 0.005 * Float(k)) * d)
                        let s = px.sample(q.x, q.y)
                        buffer[n] = s.y; buffer[16 + n] = s.saturation
                        n += 1
                    }
                }
                func median(_ from: Int) -> Float {
                    var slice = UnsafeMutableBufferPointer(rebasing: buffer[from..<(from + 16)])
                    slice.sort()
                    return (slice[7] + slice[8]) / 2
                }
                let lips = median(0), lipsChroma = median(16)
                var count = 0
                for k in -6...6 {
                    let q = axes.point(c, 0, 0.005 * Float(k) * d)
                    let s = px.sample(q.x, q.y)
                    if s.y > 1.1 * lips && s.saturation < 0.5 * lipsChroma { count += 1 }
                }
                height += Float(count) * 0.005
            }
            return height / Float(lipLinePairs.count)
        }
    }

    public static func measure(_ image: Image, face: FaceObservation, quality: CaptureQuality) -> ExaminerMeasurements {
        measure(image, points: face.mesh, rightPupil: face.rightPupil, leftPupil: face.leftPupil, quality: quality)
    }

    public static func measure(_ image: Image, face: FaceMesh, quality: CaptureQuality) -> ExaminerMeasurements {
        measure(image, points: face.points, rightPupil: face.rightPupil, leftPupil: face.leftPupil, quality: quality)
    }

    public static func measure(_ image: Image, points p: [Point3], rightPupil: Point2, leftPupil: Point2,
                               quality: CaptureQuality) -> ExaminerMeasurements {
        precondition(p.count == FaceMeshTopology.vertexCount, "ExaminerEstimator needs the 468-point mesh")
        var m = ExaminerMeasurements()
        let px = FacePixels(image: image)
        let eyeR = FaceExpression.midpoint(p[33], p[133]).xy, eyeL = FaceExpression.midpoint(p[263], p[362]).xy
        var ux = eyeL.x - eyeR.x, uy = eyeL.y - eyeR.y
        let d = max(4, (ux * ux + uy * uy).squareRoot())
        ux /= d; uy /= d
        let axes = FacePixels.Axes(ux: ux, uy: uy)
        let faceHeight = max(1, FaceExpression.distance(p[10], p[152]))
        // The polygons the grids test their points against, made once.
        let outer = MeshOutline(p, outerLips), inner = MeshOutline(p, innerLips)
        let oval = MeshOutline(p, faceOval)

        // Skin reference: upper cheeks and the middle of the nose.
        let cheekR = px.mean(p[50].xy, axes, halfU: 0.12 * d, halfV: 0.1 * d)
        let cheekL = px.mean(p[280].xy, axes, halfU: 0.12 * d, halfV: 0.1 * d)
        let nose = px.mean(p[195].xy, axes, halfU: 0.06 * d, halfV: 0.08 * d)
        let ref = FacePixels.YUV(y: (cheekR.y + cheekL.y + nose.y) / 3, u: (cheekR.u + cheekL.u + nose.u) / 3,
                                 v: (cheekR.v + cheekL.v + nose.v) / 3)
        let refY = max(16, ref.y)
        m.skinLuma = ref.y
        // Chromaticity (chroma over luma) does not change with the light's strength, so a shadowed
        // part of the skin still reads as skin.
        let refCU = (ref.u - 128) / refY, refCV = (ref.v - 128) / refY
        func hueDistance(_ s: FacePixels.YUV) -> Float {
            let y = max(16, s.y)
            return abs((s.u - 128) / y - refCU) + abs((s.v - 128) / y - refCV)
        }
        // Forehead skin is often lighter, shinier and a little yellower than the cheeks: a
        // looser match than a cover's (tuning half: at 0.09 / 1.5× bare foreheads read 0.07).
        func skinLike(_ s: FacePixels.YUV) -> Bool { hueDistance(s) < 0.15 && s.y > 0.3 * refY && s.y < 1.8 * refY + 10 }

        // Mouth: lip gap against the face height, teeth inside the outer lips.
        m.lipGap = FaceExpression.lipGap(p)
        var lipSamples = 0, teethSamples = 0
        let refSaturation = ref.saturation
        px.polygon(outer) { q, s in
            lipSamples += 1
            // Teeth show between the lips: inside the inner-lip contour (a closed mouth's is a
            // line, so light on closed lips is not counted).
            if s.y > 0.85 * refY && s.saturation < max(6, 0.5 * refSaturation) && inner.contains(q.x, q.y) {
                teethSamples += 1
            }
        }
        m.teeth = lipSamples > 0 ? Float(teethSamples) / Float(lipSamples) : 0
        // A dark slit between the lips: across the lip line at 7 places between the corners, the
        // samples darker than 0.55 of the lips around them (the profile's 4 outermost samples at
        // each end), as a height over the face height (mean of the places).
        let c0 = p[78].xy, c1 = p[308].xy
        let mouthWidth = max(2, ((c1.x - c0.x) * (c1.x - c0.x) + (c1.y - c0.y) * (c1.y - c0.y)).squareRoot())
        let lineCentre = FaceExpression.midpoint(p[13], p[14]).xy
        let sag = (lineCentre.x - (c0.x + c1.x) / 2) * axes.vx + (lineCentre.y - (c0.y + c1.y) / 2) * axes.vy
        var slit: Float = 0
        for k in 1...7 {
            let t = 0.125 * Float(k)
            let onLine = axes.point(Point2(c0.x + t * (c1.x - c0.x), c0.y + t * (c1.y - c0.y)), 0, (1 - abs(2 * t - 1)) * sag)
            var lips: Float = 0, dark = 0
            px.grid(onLine, axes, halfU: 0, halfV: 0.12 * mouthWidth, columns: 1, rows: 25) { j, _, s in
                if j < 4 || j > 20 { lips += s.y / 8 }
            }
            px.grid(onLine, axes, halfU: 0, halfV: 0.12 * mouthWidth, columns: 1, rows: 25) { _, _, s in
                if s.y < 0.55 * lips { dark += 1 }
            }
            slit += Float(dark) * 0.01 * mouthWidth
        }
        m.lipSlit = slit / 7 / faceHeight
        // The outer lips' height (three pairs across the middle) over the mouth's width (outer
        // corners), in the image plane.
        func planar(_ a: Int, _ b: Int) -> Float { ((p[a].x - p[b].x) * (p[a].x - p[b].x) + (p[a].y - p[b].y) * (p[a].y - p[b].y)).squareRoot() }
        m.lipAspect = (planar(37, 84) + planar(0, 17) + planar(267, 314)) / 3 / max(2, planar(61, 291))
        m.teethLine = teethAlongLipLine(px, p, axes, d: d)
        m.smile = FaceExpression.smile(cornerLift: FaceExpression.cornerLift(p), widthRatio: FaceExpression.mouthWidthRatio(p))
        m.browHeight = FaceExpression.browHeight(p)

        // Eyes: luma around each eye, sclera against iris, glare.
        var glareSamples = 0, aroundSamples = 0
        func around(_ c: Point2) -> Float {
            var sum: Float = 0
            px.grid(c, axes, halfU: 0.32 * d, halfV: 0.2 * d, columns: 16, rows: 10) { _, _, s in
                sum += s.y
                aroundSamples += 1
                if s.y >= 235 && s.y >= refY + 30 { glareSamples += 1 }
            }
            return sum / 160
        }
        // Each eye against the cheek on its own side (a shadow across the face darkens both).
        m.eyeLuma = min(around(eyeR) / max(16, cheekR.y), around(eyeL) / max(16, cheekL.y))
        // Inside each eye opening, the spread of luma (90th minus 10th percentile, over its own
        // cheek's): an open eye shows the white of the eye against the iris and the lashes even
        // when deep-set; a dark lens is dark and even all over.
        m.eyeContrast = min(px.spread(p, rightEyeOpening) / max(16, cheekR.y), px.spread(p, leftEyeOpening) / max(16, cheekL.y))
        m.eyeVisibility = m.eyeLuma + m.eyeContrast
        m.glare = aroundSamples > 0 ? Float(glareSamples) / Float(aroundSamples) : 0
        func contrast(outer: Int, inner: Int, pupil: Point2) -> Float {
            let a = p[outer].xy, b = p[inner].xy
            let w = max(2, ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot())
            let s1 = px.mean(Point2(a.x + 0.18 * (b.x - a.x), a.y + 0.18 * (b.y - a.y)), axes, halfU: 0.05 * w, halfV: 0.03 * w)
            let s2 = px.mean(Point2(a.x + 0.82 * (b.x - a.x), a.y + 0.82 * (b.y - a.y)), axes, halfU: 0.05 * w, halfV: 0.03 * w)
            let iris = px.mean(pupil, axes, halfU: 0.1 * w, halfV: 0.06 * w)
            return max(s1.y, s2.y) - iris.y
        }
        m.irisContrast = min(contrast(outer: 33, inner: 133, pupil: rightPupil) / max(16, cheekR.y),
                             contrast(outer: 263, inner: 362, pupil: leftPupil) / max(16, cheekL.y))

        // Glasses: a horizontal line across the bridge or under an eye.
        var rowsBuffer: (Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        func line(_ c: Point2, halfU: Float, halfV: Float) -> Float {
            rowsBuffer = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            return withUnsafeMutableBytes(of: &rowsBuffer) { raw -> Float in
                let rows = raw.bindMemory(to: Float.self)
                px.grid(c, axes, halfU: halfU, halfV: halfV, columns: 8, rows: 16) { j, _, s in rows[j] += s.y / 8 }
                var best: Float = 0
                for j in 2..<14 {
                    let step = abs(rows[j + 2] - rows[j - 2]) / 2
                    let ridge = (rows[j - 2] + rows[j + 2]) / 2 - rows[j]
                    best = max(best, step, ridge)
                }
                return best / refY
            }
        }
        let bridgeCentre = axes.point(FaceExpression.midpoint(p[133], p[362]).xy, 0, -0.15 * d)
        let bridge = line(bridgeCentre, halfU: 0.08 * d, halfV: 0.2 * d)
        let rimR = line(axes.point(eyeR, 0, 0.35 * d), halfU: 0.2 * d, halfV: 0.18 * d)
        let rimL = line(axes.point(eyeL, 0, 0.35 * d), halfU: 0.2 * d, halfV: 0.18 * d)
        m.frameLine = max(bridge, rimR, rimL)

        // Cover: pixels unlike skin over nose, cheeks, mouth surround and chin.
        func foreign(_ s: FacePixels.YUV) -> Bool {
            if s.y < 0.6 * refY { return false }                  // shadow, hair, beard, nostrils
            return hueDistance(s) > 0.14 || s.y > 1.45 * refY + 10
        }
        func coverShare(_ c: Point2, halfU: Float, halfV: Float) -> Float {
            var n = 0
            px.grid(c, axes, halfU: halfU, halfV: halfV, columns: 12, rows: 12) { _, _, s in if foreign(s) { n += 1 } }
            return Float(n) / 144
        }
        let mouthC = FaceExpression.midpoint(p[13], p[14]).xy
        var cover = coverShare(p[4].xy, halfU: 0.12 * d, halfV: 0.12 * d)
        cover = max(cover, coverShare(p[205].xy, halfU: 0.16 * d, halfV: 0.16 * d))
        cover = max(cover, coverShare(p[425].xy, halfU: 0.16 * d, halfV: 0.16 * d))
        cover = max(cover, coverShare(p[175].xy, halfU: 0.3 * d, halfV: 0.1 * d))
        // Around the mouth, leaving out the lips themselves (not skin-coloured).
        var ring = 0, ringAll = 0
        px.grid(axes.point(mouthC, 0, 0.05 * d), axes, halfU: 0.95 * d, halfV: 0.5 * d, columns: 32, rows: 18) { _, q, s in
            guard !outer.contains(q.x, q.y), oval.contains(q.x, q.y) else { return }
            ringAll += 1
            if foreign(s) { ring += 1 }
        }
        m.cover = max(cover, Float(ring) / Float(max(1, ringAll)))

        // One side against the other: a hand or an object is rarely symmetric. Edge share,
        // and near-white share of mirrored boxes beside the mouth and on the cheeks.
        // Each side's edges are judged against its own cheek's luma, so a shadow on one side
        // does not read as a cover.
        let whiteSaturation = 0.5 * refSaturation + 4
        let step = 0.03 * d
        func side(_ c: Point2, light: Float) -> (edges: Float, white: Float) {
            var n = 0, e = 0, w = 0
            px.grid(c, axes, halfU: 0.18 * d, halfV: 0.18 * d, columns: 12, rows: 12) { _, q, s in
                guard !outer.contains(q.x, q.y), oval.contains(q.x, q.y) else { return }
                n += 1
                let a = px.luma(q.x - step * axes.ux, q.y - step * axes.uy), b = px.luma(q.x + step * axes.ux, q.y + step * axes.uy)
                let c = px.luma(q.x - step * axes.vx, q.y - step * axes.vy), f = px.luma(q.x + step * axes.vx, q.y + step * axes.vy)
                if min(min(a, b), min(c, f)) > 0.4 * light && abs(a - b) + abs(c - f) > 0.22 * light { e += 1 }
                if s.y > max(1.2 * light, light + 25) && s.saturation < whiteSaturation { w += 1 }
            }
            let k = Float(max(1, n))
            return (Float(e) / k, Float(w) / k)
        }
        var sideEdges: Float = 0, sideWhite: Float = 0
        for (a, b, out) in mirroredBoxes {
            let r = side(axes.point(p[a].xy, -out * d, 0), light: max(16, cheekR.y))
            let l = side(axes.point(p[b].xy, out * d, 0), light: max(16, cheekL.y))
            sideEdges = max(sideEdges, abs(r.edges - l.edges))
            sideWhite = max(sideWhite, abs(r.white - l.white))
        }
        m.sideEdges = sideEdges
        m.sideWhite = sideWhite
        // A light object at the mouth, either side or across the middle.
        var mouthWhite = 0, mouthAll = 0
        px.grid(axes.point(mouthC, 0, 0.025 * d), axes, halfU: 0.75 * d, halfV: 0.325 * d, columns: 40, rows: 20) { _, q, s in
            mouthAll += 1
            if s.y > max(1.2 * refY, refY + 25) && s.saturation < whiteSaturation && !inner.contains(q.x, q.y) { mouthWhite += 1 }
        }
        m.mouthWhite = Float(mouthWhite) / Float(max(1, mouthAll))
        // Below the lips down to the chin, inside the face oval and outside the outer lips: a
        // cigarette hangs from the lips over the chin, mostly below `mouthWhite`'s box (and a
        // filter at the lips is not white). The oval keeps a light background and a collar out.
        var chinWhite = 0, chinAll = 0
        var chinLuma: Float = 0
        px.grid(axes.point(mouthC, 0, 0.45 * d), axes, halfU: 0.45 * d, halfV: 0.35 * d, columns: 30, rows: 30) { _, q, s in
            guard oval.contains(q.x, q.y), !outer.contains(q.x, q.y) else { return }
            chinAll += 1
            chinLuma += s.y
            if s.y > max(1.2 * refY, refY + 25) && s.saturation < whiteSaturation { chinWhite += 1 }
        }
        m.chinWhite = Float(chinWhite) / Float(max(1, chinAll))
        m.mouthBar = MouthBar.measure(image, points: p, skinLuma: m.skinLuma)

        // Lip halves: redness above the skin's on each side of the mouth's centre.
        let halfMouth = 0.5 * max(2, ((p[291].x - p[61].x) * (p[291].x - p[61].x) + (p[291].y - p[61].y) * (p[291].y - p[61].y)).squareRoot())
        let mouthMid = FaceExpression.midpoint(p[61], p[291]).xy
        var redR: Float = 0, redL: Float = 0, nR = 0, nL = 0
        var lipLuma: Float = 0, nLip = 0
        px.grid(mouthMid, axes, halfU: 1.05 * halfMouth, halfV: 0.6 * halfMouth, columns: 24, rows: 14) { _, q, s in
            guard outer.contains(q.x, q.y) else { return }
            // The lips themselves for `mouthVeil`: teeth between parted lips are left out.
            if !inner.contains(q.x, q.y) { lipLuma += s.y; nLip += 1 }
            let red = (s.v - 128) / max(16, s.y) - refCV
            if (q.x - mouthMid.x) * axes.ux + (q.y - mouthMid.y) * axes.uy < 0 { redR += red; nR += 1 } else { redL += red; nL += 1 }
        }
        if nR > 0 && nL > 0 {
            let r = max(0, redR / Float(nR)), l = max(0, redL / Float(nL))
            m.lipRedness = max(r, l)
            m.lipSides = min(1, abs(r - l) / max(0.1, max(r, l)))
        }
        // A whitish veil (smoke, vapour) in front of the mouth and chin: the lips and the chin
        // area, both normally darker than the cheeks and nose, read as light as them or lighter.
        if nLip > 0 && chinAll > 0 {
            m.mouthVeil = min(lipLuma / Float(nLip), chinLuma / Float(chinAll)) / refY
        }

        // Forehead bands.
        func skinShare(_ band: [Int]) -> Float {
            var n = 0, all = 0
            px.polygon(p, band) { _, s in all += 1; if skinLike(s) { n += 1 } }
            return all > 0 ? Float(n) / Float(all) : 0
        }
        m.foreheadTop = skinShare(foreheadTopBand)
        m.foreheadLow = skinShare(foreheadLowBand)

        // Focus and lighting.
        m.sharpness = quality.measurements.detail
        let foreheadR = px.mean(axes.point(p[151].xy, -0.25 * d, 0), axes, halfU: 0.15 * d, halfV: 0.1 * d)
        let foreheadL = px.mean(axes.point(p[151].xy, 0.25 * d, 0), axes, halfU: 0.15 * d, halfV: 0.1 * d)
        let sideR = (cheekR.y + foreheadR.y) / 2, sideL = (cheekL.y + foreheadL.y) / 2
        m.lightingBalance = min(sideR, sideL) / max(1, max(sideR, sideL))
        return m
    }
}
