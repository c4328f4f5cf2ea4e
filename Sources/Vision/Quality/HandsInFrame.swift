import ImageCore

/// A hand anywhere in the passport photo's frame, not only over the face: a passport photo shows
/// the head and shoulders and nothing else (GOV.UK: "no other objects or people"; ICAO 9303). A
/// hand holding a cigarette at the mouth often shows its palm below the chin, where
/// `PalmDetector.handOverFace` does not look, while its fingers and the hand itself are in the
/// photo. Stills only, like the other hand measures.
///
/// Two halves, so that a still can drop the palm detector before it builds the hand model:
/// `palms` (detector) and `presence` (hand model).
public enum HandsInFrame {
    /// The palms `detector` finds in its square around the face `box` (`PalmDetector.region`),
    /// from `minScore` on, whose box widened by the detector's `fingerScale` reaches into `frame`
    /// (the photo's crop in image pixels) with at least `minShare` of its area; best first.
    /// Defaults from the tuning halves of the examiner's real photos: hands holding a cigarette at
    /// the mouth with the palm below the chin scored 0.58–0.87 and lay 0.10–0.30 inside the frame
    /// (`huy-train-000147` 0.21); palms from 0.2 on that are not hands are left to the hand model
    /// (`PalmDetector.lowerFaceMinScore` uses the same 0.2).
    public static func palms(_ detector: PalmDetector, _ image: Image, face box: Rect, frame: Rect,
                             minScore: Float = 0.2, minShare: Float = 0.1) -> [PalmDetection] {
        detector.detect(image, region: detector.region(around: box), verify: false, minScore: minScore).filter {
            PalmDetector.overlap([$0], face: frame, fingerScale: detector.fingerScale) >= minShare
        }
    }

    /// The hand model's largest presence score (0...1) over `palms` (their hand regions as
    /// `HandLandmarkVerifier.region` turns them); 0 without a palm. Higher = a hand in the photo.
    public static func presence(_ palms: [PalmDetection], _ image: Image, confirmedBy verifier: HandLandmarkVerifier) -> Float {
        var best: Float = 0
        for p in palms {
            best = max(best, verifier.presence(image, region: HandLandmarkVerifier.region(palm: p.box, wrist: p.wrist, knuckle: p.knuckle)))
        }
        return best
    }
}
