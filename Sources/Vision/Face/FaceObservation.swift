import ImageCore
/// One landmark region in image pixels, and whether its path closes on itself.
public struct FaceRegion: Sendable, Equatable, Codable {
    public var points: [Point2]
    public var isClosed: Bool
    public init(points: [Point2], isClosed: Bool) {
        self.points = points
        self.isClosed = isClosed
    }
}

/// Everything Booth knows about one face in one image — a value, safe to keep and send.
/// Pixels of the image as given (after EXIF orientation when it came from a file), origin
/// top-left; angles in radians (see `FacePose`); "left"/"right" are the person's own.
public struct FaceObservation: Sendable, Equatable, Codable {
    /// The face box: BlazeFace's box refined by the mesh (see `init(_:)`).
    public var box: Rect
    /// BlazeFace's score for the detection this face came from (0...1).
    public var confidence: Float
    /// The mesh model's face-presence probability (0...1).
    public var presence: Float
    public var roll: Float
    public var pitch: Float
    public var yaw: Float
    /// The 468 mesh vertices (MediaPipe numbering), z in the same pixel scale as x.
    public var mesh: [Point3]
    /// The iBUG 68-point export (`FaceMeshTopology.ibug68`).
    public var landmarks68: [Point2]
    public var leftPupil: Point2
    public var rightPupil: Point2
    /// Vision-like regions keyed by `FaceRegionName` raw values.
    public var regions: [String: FaceRegion]

    /// Copies a mesh result out (allocates; not for the per-frame path).
    ///
    /// The box is the axis-aligned box around the iBUG 68 points (brows to chin, ear to ear),
    /// its top raised by a tenth of its height for the forehead — close to what face annotators
    /// draw (on the VOC fixture boxes it is within a few percent in size and centre).
    public init(_ face: FaceMesh) {
        confidence = face.confidence
        presence = face.presence
        roll = face.pose.roll
        pitch = face.pose.pitch
        yaw = face.pose.yaw
        mesh = face.points.withUnsafeBufferPointer { Array($0) }
        landmarks68 = (0..<68).map { face.ibugPoint($0) }
        leftPupil = face.leftPupil
        rightPupil = face.rightPupil
        var regions: [String: FaceRegion] = [:]
        for name in FaceRegionName.allCases {
            switch name {
            case .leftPupil: regions[name.rawValue] = FaceRegion(points: [face.leftPupil], isClosed: false)
            case .rightPupil: regions[name.rawValue] = FaceRegion(points: [face.rightPupil], isClosed: false)
            default:
                let (indices, closed) = FaceMeshTopology.vertices(of: name)
                regions[name.rawValue] = FaceRegion(points: indices.map { face.points[$0].xy }, isClosed: closed)
            }
        }
        self.regions = regions
        var minX = Float.greatestFiniteMagnitude, minY = Float.greatestFiniteMagnitude
        var maxX = -Float.greatestFiniteMagnitude, maxY = -Float.greatestFiniteMagnitude
        for p in landmarks68 {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let h = maxY - minY
        box = Rect(x: minX, y: minY - 0.1 * h, width: maxX - minX, height: 1.1 * h)
    }

    /// Region `name`, if present.
    public func region(_ name: FaceRegionName) -> FaceRegion? { regions[name.rawValue] }
}
