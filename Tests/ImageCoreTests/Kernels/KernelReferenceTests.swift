import ImageCore
import Testing
import TestSupport

/// The references themselves against independent definitions (float formulas, identities).
@Suite struct KernelReferenceTests {
    static func pixel(_ image: Image, plane: Int = 0, _ x: Int, _ y: Int, _ c: Int = 0) -> Int {
        let p = image.plane(plane)
        return Int(p.row(y)[x * p.bytesPerPixel + c])
    }

    @Test(arguments: [("bt601Limited", YUVMatrix.bt601Limited, 0.299, 0.114, true),
                      ("bt601Full", .bt601Full, 0.299, 0.114, false),
                      ("bt709Limited", .bt709Limited, 0.2126, 0.0722, true)])
    func yuvToRGBMatchesTheFloatFormula(name: String, matrix: YUVMatrix, kr: Double, kb: Double, limited: Bool) {
        let scratch = ImageScratch()
        defer { scratch.keepAlive() }
        // 32×32 I420 covering Y, U, V over their whole ranges (U, V per 2×2 block).
        var rng = SeededGenerator(seed: 601)
        let src = scratch.image(.i420, 32, 32)
        for y in 0..<32 { for x in 0..<32 { src.luma.row(y)[x] = UInt8.random(in: 0...255, using: &rng) } }
        for y in 0..<16 { for x in 0..<16 {
            src.planes.1.row(y)[x] = UInt8(x * 17)
            src.planes.2.row(y)[x] = UInt8(y * 17)
        } }
        let dst = scratch.image(.rgb888, 32, 32)
        YUVToRGB.scalar(src, dst, matrix: matrix)
        let kg = 1 - kr - kb
        var worst = 0.0
        for y in 0..<32 { for x in 0..<32 {
            let yy = Double(src.luma.row(y)[x]), u = Double(src.planes.1.row(y / 2)[x / 2]) - 128
            let v = Double(src.planes.2.row(y / 2)[x / 2]) - 128
            let ys = limited ? (yy - 16) * 255 / 219 : yy
            let cs = limited ? 255.0 / 224 : 1
            let r = ys + 2 * (1 - kr) * cs * v
            let g = ys - 2 * kb * (1 - kb) / kg * cs * u - 2 * kr * (1 - kr) / kg * cs * v
            let b = ys + 2 * (1 - kb) * cs * u
            for (c, f) in [r, g, b].enumerated() {
                let expected = min(max(f, 0), 255)
                worst = max(worst, abs(Double(Self.pixel(dst, x, y, c)) - expected))
            }
        } }
        #expect(worst <= 0.75, "\(name): worst error \(worst)")
    }

    /// The mirrored conversion is the plain conversion mirrored, for both layouts, odd and even widths.
    @Test(arguments: [(PixelFormat.i420, 37), (.i420, 64), (.nv12, 35), (.nv12, 48)])
    func mirroredYUVToRGBIsTheConversionMirrored(format: PixelFormat, width: Int) {
        let scratch = ImageScratch()
        defer { scratch.keepAlive() }
        var rng = SeededGenerator(seed: UInt64(width))
        let h = 6
        let src = scratch.image(format, width, h)
        for p in 0..<format.planeCount {
            let plane = src.plane(p)
            for y in 0..<plane.height { for x in 0..<(plane.width * plane.bytesPerPixel) { plane.row(y)[x] = UInt8.random(in: 0...255, using: &rng) } }
        }
        let plain = scratch.image(.xrgb8888, width, h), expected = scratch.image(.xrgb8888, width, h)
        YUVToRGB.scalar(src, plain, matrix: .bt601Full)
        Mirror.scalar(plain, expected)
        for variant in KernelVariant.allCases {
            let mirrored = scratch.image(.xrgb8888, width, h)
            variant == .scalar ? YUVToRGB.scalar(src, mirrored, matrix: .bt601Full, mirrored: true)
                               : YUVToRGB.simd(src, mirrored, matrix: .bt601Full, mirrored: true)
            var differing = 0
            for y in 0..<h { for x in 0..<(4 * width) where mirrored.luma.row(y)[x] != expected.luma.row(y)[x] { differing += 1 } }
            #expect(differing == 0, "\(format.name) width \(width) \(variant): \(differing) bytes differ")
        }
    }

    @Test func grayOfPrimaries() {
        let scratch = ImageScratch()
        defer { scratch.keepAlive() }
        let src = scratch.image(.xrgb8888, 4, 1)
        let words: [UInt32] = [0xFFFF_FFFF, 0xFF00_0000, 0xFFFF_0000, 0xFF00_FF00]  // white, black, red, green
        for (i, w) in words.enumerated() { UnsafeMutableRawPointer(src.luma.base).storeBytes(of: w, toByteOffset: 4 * i, as: UInt32.self) }
        let dst = scratch.image(.gray8, 4, 1)
        RGBToGray.scalar(src, dst)
        #expect((0..<4).map { Self.pixel(dst, $0, 0) } == [255, 0, (77 * 255 + 128) >> 8, (150 * 255 + 128) >> 8])
    }

    @Test func rgbToI420RoundTripsThroughFullRangeYUV() {
        let scratch = ImageScratch()
        defer { scratch.keepAlive() }
        var rng = SeededGenerator(seed: 420)
        let w = 34, h = 18
        let rgb = scratch.image(.rgb888, w, h)
        // Colour constant over each 2×2 block, so chroma subsampling loses nothing.
        for y in 0..<h { for x in 0..<w / 2 {
            let c = (UInt8.random(in: 20...235, using: &rng), UInt8.random(in: 20...235, using: &rng), UInt8.random(in: 20...235, using: &rng))
            for yy in [y & ~1, y | 1] where yy < h { for xx in [2 * x, 2 * x + 1] {
                let p = rgb.luma.row(yy) + 3 * xx
                p[0] = c.0; p[1] = c.1; p[2] = c.2
            } }
        } }
        let yuv = scratch.image(.i420, w, h)
        RGBToI420.scalar(rgb, yuv)
        let back = scratch.image(.rgb888, w, h)
        YUVToRGB.scalar(yuv, back, matrix: .bt601Full)
        var worst = 0
        for y in 0..<h { for x in 0..<(3 * w) { worst = max(worst, abs(Int(rgb.luma.row(y)[x]) - Int(back.luma.row(y)[x]))) } }
        #expect(worst <= 3)
    }

    @Test func blendRoundsExactlyForEveryForegroundAndMask() {
        let scratch = ImageScratch()
        defer { scratch.keepAlive() }
        // 256×256: fg = x, mask = y, three backgrounds; both variants against the division formula.
        let fg = scratch.gray(256, 256) { x, _ in UInt8(x) }
        let mask = scratch.gray(256, 256) { _, y in UInt8(y) }
        for bgValue in [0, 77, 255] {
            let bg = scratch.gray(256, 256) { x, y in UInt8((x * 7 + y * 13 + bgValue) & 255) }
            for variant in KernelVariant.allCases {
                let out = scratch.image(.gray8, 256, 256)
                let run = variant == .scalar ? AlphaBlend.scalar : AlphaBlend.simd
                run(fg, bg, mask.luma, out)
                var bad = 0
                for y in 0..<256 { for x in 0..<256 {
                    let b = Self.pixel(bg, x, y)
                    let exact = (Double(x * y + b * (255 - y)) / 255).rounded()
                    if Double(Self.pixel(out, x, y)) != exact { bad += 1 }
                } }
                #expect(bad == 0, "\(variant): \(bad) pixels differ from round((fg*m + bg*(255-m)) / 255)")
            }
        }
    }

    @Test(arguments: [PixelFormat.gray8, .rgb888, .xrgb8888, .i420])
    func rotationsCompose(format: PixelFormat) {
        let scratch = ImageScratch()
        defer { scratch.keepAlive() }
        var rng = SeededGenerator(seed: 90)
        let w = 37, h = 22
        let src = StridedImage(format: format, width: w, height: h, slack: 3, random: &rng)
        defer { withExtendedLifetime(src) {} }
        func rotated(_ image: Image, _ r: Rotation) -> Image {
            let s = r.rotatedSize(width: image.width, height: image.height)
            let out = scratch.image(format, s.width, s.height)
            Rotate.simd(image, out, r)
            return out
        }
        let r90 = rotated(src.image, .degrees90)
        // Clockwise: the source's bottom-left pixel is the destination's top-left.
        #expect(Self.pixel(r90, 0, 0) == Self.pixel(src.image, 0, h - 1))
        #expect(Self.pixel(r90, h - 1, 0) == Self.pixel(src.image, 0, 0))
        let full = rotated(rotated(rotated(r90, .degrees90), .degrees90), .degrees90)
        let back = rotated(r90, .degrees270)
        let r180 = rotated(src.image, .degrees180)
        let twice90 = rotated(r90, .degrees90)
        for plane in 0..<format.planeCount {
            let p = src.image.plane(plane)
            for y in 0..<p.height { for x in 0..<p.rowBytes {
                let v = p.row(y)[x]
                let f = full.plane(plane).row(y)[x], b = back.plane(plane).row(y)[x]
                if f != v || b != v { Issue.record("rotation did not compose at plane \(plane) (\(x), \(y))"); return }
            } }
            for y in 0..<p.height { for x in 0..<(p.rowBytes) where r180.plane(plane).row(y)[x] != twice90.plane(plane).row(y)[x] {
                Issue.record("180° differs from 2 × 90°"); return
            } }
        }
    }

    @Test(arguments: [PixelFormat.gray8, .rgb888, .xrgb8888])
    func mirrorFlipsRows(format: PixelFormat) {
        let scratch = ImageScratch()
        defer { scratch.keepAlive() }
        var rng = SeededGenerator(seed: 7)
        let src = StridedImage(format: format, width: 45, height: 3, slack: 1, random: &rng)
        defer { withExtendedLifetime(src) {} }
        let out = scratch.image(format, 45, 3)
        Mirror.simd(src.image, out)
        let bpp = format.bytesPerPixel(plane: 0)
        for y in 0..<3 { for x in 0..<45 { for c in 0..<bpp {
            #expect(Self.pixel(out, x, y, c) == Self.pixel(src.image, 44 - x, y, c))
        } } }
    }

    @Test(arguments: KernelVariant.allCases)
    func resizingAConstantImageKeepsIt(variant: KernelVariant) {
        let scratch = ImageScratch()
        defer { scratch.keepAlive() }
        for (w, h, dw, dh) in [(64, 48, 40, 30), (17, 9, 33, 20), (640, 480, 213, 160)] {
            let src = scratch.gray(w, h) { _, _ in 173 }
            for area in [false, true] {
                let out = scratch.image(.gray8, dw, dh)
                switch (area, variant) {
                case (false, .scalar): ResizeBilinear.scalar(src.luma, out.luma)
                case (false, .simd): ResizeBilinear.simd(src.luma, out.luma)
                case (true, .scalar): ResizeArea.scalar(src.luma, out.luma)
                case (true, .simd): ResizeArea.simd(src.luma, out.luma)
                }
                for y in 0..<dh { for x in 0..<dw where Self.pixel(out, x, y) != 173 {
                    Issue.record("area \(area) \(w)×\(h)→\(dw)×\(dh) changed a constant at (\(x), \(y))"); return
                } }
            }
        }
    }

    @Test func areaHalvingIsTheRoundedBlockMean() {
        let scratch = ImageScratch()
        defer { scratch.keepAlive() }
        var rng = SeededGenerator(seed: 22)
        let src = scratch.gray(34, 10) { _, _ in UInt8.random(in: 0...255, using: &rng) }
        let out = scratch.image(.gray8, 17, 5)
        ResizeArea.simd(src.luma, out.luma)
        for y in 0..<5 { for x in 0..<17 {
            let s = src
            let sum = Self.pixel(s, 2 * x, 2 * y) + Self.pixel(s, 2 * x + 1, 2 * y) + Self.pixel(s, 2 * x, 2 * y + 1) + Self.pixel(s, 2 * x + 1, 2 * y + 1)
            #expect(Self.pixel(out, x, y) == (sum + 2) / 4)
        } }
    }

    @Test func areaThirdWeighsPartialPixels() {
        let scratch = ImageScratch()
        defer { scratch.keepAlive() }
        // 3 → 2 pixels: out0 = (2*p0 + p1)/3, out1 = (p1 + 2*p2)/3 (rounded).
        let src = scratch.gray(3, 1) { x, _ in [10, 40, 200][x] }
        let out = scratch.image(.gray8, 2, 1)
        ResizeArea.scalar(src.luma, out.luma)
        #expect(Self.pixel(out, 0, 0) == (2 * 10 + 40 + 1) / 3)
        #expect(Self.pixel(out, 1, 0) == (40 + 2 * 200 + 1) / 3)
    }

    @Test func bilinearSameSizeIsIdentityAndUpscaleInterpolates() {
        let scratch = ImageScratch()
        defer { scratch.keepAlive() }
        var rng = SeededGenerator(seed: 5)
        let src = scratch.gray(23, 7) { _, _ in UInt8.random(in: 0...255, using: &rng) }
        let same = scratch.image(.gray8, 23, 7)
        ResizeBilinear.simd(src.luma, same.luma)
        for y in 0..<7 { for x in 0..<23 { #expect(Self.pixel(same, x, y) == Self.pixel(src, x, y)) } }
        // 2 → 4 pixels: centres at -0.25, 0.25, 0.75, 1.25 → a, a+(b-a)/4, a+3(b-a)/4, b.
        let two = scratch.gray(2, 1) { x, _ in x == 0 ? 0 : 200 }
        let four = scratch.image(.gray8, 4, 1)
        ResizeBilinear.scalar(two.luma, four.luma)
        #expect((0..<4).map { Self.pixel(four, $0, 0) } == [0, 50, 150, 200])
    }

    @Test func cropCopiesTheViewOfEveryPlane() {
        let scratch = ImageScratch()
        defer { scratch.keepAlive() }
        var rng = SeededGenerator(seed: 11)
        let src = StridedImage(format: .i420, width: 41, height: 29, slack: 5, random: &rng)
        defer { withExtendedLifetime(src) {} }
        let view = src.image.cropped(x: 6, y: 4, width: 19, height: 13)
        let out = scratch.image(.i420, 19, 13)
        CopyPlane.simd(view, out)
        #expect(Self.pixel(out, 0, 0) == Self.pixel(src.image, 6, 4))
        #expect(Self.pixel(out, 18, 12) == Self.pixel(src.image, 24, 16))
        #expect(Self.pixel(out, plane: 1, 0, 0) == Self.pixel(src.image, plane: 1, 3, 2))
        #expect(Self.pixel(out, plane: 2, 9, 6) == Self.pixel(src.image, plane: 2, 12, 8))
    }

    @Test(arguments: [PixelFormat.gray8, .rgb888, .xrgb8888])
    func fillWritesTheValueBytesOnlyInsideTheRect(format: PixelFormat) {
        let scratch = ImageScratch()
        defer { scratch.keepAlive() }
        let image = scratch.image(format, 40, 6)
        let plane = image.luma
        Fill.simd(plane.cropped(x: 3, y: 1, width: 35, height: 4), value: 0x4433_2211)
        let bpp = format.bytesPerPixel(plane: 0)
        for y in 0..<6 { for x in 0..<40 { for c in 0..<bpp {
            let inside = x >= 3 && x < 38 && y >= 1 && y < 5
            #expect(Self.pixel(image, x, y, c) == (inside ? 0x11 * (c + 1) : 0))
        } } }
    }
}
