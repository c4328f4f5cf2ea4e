import ImageCore
import Testing

@Suite struct CanvasTests {
    /// A gray canvas where drawing in white (255) marks pixels; the buffer stays alive with the suite value.
    final class Board {
        let buffer: ImageBuffer
        let canvas: Canvas
        convenience init(_ w: Int, _ h: Int) { self.init(.gray8, w, h) }
        init(_ format: PixelFormat, _ w: Int, _ h: Int) {
            buffer = ImageBuffer(format: format, width: w, height: h)
            canvas = Canvas(buffer.image())
        }
        func isSet(_ x: Int, _ y: Int) -> Bool { withExtendedLifetime(buffer) { canvas.image.luma.row(y)[x * canvas.image.luma.bytesPerPixel] != 0 } }
        var count: Int { (0..<canvas.height).reduce(0) { s, y in s + (0..<canvas.width).filter { isSet($0, y) }.count } }
    }

    @Test func colourBytesFollowTheFormat() {
        let c = DrawColor(red: 0x11, green: 0x22, blue: 0x33)
        for (format, bytes) in [(PixelFormat.xrgb8888, [0x33, 0x22, 0x11, 0xFF]), (.rgb888, [0x11, 0x22, 0x33])] {
            let board = Board(format, 3, 2)
            board.canvas.fillRect(x: 1, y: 1, width: 1, height: 1, color: c)
            let p = board.canvas.image.luma.row(1) + bytes.count
            #expect((0..<bytes.count).map { Int(p[$0]) } == bytes, "\(format.name)")
            #expect(board.canvas.image.luma.row(0)[0] == 0)
        }
    }

    @Test func fillRectClipsAtEveryEdge() {
        let board = Board(10, 8)
        board.canvas.fillRect(x: -3, y: -2, width: 5, height: 4, color: .white)  // covers 0..<2 × 0..<2
        board.canvas.fillRect(x: 8, y: 6, width: 10, height: 10, color: .white)  // covers 8..<10 × 6..<8
        board.canvas.fillRect(x: 20, y: 0, width: 3, height: 3, color: .white)   // fully outside
        #expect(board.count == 4 + 4)
        #expect(board.isSet(0, 0) && board.isSet(1, 1) && !board.isSet(2, 0))
        #expect(board.isSet(9, 7) && board.isSet(8, 6) && !board.isSet(7, 6))
    }

    @Test func strokeRectLeavesTheInsideAlone() {
        let board = Board(12, 12)
        board.canvas.strokeRect(x: 1, y: 1, width: 10, height: 8, thickness: 2, color: .white)
        #expect(board.count == 10 * 8 - 6 * 4)
        #expect(board.isSet(1, 1) && board.isSet(2, 2) && board.isSet(10, 8) && !board.isSet(3, 3) && !board.isSet(0, 0))
    }

    @Test func thinLinesIncludeBothEndsAndClip() {
        let board = Board(10, 10)
        board.canvas.line(from: PixelPoint(x: 0, y: 0), to: PixelPoint(x: 9, y: 9), color: .white)
        #expect(board.count == 10)
        #expect((0..<10).allSatisfy { board.isSet($0, $0) })
        let clipped = Board(10, 10)
        clipped.canvas.line(from: PixelPoint(x: -5, y: 3), to: PixelPoint(x: 20, y: 3), color: .white)
        #expect(clipped.count == 10)
        #expect((0..<10).allSatisfy { clipped.isSet($0, 3) })
    }

    @Test func thickLinesCoverTheirWidth() {
        let board = Board(20, 20)
        board.canvas.line(from: PixelPoint(x: 3, y: 10), to: PixelPoint(x: 16, y: 10), thickness: 5, color: .white)
        // Rows 8...12 between the ends, round caps beyond them, nothing at distance 3.
        #expect((8...12).allSatisfy { board.isSet(10, $0) })
        #expect(!board.isSet(10, 7) && !board.isSet(10, 13))
        #expect(board.isSet(1, 10) && !board.isSet(0, 10))
        let edge = Board(20, 20)
        edge.canvas.line(from: PixelPoint(x: -10, y: 0), to: PixelPoint(x: 30, y: 0), thickness: 3, color: .white)
        #expect(edge.count == 40)  // rows 0 and 1 only; row -1 clipped
    }

    @Test func ellipseOutlineIsARingAndClips() {
        let board = Board(41, 31)
        board.canvas.strokeEllipse(centerX: 20, centerY: 15, radiusX: 15, radiusY: 10, thickness: 3, color: .white)
        #expect(board.isSet(35, 15) && board.isSet(5, 15) && board.isSet(20, 5) && board.isSet(20, 25))
        #expect(board.isSet(36, 15) && board.isSet(34, 15))
        #expect(!board.isSet(20, 15) && !board.isSet(33, 15) && !board.isSet(38, 15) && !board.isSet(0, 0))
        // Left-right and up-down symmetric.
        for y in 0..<31 { for x in 0..<41 { #expect(board.isSet(x, y) == board.isSet(40 - x, y) && board.isSet(x, y) == board.isSet(x, 30 - y)) } }
        let clipped = Board(20, 20)
        clipped.canvas.strokeEllipse(centerX: 0, centerY: 0, radiusX: 30, radiusY: 12, thickness: 2, color: .white)
        #expect(clipped.isSet(0, 12) && !clipped.isSet(0, 0))
    }

    @Test func closedPolylinesJoinTheEnds() {
        let points = [PixelPoint(x: 1, y: 1), PixelPoint(x: 8, y: 1), PixelPoint(x: 8, y: 6)]
        let open = Board(10, 10), closed = Board(10, 10)
        open.canvas.polyline(points, closed: false, color: .white)
        closed.canvas.polyline(points, closed: true, color: .white)
        #expect(open.isSet(1, 1) && open.isSet(8, 6) && !open.isSet(4, 3))
        #expect(closed.isSet(4, 3) || closed.isSet(5, 3) || closed.isSet(4, 4))  // on the diagonal back to (1, 1)
        #expect(closed.count > open.count)
    }

    @Test func filledCircleIsRoundAndSymmetric() {
        let board = Board(41, 41)
        board.canvas.fillCircle(centerX: 20, centerY: 20, radius: 12, color: .white)
        let area = Double(board.count), ideal = Double.pi * 12.5 * 12.5
        #expect(abs(area - ideal) / ideal < 0.05)
        #expect(board.isSet(32, 20) && !board.isSet(33, 20) && board.isSet(20, 8) && !board.isSet(29, 29))
        let clipped = Board(10, 10)
        clipped.canvas.fillCircle(centerX: -2, centerY: 5, radius: 4, color: .white)
        #expect(clipped.isSet(0, 5) && clipped.isSet(2, 5) && !clipped.isSet(3, 5) && !clipped.isSet(0, 0))
    }
}
