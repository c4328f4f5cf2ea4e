import ImageCore
import ImageFiles
import Testing

/// The decode budget: a JPEG over it is decoded downscaled inside TurboJPEG, a PNG/PPM over it is
/// refused from its header before any pixel memory is allocated.
@Suite struct DecodeBudgetTests {
    /// CRC-32 (IEEE, reflected) as PNG chunks use it.
    func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }

    /// A tiny real PNG whose IHDR claims `width`×`height` at 16 bits (the issue's 173-byte bomb).
    func pngClaiming(width: UInt32, height: UInt32) throws -> [UInt8] {
        let picture = testPicture(width: 4, height: 4)
        return try picture.withImage { pictureImage in
            var png = try PNGCodec.encode(pictureImage)
            for (i, v) in [width, height].enumerated() {
                for k in 0..<4 { png[16 + 4 * i + k] = UInt8(truncatingIfNeeded: v >> (24 - 8 * k)) }
            }
            png[24] = 16
            let crc = crc32(png[12..<29])
            for k in 0..<4 { png[29 + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k)) }
            return png
        }
    }

    @Test func aPNGClaimingAHugeSizeIsRefusedFromItsHeader() throws {
        let bomb = try pngClaiming(width: 12000, height: 8333)
        do {
            _ = try ImageDecoder().decode(bytes: bomb, name: "bomb.png", as: .rgb888)
            Issue.record("decoded a 100 MP PNG")
        } catch {
            guard case .unsupported(let path, let reason) = error else { Issue.record("\(error)"); return }
            #expect(path == "bomb.png" && reason.contains("12000x8333") && reason.contains("budget"), "\(reason)")
        }
        // Within the budget the same trick is a truncated file, as before.
        let small = try pngClaiming(width: 40, height: 30)
        #expect(throws: ImageFileError.self) { try ImageDecoder().decode(bytes: small, name: "s.png", as: .rgb888) }
    }

    @Test func aPPMOverTheBudgetIsRefusedFromItsHeader() throws {
        let ppm = Array("P6\n5000 4000\n255\n".utf8) + [UInt8](repeating: 0, count: 16)
        #expect(throws: ImageFileError.unsupported(path: "big.ppm", reason: "image size 5000x4000 is over the decode budget of 16 MP")) {
            try ImageDecoder().decode(bytes: ppm, name: "big.ppm", as: .rgb888)
        }
    }

    /// A 640×480 4:2:0 JPEG of the test picture (the buffer kept alive while TurboJPEG reads it).
    static func jpeg640x480() throws -> [UInt8] {
        let picture = testPicture(width: 640, height: 480)
        return try picture.withImage { pictureImage in
            return try JPEGCodec().encode(pictureImage, quality: 95, subsampling: .s420)
        }
    }

    @Test(arguments: [PixelFormat.rgb888, .gray8, .i420, .xrgb8888])
    func aJPEGOverTheBudgetIsDecodedDownscaledTo(_ format: PixelFormat) throws {
        let jpeg = try Self.jpeg640x480()
        // 307,200 pixels against a budget of 80,000: TurboJPEG's 1/2 gives 320×240 = 76,800 (5/8 would be 120,000).
        let small = try ImageDecoder(maximumPixels: 80_000).decode(bytes: jpeg, name: "a.jpg", as: format)
        #expect(small.width == 320 && small.height == 240, "\(format): \(small.width)x\(small.height)")
    }

    @Test func aJPEGOverTheBudgetIsDecodedDownscaled() throws {
        let jpeg = try Self.jpeg640x480()
        #expect(JPEGCodec.scaledSize(width: 640, height: 480, maximumPixels: 80_000)! == (320, 240))
        #expect(JPEGCodec.scaledSize(width: 640, height: 480, maximumPixels: 307_200)! == (640, 480))
        #expect(JPEGCodec.scaledSize(width: 10_000, height: 7_500, maximumPixels: ImageDecoder.defaultMaximumPixels)! == (3750, 2813))
        // The downscaled picture is the picture: close to a box-filtered full decode.
        let full = try ImageDecoder().decode(bytes: jpeg, name: "a.jpg", as: .gray8)
        try full.withImage { fullImage in
            let half = try ImageDecoder(maximumPixels: 80_000).decode(bytes: jpeg, name: "a.jpg", as: .gray8)
            try half.withImage { halfImage in
                var diff = 0
                for y in 0..<240 {
                    for x in 0..<320 {
                        let f = fullImage.luma, s = halfImage.luma
                        let avg = (Int(f.row(2 * y)[2 * x]) + Int(f.row(2 * y)[2 * x + 1]) + Int(f.row(2 * y + 1)[2 * x]) + Int(f.row(2 * y + 1)[2 * x + 1]) + 2) / 4
                        diff += abs(avg - Int(s.row(y)[x]))
                    }
                }
                #expect(Double(diff) / Double(320 * 240) < 3, "mean difference \(Double(diff) / Double(320 * 240))")
                // Even 1/8 over the budget: refused before decoding.
                #expect(throws: ImageFileError.self) { try ImageDecoder(maximumPixels: 1000).decode(bytes: jpeg, name: "a.jpg", as: .rgb888) }
            }
            }
    }
}

/// Inputs the long-run fuzz (Fuzz/run) found trapping.
@Suite struct FuzzFindingsTests {
    /// A PGM sample above its maxval overflowed the 8-bit scaling (a trap); it now reads as maxval.
    @Test func aPNMSampleAboveMaxvalIsClamped() throws {
        let pgm = Array("P5\n2 1\n100\n".utf8) + [200, 50]
        let image = try ImageDecoder().decode(bytes: pgm, name: "x.pgm", as: .gray8)
        try image.withImage { imageImage in
            #expect(imageImage.luma.row(0)[0] == 255 && imageImage.luma.row(0)[1] == 128)
            let ppm16 = Array("P6\n1 1\n1000\n".utf8) + [0xFF, 0xFF, 0x01, 0xF4, 0, 0]
            let rgb = try ImageDecoder().decode(bytes: ppm16, name: "x.ppm", as: .rgb888)
            rgb.withImage { rgbImage in
                #expect(rgbImage.luma.row(0)[0] == 255 && rgbImage.luma.row(0)[1] == 128 && rgbImage.luma.row(0)[2] == 0)
            }
            }
    }
}
