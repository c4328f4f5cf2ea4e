import CPNG
import ImageCore

/// PNG through libpng's simplified API (png_image_*): Debian's libpng16 is the reference PNG
/// implementation, already on every Raspberry Pi OS image, and its simplified API handles every
/// bit depth, palette and alpha variant with error returns instead of longjmp in our code.
public enum PNGCodec {
    /// Decodes PNG bytes to .rgb888 or .gray8 (16-bit samples are reduced to 8; alpha is
    /// composited over `background`).
    /// An image of more than `maximumPixels` is refused from its header, before any pixel memory
    /// is allocated (PNG has no downscaled decode).
    public static func decode(_ bytes: [UInt8], name: String, as format: PixelFormat,
                              background: (UInt8, UInt8, UInt8) = (255, 255, 255),
                              maximumPixels: Int = ImageDecoder.defaultMaximumPixels) throws(ImageFileError) -> ImageBuffer {
        precondition(format == .rgb888 || format == .gray8, "PNG decodes to rgb888 or gray8")
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let ok = bytes.withUnsafeBytes { b in png_image_begin_read_from_memory(&image, b.baseAddress, b.count) }
        if ok == 0 { throw .corrupt(path: name, reason: message(&image)) }
        let w = Int(image.width), h = Int(image.height)
        guard w > 0, h > 0 else { throw .unsupported(path: name, reason: "image size \(w)x\(h)") }
        guard w * h <= maximumPixels else {
            throw .unsupported(path: name, reason: "image size \(w)x\(h) is over the decode budget of \(maximumPixels / 1_000_000) MP")
        }
        image.format = format == .rgb888 ? UInt32(PNG_FORMAT_RGB) : UInt32(PNG_FORMAT_GRAY)
        let out = ImageBuffer(format: format, width: w, height: h)
        var bg = png_color(red: background.0, green: background.1, blue: background.2)
        let done = out.withImage { img in
            bytes.withUnsafeBytes { _ in
                png_image_finish_read(&image, &bg, img.luma.base, Int32(img.luma.stride), nil)
            }
        }
        if done == 0 { throw .corrupt(path: name, reason: message(&image)) }
        return out
    }

    /// XRGB8888 (bytes B, G, R, X) packed into RGB888 of the same size.
    public static func packRGB(_ xrgb: Image, into rgb: Image) {
        precondition(xrgb.format == .xrgb8888 && rgb.format == .rgb888 && xrgb.width == rgb.width && xrgb.height == rgb.height,
                     "packRGB takes XRGB8888 into RGB888 of the same size")
        let s = xrgb.luma, d = rgb.luma
        for y in 0..<xrgb.height {
            let sr = s.row(y), dr = d.row(y)
            for x in 0..<xrgb.width {
                dr[3 * x] = sr[4 * x + 2]; dr[3 * x + 1] = sr[4 * x + 1]; dr[3 * x + 2] = sr[4 * x]
            }
        }
    }

    /// Encodes a Gray8, RGB888 or XRGB8888 image as an 8-bit PNG.
    public static func encode(_ image: Image) throws(ImageFileError) -> [UInt8] {
        switch image.format {
        case .gray8, .rgb888:
            return try encodePacked(image)
        case .xrgb8888:
            let rgb = ImageBuffer(format: .rgb888, width: image.width, height: image.height)
            return try rgb.withImage { (packed) throws(ImageFileError) in
                packRGB(image, into: packed)
                return try encodePacked(packed)
            }
        case .i420, .nv12:
            throw .unsupported(path: "<memory>", reason: "PNG from YUV; convert to RGB first")
        }
    }

    /// Encodes a Gray8 or RGB888 image into a new array of the encoded size.
    private static func encodePacked(_ src: Image) throws(ImageFileError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: maxEncodedSize(width: src.width, height: src.height, format: src.format))
        let result: Result<Int, ImageFileError> = out.withUnsafeMutableBytes { b in
            do throws(ImageFileError) { return .success(try encode(src, into: b)) } catch { return .failure(error) }
        }
        let size = try result.get()
        out.removeLast(out.count - size)
        return out
    }

    /// An upper bound of the encoded size of a Gray8 or RGB888 image (stored deflate blocks,
    /// filter bytes, headers): a buffer this large always holds the PNG.
    public static func maxEncodedSize(width: Int, height: Int, format: PixelFormat) -> Int {
        let raw = height * (1 + width * (format == .gray8 ? 1 : 3))
        return raw + raw / 8 + 4096
    }

    /// Encodes a Gray8 or RGB888 image into `buffer` (sized by `maxEncodedSize`) in one pass of
    /// the compressor; returns the PNG's length. Allocates only libpng's own working memory.
    public static func encode(_ src: Image, into buffer: UnsafeMutableRawBufferPointer) throws(ImageFileError) -> Int {
        precondition(src.format == .gray8 || src.format == .rgb888, "PNG encodes gray8 or rgb888 rows")
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(src.width)
        png.height = UInt32(src.height)
        png.format = src.format == .gray8 ? UInt32(PNG_FORMAT_GRAY) : UInt32(PNG_FORMAT_RGB)
        let p = src.luma
        // One call with a large enough buffer: asking for the size first (a nil buffer) would
        // compress the whole image twice.
        var size = buffer.count
        if png_image_write_to_memory(&png, buffer.baseAddress, &size, 0, p.base, Int32(p.stride), nil) == 0 {
            throw .writeFailed(path: "<memory>", reason: size > buffer.count ? "buffer of \(buffer.count) bytes too small for \(size)"
                                                                              : message(&png))
        }
        return size
    }

    private static func message(_ image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "libpng error" : String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// Writes PNG files atomically (temporary file, fsync, rename).
public enum PNGWriter {
    public static func write(_ image: Image, to path: String) throws(ImageFileError) {
        let bytes: [UInt8]
        do { bytes = try PNGCodec.encode(image) } catch { throw .writeFailed(path: path, reason: "\(error)") }
        try FileIO.writeAtomically(bytes, to: path)
    }
}
