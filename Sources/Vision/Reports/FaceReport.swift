/// The `booth faces --json` contract: one image and the faces found in it. Pixels of the image
/// after EXIF orientation, origin top-left; angles in radians; left/right are the person's own.
/// Numbers are rounded when the report is made (pixels 2 decimals, scores and angles 4); a value
/// that is not finite is written `null`. `error` is present only when the image could not be read
/// (then `width` and `height` are 0 and `faces` is empty).
public struct FaceReport: Sendable, Equatable, Codable {
    public var file: String
    public var width: Int
    public var height: Int
    public var faces: [Face]
    public var error: String?

    public init(file: String, width: Int, height: Int, faces: [FaceObservation]) {
        self.file = file
        self.width = width
        self.height = height
        self.faces = faces.map(Face.init)
        error = nil
    }

    /// An image that could not be read.
    public init(file: String, error: String) {
        self.file = file
        width = 0
        height = 0
        faces = []
        self.error = error
    }

    /// One face: `{"box": {x, y, width, height}, "confidence", "roll", "pitch", "yaw",
    /// "landmarks68": [[x, y] × 68], "pupils": {"left": [x, y], "right": [x, y]},
    /// "regions": {name: [[x, y], …]}}`.
    public struct Face: Sendable, Equatable, Codable {
        /// `{"x", "y", "width", "height"}` in pixels, 2 decimals.
        public var box: Rect
        /// BlazeFace's score, 4 decimals.
        public var confidence: Float
        /// Head pose in radians, 4 decimals each (`null` when not finite).
        public var roll: Float, pitch: Float, yaw: Float
        /// The iBUG 68 points as `[x, y]`, 2 decimals.
        public var landmarks68: [Point2]
        /// `"pupils": {"left": [x, y], "right": [x, y]}`, the person's own sides.
        public var leftPupil: Point2, rightPupil: Point2
        /// Each present `FaceRegionName` (raw value) and its points.
        public var regions: [String: [Point2]]

        public init(_ f: FaceObservation) {
            box = Rect(x: ReportNumbers.rounded(f.box.x, 2), y: ReportNumbers.rounded(f.box.y, 2),
                       width: ReportNumbers.rounded(f.box.width, 2), height: ReportNumbers.rounded(f.box.height, 2))
            confidence = ReportNumbers.rounded(f.confidence, 4)
            roll = ReportNumbers.rounded(f.roll, 4)
            pitch = ReportNumbers.rounded(f.pitch, 4)
            yaw = ReportNumbers.rounded(f.yaw, 4)
            landmarks68 = f.landmarks68.map { ReportNumbers.rounded($0) }
            leftPupil = ReportNumbers.rounded(f.leftPupil)
            rightPupil = ReportNumbers.rounded(f.rightPupil)
            var regions: [String: [Point2]] = [:]
            for name in FaceRegionName.allCases {
                if let r = f.region(name) { regions[name.rawValue] = r.points.map { ReportNumbers.rounded($0) } }
            }
            self.regions = regions
        }

        enum CodingKeys: String, CodingKey { case box, confidence, roll, pitch, yaw, landmarks68, pupils, regions }
        enum BoxKeys: String, CodingKey { case x, y, width, height }
        enum PupilKeys: String, CodingKey { case left, right }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let b = try c.nestedContainer(keyedBy: BoxKeys.self, forKey: .box)
            box = Rect(x: try b.decodeReal(forKey: .x), y: try b.decodeReal(forKey: .y),
                       width: try b.decodeReal(forKey: .width), height: try b.decodeReal(forKey: .height))
            confidence = try c.decodeReal(forKey: .confidence)
            roll = try c.decodeReal(forKey: .roll)
            pitch = try c.decodeReal(forKey: .pitch)
            yaw = try c.decodeReal(forKey: .yaw)
            landmarks68 = try c.decode([ReportPoint].self, forKey: .landmarks68).map(\.point)
            let p = try c.nestedContainer(keyedBy: PupilKeys.self, forKey: .pupils)
            leftPupil = try p.decodePoint(forKey: .left)
            rightPupil = try p.decodePoint(forKey: .right)
            regions = try c.decode([String: [ReportPoint]].self, forKey: .regions).mapValues { $0.map(\.point) }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            var b = c.nestedContainer(keyedBy: BoxKeys.self, forKey: .box)
            try b.encodeReal(box.x, forKey: .x)
            try b.encodeReal(box.y, forKey: .y)
            try b.encodeReal(box.width, forKey: .width)
            try b.encodeReal(box.height, forKey: .height)
            try c.encodeReal(confidence, forKey: .confidence)
            try c.encodeReal(roll, forKey: .roll)
            try c.encodeReal(pitch, forKey: .pitch)
            try c.encodeReal(yaw, forKey: .yaw)
            try c.encode(landmarks68.map(ReportPoint.init), forKey: .landmarks68)
            var p = c.nestedContainer(keyedBy: PupilKeys.self, forKey: .pupils)
            try p.encodePoint(leftPupil, forKey: .left)
            try p.encodePoint(rightPupil, forKey: .right)
            try c.encode(regions.mapValues { $0.map(ReportPoint.init) }, forKey: .regions)
        }
    }
}
