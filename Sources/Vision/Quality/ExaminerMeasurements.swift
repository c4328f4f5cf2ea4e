/// What a passport examiner looks at beyond pose and framing, measured on one face from the mesh,
/// the iris centres and the pixels they point at (`ExaminerEstimator`). Each value is a plain
/// number the passport profiles set limits on; the doc comment says which way is worse.
///
/// Skin reference: the mean colour of both upper cheeks and the middle of the nose (rarely under
/// a fringe, a hat or a beard). Ratios are against its luma, so a darker or brighter capture of
/// the same face reads about the same. `d` below is the distance between the eye centres.
public struct ExaminerMeasurements: Sendable, Equatable, Codable {
    /// Inner-lip gap (mean of three lip-midline pairs, 3D) over the face height (forehead top 10
    /// to chin 152). Higher = more open. Closed lips read about 0–0.01.
    public var lipGap: Float = 0
    /// Height of the dark slit between the lips (samples across the lip line darker than 0.55 of
    /// the lips around them, mean of 7 places), over the face height. Higher = lips apart.
    public var lipSlit: Float = 0
    /// Share (0...1) of the outer-lip polygon that looks like teeth and lies inside the inner-lip
    /// contour: brighter than 0.85 of the skin and with less than half the skin's chroma (light
    /// on closed lips is outside the inner contour). Higher = more teeth showing.
    public var teeth: Float = 0
    /// Teeth along the lip line, without the inner-lip contour: at the 7 inner-lip vertex pairs
    /// between the corners, samples across the line (±0.03 d, every 0.005 d) brighter than 1.1×
    /// the lips around them (0.06–0.095 d above and below, median) with under half their chroma;
    /// the height they cover in d, mean of the 7 places. Lips slightly apart with the teeth
    /// showing often leave the mesh's inner contour shut (so `teeth` reads 0); closed lips show
    /// lip and shadow there, not teeth. Higher = teeth between the lips.
    public var teethLine: Float = 0
    /// Outer-lip height (mean of three pairs across the middle: 37–84, 0–17, 267–314) over the
    /// mouth's width (outer corners 61–291), in the image plane. Lips slightly apart often leave
    /// the mesh's inner-lip contour shut while its outer contour grows taller; a smile widens the
    /// mouth and lowers it. Higher = lips apart (full lips read higher too).
    public var lipAspect: Float = 0
    /// `FaceExpression.smile` (0 neutral … 1 broad smile): mouth-corner lift and mouth width
    /// against the outer eye corners.
    public var smile: Float = 0
    /// `FaceExpression.browHeight`: the upper lids' distance below the brows over the eye
    /// distance. Higher = eyebrows raised.
    public var browHeight: Float = 0
    /// Mean luma of the box around each eye (brow to upper cheek) over the skin's; the darker
    /// eye. Lower = darker (sunglasses, tinted lenses, a shadow).
    public var eyeLuma: Float = 0
    /// Luma spread inside each eye opening (90th minus 10th percentile of the samples inside the
    /// lid contour, over its own cheek's luma); the weaker eye. Lower = even and dark (a dark
    /// lens); an open eye, deep-set or not, shows the white of the eye against iris and lashes.
    public var eyeContrast: Float = 0
    /// `eyeLuma + eyeContrast`: what the `eyes_visible` rule limits. Deep-set eyes read dark but
    /// keep their contrast; sunglasses lose both. Lower = eyes hidden.
    public var eyeVisibility: Float = 0
    /// Sclera minus iris luma, over the skin's; the weaker eye. Lower = iris not told from the
    /// white of the eye (dark lenses, hair across the eye, eye hidden).
    public var irisContrast: Float = 0
    /// Strongest horizontal line across the nose bridge between the eyes or across the cheek
    /// under either eye (a frame's bridge or lower rim): the largest luma step or dark ridge of
    /// the row means, over the skin's luma. Higher = a frame is there.
    public var frameLine: Float = 0
    /// Share of near-white pixels (luma ≥ 235 and 30 above the skin) around the eyes. Higher =
    /// glare on lenses.
    public var glare: Float = 0
    /// Largest share, over nose, cheeks, mouth surround and chin, of pixels unlike skin: a
    /// different hue, or much brighter (dark hair and beard are not counted). Higher = something
    /// in front of the face.
    public var cover: Float = 0
    /// Largest difference between mirrored boxes (beside the mouth, lower and upper cheeks) in
    /// their share of edges between light pixels. Higher = something on one side of the face
    /// (a hand's fingers).
    public var sideEdges: Float = 0
    /// Largest difference between the same boxes in their near-white share. Higher = a white
    /// object on one side (a cigarette).
    public var sideWhite: Float = 0
    /// Share of near-white pixels (as `sideWhite` counts them: brighter than 1.2× the skin and
    /// 25 levels above it, with under half its chroma) in the box round the mouth (1.5 d wide,
    /// 0.3 d above to 0.35 d below the lip line), leaving out the inside of the inner lips (teeth).
    /// Both sides at once: a cigarette, cigar or pipe held in the middle of the lips has no
    /// mirror image to differ from. Higher = a light object at the mouth.
    public var mouthWhite: Float = 0
    /// Share of near-white pixels (as `mouthWhite` counts them) below the lips down to the chin:
    /// the face-aligned box 0.1–0.8 d below the lip line, 0.9 d wide, inside the face oval and
    /// outside the outer lips. A cigarette hanging from the lips lies mostly here, below
    /// `mouthWhite`'s box; the oval keeps a light background and a collar out. Higher = a light
    /// object over the chin.
    public var chinWhite: Float = 0
    /// A whitish veil in front of the mouth and chin (smoke, vapour): the lower of two mean lumas
    /// over the skin's — the lips (inside the outer-lip contour, outside the inner one, so teeth
    /// between parted lips are left out) and `chinWhite`'s area (below the lips down to the chin,
    /// inside the face oval). Lips are redder and the chin is shaded, so both read darker than the
    /// cheeks and nose on an uncovered face (tuning half: compliant faces at most 0.885); smoke
    /// that is too thin to be near-white still lightens both. Higher = a veil over the mouth.
    public var mouthVeil: Float = 0
    /// A light bar leaving the lips (`MouthBar`): the largest, over rays from the lip line down
    /// and sideways, of the ray's luma above both its flanks over the skin's. Higher = a
    /// cigarette or a straw held in the lips.
    public var mouthBar: Float = 0
    /// Lip redness (V chroma over luma, above the skin's) of the lips' half on one side of the
    /// mouth's centre against the other half's: the difference over the redder half's. Higher =
    /// one side of the lips hidden (a hand or an object over a mouth corner reads as skin).
    /// Both halves of visible lips read about 0–0.4.
    public var lipSides: Float = 0
    /// How much of a hand lies over the face: the largest share of a palm box found by
    /// MediaPipe's palm detector around the face (`PalmDetector.handOverFace`, the box widened
    /// 1.5× for the fingers) inside the face box. 0 = no palm found; nil = the detector did not
    /// run (live frames: it runs on stills only). Higher = a hand at the face.
    public var hand: Float? = nil
    /// The hand landmark model's presence score (0...1) on squares beside the jaw, turned four
    /// ways (`PalmDetector.handAtJaw`): a hand against the jaw or the lower cheek that the palm
    /// detector misses. nil = not run (live frames: stills only). Higher = a hand at the jaw.
    public var handAtJaw: Float? = nil
    /// A hand anywhere in the photo's frame (`HandsInFrame`): the hand landmark model's largest
    /// presence score (0...1) on the palms the palm detector finds around the face whose box,
    /// widened for the fingers, reaches into the passport crop (head and shoulders), not only
    /// over the face. 0 = no palm there; nil = not run (live frames: stills only). Higher = a
    /// hand in the photo.
    public var handInFrame: Float? = nil
    /// A hand at the mouth (`HandAtMouth`): the hand landmark model's largest presence score
    /// (0...1) on the palms the palm detector finds on a square of 1.8 face sides centred on the
    /// mouth, whose centres lie near the mouth. 0 = no palm there; nil = not run (live frames:
    /// stills only). Higher = a hand at the mouth.
    public var handAtMouth: Float? = nil
    /// The face mesh model's presence (0...1) on a close-up of the lower face (`MouthCloseUp`):
    /// about 1 on an uncovered face; a bottle, hand or cigarette across the lips leaves the model
    /// unsure it sees a face. nil = not run (live frames: stills only). Lower = something in front
    /// of the mouth.
    public var mouthMeshPresence: Float? = nil
    /// The lip gap (`lipGap`: inner-lip gap over face height) measured on the mesh with its lip
    /// vertices moved to the attention mesh's refined lips (`RefinedLips.lipGap`): lips slightly
    /// apart that the plain mesh reads as closed. nil = not run (live frames: stills only).
    /// Higher = lips further apart.
    public var refinedLipGap: Float? = nil
    /// The same lip gap on the refined lips the attention mesh finds on three close-ups of the
    /// lower face, averaged (`RefinedLips.closeUpLipGap`): lips slightly apart on a small face.
    /// nil = not run (live frames: stills only). Higher = lips further apart.
    public var closeUpLipGap: Float? = nil
    /// Redness above the skin's of the redder lip half (what `lipSides` is relative to).
    public var lipRedness: Float = 0
    /// Share of the forehead's top band (hairline) coloured like the skin (chromaticity within
    /// 0.15 of the cheeks', luma 0.3–1.8× theirs). Lower = covered (hat, scarf) — a fringe down
    /// to the brows reads the same.
    public var foreheadTop: Float = 0
    /// Share of the forehead's lower band (above the brows) coloured like the skin: what must stay
    /// visible under a religious or medical covering.
    public var foreheadLow: Float = 0
    /// Focus: `QualityMeasurements.detail` (RMS Laplacian of the face's detailed blocks above its
    /// flat ones, 128-px face scale). Lower = blurrier.
    public var sharpness: Float = 0
    /// Luma of the darker face side over the brighter one (forehead and cheek halves, 0...1).
    /// Lower = a shadow across the face.
    public var lightingBalance: Float = 0
    /// Skin reference luma (0...255).
    public var skinLuma: Float = 0

    public init() {}
}
