import ImageCore

/// Reads JPEG, PNG and PGM/PPM files into `ImageBuffer`s, shown upright: the JPEG's EXIF
/// orientation is applied, so pixel coordinates are those of the image as a viewer shows it.
/// Holds its TurboJPEG handles; use one decoder per thread.
public final class ImageDecoder {
    public enum Kind: Sendable { case jpeg, png, pnm }

    private let jpeg = JPEGCodec()

    /// The decode budget: 16 MP (48 MiB as RGB), what a 512 MB board can hold beside the models
    /// and a working copy. Larger JPEGs are decoded downscaled by TurboJPEG (n/8 factors) to fit;
    /// larger PNG/PPM files are refused from their header.
    public static let defaultMaximumPixels = 16_000_000

    /// The most pixels a decoded image may have (see `defaultMaximumPixels`).
    public var maximumPixels: Int

    public init(maximumPixels: Int = ImageDecoder.defaultMaximumPixels) {
        precondition(maximumPixels > 0, "the decode budget must be positive")
        self.maximumPixels = maximumPixels
    }

    /// The container kind from the first bytes, or nil.
    public static func kind(of bytes: [UInt8]) -> Kind? {
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        if bytes.count >= 8, bytes[0] == 0x89, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 { return .png }
        if bytes.count >= 2, bytes[0] == 0x50, bytes[1] == 0x35 || bytes[1] == 0x36 { return .pnm }
        return nil
    }

    /// Decodes the file at `path` to `format` (.rgb888, .gray8, .xrgb8888 or .i420), upright.
    public func decode(path: String, as format: PixelFormat) throws(ImageFileError) -> ImageBuffer {
        try decode(bytes: try FileIO.read(path), name: path, as: format)
    }

    /// Decodes in-memory file bytes; `name` is used in errors.
    public func decode(bytes: [UInt8], name: String, as format: PixelFormat) throws(ImageFileError) -> ImageBuffer {
        switch ImageDecoder.kind(of: bytes) {
        case .jpeg:
            let stored = try jpeg.decode(bytes, name: name, as: format, maximumPixels: maximumPixels)
            return EXIF.orientation(ofJPEG: bytes).apply(to: stored)
        case .png, .pnm:
            let isPNG = ImageDecoder.kind(of: bytes) == .png
            let wantGray = format == .gray8
            var buf = isPNG ? try PNGCodec.decode(bytes, name: name, as: wantGray ? .gray8 : .rgb888, maximumPixels: maximumPixels)
                            : try PNMCodec.decode(bytes, name: name, maximumPixels: maximumPixels)
            if buf.format == .gray8 && !wantGray { buf = expandGray(buf) }
            if buf.format == .rgb888 && wantGray { buf = ImageDecoder.luma(of: buf) }
            return try convert(buf, to: format, name: name)
        case nil:
            if bytes.isEmpty { throw .corrupt(path: name, reason: "empty file") }
            throw .unsupported(path: name, reason: "not a JPEG, PNG or PGM/PPM file")
        }
    }

    private func convert(_ rgb: ImageBuffer, to format: PixelFormat, name: String) throws(ImageFileError) -> ImageBuffer {
        switch format {
        case .rgb888, .gray8: return rgb
        case .i420:
            let out = ImageBuffer(format: .i420, width: rgb.width, height: rgb.height)
            try jpeg.encodeYUV420(from: rgb.image(), into: out.image(), name: name)
            return out
        case .xrgb8888:
            let out = ImageBuffer(format: .xrgb8888, width: rgb.width, height: rgb.height)
            let s = rgb.image().luma, d = out.image().luma
            for y in 0..<rgb.height {
                let sr = s.row(y), dr = d.row(y)
                for x in 0..<rgb.width {
                    dr[4 * x] = sr[3 * x + 2]; dr[4 * x + 1] = sr[3 * x + 1]; dr[4 * x + 2] = sr[3 * x]; dr[4 * x + 3] = 255
                }
            }
            return out
        case .nv12:
            throw .unsupported(path: name, reason: "decoding to NV12")
        }
    }

    private func expandGray(_ g: ImageBuffer) -> ImageBuffer {
        let out = ImageBuffer(format: .rgb888, width: g.width, height: g.height)
        let s = g.image().luma, d = out.image().luma
        for y in 0..<g.height {
            let sr = s.row(y), dr = d.row(y)
            for x in 0..<g.width { let v = sr[x]; dr[3 * x] = v; dr[3 * x + 1] = v; dr[3 * x + 2] = v }
        }
        return out
    }

    /// BT.601 luma (JPEG weights, rounded), for PPM input asked as gray.
    static func luma(of rgb: ImageBuffer) -> ImageBuffer {
        let out = ImageBuffer(format: .gray8, width: rgb.width, height: rgb.height)
        let s = rgb.image().luma, d = out.image().luma
        for y in 0..<rgb.height {
            let sr = s.row(y), dr = d.row(y)
            for x in 0..<rgb.width {
                let v = 19595 * Int(sr[3 * x]) + 38470 * Int(sr[3 * x + 1]) + 7471 * Int(sr[3 * x + 2])
                dr[x] = UInt8((v + 32768) >> 16)
            }
        }
        return out
    }

    /// Convenience for one-off reads.
    public static func decode(path: String, as format: PixelFormat) throws(ImageFileError) -> ImageBuffer {
        try ImageDecoder().decode(path: path, as: format)
    }
}
