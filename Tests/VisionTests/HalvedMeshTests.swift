import ImageCore
import Testing
import TestSupport
import Vision

/// The live tracker's mesh input from the frame halved (`FaceTracker.halvesLargeFaces`): a face
/// that fills a passport oval, on the integer path as the kiosk runs it, lands as close to the
/// human ground truth as the frame sampled directly with 2×2 taps.
@Suite(.serialized, .enabled(if: FaceTestSupport.hasFixtures, "../shared/fixtures/faces is absent: halved-mesh tests skipped"))
struct HalvedMeshTests {
    /// The 68-point ground truth's reader, distance and image list (`FaceFixtureTests`).
    let fixtures = FaceFixtureTests()

    @Test func largeFacesFromTheHalvedFrameMatchTheGroundTruth() throws {
        let analyzer = try ModelStore(directory: Fixtures.models).faceAnalyzer(path: .integer, iris: false, detector: .short, verify: false)
        var direct: [Float] = [], halved: [Float] = []
        for (set, file) in FaceFixtureTests.landmarkSets {
            let root = FaceTestSupport.faceFixtures + "/\(set)/"
            let truth = fixtures.readPts(root + file.split(separator: ".")[0] + ".pts")
            try #require(truth.count == 68)
            // The face scaled so its ground-truth box's long side is 230 pixels, centred at
            // (320, 230) of a 640×480 I420 frame: a sitter filling the oval.
            let xs = truth.map(\.x), ys = truth.map(\.y)
            let cx = (xs.min()! + xs.max()!) / 2, cy = (ys.min()! + ys.max()!) / 2
            let k = 230 / max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
            let source = FaceTestSupport.load(root + file)
            let frame = FaceTestSupport.i420(FaceTestSupport.warp(source, width: 640, height: 480) { x, y in
                ((x - 320) / k + cx + 0.5, (y - 230) / k + cy + 0.5)
            })
            // The truth in the frame, in the mesh's coordinates (pixel k covers k...k+1; the .pts
            // points are pixel centres k, the warp's inverse is in the mesh's coordinates).
            let inFrame = truth.map { Point2(($0.x - cx) * k + 320, ($0.y - cy) * k + 230) }
            let norm = fixtures.distance(inFrame[36], inFrame[45])
            var points: [[Point2]] = []
            for halves in [false, true] {
                let tracker = FaceTracker(detector: analyzer.detector, landmarker: analyzer.landmarker, maxFaces: 1)
                tracker.smoothing = false
                tracker.halvesLargeFaces = halves
                var n = 0
                for i in 0..<6 {
                    let metadata = FrameMetadata(sequence: UInt64(i), timestampNanoseconds: UInt64(i + 1) * 33_333_333)
                    n = frame.withImage(metadata: metadata) { tracker.process($0) }
                }
                try #require(n == 1, "\(file): no face tracked")
                let face = tracker.face(0)
                #expect(FaceLandmarker.samplesFromHalf(face.region), "\(file): region \(face.region.width) is not a large face")
                points.append((0..<68).map { face.ibugPoint($0) })
            }
            let nme = points.map { p in (17..<68).reduce(Float(0)) { $0 + fixtures.distance(p[$1], inFrame[$1]) } / 51 / norm }
            let apart = (0..<68).reduce(Float(0)) { $0 + fixtures.distance(points[0][$1], points[1][$1]) } / 68 / norm
            print("halved mesh \(set)/\(file): NME51 direct \(nme[0]) halved \(nme[1]); mean distance between them \(apart)")
            direct.append(nme[0]); halved.append(nme[1])
            #expect(nme[1] <= nme[0] + 0.01, "\(file): halved \(nme[1]) against direct \(nme[0])")
            #expect(apart < 0.05, "\(file): the two inputs' meshes \(apart) interocular apart")
        }
        let meanDirect = direct.reduce(0, +) / Float(direct.count), meanHalved = halved.reduce(0, +) / Float(halved.count)
        print("halved mesh: mean NME51 direct \(meanDirect), halved \(meanHalved) over \(direct.count) faces")
        #expect(meanHalved < 0.06)
        #expect(meanHalved <= meanDirect + 0.003)
    }
}
