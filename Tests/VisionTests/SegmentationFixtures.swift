import ImageCore
import ImageFiles
import TestSupport
import Vision
#if canImport(Glibc)
import Glibc
#endif

/// Shared helpers of the segmentation tests: models, fixture photos with their ground truth, IoU.
enum SegmentationFixtures {
    static func model(_ m: SegmentationModel) -> [UInt8]? {
        try? FileIO.read(Fixtures.models + "/" + m.fileName, limit: 64 << 20)
    }

    static func segmenter(_ level: SegmentationLevel) throws -> PersonSegmenter {
        try PersonSegmenter(level: level, generalModel: model(.general), landscapeModel: model(.landscape))
    }

    struct Sample {
        var set: String
        var name: String
        var image: ImageBuffer
        var truth: ImageBuffer
    }

    static var personsRoot: String { Fixtures.sharedFixtures + "/persons" }
    static var available: Bool { access(personsRoot + "/portrait_masks/images", F_OK) == 0 }

    static func names(_ dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var out: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name.hasSuffix(".jpg") { out.append(String(name.dropLast(4))) }
        }
        return out.sorted()
    }

    /// The photos of `set` ("cihp" or "portrait") with their masks resized to the photo.
    static func samples(_ set: String) throws -> [Sample] {
        let (images, masks) = set == "cihp"
            ? (personsRoot + "/cihp/images", personsRoot + "/cihp/person_masks")
            : (personsRoot + "/portrait_masks/images", personsRoot + "/portrait_masks/masks")
        let decoder = ImageDecoder()
        return try names(images).map { name in
            let img = try decoder.decode(path: images + "/" + name + ".jpg", as: .rgb888)
            var gt = try decoder.decode(path: masks + "/" + name + ".png", as: .gray8)
            if gt.width != img.width || gt.height != img.height { gt = resize(gt, img.width, img.height) }
            return Sample(set: set, name: name, image: img, truth: gt)
        }
    }

    /// Bilinear resize of a Gray8 buffer (pixel centres aligned), for ground-truth masks.
    static func resize(_ src: ImageBuffer, _ w: Int, _ h: Int) -> ImageBuffer {
        return src.withImage { srcImage in
            let out = ImageBuffer(format: .gray8, width: w, height: h)
            return out.withImage { outImage in
                let s = srcImage.luma, d = outImage.luma
                func tap(_ c: Float, _ n: Int) -> (Int, Int, Float) {
                    let p = min(max(c - 0.5, 0), Float(n - 1)); let i = Int(p); return (i, min(i + 1, n - 1), p - Float(i))
                }
                for y in 0..<h {
                    let (y0, y1, fy) = tap((Float(y) + 0.5) * Float(src.height) / Float(h), src.height)
                    for x in 0..<w {
                        let (x0, x1, fx) = tap((Float(x) + 0.5) * Float(src.width) / Float(w), src.width)
                        let a = Float(s.row(y0)[x0]), b = Float(s.row(y0)[x1]), c = Float(s.row(y1)[x0]), e = Float(s.row(y1)[x1])
                        let v = (a + (b - a) * fx) * (1 - fy) + (c + (e - c) * fx) * fy
                        d.row(y)[x] = UInt8(min(255, v + 0.5))
                    }
                }
                return out
            }
        }
    }

    /// IoU of two masks thresholded at 128 (1 when both are empty).
    static func iou(_ a: Plane, _ b: Plane) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var inter = 0, union = 0
        for y in 0..<a.height {
            let ra = a.row(y), rb = b.row(y)
            for x in 0..<a.width {
                let pa = ra[x] >= 128, pb = rb[x] >= 128
                if pa && pb { inter += 1 }
                if pa || pb { union += 1 }
            }
        }
        return union == 0 ? 1 : Double(inter) / Double(union)
    }
}
