import ImageCore

/// Something in front of the mouth, seen by the face mesh itself (stills only): the mesh model
/// run a second time on a close-up of the lower face, a region `scale` times the mesh's own
/// region (`FaceMesh.trackingRegion`: 1.5× the box round the vertices, rotated by the outer eye
/// corners), its centre moved `shift` of the way towards the mouth. The mesh model's presence
/// there (sigmoid of its face logit, 0...1) stays about 1 on an uncovered face; a bottle, a hand
/// or a cigarette held across the lips, which the close-up makes large, leaves the model unsure
/// it sees a face.
///
/// Chosen on the tuning halves of the examiner's real photos and set (193 photos, no variants):
/// at 0.65 (centre 0.42 of the way to the mouth) the faces with nothing at the mouth read at
/// least 0.346 (`huy-train-bb0681`; the next 0.84, compliant faces 0.96 and more), five photos
/// with a hand or an object at the mouth 0.027–0.054 (`huy-train-gg0006`, both hands holding a
/// bottle at the lips, 0.027). Blur lowers it: the examiner set's blurred tuning variants of
/// faces without a cover read down to 0.116 (ten under 0.5), so the profiles' limit, 0.08, lies
/// between 0.054 and 0.116 (a first 0.2 refused four of them). Closer (0.5) the model loses faces without a cover too (down to
/// 0.001); wider (0.8) only two covered photos fall under 0.7. The disagreement of the
/// close-up's lower-face vertices with the first mesh separated covered from uncovered faces with
/// no margin (uncovered up to 0.049 of the face height, covered from 0.05) and is not used.
public enum MouthCloseUp {
    /// The close-up's side against the mesh's own region.
    public static let scale: Float = 0.65
    /// How far the close-up's centre moves from the region's centre towards the mouth (mesh
    /// points 13 and 14), as a share of the distance.
    public static let shift: Float = 0.42

    /// The close-up region for a mesh (468 points, MediaPipe numbering, image pixels): `scale` of
    /// the mesh's own region (`RefinedLips.closeUpLipGap` uses three), centred `shift` of the way
    /// towards the mouth.
    public static func region(_ mesh: [Point3], scale: Float = MouthCloseUp.scale) -> RotatedRect {
        precondition(mesh.count == FaceMeshTopology.vertexCount, "MouthCloseUp needs the 468-point mesh")
        let own = FaceMesh.trackingRegion(of: mesh)
        let mouth = HandAtMouth.mouth(mesh)
        let centre = Point2(own.center.x + shift * (mouth.x - own.center.x), own.center.y + shift * (mouth.y - own.center.y))
        return RotatedRect(center: centre, width: own.width * scale, height: own.height * scale, rotation: own.rotation)
    }

    /// The mesh model's presence (0...1) on the close-up of `mesh`'s lower face in `image` (the
    /// image the mesh was found on). Runs the mesh model only (not the iris model); allocates one
    /// `FaceMesh`.
    public static func presence(_ landmarker: FaceLandmarker, _ image: Image, mesh: [Point3]) -> Float {
        let closeUp = FaceMesh()
        let r = region(mesh)
        if let exclusive = landmarker.exclusive {
            exclusive { landmarker.runMesh(image, region: r, into: closeUp) }
        } else {
            landmarker.runMesh(image, region: r, into: closeUp)
        }
        return closeUp.presence
    }
}
