import ImageCore

/// The people of a photo, or of a stream of frames, over a new background: the segmenter's mask
/// and one compositor, planned for the frame size and re-planned when it changes. The one place
/// a greeting is composited (`booth greet` for stills and streams).
public final class Greeter {
    public let segmenter: PersonSegmenter
    public let background: BackgroundSpec
    /// The decoded picture of a `.file` background (RGB888).
    let picture: ImageBuffer?
    var compositor: BackgroundCompositor?

    /// `picture` is the decoded image of a `.file` background (RGB888); it is required then and
    /// ignored otherwise.
    public init(segmenter: PersonSegmenter, background: BackgroundSpec, picture: ImageBuffer?) throws(BackgroundSpecError) {
        if case .file(let path) = background {
            guard let picture else { throw BackgroundSpecError("background \(path) was not decoded") }
            guard picture.format == .rgb888 else { throw BackgroundSpecError("background \(path) must be decoded as RGB888") }
        }
        self.segmenter = segmenter
        self.background = background
        self.picture = picture
    }

    /// Puts the people of `frame` (RGB888) over the background, in place. A frame of a new size
    /// re-plans the compositor and forgets the previous frame's mask (temporal stability).
    public func greet(_ frame: Image) {
        precondition(frame.format == .rgb888, "greetings are composited on RGB888 frames")
        let compositor = planned(width: frame.width, height: frame.height)
        let mask = segmenter.segment(frame)
        compositor.composite(frame: frame, mask: mask.plane, into: frame)
    }

    func planned(width: Int, height: Int) -> BackgroundCompositor {
        if let c = compositor, c.width == width, c.height == height { return c }
        let c = BackgroundCompositor(width: width, height: height, format: .rgb888)
        switch background {
        case .color(let r, let g, let b): c.setBackground(.color(red: r, green: g, blue: b))
        case .blurred(let n): c.setBackground(.blurred(strength: n))
        case .file:
            // `init` checked the picture is there.
            picture?.withImage { c.setBackground(.image($0)) }
        }
        if compositor != nil { segmenter.reset() }
        compositor = c
        return c
    }
}
