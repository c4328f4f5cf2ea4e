#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Head pose in radians, continuous, computed from the 3D mesh by face axes.
///
/// Method: the face's x axis is the sum of the vectors from the person's right to left across
/// four symmetric vertex pairs (outer and inner eye corners, cheek sides at the ears, mouth
/// corners); its down axis is forehead top (10) → chin (152), made orthogonal to x; the third
/// axis is their cross product (pointing into the scene for a frontal face). Then, in camera
/// coordinates (x right, y down, z away from the camera):
/// - `roll` = angle of the face's x axis in the image plane, `atan2(x.y, x.x)`: 0 for an upright
///   head, positive when the head leans towards the image's right shoulder so the eye line turns
///   clockwise on screen (the person's left eye lower). Rotating the image by θ clockwise adds θ.
/// - then, with roll removed (axes rotated by −roll about the camera axis):
///   `yaw` = asin(−z.x): positive when the nose turns towards the image's right;
///   `pitch` = atan2(z.y, z.z) + 0.0123: positive when the face tilts up (chin forward). The
///   constant makes MediaPipe's canonical face model (frontal by definition) read 0.
/// A mirrored image negates roll and yaw and keeps pitch. The mesh's z is weak-perspective
/// (scaled like x), so yaw/pitch are approximate beyond about ±45°.
public struct FacePose: Sendable, Equatable, Codable {
    public var roll: Float
    public var pitch: Float
    public var yaw: Float

    public init(roll: Float, pitch: Float, yaw: Float) {
        self.roll = roll
        self.pitch = pitch
        self.yaw = yaw
    }

    static let symmetricPairs: [(right: Int, left: Int)] = [(33, 263), (133, 362), (234, 454), (61, 291)]
    static let pitchOffset: Float = 0.0123

    /// The pose of a 468-vertex mesh.
    public init(mesh points: [Point3]) {
        var x = SIMD3<Float>(repeating: 0)
        for pair in FacePose.symmetricPairs {
            let r = points[pair.right], l = points[pair.left]
            x += SIMD3(l.x - r.x, l.y - r.y, l.z - r.z)
        }
        x = FacePose.normalized(x)
        let top = points[10], chin = points[152]
        var y = SIMD3(chin.x - top.x, chin.y - top.y, chin.z - top.z)
        y -= (y * x).sum() * x
        y = FacePose.normalized(y)
        let z = SIMD3(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x)
        let roll = atan2f(x.y, x.x)
        // Remove roll: rotate z by -roll about the camera axis.
        let c = cosf(roll), s = sinf(roll)
        let zx = c * z.x + s * z.y
        let zy = -s * z.x + c * z.y
        self.roll = roll
        self.yaw = asinf(max(-1, min(1, -zx)))
        self.pitch = atan2f(zy, z.z) + FacePose.pitchOffset
    }

    static func normalized(_ v: SIMD3<Float>) -> SIMD3<Float> {
        let n = (v * v).sum().squareRoot()
        return n > 0 ? v / n : v
    }
}
