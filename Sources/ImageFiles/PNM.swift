import ImageCore

/// Binary PGM (P5) and PPM (P6) images, for tests and simple tooling.
public enum PNMCodec {
    /// Decodes P5 (to .gray8) or P6 (to .rgb888); 16-bit samples are scaled to 8 bits.
    /// An image of more than `maximumPixels` is refused from its header, before any pixel memory.
    public static func decode(_ b: [UInt8], name: String,
                              maximumPixels: Int = ImageDecoder.defaultMaximumPixels) throws(ImageFileError) -> ImageBuffer {
        guard b.count >= 2, b[0] == 0x50, b[1] == 0x35 || b[1] == 0x36 else {
            throw .corrupt(path: name, reason: "not a binary PGM/PPM (P5/P6)")
        }
        let channels = b[1] == 0x36 ? 3 : 1
        var i = 2
        func skipSpaceAndComments() {
            while i < b.count {
                if b[i] == 0x23 { while i < b.count && b[i] != 0x0A { i += 1 } }
                else if b[i] == 0x20 || (0x09...0x0D).contains(b[i]) { i += 1 }
                else { break }
            }
        }
        func number() throws(ImageFileError) -> Int {
            skipSpaceAndComments()
            var v = 0, digits = 0
            while i < b.count, (0x30...0x39).contains(b[i]), digits < 9 {
                v = v * 10 + Int(b[i] - 0x30); i += 1; digits += 1
            }
            if digits == 0 { throw .corrupt(path: name, reason: "bad PNM header") }
            return v
        }
        let w = try number(), h = try number(), maxval = try number()
        guard i < b.count, b[i] == 0x20 || (0x09...0x0D).contains(b[i]) else { throw .corrupt(path: name, reason: "bad PNM header") }
        i += 1
        guard w > 0, h > 0, (1...65535).contains(maxval) else {
            throw .corrupt(path: name, reason: "bad PNM size \(w)x\(h) or maxval \(maxval)")
        }
        guard w * h <= maximumPixels else {
            throw .unsupported(path: name, reason: "image size \(w)x\(h) is over the decode budget of \(maximumPixels / 1_000_000) MP")
        }
        let bps = maxval > 255 ? 2 : 1
        let need = w * h * channels * bps
        guard b.count - i >= need else { throw .corrupt(path: name, reason: "truncated: \(b.count - i) of \(need) pixel bytes") }
        let out = ImageBuffer(format: channels == 3 ? .rgb888 : .gray8, width: w, height: h)
        out.withImage { img in
            let p = img.luma
            for y in 0..<h {
                let row = p.row(y)
                for x in 0..<(w * channels) {
                    let o = i + (y * w * channels + x) * bps
                    // A sample above maxval (invalid, found by Fuzz/run) is read as maxval, not a trap.
                    if bps == 1 {
                        row[x] = maxval == 255 ? b[o] : UInt8((min(Int(b[o]), maxval) * 255 + maxval / 2) / maxval)
                    } else {
                        let v = min(Int(b[o]) << 8 | Int(b[o + 1]), maxval)
                        row[x] = UInt8((v * 255 + maxval / 2) / maxval)
                    }
                }
            }
        }
        return out
    }

    /// Encodes Gray8 as P5 or RGB888 as P6.
    public static func encode(_ image: Image) -> [UInt8] {
        precondition(image.format == .gray8 || image.format == .rgb888, "PNM encodes gray8 or rgb888")
        let channels = image.format == .rgb888 ? 3 : 1
        var out = Array("P\(channels == 3 ? 6 : 5)\n\(image.width) \(image.height)\n255\n".utf8)
        out.reserveCapacity(out.count + image.width * image.height * channels)
        let p = image.luma
        for y in 0..<image.height {
            out.append(contentsOf: UnsafeBufferPointer(start: p.row(y), count: image.width * channels))
        }
        return out
    }
}
