import ImageCore
import Testing
import Vision

/// The tensor warp's YCbCr handling and the tracker's downscaled detection frame.
@Suite struct TensorWarpTests {
    /// Outside the frame a zero border reads black, also from YCbCr frames (Y at the matrix's
    /// black level, Cb = Cr = 128), in both variants.
    @Test(arguments: [YUVMatrix.bt601Full, .bt709Limited])
    func zeroBorderIsBlackForYCbCrFrames(matrix: YUVMatrix) {
        let frame = ImageBuffer(format: .i420, width: 16, height: 12)
        frame.withImage { frameImage in
            let p = frameImage.planes
            for y in 0..<12 { for x in 0..<16 { p.0.row(y)[x] = 200 } }
            for y in 0..<6 { for x in 0..<8 { p.1.row(y)[x] = 30; p.2.row(y)[x] = 220 } }
            let grid = TensorGrid(originX: 100, originY: 100, ux: 1, uy: 0, vx: 0, vy: 1, tapsU: 1, tapsV: 1)
            for variant in KernelVariant.allCases {
                var t = [Float](repeating: 7, count: 9 * 3 * 3)
                t.withUnsafeMutableBufferPointer { b in
                    switch variant {
                    case .scalar: TensorWarp.scalar(frameImage, grid: grid, into: b, width: 9, height: 3, range: .minusOneToOne, border: .zero, matrix: matrix)
                    case .simd: TensorWarp.simd(frameImage, grid: grid, into: b, width: 9, height: 3, range: .minusOneToOne, border: .zero, matrix: matrix)
                    }
                }
                #expect(t.allSatisfy { $0 == -1 }, "\(variant)")
            }
        }
    }

    /// Both variants agree bit for bit on a rotated, shrinking grid over an NV12 frame, at widths
    /// below, at and above the 8 lanes.
    @Test func simdEqualsScalarOnNV12() {
        let frame = ImageBuffer(format: .nv12, width: 37, height: 29)
        frame.withImage { frameImage in
            let p = frameImage.planes
            var seed: UInt32 = 12345
            func next() -> UInt8 { seed = seed &* 1_103_515_245 &+ 12345; return UInt8(truncatingIfNeeded: seed >> 16) }
            for y in 0..<29 { for x in 0..<37 { p.0.row(y)[x] = next() } }
            for y in 0..<15 { for x in 0..<38 { p.1.row(y)[x] = next() } }
            let grid = TensorGrid(originX: 3.3, originY: -1.7, ux: 1.8, uy: 0.6, vx: -0.6, vy: 1.8, tapsU: 2, tapsV: 2)
            for width in [1, 7, 8, 9, 17] {
                var a = [Float](repeating: 0, count: width * 5 * 3), b = a
                a.withUnsafeMutableBufferPointer { TensorWarp.scalar(frameImage, grid: grid, into: $0, width: width, height: 5, range: .zeroToOne, border: .replicate) }
                b.withUnsafeMutableBufferPointer { TensorWarp.simd(frameImage, grid: grid, into: $0, width: width, height: 5, range: .zeroToOne, border: .replicate) }
                #expect(a.map(\.bitPattern) == b.map(\.bitPattern), "width \(width)")
            }
        }
    }

    @Test func detectionFrameIsTheWholeFactorDownscale() {
        #expect(FaceTracker.detectionSize(width: 640, height: 480).map { [$0.width, $0.height] } == [128, 96])
        #expect(FaceTracker.detectionSize(width: 1280, height: 960).map { [$0.width, $0.height] } == [128, 96])
        #expect(FaceTracker.detectionSize(width: 1920, height: 1080).map { [$0.width, $0.height] } == [128, 72])
        #expect(FaceTracker.detectionSize(width: 480, height: 640).map { [$0.width, $0.height] } == [96, 128])
        #expect(FaceTracker.detectionSize(width: 255, height: 200) == nil)   // under twice the input: read directly
    }
}
