/// Reads the orientation tag from a JPEG's APP1 "Exif" segment. Every offset is bounds-checked;
/// anything malformed yields `.up` (a bad EXIF block never makes a good image unreadable).
public enum EXIF {
    public static func orientation(ofJPEG bytes: [UInt8]) -> Orientation {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .up }
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return .up }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }                    // fill byte
            if marker == 0xD9 || marker == 0xDA { return .up }        // end of image / start of scan
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { return .up }
            let start = i + 4, end = i + 2 + length
            if marker == 0xE1, end - start >= 14,
               bytes[start] == 0x45, bytes[start + 1] == 0x78, bytes[start + 2] == 0x69, bytes[start + 3] == 0x66,
               bytes[start + 4] == 0, bytes[start + 5] == 0 {
                return tiffOrientation(bytes, from: start + 6, to: end) ?? .up
            }
            i = end
        }
        return .up
    }

    /// Orientation from a TIFF structure occupying `bytes[from..<to]`.
    static func tiffOrientation(_ b: [UInt8], from base: Int, to end: Int) -> Orientation? {
        guard end - base >= 8 else { return nil }
        let little: Bool
        if b[base] == 0x49 && b[base + 1] == 0x49 { little = true }
        else if b[base] == 0x4D && b[base + 1] == 0x4D { little = false }
        else { return nil }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, base + o + 2 <= end else { return nil }
            let a = Int(b[base + o]), c = Int(b[base + o + 1])
            return little ? a | c << 8 : a << 8 | c
        }
        func u32(_ o: Int) -> Int? {
            guard let lo = u16(little ? o : o + 2), let hi = u16(little ? o + 2 : o) else { return nil }
            return lo | hi << 16
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for k in 0..<min(count, 512) {
            let entry = ifd + 2 + k * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                guard let type = u16(entry + 2), type == 3, let value = u16(entry + 8) else { return nil }
                return Orientation(rawValue: UInt16(truncatingIfNeeded: value))
            }
        }
        return nil
    }
}
