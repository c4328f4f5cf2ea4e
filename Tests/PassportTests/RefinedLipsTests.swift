import Foundation
import ImageCore
import ImageFiles
import NeuralCore
import Passport
import TestSupport
import Testing
import Vision

/// The attention mesh's refined lips on the examiner's real photos: the model (float path, with
/// MediaPipe's transform operators) against the plain mesh on the same faces, and the inner-lip
/// gap it measures, lips apart against closed, on the tuning half (the held half is printed for
/// the report only, never used to choose).
@Suite(.serialized) struct RefinedLipsTests {
    static let model = Fixtures.models + "/face_landmark_with_attention.tflite"
    static var available: Bool { FileManager.default.fileExists(atPath: model) }
    /// Its own face models: `ExaminerRealTests` runs in parallel with this suite, and one
    /// analyzer must not run on two threads at once.
    nonisolated(unsafe) static let analyzer = try! FaceAnalyzer(modelDirectory: Fixtures.models, path: .integer)

    struct Row {
        var name: String; var open: Bool; var note: String; var gap: Float; var meshError: Float; var lipError: Float
        /// The examiner's measures on the plain mesh and on the mesh with the refined lips.
        var plain: ExaminerMeasurements; var refined: ExaminerMeasurements
        /// `RefinedLips.lipGap`, the measure of `mouth_closed_refined_lips`.
        var ruleGap: Float
    }

    static func rows(split: String) throws -> [Row] {
        let lips = try RefinedLips(model: [UInt8](try Data(contentsOf: URL(fileURLWithPath: model))))
        // The labels' free-text note (column 9), for the table.
        var notes = [String: String]()
        for line in try String(contentsOfFile: ExaminerRealTests.folder + "/labels.tsv", encoding: .utf8).split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if f.count > 8 { notes[f[0]] = f[8] }
        }
        var out = [Row]()
        for l in try ExaminerSetTests.labels(in: ExaminerRealTests.folder) where l.split == split {
            let photo = try ImageDecoder.decode(path: ExaminerRealTests.folder + "/" + l.file, as: .rgb888)
            let row: Row? = photo.withImage { img in
                guard let face = Self.analyzer.analyze(img).max(by: { $0.box.area < $1.box.area }) else { return nil }
                let r = lips.run(img, mesh: face.mesh)
                func d(_ a: Point2, _ b: Point2) -> Float { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
                // Both meshes' disagreement, as a share of the face box's width.
                var mesh: Float = 0
                for i in 0..<468 { mesh += d(r.mesh[i], face.mesh[i].xy) }
                var lip: Float = 0
                for (k, v) in RefinedLips.meshIndices.enumerated() { lip += d(r.lips[k], face.mesh[v].xy) }
                let q = CaptureQualityEstimator().evaluate(img, face: face)
                let plain = ExaminerEstimator.measure(img, face: face, quality: q)
                let refined = ExaminerEstimator.measure(img, points: RefinedLips.refine(face.mesh, lips: r.lips), rightPupil: face.rightPupil,
                                                        leftPupil: face.leftPupil, quality: q)
                return Row(name: l.file, open: l.mouthOpen, note: notes[l.file] ?? "", gap: RefinedLips.innerGap(r.lips),
                           meshError: mesh / 468 / face.box.width, lipError: lip / 80 / face.box.width, plain: plain, refined: refined,
                           ruleGap: RefinedLips.lipGap(face.mesh, lips: r.lips))
            }
            if let row { out.append(row) }
        }
        return out
    }

    static func f(_ x: Float) -> String { String(format: "%.4f", x) }

    static func table(_ rows: [Row], _ split: String) -> String {
        var t = "refined lips, \(split): \(rows.count) faces\n"
        for r in rows.sorted(by: { $0.gap < $1.gap }) {
            let p = r.plain, q = r.refined
            t += "  \(r.name) gap \(f(r.gap)) mesh Δ \(f(r.meshError)) lips Δ \(f(r.lipError)) | lipGap \(f(p.lipGap))→\(f(q.lipGap))"
                + " slit \(f(p.lipSlit))→\(f(q.lipSlit)) teeth \(f(p.teeth))→\(f(q.teeth)) line \(f(p.teethLine))→\(f(q.teethLine))"
                + " aspect \(f(p.lipAspect))→\(f(q.lipAspect))  " + (r.open ? "OPEN (" + r.note + ")" : "[" + r.note + "]") + "\n"
        }
        func range(_ name: String, _ measure: (Row) -> Float) {
            let open = rows.filter(\.open).map(measure), closed = rows.filter { !$0.open }.map(measure)
            t += "  \(name): open \(open.count): \(f(open.min() ?? 0))…\(f(open.max() ?? 0)); not open \(closed.count): \(f(closed.min() ?? 0))…\(f(closed.max() ?? 0))\n"
        }
        range("refined inner gap / mouth width", \.gap)
        range("refined lipGap", { $0.refined.lipGap })
        range("refined slit", { $0.refined.lipSlit })
        range("refined teeth", { $0.refined.teeth })
        range("refined teeth line", { $0.refined.teethLine })
        range("refined lip aspect", { $0.refined.lipAspect })
        return t
    }

    @Test("the attention mesh agrees with the plain mesh on the tuning faces", .enabled(if: available && Fixtures.available))
    func agreesWithThePlainMesh() throws {
        let rows = try Self.rows(split: "tune")
        print(Self.table(rows, "tune"))
        #expect(rows.count >= 20)
        let meshErrors = rows.map(\.meshError).sorted()
        let median = meshErrors[meshErrors.count / 2]
        print(String(format: "mesh Δ median %.4f, max %.4f of the face width", median, meshErrors.last!))
        // The two meshes are two models on the same region: they agree to a few per cent of the face.
        #expect(median < 0.02)
        let lipErrors = rows.map(\.lipError).sorted()
        #expect(lipErrors[lipErrors.count / 2] < 0.03)
        // The rule's measure is the examiner's lip gap on the refined mesh, bit for bit.
        for r in rows { #expect(r.ruleGap == r.refined.lipGap, "\(r.name): \(r.ruleGap) against \(r.refined.lipGap)") }
    }

    @Test("held half, printed for the report only", .enabled(if: available && Fixtures.available))
    func heldTable() throws {
        print(Self.table(try Self.rows(split: "held"), "held"))
    }
}
