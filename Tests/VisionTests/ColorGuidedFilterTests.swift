import ImageCore
import TestSupport
import Testing
import Vision

/// The still path's colour guided filter streamed in rows (`ColorGuidedFilter.run`) against its
/// whole-image form (`runWhole`, the arithmetic before streaming): the same bytes, at the sizes
/// stills have, and a memory that follows the working width, not the area.
@Suite struct ColorGuidedFilterTests {
    /// A frame with colour edges, gradients and noise, and a working-size mask that is a soft
    /// ellipse with noisy edges (what the models' upsampled mask looks like).
    static func inputs(_ format: PixelFormat, width: Int, height: Int, maskWidth: Int, maskHeight: Int,
                       seed: UInt64) -> (frame: ImageBuffer, mask: ImageBuffer) {
        var g = SeededGenerator(seed: seed)
        // RGB888 or XRGB8888 drawn directly (XRGB as B, G, R, X bytes), I420 converted from RGB888.
        let drawn = ImageBuffer(format: format == .xrgb8888 ? .xrgb8888 : .rgb888, width: width, height: height)
        drawn.withImage { image in
            let p = image.planes.0, bpp = p.bytesPerPixel
            let (ri, bi) = bpp == 4 ? (2, 0) : (0, 2)
            for y in 0..<height {
                let row = p.row(y)
                for x in 0..<width {
                    let inside = (x - width / 2) * (x - width / 2) * 4 + (y - height / 3) * (y - height / 3) * 9 < width * width
                    let noise = Int.random(in: -12...12, using: &g)
                    row[bpp * x + ri] = UInt8(clamping: (inside ? 200 : x * 255 / width) + noise)
                    row[bpp * x + 1] = UInt8(clamping: (inside ? 150 : y * 255 / height) + noise)
                    row[bpp * x + bi] = UInt8(clamping: (inside ? 120 : 60 + (x + y) % 97) + noise)
                }
            }
        }
        let frame: ImageBuffer
        if format == .i420 {
            frame = ImageBuffer(format: .i420, width: width, height: height)
            drawn.withImage { src in frame.withImage { dst in RGBToI420.run(src, dst) } }
        } else {
            frame = drawn
        }
        let mask = ImageBuffer(format: .gray8, width: maskWidth, height: maskHeight)
        mask.withImage { image in
            let p = image.luma
            for y in 0..<maskHeight {
                for x in 0..<maskWidth {
                    let dx = Double(x - maskWidth / 2) / Double(maskWidth), dy = Double(y - maskHeight / 3) / Double(maskHeight)
                    let d = (dx * dx * 4 + dy * dy * 9).squareRoot()
                    let v = (1.2 - d) * 5 * 255 + Double(Int.random(in: -30...30, using: &g))
                    p.row(y)[x] = UInt8(clamping: Int(min(max(v, 0), 255)))
                }
            }
        }
        return (frame, mask)
    }

    /// Both forms on one input; the number of differing output bytes and how many are not 0 or 255.
    static func compare(_ format: PixelFormat, width: Int, height: Int, maskWidth: Int, maskHeight: Int,
                        radius: Int, seed: UInt64) -> (differing: Int, soft: Int) {
        let (frame, mask) = inputs(format, width: width, height: height, maskWidth: maskWidth, maskHeight: maskHeight, seed: seed)
        let streamed = ImageBuffer(format: .gray8, width: width, height: height)
        let whole = ImageBuffer(format: .gray8, width: width, height: height)
        frame.withImage { f in
            mask.withImage { m in
                streamed.withImage { ColorGuidedFilter.run(frame: f, mask: m.luma, destination: $0.luma, radius: radius, epsilon: 0.0025) }
                whole.withImage { ColorGuidedFilter.runWhole(frame: f, mask: m.luma, destination: $0.luma, radius: radius, epsilon: 0.0025) }
            }
        }
        var differing = 0, soft = 0
        streamed.withImage { s in
            whole.withImage { w in
                for y in 0..<height {
                    for x in 0..<width {
                        if s.luma.row(y)[x] != w.luma.row(y)[x] { differing += 1 }
                        if s.luma.row(y)[x] != 0 && s.luma.row(y)[x] != 255 { soft += 1 }
                    }
                }
            }
        }
        return (differing, soft)
    }

    /// Still sizes: the kiosk's dev-board still (the 512×512 demo portrait, filtered at its own
    /// size, radius 5 as `PersonSegmenter` picks it) and a 3-megapixel camera still filtered at the
    /// 800×600 working size (radius 8).
    @Test(arguments: [(PixelFormat.rgb888, 512, 512, 512, 512, 5), (.i420, 2028, 1520, 800, 600, 8)])
    func streamedEqualsWholeAtStillSizes(_ format: PixelFormat, _ width: Int, _ height: Int, _ mw: Int, _ mh: Int, _ radius: Int) {
        let r = Self.compare(format, width: width, height: height, maskWidth: mw, maskHeight: mh, radius: radius, seed: 11)
        #expect(r.differing == 0)
        #expect(r.soft > width * height / 100, "the filter did refine edges (not a flat mask)")
    }

    /// Borders: windows wider and taller than the working image, one-row and one-pixel masks, odd sizes.
    @Test(arguments: [(PixelFormat.xrgb8888, 15, 7, 7, 3, 4), (.rgb888, 2, 2, 1, 1, 2), (.i420, 40, 2, 20, 1, 3),
                      (.i420, 64, 48, 33, 25, 2), (.rgb888, 9, 31, 9, 31, 0)])
    func streamedEqualsWholeAtTheBorders(_ format: PixelFormat, _ width: Int, _ height: Int, _ mw: Int, _ mh: Int, _ radius: Int) {
        #expect(Self.compare(format, width: width, height: height, maskWidth: mw, maskHeight: mh, radius: radius, seed: 5).differing == 0)
    }

    /// The still's filter memory: the streamed form holds 1.15 MiB at an 800×600 working size
    /// where the whole form held 18 planes (33 MiB); at the 512×512 demo still 0.5 MiB against 18 MiB.
    @Test func streamedMemoryFollowsTheWidth() {
        let still = ColorGuidedFilter.streamingByteCount(width: 800, height: 600, radius: 8)
        #expect(still < 1_258_291)                              // 1.2 MiB
        #expect(still * 25 < 18 * 800 * 600 * 4)
        let demo = ColorGuidedFilter.streamingByteCount(width: 512, height: 512, radius: 5)
        #expect(demo < 600_000)
        // Taller images cost nothing more.
        #expect(ColorGuidedFilter.streamingByteCount(width: 800, height: 6000, radius: 8) == still)
    }
}
