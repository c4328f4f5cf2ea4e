/// The live iris-contrast rule's reading over the last few frames: the highest of the last
/// `frames` values of the first tracked face (the current frame's included).
///
/// Live frames have no iris model, so the iris sample sits at the midpoint of the eye corners
/// (`FaceMesh.rightPupil`), a box of 0.2 × 0.12 eye widths. On a sitter whose irises are not at
/// that midpoint, the tracked mesh's frame-to-frame jitter of a pixel or two moves the box on and
/// off the iris: on the examiner set's compliant deepface-img3 filling the oval, the per-frame
/// contrast ranged 0.005–0.37 over 150 frames of one still image, under the UK limit (0.08) on
/// about one frame in five (`LiveSitterTests`), so the guide went red and the shutter was refused
/// at random. A dark lens keeps the contrast low on every frame, so its highest over half a
/// second at 15 fps stays low: the rule still catches it, one window later at most. Stills
/// measure the iris on the iris model's pupils and are not windowed.
///
/// Fixed storage; `apply` allocates nothing.
public struct IrisContrastWindow: Sendable {
    /// How many frames the window holds (about 0.5 s at 15 fps).
    public static let frames = 8
    private var values: (Float, Float, Float, Float, Float, Float, Float, Float) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var count = 0
    private var next = 0

    public init() {}

    /// Forgets the values (no face, or another face in front).
    public mutating func reset() { count = 0; next = 0 }

    /// Adds `measurement`'s iris contrast and replaces it with the highest in the window. A
    /// measurement without the examiner's figures leaves the window as it is.
    public mutating func apply(to measurement: inout FaceMeasurement) {
        guard var e = measurement.examiner else { return }
        withUnsafeMutableBytes(of: &values) { raw in
            let v = raw.bindMemory(to: Float.self)
            v[next] = e.irisContrast
            next = (next + 1) % IrisContrastWindow.frames
            count = min(count + 1, IrisContrastWindow.frames)
            var highest = v[0]
            for i in 1..<count { highest = max(highest, v[i]) }
            e.irisContrast = highest
        }
        measurement.examiner = e
    }
}
