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
            try rgb.withImage { (source) throws(ImageFileError) in
                try out.withImage { (destination) throws(ImageFileError) in
                    try jpeg.encodeYUV420(from: source, into: destination, name: name)
                }
            }
            return out
        case .xrgb8888:
            let out = ImageBuffer(format: .xrgb8888, width: rgb.width, height: rgb.height)
            ImageDecoder.mapPixels(from: rgb, into: out) { s, d in d[0] = s[2]; d[1] = s[1]; d[2] = s[0]; d[3] = 255 }
            return out
        case .nv12:
            throw .unsupported(path: name, reason: "decoding to NV12")
        }
    }

    private func expandGray(_ g: ImageBuffer) -> ImageBuffer {
        let out = ImageBuffer(format: .rgb888, width: g.width, height: g.height)
        ImageDecoder.mapPixels(from: g, into: out) { s, d in d[0] = s[0]; d[1] = s[0]; d[2] = s[0] }
        return out
    }

    /// BT.601 luma (JPEG weights, rounded), for PPM input asked as gray.
    static func luma(of rgb: ImageBuffer) -> ImageBuffer {
        let out = ImageBuffer(format: .gray8, width: rgb.width, height: rgb.height)
        mapPixels(from: rgb, into: out) { s, d in
            let v = 19595 * Int(s[0]) + 38470 * Int(s[1]) + 7471 * Int(s[2])
            d[0] = UInt8((v + 32768) >> 16)
        }
        return out
    }

    /// Calls `pixel` with each source pixel's bytes and the matching destination pixel's bytes
    /// (packed single-plane formats of the same size), both buffers borrowed for the loop.
    private static func mapPixels(from source: ImageBuffer, into destination: ImageBuffer,
                                  _ pixel: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Void) {
        precondition(source.width == destination.width && source.height == destination.height, "mapPixels needs equal sizes")
        source.withImage { s in
            destination.withImage { d in
                let sb = s.luma.bytesPerPixel, db = d.luma.bytesPerPixel
                for y in 0..<s.height {
                    let sr = s.luma.row(y), dr = d.luma.row(y)
                    for x in 0..<s.width { pixel(sr + sb * x, dr + db * x) }
                }
            }
        }
    }

    /// Convenience for one-off reads.
    public static func decode(path: String, as format: PixelFormat) throws(ImageFileError) -> ImageBuffer {
        try ImageDecoder().decode(path: path, as: format)
    }
}
