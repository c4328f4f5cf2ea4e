import ImageCore

/// A second look at one face: the detector run on a square of `context`× the face's side around
/// it (the face then fills about half of the input, where BlazeFace is surest). Stills use the
/// full-range model for it (`FaceAnalyzer.verifier`): it tells faces from animals far better than
/// the short-range model does — measured on the fixtures' crops at 2× the box, integer path: the
/// `dogs.jpg` dog 0.02 (short range: 0.81), every labelled VOC, 68-point and portrait face ≥ 0.55
/// (float ≥ 0.41).
extension FaceDetector {
    /// The best score of a candidate whose centre lies inside `box` and whose width is within
    /// 0.5–2× the box's, when the detector looks at a square of `context`× the box's longer side
    /// centred on it; 0 when there is none above 0.01. Allocates nothing.
    public func secondLookScore(_ image: Image, faceAt box: Rect, context: Float = 2) -> Float {
        let side = max(box.width, box.height) * context
        guard side > 0 else { return 0 }
        let region = RotatedRect(center: Point2(box.x + box.width / 2, box.y + box.height / 2), width: side, height: side)
        let saved = minScore
        minScore = 0.01
        defer { minScore = saved }
        let n = detectCandidates(image, region: region, keepTouchingEdges: true)
        var best: Float = 0
        for i in 0..<n {
            let c = candidates[i].box
            let cx = c.x + c.width / 2, cy = c.y + c.height / 2
            guard cx >= box.x, cx <= box.x + box.width, cy >= box.y, cy <= box.y + box.height,
                  c.width >= box.width / 2, c.width <= box.width * 2 else { continue }
            best = max(best, candidates[i].score)
        }
        return best
    }
}
