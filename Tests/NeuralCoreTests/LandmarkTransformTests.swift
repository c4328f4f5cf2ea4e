import Foundation
import NeuralCore
import TestSupport
import Testing

/// MediaPipe's landmark transforms (`Landmarks2TransformMatrix`, `TransformTensorBilinear`,
/// `TransformLandmarks`), on cases worked out by hand, and the attention mesh that needs them.
@Suite("Landmark transforms")
struct LandmarkTransformTests {
    static let attention = Fixtures.models + "/face_landmark_with_attention.tflite"
    static var hasAttention: Bool { FileManager.default.fileExists(atPath: attention) }

    /// The lips' `Landmarks2TransformMatrix` parameters, read from the attention mesh.
    static let firstParameters: LandmarksTransformParameters? = {
        guard hasAttention, let bytes = try? Data(contentsOf: URL(fileURLWithPath: attention)),
              let graph = try? Graph(model: try TFLiteModel(bytes: [UInt8](bytes))) else { return nil }
        for op in graph.operations { if case .landmarksToTransformMatrix(let p) = op.kind { return p } }
        return nil
    }()

    /// Row-major 4×4 matrix from landmarks given as (x, y) pairs (z 0).
    static func matrix(_ points: [(Float, Float)], subset: [Int], left: Int, right: Int, target: Float = 0,
                       scale: Float = 1.5, size: Int = 16) -> [Float] {
        var xyz = [Float]()
        for (x, y) in points { xyz += [x, y, 0] }
        // The parameters' initialiser is internal: start from the model's first operator's, then set every field.
        var p = firstParameters!
        p.subset = subset
        (p.left, p.right, p.targetRotation) = (left, right, target)
        (p.scaleX, p.scaleY, p.outputWidth, p.outputHeight) = (scale, scale, size, size)
        var out = [Float](repeating: .nan, count: 16)
        FloatLandmarkTransforms.matrix(p, landmarks: xyz, output: &out)
        return out
    }

    @Test("an upright box: the crop is the box scaled 1.5 about its centre", .enabled(if: hasAttention))
    func uprightMatrix() {
        // Box x 10...30, y 20...60 (centre 20, 40), eyes-line horizontal; a 16×16 crop at scale 1.5:
        // a crop pixel is 1.5·20/16 by 1.5·40/16 image units, the crop's middle (8, 8) the centre.
        let m = Self.matrix([(10, 20), (30, 20), (10, 60), (30, 60), (0, 0)], subset: [0, 1, 2, 3], left: 0, right: 1)
        let sx: Float = 1.875, sy: Float = 3.75
        let want: [Float] = [sx, 0, 0, 20 - 8 * sx, 0, sy, 0, 40 - 8 * sy, 0, 0, 1, 0, 0, 0, 0, 1]
        for k in 0..<16 { #expect(abs(m[k] - want[k]) < 1e-5, "element \(k): \(m[k]) vs \(want[k])") }
    }

    @Test("the same box turned 90°: the matrix turns with it", .enabled(if: hasAttention))
    func turnedMatrix() {
        // (x, y) → (−y, x): the left→right line now points down the image.
        let upright: [(Float, Float)] = [(10, 20), (30, 20), (10, 60), (30, 60)]
        let turned = upright.map { (-$0.1, $0.0) }
        let a = Self.matrix(upright, subset: [0, 1, 2, 3], left: 0, right: 1)
        let b = Self.matrix(turned, subset: [0, 1, 2, 3], left: 0, right: 1)
        // b = R90 · a on the 2-D affine part: row0(b) = −row1(a), row1(b) = row0(a).
        let want: [Float] = [-a[4], -a[5], 0, -a[7], a[0], a[1], 0, a[3]]
        for (k, w) in zip([0, 1, 2, 3, 4, 5, 6, 7], want) { #expect(abs(b[k] - w) < 1e-4, "element \(k): \(b[k]) vs \(w)") }
        // A target rotation of 90° (the line's own angle) leaves no turn: the crop is the turned
        // points' upright box, x −60…−20, y 10…30 (centre −40, 20).
        let c = Self.matrix(turned, subset: [0, 1, 2, 3], left: 0, right: 1, target: .pi / 2)
        #expect(abs(c[0] - 3.75) < 1e-4 && abs(c[1]) < 1e-4 && abs(c[4]) < 1e-4 && abs(c[5] - 1.875) < 1e-4, "\(c)")
        #expect(abs(c[3] - (-40 - 8 * 3.75)) < 1e-3 && abs(c[7] - (20 - 8 * 1.875)) < 1e-3, "\(c)")
    }

    @Test("cos and sin without a math library")
    func cosSin() {
        for x in stride(from: -20.0, through: 20.0, by: 0.37) {
            let (c, s) = FloatLandmarkTransforms.cosSin(x)
            #expect(abs(c - Foundation.cos(x)) < 1e-13 && abs(s - Foundation.sin(x)) < 1e-13, "x \(x)")
        }
    }

    @Test("bilinear sampling reproduces a linear ramp, with 0 outside the input")
    func bilinear() {
        // x [1, 5, 6, 2]: channel 0 = 2·col + 3·row, channel 1 = 1 − col.
        let h = 5, w = 6
        var x = [Float]()
        for r in 0..<h { for c in 0..<w { x += [Float(2 * c + 3 * r), Float(1 - c)] } }
        // Output pixel (ox, oy) reads the input at (0.5·ox + 1.25, 0.5·oy + 0.75) after the half-pixel
        // shift: matrix · (ox + ½, oy + ½) − ½ with scale 0.5 and translation (1.5, 1).
        let m: [Float] = [0.5, 0, 0, 1.5, 0, 0.5, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1]
        let oh = 12, ow = 10
        var out = [Float](repeating: .nan, count: oh * ow * 2)
        FloatLandmarkTransforms.bilinear([1, h, w, 2], out: [1, oh, ow, 2], input: x, matrix: m, output: &out)
        for oy in 0..<oh {
            for ox in 0..<ow {
                let tx = 0.5 * Float(ox) + 1.25, ty = 0.5 * Float(oy) + 0.75
                let inside = tx <= Float(w - 1) && ty <= Float(h - 1)
                let v0 = out[(oy * ow + ox) * 2], v1 = out[(oy * ow + ox) * 2 + 1]
                if inside {
                    #expect(abs(v0 - (2 * tx + 3 * ty)) < 1e-5 && abs(v1 - (1 - tx)) < 1e-5, "(\(ox), \(oy)): \(v0), \(v1)")
                } else {
                    #expect(v0 == 0 && v1 == 0, "(\(ox), \(oy)) outside: \(v0), \(v1)")
                }
            }
        }
    }

    @Test("points go through the matrix's first two rows; z is kept")
    func landmarks() {
        let m: [Float] = [2, 1, 7, 5, -1, 3, 9, -4, 0, 0, 1, 0, 0, 0, 0, 1]
        let p: [Float] = [1, 2, 10, -3, 0.5, 20]
        var out = [Float](repeating: .nan, count: 6)
        FloatLandmarkTransforms.landmarks(count: 2, dimensions: 3, input: p, matrix: m, output: &out)
        // (1, 2): 2 + 2 + 5, −1 + 6 − 4; (−3, 0.5): −6 + 0.5 + 5, 3 + 1.5 − 4.
        let want: [Float] = [9, 1, 10, -0.5, 0.5, 20]
        #expect(out == want)
        var out2 = [Float](repeating: .nan, count: 4)
        FloatLandmarkTransforms.landmarks(count: 2, dimensions: 2, input: [1, 2, -3, 0.5], matrix: m, output: &out2)
        let want2: [Float] = [9, 1, -0.5, 0.5]
        #expect(out2 == want2)
    }

    @Test("the attention mesh's custom options read as MediaPipe wrote them", .enabled(if: hasAttention))
    func attentionOptions() throws {
        let model = try TFLiteModel(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.attention))))
        var seen = [String: Int]()
        for op in model.operators where op.code.custom != nil {
            let name = op.code.custom!
            seen[name, default: 0] += 1
            if name == "Landmarks2TransformMatrix" {
                let o = try CustomOptionsMap(op.customOptions, label: name)
                let subset = try o.ints("subset_idxs")
                #expect([80, 142].contains(subset.count) || subset.count == 71 * 2 / 2)
                #expect(try o.int("output_width") == 16 && o.int("output_height") == 16)
                #expect(try o.float("scale_x") == 1.5 && o.float("scale_y") == 1.5 && o.float("target_rotation_radians") == 0)
                let pair = (try o.int("left_rotation_idx"), try o.int("right_rotation_idx"))
                #expect([(61, 291), (33, 133), (362, 263)].contains { $0 == pair }, "\(pair)")
                if pair.0 == 61 { #expect(subset.prefix(4) == [61, 146, 91, 181] && subset.last == 407) }
            }
            if name == "TransformTensorBilinear" {
                let o = try CustomOptionsMap(op.customOptions, label: name)
                #expect(try o.int("output_width") == 16 && o.int("output_height") == 16)
            }
        }
        #expect(seen == ["Landmarks2TransformMatrix": 3, "TransformTensorBilinear": 3, "TransformLandmarks": 5])
    }

    @Test("bytes that are not a map, or cut short, are errors naming the operator")
    func badOptions() {
        for bytes: [UInt8] in [[], [1, 2], [0, 4, 1], [5, 0x24, 1], [200, 200, 200, 0x24, 1]] {
            #expect(throws: ModelError.self) { _ = try CustomOptionsMap(bytes, label: "operator 7 (X)") }
        }
    }

    @Test("the attention mesh runs on the float path; the integer path refuses it", .enabled(if: hasAttention))
    func attentionRuns() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.attention)))
        let it = try Interpreter(model: bytes)
        #expect(it.outputCount == 7)
        do {
            _ = try Interpreter(model: bytes, path: .integer)
            Issue.record("the integer path took the attention mesh")
        } catch {
            // Its constants feed float-only operators, which the integer path has no plan for.
            guard case .unsupported = error else {
                Issue.record("unexpected error: \(error.description)")
                return
            }
        }
    }
}
