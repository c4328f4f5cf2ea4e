import ImageCore
import NeuralCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// MediaPipe's attention face mesh (`face_landmark_with_attention`, 478 points with refined lips,
/// eyes and irises) run on a still for its 80 refined lip points. It runs on the float path
/// only: its custom transforms (`LandmarkTransformOperations.swift`) have no integer form.
///
/// The region is the mesh's own next region (`FaceMesh.trackingRegion` of the plain mesh's points:
/// the box round the vertices, rotated by the outer eye corners, 1.5×), as MediaPipe's graph
/// feeds the attention model. The lip points are in the order of the model's lips subset
/// (`meshIndices`): point k refines mesh vertex `meshIndices[k]`.
public final class RefinedLips {
    public let interpreter: Interpreter
    let lipsOutput: Int, meshOutput: Int, flagOutput: Int
    public var matrix: YUVMatrix = .bt601Full

    /// The mesh vertices the 80 lip points refine (MediaPipe's lips subset, in output order).
    public static let meshIndices: [Int] = [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 185, 40, 39, 37, 0, 267, 269, 270, 409,
                                            78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308, 191, 80, 81, 82, 13, 312, 311, 310, 415,
                                            76, 77, 90, 180, 85, 16, 315, 404, 320, 307, 306, 184, 74, 73, 72, 11, 302, 303, 304, 408,
                                            62, 96, 89, 179, 86, 15, 316, 403, 319, 325, 292, 183, 42, 41, 38, 12, 268, 271, 272, 407]

    /// Runs each model pass (input, run, output read) when set: the caller's lock around it, for a
    /// model whose arena is shared with interpreters on another thread (as `PalmDetector.exclusive`).
    public var exclusive: ((() -> Void) -> Void)? = nil

    /// Loads `bytes` (`ModelFile.faceLandmarkWithAttention`) on the float path; with `shared`, its
    /// activations in that memory (a still's models borrow the live models', as the palm model).
    public convenience init(model bytes: [UInt8], sharing shared: SharedArena? = nil) throws(ModelError) {
        var copy = ModelBytes(bytes)
        try self.init(taking: &copy, sharing: shared)
    }

    /// As `init(model:sharing:)`, taking the file's `bytes` (a mapping: `ModelStore.map`): released
    /// once parsed, and no float weights kept beside the program's packed ones. A still's peak is
    /// this model's build and run: read whole into an array with an arena of its own it took the
    /// kiosk's passport still from 39.7 to 49.9 MiB (`BOOTH_STILL_MEMORY=1`, over the 48 MiB budget).
    public init(taking bytes: inout ModelBytes, sharing shared: SharedArena? = nil) throws(ModelError) {
        interpreter = try Interpreter(taking: &bytes, path: .float, sharing: shared, keepingWeights: false)
        var lips = -1, mesh = -1, flag = -1
        for i in 0..<interpreter.outputCount {
            switch interpreter.outputShape(i).last {
            case 160: lips = i
            case 1404: mesh = i
            case 1: flag = i
            default: break
            }
        }
        guard lips >= 0, mesh >= 0, flag >= 0, interpreter.inputCount == 1, interpreter.inputShape(0) == [1, 192, 192, 3] else {
            throw .wrongModel("the attention face mesh needs a [1x192x192x3] input and lips [160], mesh [1404] and face flag outputs")
        }
        (lipsOutput, meshOutput, flagOutput) = (lips, mesh, flag)
    }

    /// The refined lips found on `mesh`'s region of `image`: 80 points (image pixels) and the
    /// model's own 468 mesh points (x, y).
    public func run(_ image: Image, mesh: [Point3]) -> (lips: [Point2], mesh: [Point2]) {
        precondition(mesh.count == FaceMeshTopology.vertexCount, "RefinedLips needs the 468-point mesh")
        return run(image, region: FaceMesh.trackingRegion(of: mesh))
    }

    /// The model run on `region` of `image`: 80 refined lip points and its 468 mesh points (image
    /// pixels).
    public func run(_ image: Image, region: RotatedRect) -> (lips: [Point2], mesh: [Point2]) {
        let size = 192
        let c = cosf(region.rotation), s = sinf(region.rotation)
        let kx = region.width / Float(size), ky = region.height / Float(size)
        func project(_ x: Float, _ y: Float) -> Point2 {
            let dx = (x - Float(size) / 2) * kx, dy = (y - Float(size) / 2) * ky
            return Point2(region.center.x + c * dx - s * dy, region.center.y + s * dx + c * dy)
        }
        var lips: [Point2] = [], points: [Point2] = []
        let matrix = self.matrix
        let pass = {
            self.interpreter.withInput(0) { tensor in
                TensorSampler.sample(image, region: region, into: tensor, width: size, height: size,
                                     range: .zeroToOne, border: .replicate, matrix: matrix)
            }
            self.interpreter.run()
            lips = self.interpreter.withOutput(self.lipsOutput) { o in (0..<80).map { project(o[2 * $0], o[2 * $0 + 1]) } }
            points = self.interpreter.withOutput(self.meshOutput) { o in (0..<468).map { project(o[3 * $0], o[3 * $0 + 1]) } }
        }
        if let exclusive { exclusive(pass) } else { pass() }
        return (lips, points)
    }

    /// `mesh` with its lip vertices moved to the refined points (x, y; z kept), as MediaPipe's
    /// landmark refinement does.
    public static func refine(_ mesh: [Point3], lips: [Point2]) -> [Point3] {
        var out = mesh
        for (k, v) in meshIndices.enumerated() { out[v] = Point3(lips[k].x, lips[k].y, mesh[v].z) }
        return out
    }

    /// The examiner's lip gap (`ExaminerMeasurements.lipGap`, inner-lip gap over face height) on
    /// `mesh` with its lip vertices moved to `lips` (`refine`).
    public static func lipGap(_ mesh: [Point3], lips: [Point2]) -> Float {
        precondition(mesh.count == FaceMeshTopology.vertexCount && lips.count == meshIndices.count,
                     "RefinedLips.lipGap needs the 468-point mesh and the 80 refined lip points")
        return FaceExpression.lipGap(refine(mesh, lips: lips))
    }

    /// The model run on `mesh`'s region of `image`, and the lip gap on the refined lips
    /// (`mouth_closed_refined_lips`, stills only).
    public func lipGap(_ image: Image, mesh: [Point3]) -> Float {
        Self.lipGap(mesh, lips: run(image, mesh: mesh).lips)
    }

    /// The close-ups of the lower face `closeUpLipGap` runs the model on: these shares of the mesh's
    /// own region (`FaceMesh.trackingRegion`), each centred `MouthCloseUp.shift` of the way towards
    /// the mouth (`MouthCloseUp.region`, whose own close-up is 0.65).
    public static let closeUpScales: [Float] = [0.6, 0.65, 0.7]

    /// The lip gap (`lipGap`) on the refined lips the model finds on close-ups of the lower face
    /// (`closeUpScales`), averaged (`mouth_closed_close_up_lips`, stills only). On a small face the
    /// close-up gives the lips more of the model's 192-pixel input: lips slightly apart with no
    /// teeth (a 1-2 px opening) that the mesh's own region reads as closed read apart there. One
    /// close-up alone moves with the region (a tenth more or less changed the gap by up to 0.008
    /// of the face height on the tuning faces); the mean of three is steadier. Three model runs.
    public func closeUpLipGap(_ image: Image, mesh: [Point3]) -> Float {
        var sum: Float = 0
        for scale in Self.closeUpScales {
            sum += Self.lipGap(mesh, lips: run(image, region: MouthCloseUp.region(mesh, scale: scale)).lips)
        }
        return sum / Float(Self.closeUpScales.count)
    }

    /// The inner lips' opening over the mouth's width, from refined lip points: the largest of the
    /// gaps between the upper and the lower inner-lip points facing each other (80/88, 81/178,
    /// 82/87, 13/14, 312/317, 311/402, 310/318), over the corners' distance (61–291).
    public static func innerGap(_ lips: [Point2]) -> Float {
        func at(_ vertex: Int) -> Point2 { lips[meshIndices.firstIndex(of: vertex)!] }
        func distance(_ a: Point2, _ b: Point2) -> Float { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        let width = distance(at(61), at(291))
        guard width > 0 else { return 0 }
        var gap: Float = 0
        for (u, l) in [(80, 88), (81, 178), (82, 87), (13, 14), (312, 317), (311, 402), (310, 318)] {
            gap = max(gap, distance(at(u), at(l)))
        }
        return gap / width
    }
}
