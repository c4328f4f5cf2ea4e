import CTurboJPEG
import ImageCore

/// Chroma subsampling of an encoded JPEG.
public enum ChromaSubsampling: Sendable {
    case s444, s422, s420, gray

    var tj: Int32 {
        switch self {
        case .s444: return Int32(TJSAMP_444.rawValue)
        case .s422: return Int32(TJSAMP_422.rawValue)
        case .s420: return Int32(TJSAMP_420.rawValue)
        case .gray: return Int32(TJSAMP_GRAY.rawValue)
        }
    }
}

/// JPEG encoding and decoding through TurboJPEG. A codec owns its TurboJPEG handles; use one per
/// thread (handles are not thread-safe), and reuse it: creating handles allocates.
public final class JPEGCodec {
    private let compressor: tjhandle
    private let decompressor: tjhandle

    public init() {
        // tjInit* only fail when out of memory; that is a programmer-visible fatal condition.
        guard let c = tjInitCompress(), let d = tjInitDecompress() else {
            preconditionFailure("TurboJPEG could not allocate a handle")
        }
        compressor = c
        decompressor = d
    }

    deinit {
        tjDestroy(compressor)
        tjDestroy(decompressor)
    }

    // MARK: Decode

    /// Size and subsampling of a JPEG without decoding it.
    public func header(_ bytes: [UInt8], name: String) throws(ImageFileError) -> (width: Int, height: Int, subsampling: Int32) {
        var w: Int32 = 0, h: Int32 = 0, ss: Int32 = 0, cs: Int32 = 0
        let r = bytes.withUnsafeBufferPointer { b in
            tjDecompressHeader3(decompressor, b.baseAddress, UInt(b.count), &w, &h, &ss, &cs)
        }
        if r != 0 { throw .corrupt(path: name, reason: errorText(decompressor)) }
        if cs == Int32(TJCS_CMYK.rawValue) || cs == Int32(TJCS_YCCK.rawValue) {
            throw .unsupported(path: name, reason: "CMYK JPEG")
        }
        guard w > 0, h > 0 else { throw .unsupported(path: name, reason: "image size \(w)x\(h)") }
        return (Int(w), Int(h), ss)
    }

    /// The size TurboJPEG decodes a `width`×`height` JPEG to with the largest of its scaling
    /// factors (n/8, applied inside the IDCT, so the full-size image is never made) that is at most
    /// 1 and keeps the result within `maximumPixels`; nil when even the smallest does not.
    public static func scaledSize(width: Int, height: Int, maximumPixels: Int) -> (width: Int, height: Int)? {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return nil }
        var best: (width: Int, height: Int)? = nil
        for i in 0..<Int(count) {
            let f = factors[i]
            guard f.num > 0, f.denom > 0, f.num <= f.denom else { continue }
            // TJSCALED: the dimension scaled and rounded up.
            let sw = (width * Int(f.num) + Int(f.denom) - 1) / Int(f.denom)
            let sh = (height * Int(f.num) + Int(f.denom) - 1) / Int(f.denom)
            if sw * sh <= maximumPixels && sw * sh > (best.map { $0.width * $0.height } ?? 0) { best = (sw, sh) }
        }
        return best
    }

    /// Decodes `bytes` to `format` (.rgb888, .gray8, .xrgb8888 or .i420), as stored (no EXIF
    /// orientation applied; `ImageDecoder` does that). Truncated or corrupt data is an error: TurboJPEG
    /// warnings are treated as failures. A JPEG of more than `maximumPixels` is decoded downscaled
    /// (`scaledSize`); one that stays above the budget even at 1/8 is refused before any pixel
    /// memory is allocated.
    public func decode(_ bytes: [UInt8], name: String, as format: PixelFormat,
                       maximumPixels: Int = ImageDecoder.defaultMaximumPixels) throws(ImageFileError) -> ImageBuffer {
        let (fullWidth, fullHeight, ss) = try header(bytes, name: name)
        guard let size = JPEGCodec.scaledSize(width: fullWidth, height: fullHeight, maximumPixels: maximumPixels) else {
            throw .unsupported(path: name, reason: "image size \(fullWidth)x\(fullHeight) is over the decode budget of "
                               + "\(maximumPixels / 1_000_000) MP even at 1/8 scale")
        }
        let w = size.width, h = size.height
        let out = ImageBuffer(format: format, width: w, height: h)
        try out.withImage { (img) throws(ImageFileError) in
            try decode(bytes, name: name, into: img, subsampling: ss, maximumPixels: maximumPixels)
        }
        return out
    }

    /// Decodes into the pixels of `img` (already sized by `decode`): straight into RGB, gray or
    /// BGRX; into I420 planes for 4:2:0 and gray JPEGs, through RGB for other subsamplings.
    private func decode(_ bytes: [UInt8], name: String, into img: Image, subsampling ss: Int32,
                        maximumPixels: Int) throws(ImageFileError) {
        let w = img.width, h = img.height, format = img.format
        let flags = TJFLAG_STOPONWARNING | TJFLAG_ACCURATEDCT
        let r: Int32
        switch format {
        case .rgb888, .gray8, .xrgb8888:
            let pf: TJPF = format == .rgb888 ? TJPF_RGB : format == .gray8 ? TJPF_GRAY : TJPF_BGRX
            let p = img.luma
            r = bytes.withUnsafeBufferPointer { b in
                tjDecompress2(decompressor, b.baseAddress, UInt(b.count), p.row(0), Int32(w), Int32(p.stride), Int32(h),
                              Int32(pf.rawValue), flags)
            }
        case .i420:
            if ss == Int32(TJSAMP_420.rawValue) || ss == Int32(TJSAMP_GRAY.rawValue) {
                var planes: [UnsafeMutablePointer<UInt8>?] = [img.plane(0).row(0), img.plane(1).row(0), img.plane(2).row(0)]
                var strides: [Int32] = [Int32(img.plane(0).stride), Int32(img.plane(1).stride), Int32(img.plane(2).stride)]
                r = bytes.withUnsafeBufferPointer { b in
                    tjDecompressToYUVPlanes(decompressor, b.baseAddress, UInt(b.count), &planes, Int32(w), &strides, Int32(h), flags)
                }
                if r == 0 && ss == Int32(TJSAMP_GRAY.rawValue) {
                    for i in 1...2 {
                        let p = img.plane(i)
                        for y in 0..<p.height { p.row(y).update(repeating: 128, count: p.width) }
                    }
                }
            } else {
                // Other subsamplings: decode to RGB, then let TurboJPEG's colour converter make 4:2:0 planes.
                let rgb = try decode(bytes, name: name, as: .rgb888, maximumPixels: maximumPixels)
                try rgb.withImage { (source) throws(ImageFileError) in try encodeYUV420(from: source, into: img, name: name) }
                return
            }
        case .nv12:
            throw .unsupported(path: name, reason: "decoding to NV12")
        }
        if r != 0 { throw .corrupt(path: name, reason: errorText(decompressor)) }
    }

    /// RGB888 → I420 with TurboJPEG's (BT.601 full-range, JPEG) colour conversion.
    func encodeYUV420(from rgb: Image, into yuv: Image, name: String) throws(ImageFileError) {
        var planes: [UnsafeMutablePointer<UInt8>?] = [yuv.plane(0).row(0), yuv.plane(1).row(0), yuv.plane(2).row(0)]
        var strides: [Int32] = [Int32(yuv.plane(0).stride), Int32(yuv.plane(1).stride), Int32(yuv.plane(2).stride)]
        let p = rgb.luma
        let r = tjEncodeYUVPlanes(compressor, p.row(0), Int32(rgb.width), Int32(p.stride), Int32(rgb.height),
                                  Int32(TJPF_RGB.rawValue), &planes, &strides, Int32(TJSAMP_420.rawValue), 0)
        if r != 0 { throw .corrupt(path: name, reason: errorText(compressor)) }
    }

    // MARK: Encode

    /// Encodes `image` as JPEG. I420 is compressed straight from its planes (no RGB round trip,
    /// always 4:2:0); RGB888/XRGB8888 use `subsampling`; Gray8 is encoded as greyscale.
    public func encode(_ image: Image, quality: Int = 92, subsampling: ChromaSubsampling = .s420) throws(ImageFileError) -> [UInt8] {
        precondition((1...100).contains(quality), "JPEG quality must be 1...100")
        var jpeg: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        defer { if let jpeg { tjFree(jpeg) } }
        let r: Int32
        switch image.format {
        case .i420:
            var planes: [UnsafePointer<UInt8>?] = [UnsafePointer(image.plane(0).row(0)), UnsafePointer(image.plane(1).row(0)),
                                                   UnsafePointer(image.plane(2).row(0))]
            var strides: [Int32] = [Int32(image.plane(0).stride), Int32(image.plane(1).stride), Int32(image.plane(2).stride)]
            r = tjCompressFromYUVPlanes(compressor, &planes, Int32(image.width), &strides, Int32(image.height),
                                        Int32(TJSAMP_420.rawValue), &jpeg, &size, Int32(quality), TJFLAG_ACCURATEDCT)
        case .rgb888, .xrgb8888, .gray8:
            let pf: TJPF = image.format == .rgb888 ? TJPF_RGB : image.format == .gray8 ? TJPF_GRAY : TJPF_BGRX
            let ss = image.format == .gray8 ? ChromaSubsampling.gray.tj : subsampling.tj
            let p = image.luma
            r = tjCompress2(compressor, p.row(0), Int32(image.width), Int32(p.stride), Int32(image.height),
                            Int32(pf.rawValue), &jpeg, &size, ss, Int32(quality), TJFLAG_ACCURATEDCT)
        case .nv12:
            throw .unsupported(path: "<memory>", reason: "JPEG encoding from NV12; convert to I420 first")
        }
        if r != 0 { throw .writeFailed(path: "<memory>", reason: errorText(compressor)) }
        guard let jpeg else { throw .writeFailed(path: "<memory>", reason: "TurboJPEG returned no data") }
        return Array(UnsafeBufferPointer(start: jpeg, count: Int(size)))
    }

    private func errorText(_ handle: tjhandle) -> String {
        guard let s = tjGetErrorStr2(handle) else { return "unknown TurboJPEG error" }
        return String(cString: s)
    }
}
