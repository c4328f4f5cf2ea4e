/// How the pixels of a model's input (and so of its mask) map onto a frame.
///
/// Three steps, all resolved here so callers never handle them:
/// 1. rotation: the frame buffer is turned by `rotation` to be upright (`uprightWidth`×`uprightHeight`);
/// 2. region: a rectangle of the upright picture is taken (the whole picture, or a person crop);
/// 3. fit: the region is stretched over the model input (MediaPipe's `keep_aspect_ratio: false`)
///    or letterboxed into it (`content` is then a centred sub-rectangle, the rest zero).
///
/// Coordinates are continuous pixels: pixel (i, j) covers [i, i+1) × [j, j+1), its centre is at +0.5.
public struct MaskMapping: Sendable, Equatable {
    public enum Fit: Sendable, Equatable { case stretch, letterbox }

    public var frameWidth: Int
    public var frameHeight: Int
    public var rotation: FrameRotation
    /// The part of the upright picture fed to the model (upright pixels).
    public var region: Rect
    public var modelWidth: Int
    public var modelHeight: Int
    /// Where `region` lands in the model input (model pixels); the whole input when stretched.
    public var content: Rect

    public init(frameWidth: Int, frameHeight: Int, rotation: FrameRotation, region: Rect? = nil,
                modelWidth: Int, modelHeight: Int, fit: Fit) {
        precondition(frameWidth > 0 && frameHeight > 0 && modelWidth > 0 && modelHeight > 0, "empty mapping")
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        self.rotation = rotation
        let uw = rotation.swapsAxes ? frameHeight : frameWidth
        let uh = rotation.swapsAxes ? frameWidth : frameHeight
        let r = region ?? Rect(x: 0, y: 0, width: Float(uw), height: Float(uh))
        self.region = r
        self.modelWidth = modelWidth
        self.modelHeight = modelHeight
        switch fit {
        case .stretch:
            content = Rect(x: 0, y: 0, width: Float(modelWidth), height: Float(modelHeight))
        case .letterbox:
            let s = min(Float(modelWidth) / r.width, Float(modelHeight) / r.height)
            let cw = r.width * s, ch = r.height * s
            content = Rect(x: (Float(modelWidth) - cw) / 2, y: (Float(modelHeight) - ch) / 2, width: cw, height: ch)
        }
    }

    public var uprightWidth: Int { rotation.swapsAxes ? frameHeight : frameWidth }
    public var uprightHeight: Int { rotation.swapsAxes ? frameWidth : frameHeight }

    /// Frame (buffer) point → upright point.
    @inlinable public func upright(fromFrame x: Float, _ y: Float) -> (u: Float, v: Float) {
        switch rotation {
        case .none: return (x, y)
        case .clockwise90: return (Float(frameHeight) - y, x)
        case .rotate180: return (Float(frameWidth) - x, Float(frameHeight) - y)
        case .clockwise270: return (y, Float(frameWidth) - x)
        }
    }

    /// Upright point → frame (buffer) point.
    @inlinable public func frame(fromUpright u: Float, _ v: Float) -> (x: Float, y: Float) {
        switch rotation {
        case .none: return (u, v)
        case .clockwise90: return (v, Float(frameHeight) - u)
        case .rotate180: return (Float(frameWidth) - u, Float(frameHeight) - v)
        case .clockwise270: return (Float(frameWidth) - v, u)
        }
    }

    /// Frame point → model point.
    @inlinable public func model(fromFrame x: Float, _ y: Float) -> (x: Float, y: Float) {
        let (u, v) = upright(fromFrame: x, y)
        return (content.x + (u - region.x) * content.width / region.width,
                content.y + (v - region.y) * content.height / region.height)
    }

    /// Model point → frame point.
    @inlinable public func frame(fromModel mx: Float, _ my: Float) -> (x: Float, y: Float) {
        frame(fromUpright: region.x + (mx - content.x) * region.width / content.width,
              region.y + (my - content.y) * region.height / content.height)
    }

    /// The frame rectangle covered by `region` (axis-aligned in frame pixels, clipped to the frame).
    public var frameRegion: (x: Int, y: Int, width: Int, height: Int) {
        let a = frame(fromUpright: region.x, region.y)
        let b = frame(fromUpright: region.x + region.width, region.y + region.height)
        let x0 = max(0, Int(min(a.x, b.x).rounded(.down))), x1 = min(frameWidth, Int(max(a.x, b.x).rounded(.up)))
        let y0 = max(0, Int(min(a.y, b.y).rounded(.down))), y1 = min(frameHeight, Int(max(a.y, b.y).rounded(.up)))
        return (x0, y0, max(0, x1 - x0), max(0, y1 - y0))
    }
}
