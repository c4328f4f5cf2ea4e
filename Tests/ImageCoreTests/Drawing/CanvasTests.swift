import ImageCore
import Testing

@Suite struct CanvasTests {
    func count(_ image: Image, _ c: Colour) -> Int {
        var n = 0
        for y in 0..<image.height {
            let r = image.luma.row(y)
            for x in 0..<image.width where r[4 * x + 2] == c.r && r[4 * x + 1] == c.g && r[4 * x] == c.b { n += 1 }
        }
        return n
    }

    func pixel(_ image: Image, _ x: Int, _ y: Int) -> Colour {
        let r = image.luma.row(y)
        return image.format == .xrgb8888 ? Colour(r[4 * x + 2], r[4 * x + 1], r[4 * x]) : Colour(r[3 * x], r[3 * x + 1], r[3 * x + 2])
    }

    @Test func shapesAreClippedAtEveryEdge() {
        let buf = ImageBuffer(format: .xrgb8888, width: 40, height: 30)
        buf.withImage { bufImage in
            let c = Canvas(bufImage)
            c.fill(x: -10, y: -10, width: 15, height: 15, .red)         // 5×5 visible
            #expect(count(bufImage, .red) == 25)
            c.fill(x: 35, y: 25, width: 100, height: 100, .green)       // 5×5 visible
            #expect(count(bufImage, .green) == 25)
            c.line(-100, 15, 200, 15, thickness: 1, .white)             // one full row
            #expect(count(bufImage, .white) == 40)
            // Wholly below, above, left of and right of the image: nothing drawn, no runaway loop
            // (a face box reaching past the bottom edge gives such a bottom bar; in -Ounchecked
            // builds an inverted row range used to loop for ever).
            c.fill(x: 5, y: 31, width: 10, height: 2, Colour(1, 2, 3))
            c.fill(x: 5, y: -20, width: 10, height: 5, Colour(1, 2, 3))
            c.fill(x: -20, y: 5, width: 5, height: 5, Colour(1, 2, 3))
            c.fill(x: 45, y: 5, width: 5, height: 5, Colour(1, 2, 3))
            c.strokeRect(x: 3, y: 10, width: 20, height: 40, thickness: 2, Colour(1, 2, 3))   // bottom bar at y 48…49
            #expect(count(bufImage, Colour(1, 2, 3)) == 2 * 20 + 2 * 2 * 18)
            c.strokeEllipse(cx: 20, cy: 15, rx: 60, ry: 60, thickness: 3, .amber)   // mostly outside; no trap
            c.fillCircle(cx: -3, cy: -3, radius: 2, .black)
        }
    }

    @Test func rectOutlineHasTheThicknessInside() {
        let buf = ImageBuffer(format: .rgb888, width: 20, height: 20)
        buf.withImage { bufImage in
            let c = Canvas(bufImage)
            c.strokeRect(x: 2, y: 3, width: 10, height: 8, thickness: 2, .red)
            #expect(pixel(bufImage, 2, 3) == .red && pixel(bufImage, 3, 4) == .red)
            #expect(pixel(bufImage, 4, 5) == .black)                // interior untouched
            #expect(pixel(bufImage, 11, 10) == .red && pixel(bufImage, 12, 10) == .black)
        }
    }

    @Test func ellipseOutlineIsSymmetricAndHollow() {
        let buf = ImageBuffer(format: .xrgb8888, width: 101, height: 121)
        buf.withImage { bufImage in
            let c = Canvas(bufImage)
            c.strokeEllipse(cx: 50, cy: 60, rx: 40, ry: 55, thickness: 4, .green)
            let img = bufImage
            #expect(pixel(img, 50, 60) == .black)                      // hollow centre
            #expect(pixel(img, 10, 60) == .green && pixel(img, 90, 60) == .green)
            #expect(pixel(img, 50, 5) == .green && pixel(img, 50, 115) == .green)
            #expect(pixel(img, 9, 60) == .black && pixel(img, 15, 60) == .black)
            for y in 0..<121 { for x in 0..<50 { #expect(pixel(img, x, y) == pixel(img, 100 - x, y)) } }
        }
    }

    @Test func closedPolylineJoinsTheEnds() {
        let buf = ImageBuffer(format: .xrgb8888, width: 30, height: 30)
        buf.withImage { bufImage in
            let pts: [(Float, Float)] = [(5, 5), (25, 5), (25, 25)]
            pts.withUnsafeBufferPointer { Canvas(bufImage).polyline($0, closed: true, .white) }
            #expect(pixel(bufImage, 15, 15) == .white)              // on the closing diagonal
            let open = ImageBuffer(format: .xrgb8888, width: 30, height: 30)
            open.withImage { openImage in
                pts.withUnsafeBufferPointer { Canvas(openImage).polyline($0, closed: false, .white) }
                #expect(pixel(openImage, 15, 15) == .black)
            }
            }
    }

    @Test func shadeBlendsTowardsTheColour() {
        let buf = ImageBuffer(format: .xrgb8888, width: 4, height: 4)
        buf.withImage { bufImage in
            let c = Canvas(bufImage)
            c.fill(x: 0, y: 0, width: 4, height: 4, .white)
            c.shade(x: 0, y: 0, width: 2, height: 4, .black, alpha: 128)
            #expect(pixel(bufImage, 0, 0) == Colour(127, 127, 127) && pixel(bufImage, 3, 0) == .white)
        }
    }
}
