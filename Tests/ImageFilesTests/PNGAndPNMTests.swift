import ImageCore
import ImageFiles
import Testing

@Suite struct PNGAndPNMTests {
    @Test(arguments: [PixelFormat.gray8, .rgb888, .xrgb8888])
    func pngRoundTripIsLossless(format: PixelFormat) throws {
        let rgb = testPicture(width: 37, height: 23)
        let src: ImageBuffer
        if format == .rgb888 { src = rgb } else {
            src = try ImageDecoder().decode(bytes: rgb.withImage { PNMCodec.encode($0) }, name: "p.ppm", as: format)
        }
        let png = try src.withImage { try PNGCodec.encode($0) }
        let back = try ImageDecoder().decode(bytes: png, name: "m.png", as: format == .gray8 ? .gray8 : .rgb888)
        let difference = back.withImage { backImage in
            (format == .xrgb8888 ? rgb : src).withImage { meanAbsDiff($0, backImage) }
        }
        #expect(difference == 0)
    }

    @Test func truncatedPNGIsAnError() throws {
        let png = try testPicture(width: 20, height: 20).withImage { try PNGCodec.encode($0) }
        for cut in [8, 20, 40, png.count / 2, png.count - 13] {
            #expect(throws: ImageFileError.self) {
                _ = try ImageDecoder().decode(bytes: Array(png.prefix(cut)), name: "t.png", as: .rgb888)
            }
        }
    }

    @Test func pnmRoundTripAndErrors() throws {
        let src = testPicture(width: 5, height: 3)
        try src.withImage { srcImage in
            let ppm = PNMCodec.encode(srcImage)
            let back = try PNMCodec.decode(ppm, name: "a.ppm")
            try back.withImage { backImage in
                #expect(meanAbsDiff(srcImage, backImage) == 0)
                #expect(throws: ImageFileError.self) { _ = try PNMCodec.decode(Array(ppm.dropLast()), name: "a.ppm") }
                #expect(throws: ImageFileError.self) { _ = try PNMCodec.decode(Array("P6\n-1 2\n255\n".utf8), name: "b.ppm") }
                let comment = Array("P5 # a comment\n2 1\n255\n".utf8) + [7, 9]
                let g = try PNMCodec.decode(comment, name: "c.pgm")
                g.withImage { gImage in
                    #expect(gImage.luma.row(0)[1] == 9)
                }
                }
        }
    }

    @Test func unknownAndEmptyFilesAreTypedErrors() {
        #expect(throws: ImageFileError.self) { _ = try ImageDecoder().decode(bytes: Array("hello".utf8), name: "x.txt", as: .rgb888) }
        #expect(throws: ImageFileError.self) { _ = try ImageDecoder().decode(bytes: [], name: "e.jpg", as: .rgb888) }
        #expect(throws: ImageFileError.self) { _ = try ImageDecoder.decode(path: "/nonexistent/a.jpg", as: .rgb888) }
    }

    @Test func atomicWriteLeavesNoTemporaryFiles() throws {
        let dir = temporaryDirectory()
        let path = dir + "/out.png"
        try testPicture(width: 8, height: 8).withImage { try PNGWriter.write($0, to: path) }
        try testPicture(width: 9, height: 9).withImage { try PNGWriter.write($0, to: path) }
        #expect(try ImageDecoder.decode(path: path, as: .rgb888).width == 9)
        #expect(!fileExists(dir + "/.out.png.tmp"))
        #expect(throws: ImageFileError.self) { try FileIO.writeAtomically([1, 2, 3], to: dir + "/missing/x.bin") }
    }
}
