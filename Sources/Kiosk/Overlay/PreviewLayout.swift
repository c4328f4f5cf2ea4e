import Vision

/// Where the upright camera preview sits on the screen: scaled to fit (all of the analysed
/// frame stays visible), centred, optionally mirrored. Maps frame coordinates to screen ones.
struct PreviewLayout: Sendable, Equatable {
    var frameWidth: Int
    var frameHeight: Int
    var screenWidth: Int
    var screenHeight: Int
    var mirrored: Bool
    /// The preview's rectangle on screen (whole pixels).
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    init(frameWidth: Int, frameHeight: Int, screenWidth: Int, screenHeight: Int, mirrored: Bool) {
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.mirrored = mirrored
        let scale = min(Double(screenWidth) / Double(frameWidth), Double(screenHeight) / Double(frameHeight))
        // Even sizes keep the scaled I420 chroma planes exact.
        width = max(2, Int(Double(frameWidth) * scale) & ~1)
        height = max(2, Int(Double(frameHeight) * scale) & ~1)
        x = (screenWidth - width) / 2
        y = (screenHeight - height) / 2
    }

    var scale: Float { Float(width) / Float(frameWidth) }

    /// The preview is the frame's own size (no resize needed).
    var isUnscaled: Bool { width == frameWidth && height == frameHeight }

    func point(_ p: Point2) -> Point2 {
        let fx = mirrored ? Float(frameWidth) - p.x : p.x
        return Point2(Float(x) + fx * scale, Float(y) + p.y * scale)
    }

    func rect(_ r: Rect) -> Rect {
        let a = point(Point2(r.x, r.y)), b = point(Point2(r.x + r.width, r.y + r.height))
        return Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    }
}
