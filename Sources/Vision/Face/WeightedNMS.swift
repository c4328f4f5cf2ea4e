/// MediaPipe's weighted non-maximum suppression (`NonMaxSuppressionCalculator`, algorithm
/// WEIGHTED, overlap IoU): take the best remaining candidate, gather every remaining candidate
/// overlapping it by at least `threshold`, replace the group by its score-weighted mean box and
/// keypoints (keeping the best score), repeat.
///
/// Works in place on `candidates` (its order is destroyed) and appends to `output`; allocates
/// nothing when `output` has capacity.
public enum WeightedNMS {
    public static func run(_ candidates: inout [FaceDetection], count: Int, threshold: Float,
                           maxOutputs: Int, into output: inout [FaceDetection]) {
        var remaining = count
        while remaining > 0 && output.count < maxOutputs {
            // Best remaining candidate to the front.
            var best = 0
            for i in 1..<max(remaining, 1) where candidates[i].score > candidates[best].score { best = i }
            candidates.swapAt(0, best)
            let top = candidates[0]
            var weight: Float = 0
            var box = SIMD4<Float>(repeating: 0)
            var keys = FaceKeypoints.zero
            // Partition: members of the group go to the end; the rest stay in 0..<kept.
            var kept = 0
            for i in 0..<remaining {
                let c = candidates[i]
                if i == 0 || c.box.iou(top.box) >= threshold {
                    let w = c.score
                    weight += w
                    box += SIMD4(c.box.x, c.box.y, c.box.width, c.box.height) * w
                    for k in 0..<6 {
                        keys[k] = Point2(keys[k].x + c.keypoints[k].x * w, keys[k].y + c.keypoints[k].y * w)
                    }
                } else {
                    candidates[kept] = c
                    kept += 1
                }
            }
            box /= weight
            for k in 0..<6 { keys[k] = Point2(keys[k].x / weight, keys[k].y / weight) }
            output.append(FaceDetection(box: Rect(x: box.x, y: box.y, width: box.z, height: box.w),
                                        keypoints: keys, score: top.score))
            remaining = kept
        }
    }
}
