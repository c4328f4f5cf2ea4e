import ImageCore

/// A hand anywhere in the passport photo's frame, not only over the face: a passport photo shows
/// the head and shoulders and nothing else (GOV.UK: "no other objects or people"; ICAO 9303). A
/// hand holding a cigarette at the mouth often shows its palm below the chin, where
/// `PalmDetector.handOverFace` does not look, while its fingers and the hand itself are in the
/// photo. Stills only, like the other hand measures.
///
/// Two halves, so that a still can drop the palm detector before it builds the hand model:
/// `palms` (a filter of the detector's palms, `PalmDetector.palmsAround`, which
/// `PalmDetector.palmsOverFace` filters too: one detector run serves both) and `presence` (hand
/// model).
public enum HandsInFrame {
    /// Of `palms` (`PalmDetector.palmsAround` for the face `box`: every palm from the detector's
    /// `stillMinScore` on), those whose box widened by `fingerScale` (`PalmDetector.fingerScale`)
    /// reaches into `frame` (the photo's crop in image pixels) with at least `minShare` of its
    /// area, and whose centre is not above the face box's top; best first.
    /// Chosen on the tuning halves of the examiner's real photos and set:
    /// - hands holding a cigarette at the mouth with the palm below the chin scored 0.58–0.87 and
    ///   lay 0.10–0.30 inside the frame (`huy-train-000147` 0.21); palms from 0.2 on
    ///   (`PalmDetector.lowerFaceMinScore`) that are not hands are left to the hand model;
    /// - every palm the hand model confirmed from 0.5 on there has its centre at least 0.36 face
    ///   heights below the face box's top (hands at the face, on a shoulder, below the chin).
    ///   Above the top lie hair and background: 27 palms on the tuning faces, centres 0.03–0.77
    ///   face heights above the top, none a hand, and the hand model confirmed one of them at
    ///   0.76, over the 0.75 limit (`deepface-img67` turned 7°, 0.50 above: its top-right corner,
    ///   dark background beside the variant's grey fill).
    ///   A hand held above the head is left to the other rules.
    public static func palms(_ palms: [PalmDetection], face box: Rect, frame: Rect, fingerScale: Float,
                             minShare: Float = 0.1) -> [PalmDetection] {
        palms.filter {
            $0.box.center.y >= box.y && PalmDetector.overlap([$0], face: frame, fingerScale: fingerScale) >= minShare
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
