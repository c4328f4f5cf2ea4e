import ImageCore
/// Stills: faces of any size the detector's working range allows, by running BlazeFace on the
/// letterboxed whole image and then on a pyramid of overlapping square tiles (each level 0.6× the
/// previous, tiles overlapping by half, down to a quarter of the long side or the model's input side). Faces cut by
/// a tile's inner border are dropped there (the overlap sees them whole); everything is merged
/// by one weighted NMS. Allocates (stills only); the live path uses `detect`.
extension FaceDetector {
    public func detectTiled(_ image: Image, smallestTile: Int? = nil) -> [FaceDetection] {
        let w = Float(image.width), h = Float(image.height)
        let long = max(w, h)
        let floor = Float(max(inputSize, smallestTile ?? Int(long / 4)))
        var pool: [FaceDetection] = []
        var n = detectCandidates(image, region: FaceDetector.letterbox(width: image.width, height: image.height),
                                 keepTouchingEdges: true)
        pool.append(contentsOf: candidates[0..<n])
        var side = long * 0.6
        while side >= floor {
            for cy in FaceDetector.tileCentres(extent: h, side: side) {
                for cx in FaceDetector.tileCentres(extent: w, side: side) {
                    let tile = RotatedRect(center: Point2(cx, cy), width: side, height: side)
                    n = detectCandidates(image, region: tile, keepTouchingEdges: false)
                    pool.append(contentsOf: candidates[0..<n])
                }
            }
            side *= 0.6
        }
        var results: [FaceDetection] = []
        WeightedNMS.run(&pool, count: pool.count, threshold: nmsThreshold, maxOutputs: max(maxFaces, 64), into: &results)
        return results
    }

    /// Centres of tiles of `side` covering 0..<extent with at least half a tile of overlap.
    static func tileCentres(extent: Float, side: Float) -> [Float] {
        if side >= extent { return [extent / 2] }
        let count = Int(((extent - side) / (side / 2)).rounded(.up)) + 1
        let step = (extent - side) / Float(count - 1)
        return (0..<count).map { side / 2 + Float($0) * step }
    }
}
