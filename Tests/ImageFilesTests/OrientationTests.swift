import ImageCore
import ImageFiles
import Testing

/// Inserts an APP1 Exif segment with the given orientation right after SOI.
func withEXIFOrientation(_ jpeg: [UInt8], _ value: UInt16, bigEndian: Bool) -> [UInt8] {
    var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D, 0, 42, 0, 0, 0, 8] : [0x49, 0x49, 42, 0, 8, 0, 0, 0]
    func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    tiff += u16(1)                                         // one IFD entry
    tiff += u16(0x0112) + u16(3) + (bigEndian ? [0, 0, 0, 1] : [1, 0, 0, 0]) + u16(value) + [0, 0]
    tiff += [0, 0, 0, 0]                                   // no next IFD
    let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
    let len = payload.count + 2
    return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(len >> 8), UInt8(len & 0xFF)] + payload + jpeg.dropFirst(2)
}

@Suite struct OrientationTests {
    @Test(arguments: Orientation.allCases, [false, true])
    func exifOrientationIsHonoured(orientation: Orientation, bigEndian: Bool) throws {
        // A 4x2 grey picture with distinct blocks (JPEG-safe: 8x8 blocks, 32x16 px).
        let src = ImageBuffer(format: .gray8, width: 32, height: 16)
        return try src.withImage { srcImage in
            let p = srcImage.luma
            for y in 0..<16 { for x in 0..<32 { p.row(y)[x] = UInt8(20 + 30 * (x / 8) + 120 * (y / 8)) } }
            let codec = JPEGCodec()
            let jpeg = withEXIFOrientation(try codec.encode(srcImage, quality: 100), orientation.rawValue, bigEndian: bigEndian)
            #expect(EXIF.orientation(ofJPEG: jpeg) == orientation)
            let out = try ImageDecoder().decode(bytes: jpeg, name: "o.jpg", as: .gray8)
            return out.withImage { outImage in
                let expected = orientation.apply(to: src)
                return expected.withImage { expectedImage in
                    #expect(out.width == (orientation.swapsAxes ? 16 : 32))
                    #expect(out.width == expected.width && out.height == expected.height)
                    // Block centres match the expected transform.
                    for by in stride(from: 4, to: out.height, by: 8) {
                        for bx in stride(from: 4, to: out.width, by: 8) {
                            let a = Int(outImage.luma.row(by)[bx]), b = Int(expectedImage.luma.row(by)[bx])
                            #expect(abs(a - b) <= 3)
                        }
                    }
                }
            }
        }
    }

    @Test func orientationMapsPixelsExactly() {
        let src = ImageBuffer(format: .rgb888, width: 3, height: 2)
        src.withImage { srcImage in
            let p = srcImage.luma
            for y in 0..<2 { for x in 0..<3 { for c in 0..<3 { p.row(y)[3 * x + c] = UInt8(10 * y + x) } } }
            let r = Orientation.right.apply(to: src)           // 90° clockwise: top row becomes right column
            r.withImage { rImage in
                #expect(r.width == 2 && r.height == 3)
                #expect(rImage.luma.row(0)[0] == 10 && rImage.luma.row(0)[3] == 0)
                #expect(rImage.luma.row(2)[3] == 2)
                let l = Orientation.left.apply(to: src)
                l.withImage { lImage in
                    #expect(lImage.luma.row(0)[0] == 2 && lImage.luma.row(2)[3] == 10)
                }
            }
        }
    }

    @Test func malformedEXIFIsIgnored() {
        var rng = UInt64(1)
        let base = withEXIFOrientation([0xFF, 0xD8, 0xFF, 0xD9], 6, bigEndian: false)
        #expect(EXIF.orientation(ofJPEG: base) == .right)    // the intact block is read
        var truncatedReadAsUp = 0
        for i in 4..<base.count {
            var bad = base
            rng = rng &* 6364136223846793005 &+ 1
            bad[i] = UInt8(truncatingIfNeeded: rng >> 33)
            _ = EXIF.orientation(ofJPEG: bad)                 // must not trap
            if EXIF.orientation(ofJPEG: Array(base.prefix(i))) == .up { truncatedReadAsUp += 1 }
        }
        // A block cut before its orientation entry is ignored: the picture is taken as stored.
        #expect(truncatedReadAsUp > 0)
    }
}
