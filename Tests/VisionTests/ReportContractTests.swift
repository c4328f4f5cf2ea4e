import Foundation
import Testing
import Vision

/// The `booth faces --json` and `booth analyze --json` contracts, encoded as the commands encode
/// them (JSONEncoder, keys sorted, slashes unescaped) — without spawning the binary.
@Suite struct ReportContractTests {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func object(_ value: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(encode(value).utf8)) as? [String: Any])
    }

    /// A face with awkward numbers: many decimals, a non-finite yaw.
    static func face(x: Float = 12.345678, width: Float = 100.004) -> FaceObservation {
        var f = FaceObservation(FaceMesh())
        f.box = Rect(x: x, y: 20.5, width: width, height: 120.126)
        f.confidence = 0.987654
        f.roll = 0.0123456
        f.pitch = -0.5
        f.yaw = .nan
        f.landmarks68 = (0..<68).map { Point2(Float($0) + 0.111, 2.999) }
        f.leftPupil = Point2(40.004, 50)
        f.rightPupil = Point2(60, 50.005)
        return f
    }

    static let faceKeys: Set<String> = ["box", "confidence", "roll", "pitch", "yaw", "landmarks68", "pupils", "regions"]

    @Test func aFaceReportKeepsTheFacesContract() throws {
        let json = try Self.object(FaceReport(file: "in/a.jpg", width: 640, height: 480, faces: [Self.face()]))
        #expect(Set(json.keys) == ["file", "width", "height", "faces"], "no error key on success")
        #expect(json["file"] as? String == "in/a.jpg" && json["width"] as? Int == 640 && json["height"] as? Int == 480)
        let face = try #require((json["faces"] as? [[String: Any]])?.first)
        #expect(Set(face.keys) == Self.faceKeys)
        let box = try #require(face["box"] as? [String: Double])
        #expect(box == ["x": 12.35, "y": 20.5, "width": 100, "height": 120.13])
        #expect(face["confidence"] as? Double == 0.9877 && face["roll"] as? Double == 0.0123 && face["pitch"] as? Double == -0.5)
        #expect(face["yaw"] is NSNull, "a non-finite angle is null")
        let landmarks = try #require(face["landmarks68"] as? [[Double]])
        #expect(landmarks.count == 68 && landmarks[3] == [3.11, 3])
        let pupils = try #require(face["pupils"] as? [String: [Double]])
        #expect(pupils == ["left": [40, 50], "right": [60, 50.01]])
        let regions = try #require(face["regions"] as? [String: [[Double]]])
        #expect(Set(regions.keys) == Set(FaceRegionName.allCases.map(\.rawValue)))
    }

    @Test func anUnreadableImageIsOneObjectWithItsError() throws {
        let text = try Self.encode(FaceReport(file: "in/b.jpg", error: "in/b.jpg: not a JPEG"))
        #expect(text == #"{"error":"in/b.jpg: not a JPEG","faces":[],"file":"in/b.jpg","height":0,"width":0}"#)
    }

    @Test func aFaceReportDecodesToItself() throws {
        let report = FaceReport(file: "a.png", width: 10, height: 20, faces: [Self.face()])
        let decoded = try JSONDecoder().decode(FaceReport.self, from: Data(Self.encode(report).utf8))
        // NaN ≠ NaN: compare the yaw apart.
        #expect(decoded.faces[0].yaw.isNaN)
        var a = report, b = decoded
        a.faces[0].yaw = 0; b.faces[0].yaw = 0
        #expect(a == b)
    }

    static func quality(_ score: Float) -> CaptureQuality {
        var c = QualityComponents()
        c.sharpness = score
        c.noise = 0.123456
        return CaptureQuality(components: c, eyeOpenness: 0.5, mouthOpenness: 0.05, smile: 0.25, measurements: QualityMeasurements())
    }

    /// `v` as the JSON reader sees it when written with four decimals.
    static func fourDecimals(_ v: Float) -> Double? { Double(String(format: "%.4f", Double(v))) }

    @Test func aQualityReportExtendsTheFacesContract() throws {
        // Two faces: the larger (second) one scores the image.
        let small = Self.face(width: 10), large = Self.face(x: 300, width: 200)
        let qs = [Self.quality(0.9), Self.quality(0.3)]
        let report = QualityReport(file: "x.jpg", width: 640, height: 480, faces: [small, large], qualities: qs)
        let json = try Self.object(report)
        #expect(Set(json.keys) == ["file", "width", "height", "score", "weakest", "faces"])
        #expect(json["score"] as? Double == Self.fourDecimals(qs[1].score))
        #expect(json["weakest"] as? String == qs[1].components.weakest.rawValue)
        let faces = try #require(json["faces"] as? [[String: Any]])
        #expect(faces.count == 2)
        for (face, q) in zip(faces, qs) {
            #expect(Set(face.keys) == Self.faceKeys.union(["quality", "components", "eyeOpenness", "mouthOpenness", "smile"]))
            let components = try #require(face["components"] as? [String: Double])
            #expect(Set(components.keys) == Set(QualityComponent.allCases.map(\.rawValue)))
            #expect(components["noise"] == 0.1235)
            #expect(face["quality"] as? Double == Self.fourDecimals(q.score))
            #expect(face["eyeOpenness"] as? Double == 0.5 && face["smile"] as? Double == 0.25)
        }
        let decoded = try JSONDecoder().decode(QualityReport.self, from: Data(Self.encode(report).utf8))
        #expect(decoded.score == report.score && decoded.weakest == report.weakest && decoded.faces.count == 2)
    }

    @Test func noFaceScoresZeroWithANullWeakest_andAnErrorHasNoWeakest() throws {
        #expect(try Self.encode(QualityReport(file: "g.png", width: 2, height: 1, faces: [], qualities: []))
                == #"{"faces":[],"file":"g.png","height":1,"score":0,"weakest":null,"width":2}"#)
        #expect(try Self.encode(QualityReport(file: "t.jpg", error: "truncated"))
                == #"{"error":"truncated","faces":[],"file":"t.jpg","height":0,"score":0,"width":0}"#)
    }

    @Test func batchOutcomesRankBestFirstThenFacelessThenFailures() {
        func outcome(_ i: Int, faces: Int, score: Float, failed: Bool = false) -> BatchOutcome {
            var o = BatchOutcome(index: i, file: "f\(i)")
            o.faceCount = faces
            o.score = score
            if failed { o.failure = BackgroundSpecError("x") }
            return o
        }
        let list = [outcome(0, faces: 0, score: 0), outcome(1, faces: 0, score: 0, failed: true), outcome(2, faces: 1, score: 0.4),
                    outcome(3, faces: 2, score: 0.8), outcome(4, faces: 1, score: 0.4)]
        #expect(list.sorted(by: BatchOutcome.ranked).map(\.index) == [3, 2, 4, 0, 1])
    }
}
