import ImageCore
import Testing

@Suite struct ImageBufferTests {
    @Test(arguments: PixelFormat.allCases, [1, 7, 64, 65, 641])
    func planesAreAlignedPaddedAndDisjoint(format: PixelFormat, width: Int) {
        let buffer = ImageBuffer(format: format, width: width, height: 5)
        let image = buffer.image()
        var lastEnd = 0
        let base = Int(bitPattern: image.plane(0).base)
        for i in 0..<format.planeCount {
            let p = image.plane(i)
            let start = Int(bitPattern: p.base) - base
            #expect(start >= lastEnd)
            #expect(p.stride % ImageBuffer.rowAlignment == 0)
            #expect(p.stride >= p.rowBytes)
            #expect(p.padding >= Plane.requiredPadding)
            lastEnd = start + (p.height - 1) * p.stride + p.rowBytes
        }
        #expect(lastEnd <= buffer.byteCount)
    }

    @Test func croppedPlaneKeepsStrideAndPadding() {
        let buffer = ImageBuffer(format: .gray8, width: 100, height: 50)
        let p = buffer.image().luma
        let c = p.cropped(x: 10, y: 20, width: 30, height: 30)
        #expect(c.stride == p.stride)
        #expect(c.base == p.base + 20 * p.stride + 10)
        // The crop's last row ends inside the parent, so more than the parent's padding remains.
        #expect(c.padding == (49 * p.stride + 100 + p.padding) - (49 * p.stride + 10 + 30))
    }
}
