/// The centred crop of a `sourceWidth`×`sourceHeight` picture that, scaled uniformly, covers a
/// `width`×`height` frame exactly: the scale is max(width/sourceWidth, height/sourceHeight), the
/// crop has the frame's aspect (to a pixel's rounding) and is centred. Never a stretch.
public struct CoverFit: Sendable, Equatable {
    public var x: Int, y: Int, width: Int, height: Int

    public init(sourceWidth sw: Int, sourceHeight sh: Int, width w: Int, height h: Int) {
        precondition(sw > 0 && sh > 0 && w > 0 && h > 0, "cover: empty size")
        // Compare sw/sh with w/h without rounding: the side that is too long is cropped.
        if sw * h >= w * sh {
            let cw = max(1, min(sw, (sh * w + h / 2) / h))
            self = CoverFit(x: (sw - cw) / 2, y: 0, width: cw, height: sh)
        } else {
            let ch = max(1, min(sh, (sw * h + w / 2) / w))
            self = CoverFit(x: 0, y: (sh - ch) / 2, width: sw, height: ch)
        }
    }

    init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
}
