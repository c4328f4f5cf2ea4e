/// How a frame's pixel buffer must be turned to show people upright (a camera mounted sideways
/// or upside down, as the board file says). Masks are always delivered in the frame's own
/// orientation, so callers never rotate them.
public enum FrameRotation: Int, Sendable, CaseIterable, Equatable {
    case none = 0
    /// Turn the buffer 90° clockwise to see it upright.
    case clockwise90 = 90
    case rotate180 = 180
    /// Turn the buffer 270° clockwise (90° counter-clockwise) to see it upright.
    case clockwise270 = 270

    /// True when upright width is the frame's height.
    @inlinable public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }
}
