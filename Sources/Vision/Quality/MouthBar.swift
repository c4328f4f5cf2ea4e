import ImageCore

/// A light bar leaving the lips: a cigarette, a cigar or a straw held in the lips and pointing
/// down or sideways over the chin, the kind the area measures (`mouthWhite`, `chinWhite`) miss
/// when the bar is thin, off-white in the light of the photo, or leaves the face oval.
///
/// Rays start from seven points along the lip line (mouth corner 61, through the middle of the
/// inner lips, 13/14, to corner 291) and run from straight down the face to 80° either side, in
/// 10° steps. Along each ray, from 0.25 to 0.75 eye distances out (past the lower lip), ten
/// points each compare the pixel's luma with the brighter of two flank pixels across the ray
/// (0.10 or 0.15 eye distances to either side, for thin and thick bars); a ray's value is the
/// second-lowest of the ten differences over the skin's luma, so the whole length must be
/// lighter than both its flanks. The measure is the largest ray value: skin, lips and a beard
/// are seldom lighter than both their flanks for half an eye distance. Pure pixels: runs on
/// stills and live frames (7 × 17 × 2 rays of at most 10 points, 3 pixels each, the centre pixel
/// shared by both flank distances).
///
/// Chosen on the tuning half of the examiner's real photos (169 photos, session 14): the two
/// cigarettes hanging from the lips that every other cover rule missed (`huy-train-000352`,
/// `huy-train-bb0161`, 0.491 and 0.476) against the 109 faces without a hand or object at the
/// face (at most 0.376, `cmd-without_mask-158`; next 0.222). The limit is in the profiles
/// (`max_mouth_bar`, 0.43). The margin rests on two photos; the examiner set was not measured.
public enum MouthBar {
    /// Flank distances across a ray, in eye distances.
    public static let flanks: [Float] = [0.10, 0.15]
    /// A ray's extent from its start on the lip line, in eye distances.
    public static let reach: ClosedRange<Float> = 0.25...0.75
    /// Points per ray.
    public static let samples = 10
    /// cos and sin of 0°, 10°, …, 80° (no libm in the Embedded build).
    static let cosines: [Float] = [1.0000000, 0.9848078, 0.9396926, 0.8660254, 0.7660444, 0.6427876, 0.5000000, 0.3420201, 0.1736482]
    static let sines: [Float] = [0.0000000, 0.1736482, 0.3420201, 0.5000000, 0.6427876, 0.7660444, 0.8660254, 0.9396926, 0.9848078]

    /// The measure on the 468-point mesh `p` in `image`'s pixels; `skinLuma` is the face's skin
    /// reference luma (`ExaminerMeasurements.skinLuma`).
    ///
    /// The same value as sampling every point of every ray, for less work on live frames: a ray's
    /// centre pixels serve both flank distances, only luma is read, and a ray stops once its
    /// second-lowest value is at or below the best ray so far (the second-lowest only falls as
    /// values come, so the ray can no longer raise the maximum).
    public static func measure(_ image: Image, points p: [Point3], skinLuma: Float) -> Float {
        precondition(p.count == FaceMeshTopology.vertexCount, "MouthBar needs the 468-point mesh")
        let px = FacePixels(image: image)
        let eyeR = FaceExpression.midpoint(p[33], p[133]).xy, eyeL = FaceExpression.midpoint(p[263], p[362]).xy
        var ux = eyeL.x - eyeR.x, uy = eyeL.y - eyeR.y
        let d = max(4, (ux * ux + uy * uy).squareRoot())
        ux /= d; uy /= d
        let vx = -uy, vy = ux
        let ref = max(16, skinLuma)
        let mid = FaceExpression.midpoint(p[13], p[14]).xy
        let corners = (p[61].xy, p[291].xy)
        let near = flanks[0] * d, far = flanks[1] * d
        var best = -Float.infinity
        for k in 0..<7 {
            // Along the lip line: corner 61 to the middle (k 0...3), the middle to corner 291 (3...6).
            let f = Float(k) / 6
            let a = f < 0.5 ? 2 * f : 2 * f - 1
            let (from, to) = f < 0.5 ? (corners.0, mid) : (mid, corners.1)
            let sx = from.x + a * (to.x - from.x), sy = from.y + a * (to.y - from.y)
            for step in -8...8 {
                let c = cosines[abs(step)], s = step < 0 ? -sines[-step] : sines[step]
                let dx = c * vx + s * ux, dy = c * vy + s * uy
                let nx = -dy, ny = dx
                // Per flank distance, the lowest and second-lowest of the ray's values, kept as
                // they come (no array: this runs on every live frame, which allocates nothing).
                var lowest0 = Float.infinity, second0 = Float.infinity, lowest1 = Float.infinity, second1 = Float.infinity
                for i in 0..<samples {
                    let t = (reach.lowerBound + (reach.upperBound - reach.lowerBound) * Float(i) / Float(samples - 1)) * d
                    let x = sx + t * dx, y = sy + t * dy
                    let centre = px.luma(x, y)
                    if second0 > best {
                        let side = max(px.luma(x + near * nx, y + near * ny), px.luma(x - near * nx, y - near * ny))
                        let v = (centre - side) / ref
                        if v < lowest0 { second0 = lowest0; lowest0 = v } else if v < second0 { second0 = v }
                    }
                    if second1 > best {
                        let side = max(px.luma(x + far * nx, y + far * ny), px.luma(x - far * nx, y - far * ny))
                        let v = (centre - side) / ref
                        if v < lowest1 { second1 = lowest1; lowest1 = v } else if v < second1 { second1 = v }
                    }
                    if second0 <= best && second1 <= best { break }
                }
                best = max(best, second0, second1)
            }
        }
        return best
    }
}
