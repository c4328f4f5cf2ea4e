import Foundation
import ImageCore
import Testing
import TestSupport
import Vision

@Suite struct QualityUnitTests {
    @Test func geometricMeanCombination() {
        var c = QualityComponents()
        #expect(abs(CaptureQuality.combine(c) - 1) < 1e-6)
        let total = QualityComponent.allCases.map(CaptureQuality.weight).reduce(0, +)
        #expect(abs(total - CaptureQuality.totalWeight) < 1e-5)
        // Any one component at zero pulls the score far down; halving one scales by 0.5^w.
        for k in QualityComponent.allCases {
            var d = QualityComponents()
            d[k] = 0.5
            #expect(abs(CaptureQuality.combine(d) - powf(0.5, CaptureQuality.weight(k))) < 1e-5)
            d[k] = 0
            #expect(abs(CaptureQuality.combine(d) - powf(1e-4, CaptureQuality.weight(k))) < 1e-5)
            #expect(CaptureQuality.combine(d) < 0.65)
            #expect(d.weakest == k)
        }
        c.noise = 0.2; c.pose = 0.1
        #expect(c.weakest == .pose)
    }

    @Test func scoreText() {
        #expect(QualityAnnotator.text(0.876) == "0.88")
        #expect(QualityAnnotator.text(1) == "1.00")
        #expect(QualityAnnotator.text(0.05) == "0.05")
        #expect(QualityAnnotator.text(-1) == "0.00")
    }

    @Test func digitsAreDrawnInsideTheLabel() {
        let buffer = ImageBuffer(format: .rgb888, width: 64, height: 32)
        buffer.withImage { bufferImage in
            let image = bufferImage
            QualityAnnotator.draw("0.5", x: 2, y: 3, scale: 2, on: image, color: (255, 255, 255), background: (10, 20, 30))
            let (w, h) = QualityAnnotator.size(of: "0.5", scale: 2)
            var white = 0, label = 0, outside = 0
            for y in 0..<32 {
                for x in 0..<64 {
                    let p = image.luma.row(y) + 3 * x
                    let inLabel = x >= 2 && x < 2 + w && y >= 3 && y < 3 + h
                    if p[0] == 255 { white += 1; #expect(inLabel) }
                    if p[0] == 10 { label += 1 }
                    if !inLabel && p[0] != 0 { outside += 1 }
                }
            }
            #expect(white > 20 && label > 20 && outside == 0)
        }
    }

    /// Expression measures on MediaPipe's canonical-like geometry built by hand: lids apart →
    /// open, together → closed; lips apart → open.
    @Test func expressionFromLandmarks() {
        var p = [Point3](repeating: Point3(0, 0, 0), count: FaceMeshTopology.vertexCount)
        func eye(_ outer: Int, _ inner: Int, _ lids: [(Int, Int)], x0: Float, gap: Float) {
            p[outer] = Point3(x0, 0, 0); p[inner] = Point3(x0 + 30, 0, 0)
            for (k, (u, l)) in lids.enumerated() {
                let x = x0 + 7.5 * Float(k + 1)
                p[u] = Point3(x, -gap / 2, 0); p[l] = Point3(x, gap / 2, 0)
            }
        }
        func setEyes(_ gap: Float) {
            eye(33, 133, [(160, 144), (159, 145), (158, 153)], x0: 0, gap: gap)
            eye(263, 362, [(385, 380), (386, 374), (387, 373)], x0: 60, gap: gap)
        }
        func setMouth(_ gap: Float) {
            p[61] = Point3(20, 60, 0); p[291] = Point3(70, 60, 0)
            for (k, (u, l)) in [(13, 14), (82, 87), (312, 317)].enumerated() {
                p[u] = Point3(45 + Float(k), 60 - gap / 2, 0); p[l] = Point3(45 + Float(k), 60 + gap / 2, 0)
            }
        }
        setEyes(9); setMouth(0)
        #expect(FaceExpression.openness(eyeAspect: FaceExpression.eyeAspect(p, right: true)) > 0.9)
        #expect(FaceExpression.openness(mouthAspect: FaceExpression.mouthAspect(p)) == 0)
        setEyes(1.5); setMouth(30)
        #expect(FaceExpression.openness(eyeAspect: FaceExpression.eyeAspect(p, right: false)) == 0)
        #expect(FaceExpression.openness(mouthAspect: FaceExpression.mouthAspect(p)) > 0.9)
        // Corners raised above the lip centre read as a smile.
        setMouth(0)
        #expect(abs(FaceExpression.cornerLift(p)) < 1e-4)
        p[61].y = 50; p[291].y = 50
        #expect(FaceExpression.cornerLift(p) > 0.15)
    }
}
