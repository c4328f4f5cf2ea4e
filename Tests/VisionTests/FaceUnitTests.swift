import Foundation
import ImageCore
import Testing
import TestSupport
import Vision

@Suite struct FaceUnitTests {
    @Test func anchorsMatchMediaPipeLayout() {
        let anchors = FaceAnchors.make()
        #expect(anchors.count == 896)
        // 16×16 cells × 2 anchors first, then 8×8 cells × 6 anchors.
        #expect(anchors[0] == FaceAnchor(x: 0.5 / 16, y: 0.5 / 16))
        #expect(anchors[1] == anchors[0])
        #expect(anchors[2] == FaceAnchor(x: 1.5 / 16, y: 0.5 / 16))
        #expect(anchors[511] == FaceAnchor(x: 15.5 / 16, y: 15.5 / 16))
        #expect(anchors[512] == FaceAnchor(x: 0.5 / 8, y: 0.5 / 8))
        #expect(anchors[517] == anchors[512])
        #expect(anchors[518] == FaceAnchor(x: 1.5 / 8, y: 0.5 / 8))
        #expect(anchors[895] == FaceAnchor(x: 7.5 / 8, y: 7.5 / 8))
    }

    func detection(_ x: Float, _ y: Float, _ size: Float, _ score: Float) -> FaceDetection {
        let k = Point2(x + size / 2, y + size / 2)
        return FaceDetection(box: Rect(x: x, y: y, width: size, height: size),
                             keypoints: FaceKeypoints(rightEye: k, leftEye: k, noseTip: k, mouth: k, rightEarTragion: k, leftEarTragion: k),
                             score: score)
    }

    @Test func weightedNMSMergesOverlapsByScore() {
        var candidates = [detection(0, 0, 10, 0.9), detection(100, 100, 20, 0.6), detection(2, 0, 10, 0.3)]
        var out: [FaceDetection] = []
        WeightedNMS.run(&candidates, count: 3, threshold: 0.3, maxOutputs: 10, into: &out)
        #expect(out.count == 2)
        #expect(out[0].score == 0.9)
        // Weighted mean x: (0·0.9 + 2·0.3) / 1.2 = 0.5
        #expect(abs(out[0].box.x - 0.5) < 1e-5)
        #expect(abs(out[0].keypoints.noseTip.x - 5.5) < 1e-5)
        #expect(out[1].box == Rect(x: 100, y: 100, width: 20, height: 20))
    }

    @Test func letterboxMapsTensorBackToImageExactly() {
        // Odd sizes: a 301×157 image letterboxes into a 301-px square centred on the image.
        let box = FaceDetector.letterbox(width: 301, height: 157)
        #expect(box.width == 301 && box.height == 301)
        let topLeft = box.imagePoint(u: 0, v: 0)
        #expect(topLeft == Point2(0, (157 - 301) / 2))
        let bottomRight = box.imagePoint(u: 1, v: 1)
        #expect(abs(bottomRight.x - 301) < 1e-3 && abs(bottomRight.y - (157 + 301) / 2) < 1e-3)
    }

    /// An image whose pixel value encodes its position, to check the warp's geometry.
    func ramp(width: Int, height: Int) -> ImageBuffer {
        let b = ImageBuffer(format: .rgb888, width: width, height: height)
        return b.withImage { bImage in
            let p = bImage.luma
            for y in 0..<height { for x in 0..<width {
                p.row(y)[3 * x] = UInt8(x); p.row(y)[3 * x + 1] = UInt8(y); p.row(y)[3 * x + 2] = 7
            } }
            return b
        }
    }

    @Test func samplerIdentityCopiesPixels() {
        let b = ramp(width: 37, height: 23)
        b.withImage { bImage in
            var tensor = [Float](repeating: -9, count: 37 * 23 * 3)
            tensor.withUnsafeMutableBufferPointer { t in
                TensorSampler.sample(bImage, region: RotatedRect(center: Point2(18.5, 11.5), width: 37, height: 23),
                                     into: t, width: 37, height: 23, range: TensorRange(scale: 1, offset: 0), border: .zero)
            }
            for y in 0..<23 { for x in 0..<37 {
                #expect(tensor[(y * 37 + x) * 3] == Float(x))
                #expect(tensor[(y * 37 + x) * 3 + 1] == Float(y))
            } }
        }
    }

    @Test func samplerLetterboxAndFlipAndRotation() {
        let b = ramp(width: 40, height: 20)
        b.withImage { bImage in
            var tensor = [Float](repeating: -9, count: 40 * 40 * 3)
            tensor.withUnsafeMutableBufferPointer { t in
                TensorSampler.sample(bImage, region: FaceDetector.letterbox(width: 40, height: 20), into: t,
                                     width: 40, height: 40, range: .minusOneToOne, border: .zero)
            }
            // Rows 0..<10 are black bars (-1), row 10 is image row 0.
            #expect(tensor[0] == -1 && tensor[(5 * 40 + 20) * 3 + 2] == -1)
            let expected: Float = 13 * 2 / 255 - 1
            let got: Float = tensor[(10 * 40 + 13) * 3]
            #expect(abs(got - expected) < 1e-5)
            #expect(abs(tensor[(10 * 40 + 13) * 3 + 1] - (-1)) < 1e-5)
            // Flipped: tensor column x shows image column 39 - x.
            tensor.withUnsafeMutableBufferPointer { t in
                TensorSampler.sample(bImage, region: RotatedRect(center: Point2(20, 10), width: 40, height: 20), into: t,
                                     width: 40, height: 20, range: TensorRange(scale: 1, offset: 0), border: .replicate, flipHorizontally: true)
            }
            #expect(tensor[(3 * 40 + 5) * 3] == 34)
            // Rotated a quarter turn: tensor x runs along image y.
            tensor.withUnsafeMutableBufferPointer { t in
                TensorSampler.sample(bImage, region: RotatedRect(center: Point2(20, 10), width: 20, height: 20, rotation: .pi / 2), into: t,
                                     width: 20, height: 20, range: TensorRange(scale: 1, offset: 0), border: .replicate)
            }
            // Tensor (x, y) → image (20 - (y - 9.5) - 0.5 ..., ) : x along +image y, y along -image x.
            #expect(abs(tensor[(0 * 20 + 4) * 3 + 1] - 4) < 1e-3)   // image row 4
            #expect(abs(tensor[(0 * 20 + 4) * 3] - 29) < 1e-3)      // image column 29
        }
    }

    @Test func samplerReadsI420LikeRGB() {
        let rgb = ramp(width: 64, height: 48)
        rgb.withImage { rgbImage in
            let yuv = FaceTestSupport.i420(rgb)
            yuv.withImage { yuvImage in
                var a = [Float](repeating: 0, count: 32 * 32 * 3), b = a
                let region = RotatedRect(center: Point2(30, 22), width: 40, height: 40, rotation: 0.3)
                a.withUnsafeMutableBufferPointer { TensorSampler.sample(rgbImage, region: region, into: $0, width: 32, height: 32, range: .zeroToOne, border: .replicate) }
                b.withUnsafeMutableBufferPointer { TensorSampler.sample(yuvImage, region: region, into: $0, width: 32, height: 32, range: .zeroToOne, border: .replicate) }
                var sum: Float = 0
                for i in 0..<a.count { sum += abs(a[i] - b[i]) }
                // Chroma is subsampled 2×2, so only close on average.
                #expect(sum / Float(a.count) < 0.03)
            }
            }
    }

    @Test func oneEuroPassesStillValuesAndFollowsSteps() {
        var f = OneEuroFilter()
        let p = OneEuroParameters(minCutoff: 1, beta: 0)
        for _ in 0..<10 { #expect(f.filter(3, dt: 1.0 / 30, p) == 3) }
        // A step: a pure low-pass at 1 Hz lags; with a high beta the filter catches up faster.
        var slow = OneEuroFilter(), fast = OneEuroFilter()
        _ = slow.filter(0, dt: 1.0 / 30, p)
        _ = fast.filter(0, dt: 1.0 / 30, OneEuroParameters(minCutoff: 1, beta: 5))
        var s: Float = 0, q: Float = 0
        for _ in 0..<3 {
            s = slow.filter(1, dt: 1.0 / 30, p)
            q = fast.filter(1, dt: 1.0 / 30, OneEuroParameters(minCutoff: 1, beta: 5))
        }
        #expect(s > 0 && s < 0.6)
        #expect(q > s)
    }

    /// A synthetic mesh: the vertices the pose uses, placed on a face rotated by known angles.
    func mesh(roll: Float, yaw: Float, pitch: Float, mirrored: Bool = false) -> [Point3] {
        var points = [Point3](repeating: Point3(0, 0, 0), count: 468)
        // Canonical positions (image axes: x right, y down, z away), from MediaPipe's canonical model.
        let canonical: [(Int, SIMD3<Float>)] = [
            (33, [-4.45, -2.66, -3.17]), (263, [4.45, -2.66, -3.17]), (133, [-1.86, -2.36, -3.84]), (362, [1.86, -2.36, -3.84]),
            (234, [-7.66, -0.67, 2.44]), (454, [7.66, -0.67, 2.44]), (61, [-2.77, 4.3, -4.1]), (291, [2.77, 4.3, -4.1]),
            (10, [0, -8.26, -4.48]), (152, [0, 9.40, -4.26]),
        ]
        // Face rotation: pitch about x, then yaw about y, then roll about the camera axis.
        func rotate(_ v: SIMD3<Float>) -> SIMD3<Float> {
            var p = v
            // pitch (positive = face up: chin forward, i.e. toward -z)
            let cp = cosf(pitch), sp = sinf(pitch)
            p = SIMD3(p.x, cp * p.y + sp * p.z, -sp * p.y + cp * p.z)
            // yaw (positive = nose toward +x; the nose points to -z)
            let cy = cosf(yaw), sy = sinf(yaw)
            p = SIMD3(cy * p.x - sy * p.z, p.y, sy * p.x + cy * p.z)
            // roll (clockwise on screen)
            let cr = cosf(roll), sr = sinf(roll)
            p = SIMD3(cr * p.x - sr * p.y, sr * p.x + cr * p.y, p.z)
            return p
        }
        for (i, v) in canonical {
            var p = rotate(v) * 20 + SIMD3(300, 200, 0)
            if mirrored { p.x = 600 - p.x }
            points[i] = Point3(p.x, p.y, p.z)
        }
        if mirrored {
            // A mirrored image shows the person's right side where the left was.
            for (a, b) in [(33, 263), (133, 362), (234, 454), (61, 291)] { points.swapAt(a, b) }
        }
        return points
    }

    @Test(arguments: [(Float(0), Float(0), Float(0)), (0.3, 0, 0), (-0.5, 0, 0), (0, 0.4, 0), (0, -0.3, 0), (0, 0, 0.3), (0, 0, -0.25), (0.2, 0.3, -0.2)])
    func poseRecoversKnownAngles(roll: Float, yaw: Float, pitch: Float) {
        let pose = FacePose(mesh: mesh(roll: roll, yaw: yaw, pitch: pitch))
        #expect(abs(pose.roll - roll) < 0.03, "roll \(pose.roll) vs \(roll)")
        #expect(abs(pose.yaw - yaw) < 0.03, "yaw \(pose.yaw) vs \(yaw)")
        #expect(abs(pose.pitch - pitch) < 0.03, "pitch \(pose.pitch) vs \(pitch)")
        let mirrored = FacePose(mesh: mesh(roll: roll, yaw: yaw, pitch: pitch, mirrored: true))
        let dRoll: Float = abs(mirrored.roll + pose.roll)
        let dYaw: Float = abs(mirrored.yaw + pose.yaw)
        let dPitch: Float = abs(mirrored.pitch - pose.pitch)
        #expect(dRoll < 1e-4)
        #expect(dYaw < 1e-4)
        #expect(dPitch < 1e-4)
    }

    @Test func regionsAndIbugMappingAreWellFormed() {
        for name in FaceRegionName.allCases {
            let (indices, _) = FaceMeshTopology.vertices(of: name)
            #expect(indices.allSatisfy { $0 >= 0 && $0 < 468 })
        }
        #expect(FaceMeshTopology.vertices(of: .leftEye).closed)
        #expect(!FaceMeshTopology.vertices(of: .faceContour).closed)
        #expect(FaceMeshTopology.ibug68.count == 68)
        #expect(FaceMeshTopology.ibug68[36] == (33, 33) && FaceMeshTopology.ibug68[45] == (263, 263))
    }
}
