import Testing
import Vision

@Test func iouOfOverlappingRects() {
    let a = Rect(x: 0, y: 0, width: 10, height: 10)
    let b = Rect(x: 5, y: 0, width: 10, height: 10)
    #expect(abs(a.iou(b) - 50.0 / 150.0) < 1e-6)
    #expect(a.iou(Rect(x: 20, y: 20, width: 1, height: 1)) == 0)
}
