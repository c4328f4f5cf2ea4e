import Vision

/// Where the finished photo's frame lies in a still, from the face alone (before the person mask
/// exists): what `no_hands_in_frame` looks inside.
public enum PassportFrame {
    /// The crop `PhotoCrop.plan` chooses for `face` under `profile`, with the crown at the typical
    /// hair height above the forehead (0.22 face heights, `PassportPhotoMaker.headGeometry`'s
    /// value when the mask is unusable) instead of the mask's, in image pixels. The head width
    /// plays no part in the crop.
    public static func estimate(_ face: FaceObservation, profile: Profile) -> Rect {
        let top = face.mesh[PassportPhotoMaker.forehead].xy, bottom = face.mesh[PassportPhotoMaker.chin].xy
        let dx = top.x - bottom.x, dy = top.y - bottom.y
        let length = max(1, (dx * dx + dy * dy).squareRoot())
        let crownY = top.y + dy / length * 0.22 * length
        let eyes = Point2((face.leftPupil.x + face.rightPupil.x) / 2, (face.leftPupil.y + face.rightPupil.y) / 2)
        let head = HeadGeometry(crownY: Double(crownY), chinY: Double(bottom.y), eyeLineY: Double(eyes.y),
                                centreX: Double((top.x + bottom.x) / 2), headWidth: Double(length), eyeDistance: 0)
        let crop = PhotoCrop.plan(head: head, profile: profile)
        return Rect(x: Float(crop.x), y: Float(crop.y), width: Float(crop.width), height: Float(crop.height))
    }
}
