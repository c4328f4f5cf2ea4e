/// The `booth analyze --json` contract: the `booth faces --json` one (`FaceReport`) extended
/// with capture quality. Each face gains "quality" (0...1), "components" {sharpness, exposure,
/// noise, pose, eyesOpen, mouthNeutral, occlusion, resolution}, "eyeOpenness", "mouthOpenness"
/// and "smile"; the image gains "score" (its largest face's quality, 0 with no face) and
/// "weakest" (that face's weakest component, `null` with no face; absent on an error).
public struct QualityReport: Sendable, Equatable, Codable {
    public var file: String
    public var width: Int
    public var height: Int
    public var score: Float
    public var weakest: QualityComponent?
    public var faces: [Face]
    public var error: String?

    /// The report of an image whose faces were measured (`qualities[i]` is `faces[i]`'s).
    public init(file: String, width: Int, height: Int, faces: [FaceObservation], qualities: [CaptureQuality]) {
        precondition(faces.count == qualities.count, "one quality per face")
        self.file = file
        self.width = width
        self.height = height
        self.faces = zip(faces, qualities).map { Face(face: FaceReport.Face($0), quality: $1) }
        let main = faces.indices.max { faces[$0].box.area < faces[$1].box.area }
        score = main.map { ReportNumbers.rounded(qualities[$0].score, 4) } ?? 0
        weakest = main.map { qualities[$0].components.weakest }
        error = nil
    }

    /// An image that could not be read.
    public init(file: String, error: String) {
        self.file = file
        width = 0
        height = 0
        score = 0
        weakest = nil
        faces = []
        self.error = error
    }

    /// One face: the `FaceReport.Face` fields and its quality.
    public struct Face: Sendable, Equatable, Codable {
        public var face: FaceReport.Face
        public var quality: Float
        public var components: QualityComponents
        public var eyeOpenness: Float
        public var mouthOpenness: Float
        public var smile: Float

        public init(face: FaceReport.Face, quality q: CaptureQuality) {
            self.face = face
            quality = ReportNumbers.rounded(q.score, 4)
            var components = QualityComponents()
            for c in QualityComponent.allCases { components[c] = ReportNumbers.rounded(q.components[c], 4) }
            self.components = components
            eyeOpenness = ReportNumbers.rounded(q.eyeOpenness, 4)
            mouthOpenness = ReportNumbers.rounded(q.mouthOpenness, 4)
            smile = ReportNumbers.rounded(q.smile, 4)
        }

        enum CodingKeys: String, CodingKey { case quality, components, eyeOpenness, mouthOpenness, smile }

        /// The face's keys and the quality keys in one object.
        public init(from decoder: any Decoder) throws {
            face = try FaceReport.Face(from: decoder)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            quality = try c.decodeReal(forKey: .quality)
            components = try c.decode(QualityComponents.self, forKey: .components)
            eyeOpenness = try c.decodeReal(forKey: .eyeOpenness)
            mouthOpenness = try c.decodeReal(forKey: .mouthOpenness)
            smile = try c.decodeReal(forKey: .smile)
        }

        public func encode(to encoder: any Encoder) throws {
            try face.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeReal(quality, forKey: .quality)
            try c.encode(components, forKey: .components)
            try c.encodeReal(eyeOpenness, forKey: .eyeOpenness)
            try c.encodeReal(mouthOpenness, forKey: .mouthOpenness)
            try c.encodeReal(smile, forKey: .smile)
        }
    }

    enum CodingKeys: String, CodingKey { case file, width, height, score, weakest, faces, error }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        file = try c.decode(String.self, forKey: .file)
        width = try c.decode(Int.self, forKey: .width)
        height = try c.decode(Int.self, forKey: .height)
        score = try c.decodeReal(forKey: .score)
        weakest = try c.decodeIfPresent(QualityComponent.self, forKey: .weakest)
        faces = try c.decode([Face].self, forKey: .faces)
        error = try c.decodeIfPresent(String.self, forKey: .error)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        // An error replaces "weakest"; with no face "weakest" is null.
        if let error {
            try c.encode(error, forKey: .error)
        } else if let weakest {
            try c.encode(weakest, forKey: .weakest)
        } else {
            try c.encodeNil(forKey: .weakest)
        }
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encodeReal(score, forKey: .score)
        try c.encode(faces, forKey: .faces)
    }
}
