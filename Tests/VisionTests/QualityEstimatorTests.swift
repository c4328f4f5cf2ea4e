import ImageCore
import Testing
import TestSupport
import Vision

/// The estimator on the always-present astronaut portrait: sane values, every frame format
/// giving close results, variants giving identical results, and no allocation per call.
@Suite(.serialized) struct QualityEstimatorTests {
    /// Its own models: interpreters are not thread-safe and the degradation suite runs alongside.
    nonisolated(unsafe) static let ownAnalyzer: FaceAnalyzer = {
        do {
            let a = try FaceAnalyzer(modelDirectory: Fixtures.models)
            a.tiled = false
            return a
        } catch { fatalError("face models: \(error)") }
    }()
    let analyzer = QualityEstimatorTests.ownAnalyzer

    @Test func astronautIsAGoodCapture() throws {
        let buffer = FaceTestSupport.astronaut()
        try buffer.withImage { bufferImage in
            let image = bufferImage
            let face = try #require(analyzer.analyze(image).first)
            let q = CaptureQualityEstimator().evaluate(image, face: face)
            print("astronaut: \(QualityDegradationTests.describe(q)) eyes \(q.eyeOpenness) mouth \(q.mouthOpenness) smile \(q.smile)")
            #expect(q.score > 0.5 && q.score <= 1)
            for c in QualityComponent.allCases { #expect(q.components[c] >= 0 && q.components[c] <= 1, "\(c)") }
            #expect(q.eyeOpenness > 0.5)
            #expect(q.components.occlusion > 0.5)
        }
    }

    @Test func formatsAgreeAndVariantsAreIdentical() throws {
        let rgb = FaceTestSupport.astronaut()
        try rgb.withImage { rgbImage in
            let face = try #require(analyzer.analyze(rgbImage).first)
            let estimator = CaptureQualityEstimator()
            let fromRGB = estimator.evaluate(rgbImage, face: face)
            let i420 = FaceTestSupport.i420(rgb)
            i420.withImage { i420Image in
                let fromI420 = estimator.evaluate(i420Image, face: face)
                print("rgb \(fromRGB.score) i420 \(fromI420.score)")
                #expect(abs(fromRGB.score - fromI420.score) < 0.03)
                let gray = ImageBuffer(format: .gray8, width: rgb.width, height: rgb.height)
                gray.withImage { grayImage in
                    RGBToGray.run(rgbImage, grayImage)
                    let fromGray = estimator.evaluate(grayImage, face: face)
                    #expect(abs(fromRGB.components.sharpness - fromGray.components.sharpness) < 0.03)
                    // Scalar references and SIMD variants: the same measurements to the bit.
                    let scalar = CaptureQualityEstimator(variant: .scalar).evaluate(rgbImage, face: face)
                    let vector = estimator.evaluate(rgbImage, face: face)
                    #expect(scalar == vector)
                }
            }
        }
    }

    @Test func evaluateAllocatesNothing() throws {
        let rgb = FaceTestSupport.astronaut()
        try rgb.withImage { rgbImage in
            let frame = FaceTestSupport.i420(rgb)
            try frame.withImage { frameImage in
                let face = try #require(analyzer.analyze(rgbImage).first)
                let tracker = FaceTracker(detector: analyzer.detector, landmarker: analyzer.landmarker)
                _ = tracker.process(frameImage)
                try #require(tracker.count == 1)
                let mesh = tracker.face(0)
                let estimator = CaptureQualityEstimator()
                var total: Float = 0
                // Warm up (first calls may touch lazily initialised statics).
                for _ in 0..<2 {
                    total += estimator.evaluate(frameImage, face: mesh).score
                    total += estimator.evaluate(rgbImage, face: face).score
                }
                #if canImport(Glibc) && arch(x86_64)
                // Net heap change over windows of 4 calls (mallinfo2, as the tracker test). Other suites
                // run in parallel in this process and allocate meanwhile, so up to ten short windows;
                // any byte-exact one passes (an allocating call would leave every window changed).
                var clean = false
                for attempt in 1...10 where !clean {
                    let before = HeapStatistics.current()
                    for _ in 0..<2 {
                        total += estimator.evaluate(frameImage, face: mesh).score
                        total += estimator.evaluate(rgbImage, face: face).score
                    }
                    let after = HeapStatistics.current()
                    print("quality (attempt \(attempt)): heap in use before \(before.uordblks) after \(after.uordblks) bytes, mmapped \(before.hblkhd) → \(after.hblkhd)")
                    clean = after.uordblks == before.uordblks && after.hblkhd == before.hblkhd
                }
                #expect(clean)
                #else
                print("quality: heap statistics not available on this platform; allocation check skipped")
                #endif
                #expect(total > 0)
                withExtendedLifetime((rgb, frame)) {}
            }
        }
    }
}
