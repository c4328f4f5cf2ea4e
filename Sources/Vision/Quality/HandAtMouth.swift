import ImageCore

/// A hand at the mouth, searched on its own square round the mouth (stills only, like the other
/// hand measures): a hand holding a cigarette, a lighter or a bottle at the lips often shows too
/// little palm for `PalmDetector.palmsAround`'s square of three face sides round the face box,
/// where the hand is small in the detector's 192-px input; on a square of `regionScale` face
/// sides centred on the mouth the same hand fills more of the input.
///
/// Two halves, like `HandsInFrame`, so that a still can drop the palm detector before it builds
/// the hand model: `palms` (detector) and `presence` (hand model, `HandsInFrame.presence`).
///
/// Chosen on the tuning halves of the examiner's real photos and set (193 photos, no variants;
/// 52 with a hand or an object at the face): the hand model's largest presence on the palms
/// scored from `minScore` whose centre lies within `maxDistance` face sides of the mouth. With a
/// hand or object at the face 16 photos read 0.62–1.00, 14 of them 0.79 and more
/// (`huy-train-gg0034`, hands lighting a cigarette at the lips, 0.95, where `palmsAround` finds no
/// palm); without one, at most 0.41 (`deepface-img1`, a grin), compliant faces at most 0.25; the
/// examiner set's blurred and shadowed variants of faces without a hand reach 0.61 (the
/// profiles' limit, 0.7, lies between 0.61 and 0.79). Other squares (0.6, 0.8 and 1.2
/// face sides), lower scores (0.2–0.4) or a closer centre (0.3–0.5) separated fewer photos: a
/// face is itself palm-like to the detector at low scores.
public enum HandAtMouth {
    /// The searched square's side, in face-box sides (the box's larger side).
    public static let regionScale: Float = 1.8
    /// The detector's threshold for the candidates its weighted NMS merges (as when the limits
    /// were chosen; a higher threshold would merge another candidate set and move the boxes).
    public static let searchScore: Float = 0.05
    /// The lowest score of a palm kept.
    public static let minScore: Float = 0.5
    /// The farthest a kept palm's centre lies from the mouth, in face-box sides.
    public static let maxDistance: Float = 0.8

    /// The mouth's centre: the midpoint of the inner lips' middle pair (mesh 13 and 14).
    public static func mouth(_ mesh: [Point3]) -> Point2 {
        precondition(mesh.count == FaceMeshTopology.vertexCount, "HandAtMouth needs the 468-point mesh")
        return FaceExpression.midpoint(mesh[13], mesh[14]).xy
    }

    /// The palms `detector` finds on the square of `regionScale` face sides centred on `mouth`,
    /// unverified, from `minScore` on, with their centres within `maxDistance` face sides of the
    /// mouth; best first.
    public static func palms(_ detector: PalmDetector, _ image: Image, mouth: Point2, face box: Rect) -> [PalmDetection] {
        let side = max(box.width, box.height)
        let region = RotatedRect(center: mouth, width: regionScale * side, height: regionScale * side)
        return detector.detect(image, region: region, verify: false, minScore: searchScore).filter { p in
            let dx = p.box.center.x - mouth.x, dy = p.box.center.y - mouth.y
            return p.score >= minScore && (dx * dx + dy * dy).squareRoot() <= maxDistance * side
        }
    }

    /// Both halves with one detector that holds its hand model: the hand model's largest
    /// presence (0...1) on `palms`; nil when the detector has no hand model.
    public static func presence(_ detector: PalmDetector, _ image: Image, mouth: Point2, face box: Rect) -> Float? {
        guard let verifier = detector.verifier else { return nil }
        return HandsInFrame.presence(palms(detector, image, mouth: mouth, face: box), image, confirmedBy: verifier)
    }
}
