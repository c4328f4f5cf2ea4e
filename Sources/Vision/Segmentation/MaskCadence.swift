/// Which live frames get a fresh person mask: every frame but one the face detector ran on, and
/// never two frames in a row without one. A detector frame (the full-range detector looking for
/// a second face, every 30 frames) costs about as much as tracking plus the mask, so the two
/// never add up in one frame: that frame shows the previous frame's mask (the mask is temporally
/// smoothed anyway, and the next frame segments again). With no face tracked the detector runs
/// on every frame; the mask is then made every other frame.
public struct MaskCadence: Sendable {
    /// Whether the last frame went without a fresh mask.
    private var skippedLast = true

    public init() {}

    /// Call once per frame after the face step: whether this frame segments (true) or shows the
    /// last mask (false). The first frame, any frame after a skipped one and any frame without a
    /// usable last mask (`lastMaskUsable` false: none yet, or of another frame size) segment.
    public mutating func segments(detectorRan: Bool, lastMaskUsable: Bool = true) -> Bool {
        let fresh = !detectorRan || skippedLast || !lastMaskUsable
        skippedLast = !fresh
        return fresh
    }

    /// Starts afresh (a new run, or the mask was not shown for a while): the next frame segments.
    public mutating func reset() { skippedLast = true }
}
