import ImageCore
import TestSupport
import Testing
import Vision

/// `BackgroundCompositor` with a colour background blends row by row against one rendered row:
/// every output byte must equal `AlphaBlend` against a whole image of that colour, in both
/// formats, at widths around the SIMD step, after switching from an image background and back;
/// `withBackground` still lends the whole colour.
struct BackgroundCompositorTests {
    @Test("a colour background gives AlphaBlend's bytes against a full colour image", arguments: [PixelFormat.rgb888, .xrgb8888])
    func colourRowsMatchAFullBlend(format: PixelFormat) {
        var g = SeededGenerator(seed: 18)
        for (w, h) in [(1, 1), (5, 3), (16, 4), (17, 9), (64, 33)] {
            let frame = ImageBuffer(format: format, width: w, height: h), mask = ImageBuffer(format: .gray8, width: w, height: h)
            let colour = ImageBuffer(format: format, width: w, height: h), expected = ImageBuffer(format: format, width: w, height: h)
            let picture = ImageBuffer(format: format, width: 2 * w, height: 2 * h), out = ImageBuffer(format: format, width: w, height: h)
            let bpp = format.bytesPerPixel(plane: 0)
            frame.withImage { f in mask.withImage { m in colour.withImage { c in expected.withImage { e in
                picture.withImage { p in out.withImage { o in
                    for y in 0..<h {
                        for x in 0..<(w * bpp) { f.luma.row(y)[x] = UInt8.random(in: 0...255, using: &g) }
                        for x in 0..<w { m.luma.row(y)[x] = [0, 255, UInt8.random(in: 0...255, using: &g)][x % 3] }
                    }
                    for y in 0..<(2 * h) { for x in 0..<(2 * w * bpp) { p.luma.row(y)[x] = UInt8(truncatingIfNeeded: x &* 7 &+ y) } }
                    let value: UInt32 = format == .xrgb8888 ? 0xFF00_0000 | 243 << 16 | 236 << 8 | 220 : 220 << 16 | 236 << 8 | 243
                    Fill.run(c.luma, value: value)
                    AlphaBlend.run(foreground: f, background: c, mask: m.luma, destination: e)
                    let compositor = BackgroundCompositor(width: w, height: h, format: format)
                    compositor.setBackground(.image(p))
                    compositor.setBackground(.cream)
                    compositor.composite(frame: f, mask: m.luma, into: o)
                    #expect((0..<h).allSatisfy { y in (0..<(w * bpp)).allSatisfy { o.luma.row(y)[$0] == e.luma.row(y)[$0] } },
                            "\(w)x\(h) \(format)")
                    compositor.withBackground { b in
                        #expect((0..<h).allSatisfy { y in (0..<(w * bpp)).allSatisfy { b.luma.row(y)[$0] == c.luma.row(y)[$0] } })
                    }
                    // Back to an image: the whole buffer is the picture again, not the colour row.
                    compositor.setBackground(.image(p))
                    compositor.composite(frame: f, mask: m.luma, into: o)
                    compositor.withBackground { b in
                        #expect(b.luma.row(h - 1)[0] != c.luma.row(h - 1)[0] || b.luma.row(h - 1)[1] != c.luma.row(h - 1)[1])
                    }
                } }
            } } } }
        }
    }
}
