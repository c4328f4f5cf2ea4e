import ImageCore
import ImageFiles
import TestSupport
import Testing

@Suite struct JPEGTests {
    let codec = JPEGCodec()
    let decoder = ImageDecoder()

    @Test(arguments: [(64, 48), (33, 17), (641, 479)])
    func rgbRoundTripIsClose(width: Int, height: Int) throws {
        let src = testPicture(width: width, height: height)
        try src.withImage { srcImage in
            let jpeg = try codec.encode(srcImage, quality: 95, subsampling: .s444)
            let back = try decoder.decode(bytes: jpeg, name: "mem.jpg", as: .rgb888)
            back.withImage { backImage in
                #expect(back.width == width && back.height == height)
                #expect(meanAbsDiff(srcImage, backImage) < 4)
            }
        }
    }

    @Test func encodesStraightFromYUVPlanes() throws {
        let src = testPicture(width: 97, height: 65)
        try src.withImage { srcImage in
            let jpeg = try codec.encode(srcImage, quality: 95)
            let yuv = try decoder.decode(bytes: jpeg, name: "a.jpg", as: .i420)
            try yuv.withImage { yuvImage in
                #expect(yuv.format == .i420)
                // Re-encode from the planes and decode again: the planes survive within JPEG error.
                let again = try codec.encode(yuvImage, quality: 95)
                let yuv2 = try decoder.decode(bytes: again, name: "b.jpg", as: .i420)
                yuv2.withImage { yuv2Image in
                    #expect(meanAbsDiff(yuvImage, yuv2Image) < 2)
                }
                }
                }
    }

    @Test func nonYUV420JPEGsStillDecodeToI420() throws {
        let src = testPicture(width: 40, height: 30)
        try src.withImage { srcImage in
            let jpeg444 = try codec.encode(srcImage, quality: 95, subsampling: .s444)
            let viaRGB = try decoder.decode(bytes: jpeg444, name: "x.jpg", as: .i420)
            #expect(viaRGB.width == 40 && viaRGB.height == 30)
            let gray = try decoder.decode(bytes: jpeg444, name: "x.jpg", as: .gray8).withImage { try codec.encode($0) }
            let grayYUV = try decoder.decode(bytes: gray, name: "g.jpg", as: .i420)
            grayYUV.withImage { grayYUVImage in
                #expect(grayYUVImage.plane(1).row(3)[5] == 128)
            }
        }
    }

    @Test func truncatedAndCorruptJPEGsAreTypedErrorsNamingTheFile() throws {
        let jpeg = try testPicture(width: 64, height: 64).withImage { try codec.encode($0, quality: 90) }
        for cut in stride(from: 3, to: jpeg.count, by: max(1, jpeg.count / 40)) {
            #expect(throws: ImageFileError.self) {
                _ = try decoder.decode(bytes: Array(jpeg.prefix(cut)), name: "cut.jpg", as: .rgb888)
            }
        }
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            var bad = jpeg
            for _ in 0..<8 { bad[2 + Int(rng.next() % UInt64(bad.count - 2))] = UInt8(truncatingIfNeeded: rng.next()) }
            // Either a typed error or a decoded image of the header's size; never a crash.
            if let img = try? decoder.decode(bytes: bad, name: "bad.jpg", as: .i420) { #expect(img.width > 0) }
        }
        do {
            _ = try decoder.decode(bytes: Array(jpeg.prefix(jpeg.count / 2)), name: "half.jpg", as: .rgb888)
            Issue.record("a half JPEG decoded")
        } catch {
            #expect(error.path == "half.jpg")
            #expect(error.description.hasPrefix("half.jpg: "))
        }
    }
}
