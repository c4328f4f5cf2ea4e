/// Eye, mouth and smile measures from the 468-point mesh (MediaPipe numbering), in 3D so they
/// hold under yaw and pitch. Allocates nothing.
///
/// - Eye aspect ratio: the mean of three lid gaps (upper-lid vertex to the lower-lid vertex
///   under it) over the corner-to-corner width. Open eyes read about 0.25–0.35 on the mesh,
///   closed ones about 0.05. `eyeOpenness` maps 0.08 → 0 and 0.28 → 1 (linear, clamped).
/// - Mouth aspect ratio: inner-lip gap (vertices 13 → 14, 82 → 87, 312 → 317, mean) over the
///   outer corner distance (61 → 291). Closed lips read under 0.03, speech about 0.1–0.3, a wide
///   open mouth 0.6 and more. `mouthOpenness` maps 0.03 → 0 and 0.63 → 1.
/// - Corner lift: how far the mouth corners sit above the lip centre along the face's down axis
///   (eye midpoint → mouth), over the mouth width. Neutral ≈ 0, a broad smile ≈ 0.1–0.15;
///   `smile` also counts a mouth wider than usual against the outer eye corners.
public enum FaceExpression {
    /// (upper, lower) lid vertex pairs and the corners, person's right eye.
    static let rightLids: [(Int, Int)] = [(160, 144), (159, 145), (158, 153)]
    static let rightCorners = (33, 133)
    static let leftLids: [(Int, Int)] = [(385, 380), (386, 374), (387, 373)]
    static let leftCorners = (263, 362)
    static let innerLipPairs: [(Int, Int)] = [(13, 14), (82, 87), (312, 317)]
    static let mouthCorners = (61, 291)

    @inline(__always)
    static func distance(_ a: Point3, _ b: Point3) -> Float {
        let dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    static func clamp01(_ v: Float) -> Float { max(0, min(1, v)) }

    public static func eyeAspect(_ p: [Point3], right: Bool) -> Float {
        let lids = right ? rightLids : leftLids
        let corners = right ? rightCorners : leftCorners
        var gap: Float = 0
        for (u, l) in lids { gap += distance(p[u], p[l]) }
        let width = distance(p[corners.0], p[corners.1])
        return width > 0 ? gap / 3 / width : 0
    }

    public static func openness(eyeAspect: Float) -> Float { clamp01((eyeAspect - 0.08) / 0.20) }

    public static func mouthAspect(_ p: [Point3]) -> Float {
        var gap: Float = 0
        for (u, l) in innerLipPairs { gap += distance(p[u], p[l]) }
        let width = distance(p[mouthCorners.0], p[mouthCorners.1])
        return width > 0 ? gap / 3 / width : 0
    }

    public static func openness(mouthAspect: Float) -> Float { clamp01((mouthAspect - 0.03) / 0.60) }

    /// The examiner's lip gap (`ExaminerMeasurements.lipGap`): the mean of the three inner-lip
    /// pairs' distances over the face height (forehead 10 to chin 152, at least 1).
    public static func lipGap(_ p: [Point3]) -> Float {
        var gap: Float = 0
        for (a, b) in innerLipPairs { gap += distance(p[a], p[b]) }
        return gap / 3 / max(1, distance(p[10], p[152]))
    }

    /// Corner lift over mouth width (positive when the corners are above the lip centre).
    public static func cornerLift(_ p: [Point3]) -> Float {
        let eyes = midpoint(midpoint(p[33], p[133]), midpoint(p[263], p[362]))
        let centre = midpoint(p[13], p[14])
        var dx = centre.x - eyes.x, dy = centre.y - eyes.y
        let n = (dx * dx + dy * dy).squareRoot()
        guard n > 0 else { return 0 }
        dx /= n; dy /= n
        let corners = midpoint(p[mouthCorners.0], p[mouthCorners.1])
        let lift = (centre.x - corners.x) * dx + (centre.y - corners.y) * dy
        let width = distance(p[mouthCorners.0], p[mouthCorners.1])
        return width > 0 ? lift / width : 0
    }

    /// Mouth width over the outer eye-corner distance.
    public static func mouthWidthRatio(_ p: [Point3]) -> Float {
        let eyes = distance(p[33], p[263])
        return eyes > 0 ? distance(p[mouthCorners.0], p[mouthCorners.1]) / eyes : 0
    }

    /// 0 neutral … 1 broad smile: corner lift above 0.02 (full at 0.14) and a mouth wider than
    /// 0.62 of the outer eye-corner distance (full at 0.82), whichever is stronger.
    public static func smile(cornerLift: Float, widthRatio: Float) -> Float {
        max(clamp01((cornerLift - 0.02) / 0.12), clamp01((widthRatio - 0.62) / 0.20))
    }

    /// Lower-brow vertices above each eye (person's right, left) and the upper-lid vertex under them.
    static let rightBrow = [52, 65, 105, 66], rightUpperLid = 159
    static let leftBrow = [282, 295, 334, 296], leftUpperLid = 386

    /// Brow height: how far the upper lid lies below the brow (mean of four brow vertices per
    /// eye, along the face's down axis, image plane), over the distance between the eye centres;
    /// mean of both eyes. Relaxed brows read about 0.13–0.30, raised brows 0.37 and more.
    public static func browHeight(_ p: [Point3]) -> Float {
        let eyeR = midpoint(p[33], p[133]), eyeL = midpoint(p[263], p[362])
        var ux = eyeL.x - eyeR.x, uy = eyeL.y - eyeR.y
        let d = (ux * ux + uy * uy).squareRoot()
        guard d > 0 else { return 0 }
        ux /= d; uy /= d
        func below(_ brow: [Int], _ lid: Int) -> Float {
            var h: Float = 0
            for i in brow { h += (p[lid].x - p[i].x) * -uy + (p[lid].y - p[i].y) * ux }
            return h / Float(brow.count)
        }
        return (below(rightBrow, rightUpperLid) + below(leftBrow, leftUpperLid)) / 2 / d
    }

    static func midpoint(_ a: Point3, _ b: Point3) -> Point3 { Point3((a.x + b.x) / 2, (a.y + b.y) / 2, (a.z + b.z) / 2) }
}
